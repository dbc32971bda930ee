package orders

// ParseWork and Garbage are parseWork and garbage (work_test.go) for the
// external tests: only a test of package orders_test may import a game (a
// game's package imports orders), so only it can read the shipped maps'
// names.
var (
	ParseWork = parseWork
	Garbage   = garbage
)
