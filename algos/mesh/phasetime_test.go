package mesh

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"routecheck/internal/benchutil"
	"routecheck/oracles/mesh1d"
)

// timesPlans are the plans of the time engine's differential tests: every
// algorithm, with and without coloring, on uniformly random k-k
// distributions at the statistical claims' sizes (n ≤ 32, k up to 1024 at
// n = 16) and at n not a power of two (DET_3_PHASE_ROUTE with the direct
// Allocate), each also with random positions drawn from the first half of
// each line only (the planted fault of mesh/lemma-1 and mesh/lemma-2).
func timesPlans(t testing.TB) []Plan {
	r := rand.New(rand.NewPCG(11, 12))
	half := func(rng *rand.Rand, n int) int32 { return int32(rng.IntN(max(1, n/2))) }
	var out []Plan
	for _, c := range []struct{ n, k int }{{1, 2}, {2, 4}, {3, 6}, {4, 8}, {4, 32}, {6, 12}, {8, 64}, {8, 192}, {12, 24}, {16, 32}, {16, 1024}, {32, 64}} {
		for _, alg := range []Algorithm{Rand3, Rand4, Det3} {
			for _, col := range []bool{false, true} {
				for _, pos := range []func(*rand.Rand, int) int32{nil, half} {
					if pos != nil && alg == Det3 {
						continue
					}
					pl, err := NewPlan(alg, c.n, randomKK(r, c.n, c.k), r, Options{Coloring: col, Position: pos})
					if err != nil {
						t.Fatal(err)
					}
					out = append(out, pl)
				}
			}
		}
	}
	return out
}

// timesMismatch is the first plan on which times disagrees with RouteKK
// (the line engine) on the total or on a phase's steps, or "".
func timesMismatch(plans []Plan, times func(Plan) (KKResult, error)) string {
	for i, pl := range plans {
		want, err := RouteKK(pl, Options{})
		if err != nil {
			return fmt.Sprintf("plan %d: RouteKK: %v", i, err)
		}
		got, err := times(pl)
		if err != nil {
			return fmt.Sprintf("plan %d (n = %d): %v", i, pl.N, err)
		}
		if got.Steps != want.Steps || !slices.Equal(got.PhaseSteps, want.PhaseSteps) {
			return fmt.Sprintf("plan %d (n = %d, %d packets): steps %d %v, RouteKK %d %v", i, pl.N, len(pl.Src), got.Steps, got.PhaseSteps, want.Steps, want.PhaseSteps)
		}
	}
	return ""
}

// RouteKKTimes gives RouteKK's phase times on every plan of timesPlans and
// measures no queue; and the comparison catches planted mutants of the
// formula it evaluates (the "− 1" dropped, h counted from positions < i as
// printed in the paper, h counted to positions > j), so it is not a
// comparison that cannot fail. (Dropping the "h > 0" condition is no
// mutant here: a busy side then takes at least n − 2 steps, and on these
// plans some side of every phase takes that long anyway.)
func TestRouteKKTimesEqualsRouteKK(t *testing.T) {
	plans := timesPlans(t)
	if msg := timesMismatch(plans, RouteKKTimes); msg != "" {
		t.Fatal(msg)
	}
	for _, pl := range plans[:3] {
		r, err := RouteKKTimes(pl)
		if err != nil || r.MaxQueue != -1 || r.PhaseQueue != nil || r.EndQueue != nil {
			t.Fatalf("queues reported: %+v, %v", r, err)
		}
	}
	withLine := func(line func(*phaseTimer, int) int) func(Plan) (KKResult, error) {
		return func(pl Plan) (KKResult, error) {
			tm := newPhaseTimer(pl.N)
			tm.lineTime = line
			return tm.route(pl)
		}
	}
	// the plain O(n⁴) formula agrees, so each mutant differs by its change only
	if msg := timesMismatch(plans, withLine(func(t *phaseTimer, l int) int { return mutantLine(t, l, -1, 0, 0) })); msg != "" {
		t.Fatalf("unmutated mutantLine: %s", msg)
	}
	for name, line := range map[string]func(*phaseTimer, int) int{
		"− 1 dropped":                    func(t *phaseTimer, l int) int { return mutantLine(t, l, 0, 0, 0) },
		"h from positions < i (printed)": func(t *phaseTimer, l int) int { return mutantLine(t, l, -1, 1, 0) },
		"h to positions > j":             func(t *phaseTimer, l int) int { return mutantLine(t, l, -1, 0, 1) },
	} {
		if msg := timesMismatch(plans, withLine(line)); msg == "" {
			t.Errorf("planted mutant %q not caught", name)
		}
	}
}

// mutantLine is phaseTimer.line written plainly (each direction as a
// rightward side on its own n×n counts, the leftward one mirrored, and the
// formula evaluated pair by pair in O(n⁴)) with the formula varied: minus
// is added to j − i (−1 in the lemma), lag and dlag shift the packets
// counted (h from positions ≤ i − lag to positions ≥ j + dlag).
func mutantLine(t *phaseTimer, l int, minus, lag, dlag int) int {
	n := t.n
	c := t.cnt[l*n*n : (l+1)*n*n]
	right, left := make([]int, n*n), make([]int, n*n)
	for a := range n {
		for b := range n {
			switch {
			case a < b:
				right[a*n+b] = int(c[a*n+b])
			case a > b:
				left[(n-1-a)*n+(n-1-b)] = int(c[a*n+b])
			}
		}
	}
	clear(c)
	best := 0
	for _, side := range [][]int{right, left} {
		for i := range n {
			for j := i + 1; j < n; j++ {
				h := 0
				for a := 0; a <= i-lag; a++ {
					for b := j + dlag; b < n; b++ {
						h += side[a*n+b]
					}
				}
				if h > 0 {
					best = max(best, j-i+minus+h)
				}
			}
		}
	}
	return best
}

// A side's time is the corrected Lemma 4 as oracles/mesh1d writes it
// (mesh1d.Lemma4, a separate implementation) on random linear
// distributions, rightward packets only; and one phase on a mesh is the
// largest of its sides' times, each side computed by mesh1d.Lemma4 from
// the packets that use it.
func TestPhaseTimerSidesAgainstOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for _, n := range []int{1, 2, 3, 5, 8, 17, 32, 70} {
		for range 20 {
			var pos, tg []int32
			perPU := 1 + r.IntN(4)
			for p := range n * n {
				for range perPU {
					row, col := p/n, p%n
					switch r.IntN(3) {
					case 0:
						col = r.IntN(n)
					case 1:
						row = r.IntN(n)
					}
					pos, tg = append(pos, int32(p)), append(tg, int32(row*n+col))
				}
			}
			// per side: sources and destinations as a rightward line
			src, dst := make([][]int32, 4*n), make([][]int32, 4*n)
			for q := range pos {
				fr, fc, tr, tc := int(pos[q])/n, int(pos[q])%n, int(tg[q])/n, int(tg[q])%n
				line, a, b := fr, fc, tc
				if fr != tr {
					line, a, b = n+fc, fr, tr
				}
				s := 2 * line
				if b < a {
					s, a, b = s+1, n-1-a, n-1-b
				}
				src[s], dst[s] = append(src[s], int32(a)), append(dst[s], int32(b))
			}
			want := 0
			for s := range src {
				if len(src[s]) > 0 {
					want = max(want, mesh1d.Lemma4(n, src[s], dst[s]))
				}
			}
			got, err := newPhaseTimer(n).phase(pos, tg)
			if err != nil || got != want {
				t.Fatalf("n = %d: %d (%v), sides by mesh1d.Lemma4 %d", n, got, err, want)
			}
		}
	}
}

// A move off its axis is RouteKK's error, with the phase named, and the
// timer is empty after it (a reused timer still agrees with RouteKK).
func TestRouteKKTimesOffAxis(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	pl, err := NewPlan(Rand4, 4, randomKK(r, 4, 8), r, Options{Coloring: true})
	if err != nil {
		t.Fatal(err)
	}
	bad := Plan{N: pl.N, Src: pl.Src, Targets: slices.Clone(pl.Targets)}
	bad.Targets[1] = slices.Clone(bad.Targets[1])
	bad.Targets[1][5] = (bad.Targets[0][5] + 5) % 16 // one row and one column on
	if bad.Targets[1][5]/4 == bad.Targets[0][5]/4 || bad.Targets[1][5]%4 == bad.Targets[0][5]%4 {
		t.Fatal("test setup: the planted move is along an axis")
	}
	_, want := RouteKK(bad, Options{})
	tm := newPhaseTimer(pl.N)
	_, got := tm.route(bad)
	if want == nil || got == nil || got.Error() != want.Error() {
		t.Fatalf("error %v, RouteKK's %v", got, want)
	}
	if slices.ContainsFunc(tm.cnt, func(c int32) bool { return c != 0 }) {
		t.Fatal("the timer holds packets after the error")
	}
	w, _ := RouteKK(pl, Options{})
	if g, err := tm.route(pl); err != nil || g.Steps != w.Steps || !slices.Equal(g.PhaseSteps, w.PhaseSteps) {
		t.Fatalf("reused timer: %+v, %v; RouteKK %+v", g, err, w)
	}
}

// BenchmarkKKTimesThroughput is RouteKKTimes on BenchmarkKKEngineThroughput's
// plans, in the same unit (packet-hops of the routing whose times it
// computes, per second) for the speed-up over the line engine:
// go test ./algos/mesh -run '^$' -bench 'KKTimesThroughput|KKEngineThroughput' -cpu 1 -benchtime 3x
func BenchmarkKKTimesThroughput(b *testing.B) {
	for _, c := range []struct{ n, k int }{{16, 64}, {32, 64}, {32, 1024}} {
		pl, hops := benchPlan(b, c.n, c.k)
		b.Run(fmt.Sprintf("n=%d,k=%d", c.n, c.k), func(b *testing.B) {
			want, err := RouteKK(pl, Options{})
			if err != nil {
				b.Fatal(err)
			}
			if got, err := RouteKKTimes(pl); err != nil || got.Steps != want.Steps {
				b.Fatalf("times %+v (%v), RouteKK %+v", got, err, want)
			}
			c0 := benchutil.CPUSeconds()
			for b.Loop() {
				if _, err := RouteKKTimes(pl); err != nil {
					b.Fatal(err)
				}
			}
			cpu := benchutil.CPUSeconds() - c0
			b.ReportMetric(float64(hops)*float64(b.N)/b.Elapsed().Seconds(), "packet-hops/s")
			if cpu > 0 {
				b.ReportMetric(float64(hops)*float64(b.N)/cpu, "packet-hops/cpu-s")
			}
		})
	}
}
