package mesh

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// kkTimerCase is one input of KKTimer's differential test.
type kkTimerCase struct {
	alg      Algorithm
	n        int
	coloring bool
	dst      [][]Dest
	seed     uint64
}

// kkTimerCases: every algorithm KKTimer runs, with and without coloring
// (Det3 without only), on uniformly random k-k distributions at n a power
// of two and not (IntN's rejection sampling; Det3's direct Allocate), k
// from 1 to 1024, and on a structured one (transpose).
func kkTimerCases() []kkTimerCase {
	r := rand.New(rand.NewPCG(21, 22))
	var out []kkTimerCase
	for _, c := range []struct{ n, k int }{{1, 1}, {1, 3}, {2, 4}, {3, 6}, {3, 5}, {4, 8}, {4, 32}, {5, 7}, {6, 12}, {8, 64}, {8, 192}, {12, 24}, {16, 32}, {16, 1024}, {32, 64}} {
		dists := [][][]Dest{randomKK(r, c.n, c.k)}
		tr := make([][]Dest, c.n*c.n)
		for p := range tr {
			for range c.k {
				tr[p] = append(tr[p], Dest{Row: int32(p % c.n), Col: int32(p / c.n)})
			}
		}
		dists = append(dists, tr)
		for _, dst := range dists {
			for _, alg := range []Algorithm{Rand3, Rand4, Det3} {
				for _, col := range []bool{false, true} {
					if alg == Det3 && col {
						continue
					}
					out = append(out, kkTimerCase{alg: alg, n: c.n, coloring: col, dst: dst, seed: r.Uint64()})
				}
			}
		}
	}
	return out
}

// kkTimerMismatch is the first case on which KKTimer (one per n, reused
// from case to case, as the claims reuse it) disagrees with
// RouteKKTimes(NewPlan(…)) on the steps or the phase steps, or on where
// the random stream is left, or "".
func kkTimerMismatch(cases []kkTimerCase, mutate func(*KKTimer)) string {
	timers := map[int]*KKTimer{}
	for i, c := range cases {
		want, wantNext, err := planTimes(c)
		if err != nil {
			return fmt.Sprintf("case %d: plan: %v", i, err)
		}
		tm := timers[c.n]
		if tm == nil {
			tm = NewKKTimer(c.n)
			mutate(tm)
			timers[c.n] = tm
		}
		flat := slices.Concat(c.dst...)
		src := rand.NewPCG(c.seed, ^c.seed)
		var got KKResult
		if c.alg == Det3 {
			got, err = tm.Det3(flat)
		} else {
			got, err = tm.Rand(c.alg, flat, src, c.coloring)
		}
		if err != nil {
			return fmt.Sprintf("case %d: KKTimer: %v", i, err)
		}
		if got.Steps != want.Steps || !slices.Equal(got.PhaseSteps, want.PhaseSteps) || got.MaxQueue != -1 {
			return fmt.Sprintf("case %d (%s, n = %d, k = %d, coloring %v): KKTimer %d %v (queue %d), plan %d %v", i, c.alg, c.n, len(c.dst[0]), c.coloring, got.Steps, got.PhaseSteps, got.MaxQueue, want.Steps, want.PhaseSteps)
		}
		if next := src.Uint64(); c.alg != Det3 && next != wantNext {
			return fmt.Sprintf("case %d: the random stream is left elsewhere than NewPlan leaves it", i)
		}
	}
	return ""
}

// planTimes is the plain path: NewPlan, then RouteKKTimes; and the next
// draw of the stream after NewPlan.
func planTimes(c kkTimerCase) (KKResult, uint64, error) {
	src := rand.NewPCG(c.seed, ^c.seed)
	var rng *rand.Rand
	if c.alg != Det3 {
		rng = rand.New(src)
	}
	pl, err := NewPlan(c.alg, c.n, c.dst, rng, Options{Coloring: c.coloring})
	if err != nil {
		return KKResult{}, 0, err
	}
	r, err := RouteKKTimes(pl)
	return r, src.Uint64(), err
}

// KKTimer gives RouteKKTimes(NewPlan(…))'s steps on every case, leaves the
// random stream where NewPlan does, and the comparison catches planted
// differences: RAND_4's two random positions swapped, and a line time off
// by one (so the test is not one that cannot fail).
func TestKKTimerEqualsPlanTimes(t *testing.T) {
	cases := kkTimerCases()
	if msg := kkTimerMismatch(cases, func(*KKTimer) {}); msg != "" {
		t.Fatal(msg)
	}
	for name, mutate := range map[string]func(*KKTimer){
		"RAND_4's positions swapped": func(tm *KKTimer) { tm.mutant = true },
		"a line's time one too many": func(tm *KKTimer) {
			for _, p := range tm.timers {
				p.lineTime = func(t *phaseTimer, l int) int {
					s := t.line(l)
					if l == 0 && s > 0 {
						s++
					}
					return s
				}
			}
		},
	} {
		if msg := kkTimerMismatch(cases, mutate); msg == "" {
			t.Errorf("planted difference %q not caught", name)
		}
	}
}

// Bad distributions are refused with an error naming what is wrong, and
// the timer still gives the right times afterwards.
func TestKKTimerRejects(t *testing.T) {
	tm := NewKKTimer(4)
	src := rand.NewPCG(1, 2)
	for name, dst := range map[string][]Dest{
		"empty":            nil,
		"not n²·k":         make([]Dest, 17),
		"outside the mesh": append(make([]Dest, 15), Dest{Row: 4}),
		"negative":         append(make([]Dest, 15), Dest{Col: -1}),
	} {
		if _, err := tm.Rand(Rand4, dst, src, true); err == nil {
			t.Errorf("%s: Rand accepted it", name)
		}
		if _, err := tm.Det3(dst); err == nil {
			t.Errorf("%s: Det3 accepted it", name)
		}
	}
	if _, err := tm.Rand(Det3, make([]Dest, 16), src, false); err == nil {
		t.Error("Rand accepted Det3")
	}
	if _, err := tm.Rand(Rand3, make([]Dest, 16), nil, false); err == nil {
		t.Error("Rand accepted a nil source")
	}
	c := kkTimerCase{alg: Rand4, n: 4, coloring: true, dst: randomKK(rand.New(rand.NewPCG(3, 4)), 4, 8), seed: 5}
	want, _, err := planTimes(c)
	if err != nil {
		t.Fatal(err)
	}
	got, err := tm.Rand(Rand4, slices.Concat(c.dst...), rand.NewPCG(5, ^uint64(5)), true)
	if err != nil || got.Steps != want.Steps || !slices.Equal(got.PhaseSteps, want.PhaseSteps) {
		t.Fatalf("after the refusals: %v %v, want %v", got, err, want)
	}
}

// BenchmarkKKTimer times one RAND_4 (with coloring) and one
// DET_3_PHASE_ROUTE run at n = 32, k = 1024 (the statistical claims'
// largest default size), reported per packet.
func BenchmarkKKTimer(b *testing.B) {
	n, k := 32, 1024
	dst := slices.Concat(randomKK(rand.New(rand.NewPCG(1, 2)), n, k)...)
	tm := NewKKTimer(n)
	b.Run("rand-4", func(b *testing.B) {
		src := rand.NewPCG(3, 4)
		for b.Loop() {
			if _, err := tm.Rand(Rand4, dst, src, true); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(dst)), "ns/packet")
	})
	b.Run("det-3", func(b *testing.B) {
		for b.Loop() {
			if _, err := tm.Det3(dst); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(dst)), "ns/packet")
	})
}

// Det3Phase2Targets, PU by PU, gives NewPlan's Phase-2 targets with and
// without coloring, with ALLOCATE (linear and direct, n a power of two and
// not) and with a planted allocator, on random and structured k-k
// distributions; the comparison catches a planted difference (one PU's
// targets computed from the destinations of its neighbour).
func TestDet3Phase2TargetsEqualsNewPlan(t *testing.T) {
	self := func(n int, self int32, dst []Dest) (Allocation, error) {
		a := Allocation{Pos: make([]int32, len(dst)), Counts: make([]int, n)}
		for i := range a.Pos {
			a.Pos[i] = self
		}
		return a, nil
	}
	mismatch := func(shift int) string {
		for _, c := range kkTimerCases() {
			if c.alg != Det3 {
				continue
			}
			for _, o := range []Options{{}, {Coloring: true}, {DirectAllocate: true}, {Coloring: true, Allocator: self}} {
				if o.Coloring && len(c.dst[0])%2 != 0 {
					continue
				}
				pl, err := NewPlan(Det3, c.n, c.dst, nil, o)
				if err != nil {
					return err.Error()
				}
				k := len(c.dst[0])
				for p := range c.dst {
					got, err := Det3Phase2Targets(c.n, p, c.dst[(p+shift)%len(c.dst)], o)
					if err != nil {
						return err.Error()
					}
					if !slices.Equal(got, pl.Targets[1][p*k:(p+1)*k]) {
						return fmt.Sprintf("n = %d, k = %d, %+v, PU %d: %v, NewPlan %v", c.n, k, o, p, got, pl.Targets[1][p*k:(p+1)*k])
					}
				}
			}
		}
		return ""
	}
	if msg := mismatch(0); msg != "" {
		t.Fatal(msg)
	}
	if mismatch(1) == "" {
		t.Error("planted difference (a neighbour's destinations) not caught")
	}
	for name, f := range map[string]func() error{
		"odd k with coloring": func() error { _, err := Det3Phase2Targets(4, 0, make([]Dest, 3), Options{Coloring: true}); return err },
		"PU outside":          func() error { _, err := Det3Phase2Targets(4, 16, make([]Dest, 2), Options{}); return err },
		"destination outside": func() error { _, err := Det3Phase2Targets(4, 0, []Dest{{Row: 4}}, Options{}); return err },
	} {
		if f() == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// RouteDet3 gives RouteKK(NewPlan(Det3, …)) — steps, phase steps and every
// queue — with and without coloring on every case (one KKTimer per n,
// reused from case to case, also after RAND runs on it); the comparison
// catches a planted difference (coloring flipped).
func TestKKTimerRouteDet3EqualsRouteKK(t *testing.T) {
	mismatch := func(flip bool) string {
		timers := map[int]*KKTimer{}
		for i, c := range kkTimerCases() {
			tm := timers[c.n]
			if tm == nil {
				tm = NewKKTimer(c.n)
				timers[c.n] = tm
			}
			flat := slices.Concat(c.dst...)
			if c.alg != Det3 { // interleave RAND runs on the same timer
				if _, err := tm.Rand(c.alg, flat, rand.NewPCG(c.seed, 0), c.coloring); err != nil {
					return err.Error()
				}
				continue
			}
			for _, col := range []bool{false, true} {
				if col && len(c.dst[0])%2 != 0 {
					continue
				}
				pl, err := NewPlan(Det3, c.n, c.dst, nil, Options{Coloring: col})
				if err != nil {
					return err.Error()
				}
				want, err1 := RouteKK(pl, Options{})
				got, err2 := tm.RouteDet3(flat, col != flip)
				if err1 != nil || err2 != nil {
					return fmt.Sprintf("case %d: %v, %v", i, err1, err2)
				}
				if !reflect.DeepEqual(got, want) {
					return fmt.Sprintf("case %d (n = %d, k = %d, coloring %v): RouteDet3 %+v, RouteKK %+v", i, c.n, len(c.dst[0]), col, got, want)
				}
			}
		}
		return ""
	}
	if msg := mismatch(false); msg != "" {
		t.Fatal(msg)
	}
	if mismatch(true) == "" {
		t.Error("planted difference (coloring flipped) not caught")
	}
	if _, err := NewKKTimer(4).RouteDet3(make([]Dest, 16*3), true); err == nil {
		t.Error("RouteDet3 accepted odd k with coloring")
	}
}
