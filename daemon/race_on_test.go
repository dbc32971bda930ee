//go:build race

package daemon_test

// raceDetector is set when the tests run under the race detector, which
// makes drawing hundreds of pictures too slow for a test.
const raceDetector = true
