package pops

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"routecheck/models/perm"
	"routecheck/models/pops"
)

// Tests written for the mutants of gremlins that lived (issue 9 E). Each
// states the rule it checks and where the expected value comes from.

// The default step limit is 64 + 8·⌈d/g⌉·(c+ε) (Options.MaxSteps): for
// POPS(3,2) with c+ε = 4 that is 64 + 8·2·4 = 128. A decider that lets no
// packet take part makes the run last exactly that many steps.
func TestDefaultMaxSteps(t *testing.T) {
	sh := pops.Shape{D: 3, G: 2}
	calls := 0
	res, err := RunOnModelWith(sh, perm.Identity(sh.N()), func(step, m int, p float64) ([]int32, []int32) {
		calls++
		return nil, nil
	}, Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Completed || res.Steps != 128 || calls != 128 {
		t.Errorf("POPS(3,2), default MaxSteps: steps %d (decider called %d times), completed %v; want 128, not completed", res.Steps, calls, res.Completed)
	}
}

// c+ε = 1 is the smallest allowed value ("a finite number ≥ 1").
func TestCEpsOneIsAccepted(t *testing.T) {
	sh := pops.Shape{D: 4, G: 2}
	dst := perm.Identity(sh.N())
	if _, err := RunOnModel(sh, dst, rand.New(rand.NewPCG(1, 2)), Options{CEps: 1}, nil); err != nil {
		t.Errorf("RunOnModel with c+ε = 1: %v", err)
	}
	var e Engine
	if _, err := e.Run(sh, dst, rand.New(rand.NewPCG(1, 2)), Options{CEps: 1}); err != nil {
		t.Errorf("Engine.Run with c+ε = 1: %v", err)
	}
}

// KeepCoin keeps the coin of the last stage-1 step; for d = g there is no
// stage 1 (Stage1Steps = 0) and every step has p = 1.
func TestKeepCoinWithoutStage1(t *testing.T) {
	sh := pops.Shape{D: 3, G: 3}
	var ps []float64
	if _, err := RunOnModelWith(sh, perm.Identity(sh.N()), func(step, m int, p float64) ([]int32, []int32) {
		ps = append(ps, p)
		return nil, nil
	}, Options{KeepCoin: true, MaxSteps: 4}, nil); err != nil {
		t.Fatal(err)
	}
	if len(ps) != 4 {
		t.Fatalf("%d steps, want 4", len(ps))
	}
	for s, p := range ps {
		if p != 1 {
			t.Errorf("d = g, KeepCoin: step %d has p = %v, want 1", s+1, p)
		}
	}
}

// A decider's choice outside the pending list or outside 0…g−1 is an error
// naming the choice, not a panic or a model violation.
func TestDeciderChoiceOutOfRange(t *testing.T) {
	sh := pops.Shape{D: 2, G: 2}
	for _, c := range []struct{ k, r int32 }{{4, 0}, {0, 2}, {-1, 0}, {0, -1}} {
		_, err := RunOnModelWith(sh, perm.Identity(sh.N()), func(step, m int, p float64) ([]int32, []int32) {
			return []int32{c.k}, []int32{c.r}
		}, Options{MaxSteps: 1}, nil)
		if err == nil || !strings.Contains(err.Error(), "out of range") {
			t.Errorf("decider choice (%d, %d) with 4 pending packets on %v: error %v, want \"out of range\"", c.k, c.r, sh, err)
		}
	}
}

// SplitDelivery has 4 + ⌈d/g⌉ slots per step; the observer sees them
// numbered 1, 2, …, 4 + ⌈d/g⌉ in every step (POPS(6,2): 7 slots).
func TestSplitDeliverySlotNumbers(t *testing.T) {
	sh := pops.Shape{D: 6, G: 2}
	rng := rand.New(rand.NewPCG(5, 6))
	var seen [][]int
	_, err := RunOnModel(sh, perm.Random(sh.N(), rng), rng, Options{Variant: SplitDelivery, MaxSteps: 3},
		func(step, slot int, _ []pops.Action, _, _ pops.State, _ pops.Events) {
			for len(seen) < step {
				seen = append(seen, nil)
			}
			seen[step-1] = append(seen[step-1], slot)
		})
	if err != nil {
		t.Fatal(err)
	}
	want := []int{1, 2, 3, 4, 5, 6, 7}
	if len(seen) == 0 {
		t.Fatal("no step observed")
	}
	for s, got := range seen {
		if !slices.Equal(got, want) {
			t.Errorf("step %d: slots %v, want %v", s+1, got, want)
		}
	}
}

// The differential test (engine vs model) on shapes with many delivery
// sub-slots: ⌈d/g⌉ = 6 and 7, beyond the shapes of TestEngineMatchesModel.
// Split delivery is conflict-free (Variant doc), so no packet is lost.
func TestEngineMatchesModelManySubSlots(t *testing.T) {
	var e Engine
	for _, sh := range []pops.Shape{{D: 12, G: 2}, {D: 19, G: 3}} {
		for seed := range uint64(4) {
			dst := perm.Random(sh.N(), rand.New(rand.NewPCG(seed, 9)))
			o := Options{Variant: SplitDelivery}
			m, err := RunOnModel(sh, dst, rand.New(rand.NewPCG(seed, 10)), o, nil)
			if err != nil {
				t.Fatal(err)
			}
			f, err := e.Run(sh, dst, rand.New(rand.NewPCG(seed, 10)), o)
			if err != nil {
				t.Fatal(err)
			}
			where := fmt.Sprintf("%v seed %d", sh, seed)
			if m.Steps != f.Steps || m.Delivered != f.Delivered || m.Lost != 0 || f.Lost != 0 || !slices.Equal(m.Remaining, f.Remaining) {
				t.Errorf("%s: model %d steps, %d delivered, %d lost; engine %d, %d, %d", where, m.Steps, m.Delivered, m.Lost, f.Steps, f.Delivered, f.Lost)
			}
			if len(f.Conflicts) != 4+(sh.D+sh.G-1)/sh.G {
				t.Fatalf("%s: %d conflict counters", where, len(f.Conflicts))
			}
			for k := 4; k < len(f.Conflicts); k++ {
				if f.Conflicts[k] != 0 || m.Conflicts[k] != 0 {
					t.Errorf("%s: delivery slot %d has conflicts (model %d, engine %d)", where, k+1, m.Conflicts[k], f.Conflicts[k])
				}
			}
		}
	}
}

// Engine.deliver in split mode sends, in sub-slot j, exactly the copies x
// with ⌊(x mod d)/g⌋ = j (SplitDelivery's rule). Probe: two copies with
// the same destination x in x's temporary group t = x mod g collide on
// c(group(x), t) exactly in the sub-slot where they are sent.
func TestDeliverSubSlotOfEachDestination(t *testing.T) {
	for _, sh := range []pops.Shape{{D: 4, G: 2}, {D: 5, G: 2}, {D: 6, G: 3}} {
		d, g := sh.D, sh.G
		dv, gv := newDivisor(d), newDivisor(g)
		nsub := (d + g - 1) / g
		e := &Engine{cnt: make([]int32, g), scratch: make([]int32, 2), start: make([]int32, g+1)}
		for x := range int32(sh.N()) {
			tg := int(x) % g
			for i := range e.start {
				e.start[i] = 0
				if i > tg {
					e.start[i] = 2
				}
			}
			want := int(x) % d / g
			for j := range nsub {
				c, lost := e.deliver([]copyAt{{0, x}, {1, x}}, dv, gv, true, j)
				if sent := j == want; (c == 1 && lost == 2) != sent || (!sent && (c != 0 || lost != 0)) {
					t.Errorf("%v, destination %d, sub-slot %d: %d conflicts, %d lost; sent here: %v", sh, x, j, c, lost, sent)
				}
			}
		}
	}
}

// MaxMem against its definition (this test restates the formula of
// model.go on the observer's states; TestMaxMemHandTrace is the hand-traced
// case), recomputed from the states the observer sees after every slot: [0] the items a processor stores; [1] its originals
// and copies plus the packets delivered to it in that slot; [2] copies plus
// packets delivered in that slot. With split delivery a processor of a
// temporary group can hold a copy for a later sub-slot while its own packet
// arrives, so [2] reaches 2 in some runs (checked, so the comparison has
// teeth on the delivered term).
func TestMaxMemMatchesDefinition(t *testing.T) {
	sawTwo := false
	for _, c := range []struct {
		sh pops.Shape
		v  Variant
	}{{pops.Shape{D: 4, G: 2}, SplitDelivery}, {pops.Shape{D: 3, G: 3}, Faithful}, {pops.Shape{D: 6, G: 2}, Faithful}} {
		for seed := range uint64(10) {
			rng := rand.New(rand.NewPCG(seed, 77))
			dst := perm.Random(c.sh.N(), rng)
			var want [3]int
			res, err := RunOnModel(c.sh, dst, rng, Options{Variant: c.v}, func(_, _ int, _ []pops.Action, _, after pops.State, ev pops.Events) {
				arrived := make([]int, c.sh.N())
				for _, p := range slices.Concat(ev.Delivered, ev.Duplicated) {
					arrived[dst[p]]++
				}
				for i, buf := range after.Buf {
					kept := 0
					for _, it := range buf {
						if it.Kind == pops.Original || it.Kind == pops.Copy {
							kept++
						}
					}
					copies := 0
					for _, it := range buf {
						if it.Kind == pops.Copy {
							copies++
						}
					}
					want[0] = max(want[0], len(buf))
					want[1] = max(want[1], kept+arrived[i])
					want[2] = max(want[2], copies+arrived[i])
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			if res.MaxMem != want {
				t.Errorf("%v %v seed %d: MaxMem %v, recomputed %v", c.sh, c.v, seed, res.MaxMem, want)
			}
			sawTwo = sawTwo || want[2] >= 2
		}
	}
	if !sawTwo {
		t.Error("no run had a copy and an arriving packet at one processor: the test cannot see the delivered term")
	}
}

// MaxMem by hand from its definition (Result.MaxMem: [0] everything a
// processor stores at the end of a slot; [1] the same with delivered packets
// gone one slot after arrival, i.e. originals + copies + packets delivered in
// that slot; [2] also without originals, i.e. copies + packets delivered in
// that slot). POPS(2, 2), groups {0, 1} and {2, 3}; the partial permutation
// 0 → 3, 3 → 0; the decider sends packet 0 via group 1 and packet 3 via
// group 0. Slot 1: proc 0 sends its original on c(0→1), proc 2 (listening
// to group 2 mod 2 = 0) keeps a copy; proc 3 sends on c(1→0), proc 1 keeps a
// copy. Slot 2: the relays forward and drop to the temporary groups
// Δ(3) = 1 and Δ(0) = 0: proc 3 (listening to group 1) now holds its
// original and the copy of packet 0, proc 0 its original and the copy of
// packet 3 — 2 items, of which 1 copy. Slots 3–4 carry acks only. Slot 5:
// proc 0 and proc 3 send the copies on c(0→0) and c(1→1) and drop them, and
// each accepts the packet addressed to it: at most its original and one
// fresh delivered packet, no copy. So MaxMem = [2, 2, 1], after one step.
func TestMaxMemHandTrace(t *testing.T) {
	sh := pops.Shape{D: 2, G: 2}
	dst := []int32{3, perm.None, perm.None, 0}
	decide := func(step, m int, _ float64) ([]int32, []int32) {
		if step != 1 || m != 2 {
			t.Fatalf("step %d with %d pending: the hand trace ends after step 1", step, m)
		}
		return []int32{0, 1}, []int32{1, 0}
	}
	res, err := RunOnModelWith(sh, dst, decide, Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.MaxMem != [3]int{2, 2, 1} || res.Steps != 1 || !res.Completed || res.Delivered != 2 {
		t.Errorf("MaxMem %v after %d steps (completed %v, %d delivered), want [2 2 1] after 1 step, 2 delivered",
			res.MaxMem, res.Steps, res.Completed, res.Delivered)
	}
}

// LocalRouter: with d = g there is no stage 1, so in the first slot of the
// first step every processor sends its packet (p = 1, Theorem 3.8's
// schedule).
func TestLocalRouterFirstStepEveryoneSends(t *testing.T) {
	sh := pops.Shape{D: 8, G: 8}
	for seed := range uint64(3) {
		rng := rand.New(rand.NewPCG(seed, 4))
		senders := -1
		_, err := pops.Drive(sh, perm.Random(sh.N(), rng), NewLocalRouter(Options{}), rng, pops.DriveOptions{MaxSlots: 1,
			Observe: func(_ int, acts []pops.Action, _, _ pops.State, _ pops.Events) error {
				senders = 0
				for _, a := range acts {
					if a.Send >= 0 {
						senders++
					}
				}
				return nil
			}})
		if err != nil {
			t.Fatal(err)
		}
		if senders != sh.N() {
			t.Errorf("seed %d: %d of %d processors send in slot 1 of step 1", seed, senders, sh.N())
		}
	}
}

// LocalRouter's planted faults run on the slot model without a violation,
// so that the conformance suite's checks (internal/suitecheck) can catch
// their effect: MutantRelayKeeps piles copies up in relays (the documented
// effect) and never makes a relay resend a stale copy; MutantNoAckWait on
// d > g still sends every packet once (non-participants of stage 1 stay
// pending), so the run ends with each packet delivered or lost.
func TestLocalRouterMutantsRunClean(t *testing.T) {
	sh := pops.Shape{D: 4, G: 4}
	piled := false
	for seed := range uint64(10) {
		rng := rand.New(rand.NewPCG(seed, 13))
		st, err := pops.Drive(sh, perm.Random(sh.N(), rng), NewLocalRouter(Options{Mutant: MutantRelayKeeps}), rng, pops.DriveOptions{MaxSlots: 5 * 40})
		if err != nil {
			t.Fatalf("MutantRelayKeeps, seed %d: %v", seed, err)
		}
		for i := range st.Buf {
			if _, c, _ := st.Occupancy(i); c >= 2 {
				piled = true
			}
		}
	}
	if !piled {
		t.Error("MutantRelayKeeps: no relay holds two copies")
	}
	sh = pops.Shape{D: 8, G: 2}
	for seed := range uint64(5) {
		rng := rand.New(rand.NewPCG(seed, 14))
		st, err := pops.Drive(sh, perm.Random(sh.N(), rng), NewLocalRouter(Options{Mutant: MutantNoAckWait}), rng, pops.DriveOptions{MaxSlots: 5 * 2000})
		if err != nil {
			t.Fatalf("MutantNoAckWait, seed %d: %v", seed, err)
		}
		if !pops.Quiescent(st) {
			t.Errorf("MutantNoAckWait on %v, seed %d: not over after %d slots", sh, seed, st.Slot)
		}
	}
}

// choose with a single pending packet: it takes part with probability p
// (the coin of Theorem 3.8) and its index is 0. p = 0.9, 2000 draws: the
// count must lie within 6.11 standard errors (√180 ≈ 13.42) of 1800, i.e. in
// [1719, 1881]. 6.11 is the normal Z(1e-9), but the exact false-alarm rate
// is the two-sided Bin(2000, 0.9) tail outside [1719, 1881]: 4.0e-9 (lower
// tail P(X ≤ 1718) = 3.96e-9, upper P(X ≥ 1882) = 3.6e-11), summed exactly
// in rational arithmetic, Σ C(2000, k)·9^k / 10^2000 (fixed seed, so never
// flaky). With m = 3 no index is ever ≥ m.
func TestChooseSmallM(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	var part, groups []int32
	took := 0
	for range 2000 {
		part, groups = choose(rng, 2, 0.9, 1, part, groups)
		if len(part) > 1 || len(part) == 1 && part[0] != 0 {
			t.Fatalf("m = 1: participants %v", part)
		}
		took += len(part)
	}
	if se := math.Sqrt(2000 * 0.9 * 0.1); math.Abs(float64(took)-1800) > 6.11*se {
		t.Fatalf("m = 1, p = 0.9: %d of 2000 took part, want 1800 ± %.0f", took, 6.11*se)
	}
	for range 2000 {
		part, groups = choose(rng, 2, 0.5, 3, part, groups)
		for _, k := range part {
			if k < 0 || k >= 3 {
				t.Fatalf("m = 3: participant index %d", k)
			}
		}
	}
}
