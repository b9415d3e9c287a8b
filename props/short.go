package props

import (
	"fmt"
	"strings"
)

// slowInShort reports whether a claim is too slow for `go test -short`: the
// table cells above n = 2^16.
func slowInShort(id string) bool {
	if !strings.HasPrefix(id, "pops/table-") {
		return false
	}
	var n int
	if i := strings.Index(id, "/n="); i >= 0 {
		fmt.Sscanf(id[i+3:], "%d", &n)
	}
	return n > 1<<16
}
