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

// TestEngineMatchesModel is the differential test that keeps the fast path
// honest: on random shapes and (partial) permutations, with the same seed,
// the engine and the message-level model run must agree on everything the
// engine reports.
func TestEngineMatchesModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	var e Engine
	runs := 300
	if testing.Short() {
		runs = 60
	}
	for run := range runs {
		g := 1 + rng.IntN(6)
		d := g * (1 + rng.IntN(4))
		if rng.IntN(3) == 0 {
			d = g + rng.IntN(3*g+1) // d not a multiple of g
		}
		sh := pops.Shape{D: d, G: g}
		dst := perm.Random(sh.N(), rng)
		if rng.IntN(4) == 0 { // partial permutation
			for i := range dst {
				if rng.IntN(3) == 0 {
					dst[i] = perm.None
				}
			}
		}
		for _, v := range []Variant{Faithful, SplitDelivery} {
			o := Options{Variant: v}
			seed := rng.Uint64()
			m, err := RunOnModel(sh, dst, rand.New(rand.NewPCG(seed, 1)), o, nil)
			if err != nil {
				t.Fatal(err)
			}
			f, err := e.Run(sh, dst, rand.New(rand.NewPCG(seed, 1)), o)
			if err != nil {
				t.Fatal(err)
			}
			where := fmt.Sprintf("run %d %v %v seed %d dst %v", run, sh, v, seed, dst)
			if m.Steps != f.Steps || m.Completed != f.Completed || m.Delivered != f.Delivered || m.Lost != f.Lost {
				t.Fatalf("%s: model steps=%d completed=%v delivered=%d lost=%d; engine %d %v %d %d",
					where, m.Steps, m.Completed, m.Delivered, m.Lost, f.Steps, f.Completed, f.Delivered, f.Lost)
			}
			if !slices.Equal(m.Remaining, f.Remaining) || !slices.Equal(m.MaxDegree, f.MaxDegree) {
				t.Fatalf("%s: per-step traces differ:\nmodel  %v %v\nengine %v %v", where, m.Remaining, m.MaxDegree, f.Remaining, f.MaxDegree)
			}
			for k := range m.Conflicts {
				if k == 2 || k == 3 {
					continue // acks: not simulated by the engine
				}
				if m.Conflicts[k] != f.Conflicts[k] {
					t.Fatalf("%s: conflicts in slot %d: model %d engine %d", where, k+1, m.Conflicts[k], f.Conflicts[k])
				}
			}
		}
	}
}

// MaxTrace keeps the first MaxTrace entries of the per-step traces and
// changes nothing else, on the model and on the engine.
func TestMaxTraceIsAPrefix(t *testing.T) {
	var e Engine
	sh := pops.Shape{D: 12, G: 3}
	for seed := range uint64(20) {
		dst := perm.Random(sh.N(), rand.New(rand.NewPCG(seed, 3)))
		full, err := RunOnModel(sh, dst, rand.New(rand.NewPCG(seed, 4)), Options{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		k := 1 + int(seed)%5
		cut, err := RunOnModel(sh, dst, rand.New(rand.NewPCG(seed, 4)), Options{MaxTrace: k}, nil)
		if err != nil {
			t.Fatal(err)
		}
		fast, err := e.Run(sh, dst, rand.New(rand.NewPCG(seed, 4)), Options{MaxTrace: k})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range []Result{cut, fast} {
			m := min(k, len(full.Remaining))
			if r.Steps != full.Steps || r.Lost != full.Lost || !slices.Equal(r.Remaining, full.Remaining[:m]) || !slices.Equal(r.MaxDegree, full.MaxDegree[:m]) {
				t.Fatalf("seed %d, MaxTrace %d: %+v, full run %+v", seed, k, r, full)
			}
		}
	}
}

func TestRouterRejectsOutOfScope(t *testing.T) {
	var e Engine
	rng := rand.New(rand.NewPCG(1, 1))
	cases := []struct {
		sh   pops.Shape
		o    Options
		want string
	}{
		{pops.Shape{D: 1, G: 2}, Options{}, "d = 1 < g = 2"},
		{pops.Shape{D: 2, G: 2}, Options{CEps: -1}, "c+ε"},
		{pops.Shape{D: 2, G: 2}, Options{CEps: 0.5}, "c+ε"},
		{pops.Shape{D: 2, G: 2}, Options{Variant: 9}, "variant"},
		{pops.Shape{D: 2, G: 2}, Options{MaxSteps: -1}, "max steps"},
		{pops.Shape{D: 2, G: 2}, Options{MaxTrace: -1}, "max trace"},
	}
	for _, c := range cases {
		dst := perm.Identity(c.sh.N())
		if _, err := RunOnModel(c.sh, dst, rng, c.o, nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("RunOnModel(%v, %+v) error = %v, want mention of %q", c.sh, c.o, err, c.want)
		}
		if _, err := e.Run(c.sh, dst, rng, c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Engine.Run(%v, %+v) error = %v, want mention of %q", c.sh, c.o, err, c.want)
		}
	}
}

// TestParticipationSchedule checks Theorem 3.8's law against its formula at
// hand-computed points: POPS(32, 2), c+ε = 4 ⇒ stage 1 has ⌈4·15⌉ = 60 steps,
// p_1 = 2/32, p_60 = 2/(32 − 2·59/4) = 2/2.5 = 0.8, and p = 1 afterwards.
func TestParticipationSchedule(t *testing.T) {
	sh := pops.Shape{D: 32, G: 2}
	if got := Stage1Steps(sh, 4); got != 60 {
		t.Fatalf("Stage1Steps = %d, want 60", got)
	}
	for _, c := range []struct {
		s    int
		want float64
	}{{1, 2.0 / 32}, {2, 2 / 31.5}, {60, 0.8}, {61, 1}} {
		if got := Participation(sh, 4, c.s); got != c.want {
			t.Errorf("Participation(step %d) = %v, want %v", c.s, got, c.want)
		}
	}
	if got := Stage1Steps(pops.Shape{D: 4, G: 4}, 4); got != 0 {
		t.Errorf("d = g: Stage1Steps = %d, want 0", got)
	}
}

func benchEngine(b *testing.B, d, g int) {
	sh := pops.Shape{D: d, G: g}
	rng := rand.New(rand.NewPCG(1, 2))
	dst := perm.Random(sh.N(), rng)
	var e Engine
	packetSteps := 0
	b.ResetTimer()
	for range b.N {
		r, err := e.Run(sh, dst, rng, Options{})
		if err != nil {
			b.Fatal(err)
		}
		packetSteps += sh.N()
		for _, x := range r.Remaining {
			packetSteps += int(x)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(packetSteps), "ns/packet-step")
}

// BenchmarkEngine measures the fast path; the 2^24 cases are the issue's
// targets (one run ≤ 1.5 s at d = g). Run: go test ./algos/pops -run=^$ -bench=Engine -benchtime=3x
func BenchmarkEngine(b *testing.B) {
	for _, c := range []struct{ d, g int }{{64, 64}, {1024, 1024}, {4096, 4096}, {8192, 2048}, {16384, 1024}} {
		b.Run(fmt.Sprintf("d=%d,g=%d", c.d, c.g), func(b *testing.B) { benchEngine(b, c.d, c.g) })
	}
}

// BenchmarkModel measures the message-level run on the slot model, per
// packet-step, for comparison with BenchmarkEngine.
func BenchmarkModel(b *testing.B) {
	for _, c := range []struct{ d, g int }{{16, 16}, {64, 64}} {
		b.Run(fmt.Sprintf("d=%d,g=%d", c.d, c.g), func(b *testing.B) {
			sh := pops.Shape{D: c.d, G: c.g}
			rng := rand.New(rand.NewPCG(1, 2))
			dst := perm.Random(sh.N(), rng)
			packetSteps := 0
			for range b.N {
				r, err := RunOnModel(sh, dst, rng, Options{}, nil)
				if err != nil {
					b.Fatal(err)
				}
				packetSteps += sh.N()
				for _, x := range r.Remaining {
					packetSteps += int(x)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(packetSteps), "ns/packet-step")
		})
	}
}

// Theorem 3.8's schedule with c+ε ≠ 4, as the router hands it to its
// decider on the slot model. Hand-computed from the theorem: POPS(12,3),
// c+ε = 2.5: ⌈2.5·(12/3 − 1)⌉ = ⌈7.5⌉ = 8 stage-1 steps, p_s = 3/(12 −
// 3(s−1)/2.5): p_1 = 1/4, p_2 = 3/10.8, p_8 = 3/3.6 = 5/6, then 1.
// POPS(8,4), c+ε = 6: ⌈6·1⌉ = 6 steps, p_1 = 1/2, p_6 = 4/(8 − 20/6) = 6/7,
// then 1. The decider lets no packet take part, so the run lasts MaxSteps.
func TestScheduleWithOtherCEps(t *testing.T) {
	for _, c := range []struct {
		sh     pops.Shape
		cEps   float64
		stage1 int
		want   map[int]float64
	}{
		{pops.Shape{D: 12, G: 3}, 2.5, 8, map[int]float64{1: 0.25, 2: 3 / 10.8, 8: 5.0 / 6, 9: 1, 10: 1}},
		{pops.Shape{D: 8, G: 4}, 6, 6, map[int]float64{1: 0.5, 6: 6.0 / 7, 7: 1}},
	} {
		if got := Stage1Steps(c.sh, c.cEps); got != c.stage1 {
			t.Errorf("%v, c+ε = %v: Stage1Steps = %d, want %d", c.sh, c.cEps, got, c.stage1)
		}
		var ps []float64
		res, err := RunOnModelWith(c.sh, perm.Identity(c.sh.N()), func(step, m int, p float64) ([]int32, []int32) {
			ps = append(ps, p)
			return nil, nil
		}, Options{CEps: c.cEps, MaxSteps: c.stage1 + 2}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Completed || len(ps) != c.stage1+2 {
			t.Fatalf("%v: %d steps seen", c.sh, len(ps))
		}
		for s, want := range c.want {
			if math.Abs(ps[s-1]-want) > 1e-12 {
				t.Errorf("%v, c+ε = %v, step %d: p = %v, want %v", c.sh, c.cEps, s, ps[s-1], want)
			}
		}
		for s := 1; s <= c.stage1; s++ {
			if ps[s-1] >= 1 {
				t.Errorf("%v, c+ε = %v: step %d of stage 1 has p = %v", c.sh, c.cEps, s, ps[s-1])
			}
		}
	}
}

// The coins: in a step with participation p each pending packet takes part
// independently with probability p. With p = 3/10.8 (step 2 above) and
// 200 × 1000 coins, the fraction taking part is within Z(1e-9) ≈ 6.11
// standard errors of p (false alarm 1e-9, fixed seed), and the intermediate
// groups are spread evenly over the g = 3 groups (each within 6.11 SE of 1/3).
func TestCoinsHaveTheScheduledProbability(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 8))
	p, m, reps, g := 3/10.8, 1000, 200, 3
	var part, groups []int32
	took, per := 0, make([]int, g)
	for range reps {
		part, groups = choose(rng, g, p, m, part, groups)
		took += len(part)
		for _, r := range groups {
			per[r]++
		}
		if !slices.IsSorted(part) {
			t.Fatal("participants not in increasing order")
		}
	}
	N := float64(m * reps)
	if se := math.Sqrt(p * (1 - p) / N); math.Abs(float64(took)/N-p) > 6.11*se {
		t.Errorf("fraction taking part %v, want %v ± %v", float64(took)/N, p, 6.11*se)
	}
	for r, k := range per {
		q := 1.0 / float64(g)
		if se := math.Sqrt(q * (1 - q) / float64(took)); math.Abs(float64(k)/float64(took)-q) > 6.11*se {
			t.Errorf("group %d chosen by fraction %v, want 1/3", r, float64(k)/float64(took))
		}
	}
}
