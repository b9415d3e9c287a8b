package sortnet

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// ApplyMany's passes stop where every input is in order and still give
// the plain engine's outputs, on networks that sort early and keep going
// (TestPackedStopsWhenSorted's sorter followed by random stages, and the
// one that moves the last value home a comparator a stage), with a look
// after every comparator and at the default spacing. The stops must
// happen; and the comparison must see stop rules that ignore one lane
// (lane 1, the last lane) or the last wire.
func TestApplyManyStopsWhenSorted(t *testing.T) {
	if !lanesKernel {
		t.Skip("no AVX2 here: ApplyMany runs Apply, tested by TestPackedStopsWhenSorted")
	}
	r := rand.New(rand.NewPCG(14, 3))
	const n = 40
	sorter := Network{N: n, Stages: transposition(0, n)}
	sorter.Stages = append(sorter.Stages, randNet(r, n, 30).Stages...)
	lastHome := Network{N: n, Stages: transposition(0, n-1)}
	for i := n - 2; i >= 0; i-- {
		lastHome.Stages = append(lastHome.Stages, Stage{{int32(i), int32(i + 1)}})
	}
	perms := func(k int) [][]int32 {
		xss := make([][]int32, k)
		for l := range xss {
			xss[l] = make([]int32, n)
			for i, x := range r.Perm(n) {
				xss[l][i] = int32(x)
			}
		}
		return xss
	}
	// run applies p to copies of xss with the stop rule sorted and reports
	// whether every output is the plain engine's.
	run := func(nw Network, p *Packed, xss [][]int32, sorted func(*lanes, int) bool) bool {
		got := make([][]int32, len(xss))
		for l := range xss {
			got[l] = slices.Clone(xss[l])
		}
		p.applyGroup(got, 0, p.Size(), sorted)
		for l := range xss {
			want := slices.Clone(xss[l])
			Apply(nw, want)
			if !slices.Equal(got[l], want) {
				return false
			}
		}
		return true
	}
	oldMin, oldPer := sortedCheckMin, sortedCheckPerWire
	defer func() { sortedCheckMin, sortedCheckPerWire = oldMin, oldPer }()
	for _, sp := range [][2]int{{1, 0}, {oldMin, oldPer}} {
		sortedCheckMin, sortedCheckPerWire = sp[0], sp[1]
		for name, nw := range map[string]Network{"sorter + random stages": sorter, "last value moved home": lastHome} {
			p, err := Pack(nw, false)
			if err != nil {
				t.Fatal(err)
			}
			before := sortedStops.Load()
			for k := 2; k <= ApplyManyLanes; k++ {
				if !run(nw, p, perms(k), lanesSorted) {
					t.Fatalf("%s, a look every %v, %d inputs: differs from the plain engine", name, sp, k)
				}
			}
			if stops := sortedStops.Load() - before; sp[1] == 0 && stops < ApplyManyLanes-1 {
				t.Errorf("%s, a look every comparator: %d passes stopped early, want %d", name, stops, ApplyManyLanes-1)
			}
		}
	}
	// Planted stop rules: with a look after every comparator, one blind to
	// a lane stops as soon as the other lanes are in order (the first
	// input is sorted from the start); one blind to the last wire stops
	// lastHome's runs before the last value is home.
	sortedCheckMin, sortedCheckPerWire = 1, 0
	blindLane := func(skip int) func(*lanes, int) bool {
		return func(v *lanes, n int) bool {
			for i := 1; i < n; i++ {
				for l := range ApplyManyLanes {
					if l != skip && v[i][l] < v[i-1][l] {
						return false
					}
				}
			}
			return true
		}
	}
	identity := make([]int32, n)
	for i := range identity {
		identity[i] = int32(i)
	}
	for _, c := range []struct {
		name   string
		nw     Network
		sorted func(*lanes, int) bool
		lanes  int
	}{
		{"lane 1", sorter, blindLane(1), 2},
		{"the last lane", sorter, blindLane(ApplyManyLanes - 1), ApplyManyLanes},
		{"the last wire", lastHome, func(v *lanes, n int) bool { return lanesSorted(v, n-1) }, ApplyManyLanes},
	} {
		p, err := Pack(c.nw, false)
		if err != nil {
			t.Fatal(err)
		}
		seen := false
		for range 20 {
			xss := perms(c.lanes)
			copy(xss[0], identity)
			if !run(c.nw, p, xss, c.sorted) {
				seen = true
			}
		}
		if !seen {
			t.Errorf("a stop rule blind to %s gave the plain outputs on 20 groups", c.name)
		}
	}
}
