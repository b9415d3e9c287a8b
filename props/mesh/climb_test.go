package mesh

import (
	"math/rand/v2"
	"reflect"
	"testing"

	amesh "routecheck/algos/mesh"
	"routecheck/internal/seeds"
)

// climbPhase2QueuePlain is climbPhase2Queue as first written: every swap
// scored by replanning the whole mesh (phase2Loads). The reference of
// TestClimbPhase2QueueEqualsPlain; the climb itself (climbSwaps) is
// shared, what differs is how a swap is scored.
func climbPhase2QueuePlain(n, k int, r *rand.Rand, iters, stop int, alloc allocFn) (best [][]amesh.Dest, queue, tried int, err error) {
	cur := GenKK(KKUniform, n, k, r)
	score := func(int, int) (int, int64, error) {
		l, err := phase2Loads(n, cur, true, alloc)
		if err != nil {
			return 0, 0, err
		}
		top, sq := loadScore(l)
		return top, sq, nil
	}
	top, sq, err := score(0, 0)
	if err != nil {
		return nil, 0, 0, err
	}
	return climbSwaps(cur, k, r, iters, stop, top, sq, score, func(int, int) {})
}

// climbPhase2Queue, replanning only the PUs a swap touches, makes the same
// climb as replanning the whole mesh: the same best distribution, queue and
// number of swaps, for the sizes and allocators the claims run (ALLOCATE
// and the two planted faults), stopping at the claims' bounds and below
// them; the random stream is left in the same place. The comparison
// catches a planted difference (the climb started from another seed).
func TestClimbPhase2QueueEqualsPlain(t *testing.T) {
	type result struct {
		best         [][]amesh.Dest
		queue, tried int
		err          error
		next         uint64
	}
	run := func(climb func(int, int, *rand.Rand, int, int, allocFn) ([][]amesh.Dest, int, int, error), n, k int, seed uint64, iters, stop int, alloc allocFn) result {
		r := seeds.Rand(seed)
		b, q, tr, err := climb(n, k, r, iters, stop, alloc)
		return result{b, q, tr, err, r.Uint64()}
	}
	iters, sizes := 600, [][2]int{{2, 8}, {4, 16}, {4, 32}, {8, 16}}
	if testing.Short() {
		iters, sizes = 150, sizes[:3]
	}
	for _, a := range []struct {
		name  string
		alloc allocFn
	}{{"ALLOCATE", nil}, {"skipped", skipAllocate}, {"off by one", offByOneAllocate}} {
		for i, nk := range sizes {
			n, k := nk[0], nk[1]
			for _, stop := range []int{Thm1QueueRepaired(n, k), k + nlogn2(n), k} {
				seed := seeds.Derive(5, uint64(i), uint64(stop))
				want := run(climbPhase2QueuePlain, n, k, seed, iters, stop, a.alloc)
				got := run(climbPhase2Queue, n, k, seed, iters, stop, a.alloc)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s n = %d k = %d stop %d: incremental climb queue %d after %d swaps (%v), plain %d after %d (%v)", a.name, n, k, stop, got.queue, got.tried, got.err, want.queue, want.tried, want.err)
				}
			}
		}
	}
	if reflect.DeepEqual(run(climbPhase2Queue, 4, 16, 1, 200, 1<<30, nil), run(climbPhase2QueuePlain, 4, 16, 2, 200, 1<<30, nil)) {
		t.Error("planted difference (another seed) not caught")
	}
}
