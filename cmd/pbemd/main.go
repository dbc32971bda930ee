// Command pbemd is the play-by-email game master daemon.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "pbemd: not wired yet")
	os.Exit(2)
}
