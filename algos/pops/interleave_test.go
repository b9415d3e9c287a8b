package pops

import (
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"routecheck/models/pops"
)

// The interleavings of shuffleSlot1's two goroutines that the tests force
// with its hooks (shuffleSwaps … shuffleEndGame).
const (
	// forceFront: before each chunk's swaps the other goroutine takes and
	// resolves every group the front published so far allows, while the
	// swapping goroutine waits: a group taken before its last swap is
	// read before it is final.
	forceFront = iota
	// forceRoom: the other goroutine takes no group until the swaps end,
	// then the last lane's, and waits until the end-game stops: the
	// end-game takes groups into the last lane's regions until room
	// stops it.
	forceRoom
	// forceOwner: as forceFront during the swaps, until the other
	// goroutine takes the last lane's lowest groups; it holds them, taken
	// but not yet resolved, until the end-game stops: the end-game must
	// not take any group then (fin ≤ last.a0), or two goroutines fill the
	// last lane's regions at once.
	forceOwner
)

// forced is one run of ShuffleRunPCG with its goroutines held to one
// interleaving (mode) by the hooks, and what the hooks saw. The hooks
// report what is wrong with t.Errorf (they run on the run's goroutines).
type forced struct {
	t         *testing.T
	mode      int
	e         *Engine
	got, want []int32 // the permutation being shuffled; the final one
	d         int     // group size

	mu    sync.Mutex
	cond  *sync.Cond
	idle  int // the front at which the other goroutine last found no group to take
	phase int // 0 swapping, 1 swaps done; forceRoom: 2 the other goroutine held, 3 released
	// lastTaken: the other goroutine has taken the last lane's lowest
	// groups.
	lastTaken bool
	drawn     bool // at its last look the other goroutine had drawn all its chunks
	// forceOwner: the other goroutine holds the last lane's lowest
	// groups, heldGroups of them.
	holding    bool
	heldGroups int
	early      int   // groups the other goroutine took during the swaps
	taken      int   // groups the end-game took
	stops      []int // forceRoom: slack (see slack) where the end-game stopped
	held       bool  // forceRoom: phase 2 was reached; forceOwner: holding was
	// forceFront: fronts one position above a group's first processor
	// (swapping goroutine only).
	aligned int
}

// lastA0 is the last lane's first source group (set by layout before
// shuffleSlot1 starts).
func (f *forced) lastA0() int { return f.e.lanes[len(f.e.lanes)-1].a0 }

// swaps is shuffleSwaps: with forceFront and forceOwner, wait until the
// other goroutine has found nothing more to take at this front (or, with
// forceOwner, holds the last lane's lowest groups).
func (f *forced) swaps(front int) {
	if front%f.d == 1 {
		f.aligned++
	}
	if f.mode == forceRoom {
		return
	}
	f.mu.Lock()
	// Not once a hook has failed the test: a wrong front can leave the
	// other goroutine with nothing left to look at.
	for f.idle != front && !f.holding && !f.t.Failed() {
		f.cond.Wait()
	}
	f.mu.Unlock()
}

// look is shuffleLook: with forceRoom, the other goroutine takes no group
// until the swaps end (it has drawn all its chunks, else holding it would
// hold the swaps up), and once it has resolved the last lane's groups it
// waits until the end-game stops.
func (f *forced) look(drawn bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.drawn = drawn
	if f.mode != forceRoom {
		return
	}
	if f.phase == 0 {
		if !drawn {
			f.t.Errorf("the other goroutine looks for groups with chunks still to draw: it cannot be held")
			return
		}
		for f.phase == 0 {
			f.cond.Wait()
		}
	}
	if f.phase == 1 && f.lastTaken {
		f.phase, f.held = 2, true
		f.cond.Broadcast()
		for f.phase == 2 {
			f.cond.Wait()
		}
	}
}

// took is shuffleTook: the groups taken must be final already (their
// processors' destinations those of the finished shuffle); with
// forceOwner, having taken the last lane's lowest groups the other
// goroutine holds them, unresolved, until the end-game stops.
func (f *forced) took(front, a, t int) {
	if a < t && !slices.Equal(f.got[a*f.d:t*f.d], f.want[a*f.d:t*f.d]) {
		f.t.Errorf("groups %d…%d taken at front %d before their last swap", a, t-1, front)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	defer f.cond.Broadcast()
	if a == t {
		f.idle = front
		return
	}
	if f.phase == 0 {
		f.early += t - a
	}
	if a != f.lastA0() {
		return
	}
	f.lastTaken = true
	if f.mode == forceOwner {
		if !f.drawn {
			f.t.Errorf("the other goroutine takes the last lane's groups with chunks still to draw: it cannot be held")
			f.held = true // for swapped: not to wait
			return
		}
		f.holding, f.held, f.heldGroups = true, true, t-a
		f.cond.Broadcast()
		for f.holding {
			f.cond.Wait()
		}
	}
}

// swapped is shuffleSwapped: with forceRoom, let the other goroutine take
// the last lane's groups and wait until it is held; with forceOwner, wait
// until it holds the last lane's lowest groups.
func (f *forced) swapped() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.phase = 1
	f.cond.Broadcast()
	for f.mode == forceRoom && f.phase == 1 || f.mode == forceOwner && !f.held {
		f.cond.Wait()
	}
}

// endGame is shuffleEndGame: a batch taken must fit in the last lane's
// regions in the worst case; with forceOwner no batch may be taken while
// the other goroutine holds the last lane's groups; the end-game's stop
// releases the other goroutine.
func (f *forced) endGame(a, b int, ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if ok {
		f.taken += b - a
		if s, q := f.slack(a, b); s < 0 {
			f.t.Errorf("the end-game takes groups %d…%d into the last lane's regions: part %d's lacks %d records for the worst case", a, b-1, q, -s)
		}
		if f.holding {
			f.t.Errorf("the end-game takes groups %d…%d into the last lane's regions while the other goroutine has taken the last lane's groups %d…%d and not resolved them", a, b-1, f.lastA0(), f.lastA0()+f.heldGroups-1)
		}
		return
	}
	if f.phase == 2 {
		if a < b {
			s, _ := f.slack(a, b)
			f.stops = append(f.stops, s)
		}
		f.phase = 3
	}
	f.holding = false
	f.cond.Broadcast()
}

// slack is the least room, over the slot-2 parts, left in the last lane's
// region after groups a…b−1 put their worst case into it: the region ends
// where the next one starts (layout's placement, not room's formula), and
// a group puts at most one record per intermediate group of the part
// (and at most d). Negative: some part's region would overflow. Also
// which part.
func (f *forced) slack(a, b int) (slack, part int) {
	e := f.e
	last := &e.lanes[len(e.lanes)-1]
	size := make([]int, len(last.fill2))
	for _, q := range e.of2 {
		size[q]++
	}
	slack = len(e.recs)
	for q, fill := range last.fill2 {
		end := len(e.recs)
		if q+1 < len(size) {
			end = int(e.lanes[0].start2[q+1])
		}
		if s := end - int(fill) - (b-a)*min(size[q], f.d); s < slack {
			slack, part = s, q
		}
	}
	return slack, part
}

// runForced runs ShuffleRunPCG(sh, …, o) with w lanes on the stream of seed
// under the interleaving mode, checks that it leaves ShuffleInto's
// permutation, returns the Result of ShuffleInto and then RunPCG with one
// lane, field by field, and leaves the stream where they leave it, and
// returns what the hooks saw.
func runForced(t *testing.T, mode int, sh pops.Shape, o Options, w int, seed uint64) *forced {
	t.Helper()
	n := sh.N()
	f := &forced{t: t, mode: mode, e: &Engine{Workers: w}, got: make([]int32, n), want: make([]int32, n), d: sh.D, idle: -1}
	f.cond = sync.NewCond(&f.mu)
	ref := rand.NewPCG(seed, uint64(n))
	ShuffleInto(f.want, ref)
	wr, err := new(Engine).RunPCG(sh, f.want, ref, o)
	if err != nil {
		t.Fatal(err)
	}
	shuffleSwaps, shuffleSwapped, shuffleEndGame, shuffleLook, shuffleTook = f.swaps, f.swapped, f.endGame, f.look, f.took
	defer func() {
		shuffleSwaps, shuffleSwapped, shuffleEndGame, shuffleLook, shuffleTook = nil, nil, nil, nil, nil
	}()
	src := rand.NewPCG(seed, uint64(n))
	gr, err := f.e.ShuffleRunPCG(sh, f.got, src, o)
	if err != nil {
		t.Fatal(err)
	}
	d := diffResults(gr, wr)
	switch {
	case !slices.Equal(f.got, f.want):
		d = "the permutation"
	case src.Uint64() != ref.Uint64():
		d = "where the stream is left"
	}
	if d != "" {
		t.Errorf("%v %+v, %d lanes, seed %d: ShuffleRunPCG and ShuffleInto + RunPCG differ in %s", sh, o, w, seed, d)
	}
	return f
}

// TestShuffleSlot1Interleavings forces the interleavings of shuffleSlot1's
// two goroutines that its correctness rests on, deterministically (the
// hooks hold one goroutine with channels until the other has done its
// part), and checks each run against ShuffleInto + RunPCG (permutation,
// Result, stream) and, in the hooks, what the run promises at that point.
// Each subtest also checks that its interleaving was reached.
//
//   - front: before each chunk's swaps the other goroutine takes every
//     group the front allows; each must be final already. Chunks of d − 1
//     swaps put the k-th chunk's lowest swap at a position ≡ k − 1 (mod d),
//     so the front, published one position too low, would expose a group
//     one swap early.
//   - room: the end-game takes groups into the last lane's regions until
//     room stops it; each batch taken must fit in the worst case (one
//     record per intermediate group of a part), where the regions end by
//     layout's placement. The seeds run until some stop is one record
//     short, where a room one record less conservative would take a batch
//     that may not fit.
//   - owner: as front during the swaps, until the other goroutine takes
//     the last lane's lowest groups; it holds them, taken and not
//     resolved, until the end-game stops, which must take no group
//     meanwhile. With the chunks set so that it holds that one group
//     alone, fin is last.a0 + 1 then.
//
// A mutant that publishes a front without the chunk's token (the store
// moved before the swaps) leaves the other goroutine asleep while front
// and owner wait for it: the test then hangs until go test's -timeout.
func TestShuffleSlot1Interleavings(t *testing.T) {
	defer func(c, b int) { shuffleChunk, partBytes = c, b }(shuffleChunk, partBytes)
	t.Run("front", func(t *testing.T) {
		for _, sh := range []pops.Shape{{D: 32, G: 32}, {D: 64, G: 64}, {D: 128, G: 128}} {
			shuffleChunk = sh.D - 1
			for _, w := range []int{2, 3} {
				for seed := range uint64(2) {
					if f := runForced(t, forceFront, sh, Options{}, w, seed); f.early == 0 || f.aligned == 0 {
						t.Errorf("%v, %d lanes, seed %d: %d groups taken during the swaps, %d fronts one above a group's start", sh, w, seed, f.early, f.aligned)
					}
				}
			}
		}
	})
	// room and owner: d = g = 128 (4 chunks: the other goroutine draws
	// its two before it first looks, so it can be held), 2 and 3 lanes,
	// R = 128, 16 and 1 intermediate groups a part.
	sh := pops.Shape{D: 128, G: 128}
	parts := []int{256 << 10, 512, 8}
	t.Run("room", func(t *testing.T) {
		shuffleChunk = sh.N() / 4
		took, short := 0, 0
		for _, b := range parts {
			partBytes = b
			for _, w := range []int{2, 3} {
				// 4 seeds; with R = 1 and 2 lanes on until some stop is one
				// record short (a few seeds in ten are).
				for seed := uint64(0); seed < 4 || (b == 8 && w == 2 && short == 0 && seed < 64); seed++ {
					f := runForced(t, forceRoom, sh, Options{}, w, seed)
					if !f.held {
						t.Fatalf("partBytes %d, %d lanes, seed %d: the other goroutine never held", b, w, seed)
					}
					took += f.taken
					if slices.Contains(f.stops, -1) {
						short++
					}
				}
			}
		}
		if took == 0 || short == 0 {
			t.Errorf("the end-game took %d groups and stopped one record short in %d runs: room never decided at its margin", took, short)
		}
	})
	t.Run("owner", func(t *testing.T) {
		// Chunks of n/4: the other goroutine takes the last lane's lowest
		// groups during the swaps, a batch of several. Chunks of n − (the
		// middle of the group above the last lane's first): the first
		// front lets it take all but that group, the second that group
		// alone, so fin is last.a0 + 1 while it holds it.
		for _, w := range []int{2, 3} {
			a0 := (w - 1) * sh.G / w // layout's split
			for _, chunk := range []int{sh.N() / 4, sh.N() - a0*sh.D - sh.D/2} {
				shuffleChunk = chunk
				one := 0
				for _, b := range parts {
					partBytes = b
					for _, v := range []Variant{Faithful, SplitDelivery} {
						for seed := range uint64(2) {
							f := runForced(t, forceOwner, sh, Options{Variant: v}, w, seed)
							if !f.held {
								t.Fatalf("%d lanes, chunk %d, partBytes %d, seed %d: the other goroutine never held", w, chunk, b, seed)
							}
							if f.heldGroups == 1 {
								one++
							}
						}
					}
				}
				if chunk != sh.N()/4 && one == 0 {
					t.Errorf("%d lanes, chunk %d: the other goroutine never held a single group", w, chunk)
				}
			}
		}
	})
}
