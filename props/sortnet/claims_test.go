package sortnet

import (
	"slices"
	"testing"

	msn "routecheck/models/sortnet"
	"routecheck/props"
)

// broken wraps a build, deleting the last comparator of every network with
// n ≥ from wires (n = from is then the smallest failing size).
func broken(b SortnetBuild, from int) SortnetBuild {
	out := b
	out.Build = func(n int) (msn.Network, error) {
		nw, err := b.Build(n)
		if err != nil || n < from || nw.Size() == 0 {
			return nw, err
		}
		nw = nw.Clone()
		last := len(nw.Stages) - 1
		nw.Stages[last] = nw.Stages[last][:len(nw.Stages[last])-1]
		return nw.Compact(), nil
	}
	return out
}

// The sortnet checks can fail: a network with its last comparator removed
// is caught by the exhaustive part (small n) and by the random/structured
// part (large n), with a 0-1 witness that the broken network really leaves
// unsorted; the depth/size check catches the missing comparator too.
func TestSortnetChecksCatchBrokenNetworks(t *testing.T) {
	env := props.Env{Budget: props.Small, Seed: props.DefaultSeed}
	for _, b := range SortnetBuilds {
		for _, from := range []int{5, 40, 257} { // sizes the check visits
			bb := broken(b, from)
			_, bad := SortnetSorts(bb, env, 10, 1<<10, 2)
			if bad == nil {
				t.Fatalf("%s broken from n=%d: not caught", b.Name, from)
			}
			if bad.N != from {
				t.Errorf("%s broken from n=%d: failure reported at n=%d", b.Name, from, bad.N)
			}
			nw, _ := bb.Build(bad.N)
			out := slices.Clone(bad.Input)
			msn.Apply(nw, out)
			if len(bad.Input) != bad.N || msn.Sorted(out) {
				t.Errorf("%s broken from n=%d: witness %v (%s) is not left unsorted", b.Name, from, bad.Input, bad.How)
			}
			if sh := SortnetDepthSize(bb, 10, 64); sh == nil {
				t.Errorf("%s broken from n=%d: depth/size check passed", b.Name, from)
			}
		}
	}
}

// The mutation check finds a comparator that is redundant by construction:
// a copy of the last comparator appended as a new stage never exchanges.
func TestSortnetMutationsFindDuplicate(t *testing.T) {
	b := SortnetBuilds[0]
	dup := b
	dup.Build = func(n int) (msn.Network, error) {
		nw, err := b.Build(n)
		if err != nil || nw.Size() == 0 {
			return nw, err
		}
		nw = nw.Clone()
		st := nw.Stages[len(nw.Stages)-1]
		nw.Stages = append(nw.Stages, msn.Stage{st[len(st)-1]})
		return nw, nil
	}
	red, und, _, err := SortnetMutations(dup, props.Env{Seed: props.DefaultSeed}, []int{8}, 24)
	if err != nil || len(und) > 0 {
		t.Fatalf("err %v, undecided %v", err, und)
	}
	// Either copy of the duplicated comparator may go, and nothing else.
	if len(red) != 2 || red[0].Comparator != red[1].Comparator {
		t.Fatalf("redundant deletions %v, want the two copies of one comparator", red)
	}
}

// The hill-climb check can fail: a network missing its last comparator
// from n = 1000 on is caught at n = 1000 with a 0-1 witness the broken
// network really leaves unsorted.
func TestSortnetClimbCheckCatchesBrokenNetwork(t *testing.T) {
	for _, b := range SortnetBuilds {
		bb := broken(b, 1000)
		_, bad := SortnetClimbCheck(bb, props.Env{Seed: props.DefaultSeed}, sortnetClimbSizes(props.Small))
		if bad == nil {
			t.Fatalf("%s broken from n = 1000: not caught", b.Name)
		}
		nw, _ := bb.Build(bad.N)
		out := slices.Clone(bad.Input)
		msn.Apply(nw, out)
		if bad.N != 1000 || len(out) != bad.N || msn.Sorted(out) {
			t.Errorf("%s: failure at n = %d, witness (%s) not left unsorted", b.Name, bad.N, bad.How)
		}
	}
}
