package orders

// Name is one thing a player may name in an order: a province (with its
// abbreviation, full name and aliases) or a power. The game builds these from
// its map or scenario file; the parser knows nothing else about the game.
type Name struct {
	ID      string   // canonical id, lower case ("stp", "gop", "england")
	Full    string   // full name as printed ("St Petersburg", "Gulf of Pelusium")
	Abbrev  string   // map abbreviation as printed ("StP", "GoP"); "" means ID
	Aliases []string // other accepted spellings ("st. petersburg", "Carthago")
	Coasts  []string // coast ids of a multi-coast province ("nc", "sc")
}

// Lexicon is what a Diplomacy-like game hands the parser: the names of its
// provinces and powers.
type Lexicon struct {
	Provinces []Name
	Powers    []Name
}

// Position answers, for the parser, what stands where. It lets the parser
// read "Army Nth" as the fleet in the North Sea (with a warning) and fill in
// an omitted unit type. A nil Position means the parser knows no position.
type Position interface {
	// UnitAt returns the type, owner (power id) and coast of the unit in
	// province, and whether there is one.
	UnitAt(province string) (unit UnitType, power string, coast string, ok bool)
}
