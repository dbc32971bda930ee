package daemon

import (
	"fmt"
	"strings"
)

// Bounds on the work one mail can cause and on the size of its reply.
const (
	// maxReadLines is how many lines of a mail the daemon reads (blank,
	// quoted and signature lines not counted: orders.ReadLines). A mail
	// with more is refused whole, before it is parsed: reading only the
	// first lines could carry out half of what the player meant. 500 is
	// far more than a turn of any of the games needs (a Diplomacy power
	// has at most 18 units; a Supremacy turn a few dozen orders).
	maxReadLines = 500
	// maxProblems is how many lines with problems one reply lists; the
	// rest are counted. With maxReadLines it keeps every reply to a few
	// tens of kilobytes.
	maxProblems = 100
	// maxAnswers is how many questions (a game's ASK, HAND …) one reply
	// answers.
	maxAnswers = 20
)

// listProblems joins described problem lines for a reply, at most
// maxProblems of them.
func listProblems(lines []string) string {
	if len(lines) <= maxProblems {
		return strings.Join(lines, "\n")
	}
	return strings.Join(lines[:maxProblems], "\n") +
		fmt.Sprintf("\n  … and %d more lines with problems, not shown. Please check your orders and send them again.", len(lines)-maxProblems)
}
