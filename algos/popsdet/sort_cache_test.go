package popsdet

import (
	"fmt"
	"reflect"
	"sync"
	"testing"

	"routecheck/models/perm"
	"routecheck/models/pops"
	"routecheck/models/sortnet"

	"pgregory.net/rapid"
)

// plainRoute is SortRouter.Route without the per-stage cache: every stage is
// simulated on the slot model by Simulate, for every permutation, as Route
// did before the cache. It is the oracle of the differential tests below.
func plainRoute(r *SortRouter, dst []int32) (SortResult, error) {
	n := r.sh.N()
	if len(dst) != n {
		return SortResult{}, fmt.Errorf("len(dst) = %d: must equal n = d·g = %d", len(dst), n)
	}
	if err := perm.Validate(dst, true); err != nil {
		return SortResult{}, err
	}
	keys := append([]int32(nil), dst...)
	var res SortResult
	for k, sp := range r.stages {
		next, rr, err := Simulate(sp, keys)
		if err != nil {
			return res, fmt.Errorf("stage %d: %w", k, err)
		}
		keys = next
		res.Stages++
		res.Slots += rr.Slots
		res.Conflicts += rr.Conflicts
		res.Lost += rr.Lost
		res.Duplicated += rr.Duplicated
	}
	src := perm.Inverse(dst)
	res.Holder = make([]int32, n)
	for j, key := range keys {
		res.Holder[j] = src[key]
		if key == int32(j) {
			res.Delivered++
		}
	}
	return res, nil
}

// sameRoute returns "" when the cached and the plain route agree on the
// result and on the error text, else what differs.
func sameRoute(r *SortRouter, dst []int32) string {
	got, gerr := r.Route(dst)
	want, werr := plainRoute(r, dst)
	if fmt.Sprint(gerr) != fmt.Sprint(werr) {
		return fmt.Sprintf("π=%v: error %v, plain path %v", dst, gerr, werr)
	}
	if !reflect.DeepEqual(got, want) {
		return fmt.Sprintf("π=%v: %+v, plain path %+v", dst, got, want)
	}
	return ""
}

// genNetwork draws a network of random stages (sorting or not) on n wires.
func genNetwork(t *rapid.T, n int) sortnet.Network {
	nw := sortnet.Network{N: n}
	for range rapid.IntRange(0, 6).Draw(t, "stages") {
		nw.Stages = append(nw.Stages, genStage(t, n))
	}
	return nw
}

// The cached Route equals the plain path on random shapes, random networks
// (most do not sort) and several permutations per router (so that later
// routes read the cache), also when a stage plan was tampered with before
// the first route (a relay moved: model violations and conflicts, which
// both paths must report alike).
func TestSortRouterCacheMatchesPlainPath(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := rapid.IntRange(1, 6).Draw(t, "d")
		g := rapid.IntRange(1, 6).Draw(t, "g")
		sh := pops.Shape{D: d, G: g}
		n := sh.N()
		r, err := NewSortRouter(sh, genNetwork(t, n))
		if err != nil {
			t.Fatal(err)
		}
		if len(r.stages) > 0 && d > 1 && rapid.Bool().Draw(t, "tamper") {
			k := rapid.IntRange(0, len(r.stages)-1).Draw(t, "stage")
			p := rapid.IntRange(0, n-1).Draw(t, "packet")
			r.stages[k].Relay[p] = int32(rapid.IntRange(0, n-1).Draw(t, "relay"))
		}
		for range rapid.IntRange(1, 4).Draw(t, "routes") {
			if why := sameRoute(r, genPerm(t, n)); why != "" {
				t.Fatalf("%v: %s", sh, why)
			}
		}
	})
}

// Claims route in parallel: many goroutines routing on one fresh router see
// what the plain path gives (run with -race to check the cache's locking).
func TestSortRouterCacheConcurrent(t *testing.T) {
	sh := pops.Shape{D: 3, G: 2}
	n := sh.N()
	r, err := NewSortRouter(sh, OddEvenTransposition(n))
	if err != nil {
		t.Fatal(err)
	}
	var perms [][]int32
	perm.Each(n, func(p []int32) bool {
		perms = append(perms, append([]int32(nil), p...))
		return true
	})
	var wg sync.WaitGroup
	errs := make(chan string, len(perms))
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(perms); i += 8 {
				if why := sameRoute(r, perms[i]); why != "" {
					errs <- why
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for why := range errs {
		t.Fatal(why)
	}
}

// Planted difference: a plan changed after the cache was filled (a stale
// key) makes the plain path see the change — a packet that never moves —
// while the cache does not, and sameRoute reports it. This is why
// the stage plans of a router are never modified after NewSortRouter.
func TestSortRouterCacheStaleIsCaught(t *testing.T) {
	sh := pops.Shape{D: 2, G: 2}
	r, err := NewSortRouter(sh, OddEvenTransposition(sh.N()))
	if err != nil {
		t.Fatal(err)
	}
	dst := []int32{3, 2, 1, 0}
	if why := sameRoute(r, dst); why != "" {
		t.Fatalf("before tampering: %s", why)
	}
	// Packet 0 of stage 0 (comparator [0:1]) is planned for a round that
	// never comes: the plain path now finds processor 1 without its
	// partner's packet, the cache still has the untampered run.
	r.stages[0].Round[0] = 99
	if why := sameRoute(r, dst); why == "" {
		t.Fatal("a stage plan tampered with after caching: sameRoute saw no difference")
	} else {
		t.Log("caught:", why)
	}
}
