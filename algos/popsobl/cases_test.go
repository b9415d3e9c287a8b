package popsobl

import (
	"slices"
	"strings"
	"testing"

	"routecheck/models/perm"
	"routecheck/models/pops"
)

// TwoHop's paths worked out by hand from its definition on POPS(2, 3)
// (groups {0,1}, {2,3}, {4,5}): m = h·d + (b mod d), h = (group(a) +
// group(b) + 1) mod g; direct when m is a or b.
func TestTwoHopPaths(t *testing.T) {
	fam := TwoHop(pops.Shape{D: 2, G: 3})
	for _, c := range []struct {
		a, b int32
		want []int32
	}{
		{0, 5, []int32{1, 5}}, // h = 0, m = 1
		{2, 3, []int32{1, 3}}, // h = 0, m = 1
		{4, 0, []int32{0}},    // h = 0, m = 0 = b
		{1, 4, []int32{0, 4}}, // h = 0, m = 0
		{0, 2, []int32{4, 2}}, // h = 2, m = 4
		{5, 3, []int32{3}},    // h = 1, m = 3 = b
		{3, 1, []int32{5, 1}}, // h = 2, m = 5
		{2, 5, []int32{3, 5}}, // h = 1, m = 3
	} {
		if got := fam(c.a, c.b); !slices.Equal(got, c.want) {
			t.Errorf("TwoHop %d → %d = %v, want %v", c.a, c.b, got, c.want)
		}
	}
	if got := Direct(pops.Shape{D: 2, G: 3})(0, 5); !slices.Equal(got, []int32{5}) {
		t.Errorf("Direct 0 → 5 = %v", got)
	}
}

// Small runs traced by hand on the slot model (a delivered packet stays in
// its receiver's buffer, a sent one leaves its sender's):
//   - POPS(2, 1), swap: both packets need the one coupler c(0, 0), so two
//     slots; after slot 1 processor 1 holds its own packet and packet 0.
//   - POPS(1, 2), swap: couplers c(1, 0) and c(0, 1), one slot.
//   - POPS(1, 3), two-hop, 0 ↔ 1: both go through processor 2 (h = 2);
//     slot 1 moves packet 0 to 2 (2 listens once), slot 2 moves packet 0 on
//     to 1 and packet 1 to 2, slot 3 moves packet 1 to 0. Processor 2 holds
//     its own packet and one copy after slots 1 and 2.
//   - fixed points and empty processors (perm.None) need no slot.
func TestExecuteTraced(t *testing.T) {
	none := perm.None
	for _, c := range []struct {
		name                       string
		sh                         pops.Shape
		dst                        []int32
		twoHop                     bool
		maxSlots                   int
		slots, delivered, maxQueue int
	}{
		{"POPS(2,1) swap", pops.Shape{D: 2, G: 1}, []int32{1, 0}, false, 100, 2, 2, 2},
		{"POPS(2,1) swap cut at 1", pops.Shape{D: 2, G: 1}, []int32{1, 0}, false, 1, 1, 1, 2},
		{"POPS(1,2) swap", pops.Shape{D: 1, G: 2}, []int32{1, 0}, false, 100, 1, 2, 1},
		{"POPS(1,3) two-hop", pops.Shape{D: 1, G: 3}, []int32{1, 0, 2}, true, 100, 3, 3, 2},
		{"POPS(1,2) one packet", pops.Shape{D: 1, G: 2}, []int32{none, 0}, false, 100, 1, 1, 1},
		{"POPS(2,2) identity", pops.Shape{D: 2, G: 2}, []int32{0, 1, 2, 3}, false, 100, 0, 4, 0},
		{"POPS(1,2) fixed point and empty", pops.Shape{D: 1, G: 2}, []int32{0, none}, false, 100, 0, 1, 0},
	} {
		fam := Direct(c.sh)
		if c.twoHop {
			fam = TwoHop(c.sh)
		}
		r, err := Execute(c.sh, c.dst, fam, c.maxSlots)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if r.Slots != c.slots || r.Delivered != c.delivered || r.MaxQueue != c.maxQueue || r.Conflicts != 0 || len(r.Lost) != 0 {
			t.Errorf("%s: %+v, want %d slots, %d delivered, max queue %d", c.name, r, c.slots, c.delivered, c.maxQueue)
		}
	}
}

// Every malformed path is refused before any slot runs.
func TestExecuteMalformedPaths(t *testing.T) {
	sh := pops.Shape{D: 2, G: 2}
	dst := []int32{1, 0, 3, 2}
	for _, c := range []struct {
		name string
		fam  Family
		want string
	}{
		{"empty", func(a, b int32) []int32 { return nil }, "must end at the destination"},
		{"stays put", func(a, b int32) []int32 { return []int32{a, b} }, "bad step"},
		{"negative", func(a, b int32) []int32 { return []int32{-1, b} }, "bad step"},
		{"beyond n", func(a, b int32) []int32 { return []int32{4, b} }, "bad step"},
		{"repeats", func(a, b int32) []int32 { return []int32{(a + 2) % 4, (a + 2) % 4, b} }, "bad step"},
	} {
		if _, err := Execute(sh, dst, c.fam, 10); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error containing %q", c.name, err, c.want)
		}
	}
	// A path through every other processor is fine: n − 1 is in range.
	last := func(a, b int32) []int32 {
		if a == 3 || b == 3 {
			return []int32{b}
		}
		return []int32{3, b}
	}
	if _, err := Execute(sh, dst, last, 10); err != nil {
		t.Errorf("a path through processor 3 = n − 1: %v", err)
	}
}
