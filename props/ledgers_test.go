package props_test

import (
	"slices"
	"testing"

	"routecheck/props/internal/claimtab"
)

// TestLedgersAllUsed: each network's ledger.md is read, and every record in
// it is the words of a registered claim (a record whose claim was renamed or
// removed would otherwise sit there unread).
func TestLedgersAllUsed(t *testing.T) {
	var names []string
	for _, l := range claimtab.Ledgers() {
		names = append(names, l.Name())
		if u := l.Unused(); len(u) > 0 {
			t.Errorf("%s: %d record(s) no claim takes: %v", l.Name(), len(u), u)
		}
	}
	slices.Sort(names)
	want := []string{"props/bfly/ledger.md", "props/mbfly/ledger.md", "props/mesh/ledger.md", "props/pops/ledger.md", "props/sortnet/ledger.md", "props/sot/ledger.md"}
	if !slices.Equal(names, want) {
		t.Errorf("ledgers read: %v, want %v", names, want)
	}
}
