package popshunt

import (
	"context"
	"flag"
	"slices"
	"strings"
	"testing"

	ap "routecheck/algos/pops"
	"routecheck/internal/hunt"
	"routecheck/internal/hunt/hunttest"
	"routecheck/internal/seeds"
	"routecheck/models/perm"
	"routecheck/models/pops"
)

// A metric that only one packet matters for: shrinking must keep exactly
// that packet, with its destination, and remove every other one.
func TestShrinkPermKeepsOnlyWhatMatters(t *testing.T) {
	p := perm.Random(10, seeds.Rand(3))
	x := p[5]
	eval := func(q []int32) float64 {
		if q[5] == x {
			return 1
		}
		return 0
	}
	q, st, err := hunt.ShrinkPartial(context.Background(), p, func(q []int32) (float64, error) { return eval(q), nil }, 1, 0)
	if err != nil || !st.Minimal {
		t.Fatal(st, err)
	}
	want := make([]int32, 10)
	for i := range want {
		want[i] = perm.None
	}
	want[5] = x
	if x == 5 { // a fixed point already
		want[5] = 5
	}
	if !slices.Equal(q, want) {
		t.Fatalf("shrunk %v to %v, want %v", p, q, want)
	}
}

// With the hunt's own metric (mean steps over fixed seeds, common random
// numbers) on POPS(4,2): the shrunk permutation keeps the mean at least the
// target, is a valid partial permutation, and is locally minimal: removing
// any one packet, or making any one a fixed point, drops the mean below the
// target.
func TestShrinkPermWithTheMeanSteps(t *testing.T) {
	sh := pops.Shape{D: 4, G: 2}
	var e ap.Engine
	sds := []uint64{1, 2, 3, 4, 5, 6}
	eval := func(p []int32) float64 {
		s := 0.0
		for _, sd := range sds {
			r, err := e.Run(sh, p, seeds.Rand(sd), ap.Options{})
			if err != nil {
				t.Fatal(err)
			}
			s += float64(r.Steps)
		}
		return s / float64(len(sds))
	}
	for k := range uint64(5) {
		p := perm.Random(sh.N(), seeds.Rand(10, k))
		target := eval(p)
		q, _, err := hunt.ShrinkPartial(context.Background(), p, func(q []int32) (float64, error) { return eval(q), nil }, target, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := perm.Validate(q, false); err != nil {
			t.Fatal(err)
		}
		if v := eval(q); v < target {
			t.Fatalf("%v → %v: mean %v < target %v", p, q, v, target)
		}
		for i := range q {
			if q[i] == perm.None {
				continue
			}
			r := slices.Clone(q)
			r[i] = perm.None
			if eval(r) >= target {
				t.Errorf("%v: removing packet %d keeps the mean ≥ %v", q, i, target)
			}
			if q[i] == int32(i) {
				continue
			}
			// The other move: packet i becomes a fixed point, the packet
			// that went to i (if any) taking its old destination.
			r = slices.Clone(q)
			if j := slices.Index(q, int32(i)); j >= 0 {
				r[j] = q[i]
			}
			r[i] = int32(i)
			if eval(r) >= target {
				t.Errorf("%v: fixing packet %d keeps the mean ≥ %v", q, i, target)
			}
		}
		t.Logf("%v (mean %.3f) shrunk to %v (%d packets, %d moved)", p, target, q, hunt.Packets(q), hunt.Moved(q))
	}
}

// End to end: a small pops-steps hunt returns a shrunk case that replays
// on the slot model.
func TestHuntStepsShrinksAndReplays(t *testing.T) {
	c := hunttest.Run(t, "pops-steps", hunt.Options{Seed: 2, Iters: 40}, "--d", "3", "--g", "3", "--evals", "4")
	in, err := hunt.DecodeInstance[Instance](c)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(c.FoundBy, "shrunk") || hunt.Packets(in.Perm) > 9 {
		t.Errorf("case not shrunk: %+v", c)
	}
	if c.RandomBest == nil || c.Evaluations < 40 || !strings.Contains(c.FoundBy, "random permutations") {
		t.Errorf("no random baseline: %v, %d evaluations, found_by %q", c.RandomBest, c.Evaluations, c.FoundBy)
	}
	r, err := replay(c)
	if err != nil || !r.Reproduced {
		t.Fatalf("replay: %v %v\n%s", r.Reproduced, err, r.Report)
	}
}

// pops-loss shrinks with fixing swaps while a packet is still lost: the
// saved permutation is a full one, still loses a packet on the case's
// seed, and is locally minimal: every fixing swap left loses nothing (on
// POPS(4,2), seed 1, two packets stay out of place; on POPS(6,3) the
// identity itself loses a packet on the seed found, so nothing stays).
func TestHuntLossShrinksToLocallyMinimal(t *testing.T) {
	c := hunttest.Run(t, "pops-loss", hunt.Options{Seed: 1, Iters: 2000}, "--d", "4", "--g", "2")
	in, err := hunt.DecodeInstance[Instance](c)
	if err != nil {
		t.Fatal(err)
	}
	if err := perm.Validate(in.Perm, true); err != nil || c.Value < 1 {
		t.Fatalf("%v, value %g", err, c.Value)
	}
	if !strings.Contains(c.FoundBy, "shrunk from") || !strings.Contains(c.FoundBy, "locally minimal") {
		t.Errorf("found_by %q", c.FoundBy)
	}
	sh := pops.Shape{D: 4, G: 2}
	var e ap.Engine
	inv := perm.Inverse(in.Perm)
	for i, x := range in.Perm {
		if x == int32(i) {
			continue
		}
		q := slices.Clone(in.Perm)
		q[i], q[inv[i]] = int32(i), x
		r, err := e.Run(sh, q, seeds.Rand(in.Seeds[0]), ap.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Lost > 0 {
			t.Errorf("%v: fixing packet %d still loses %d", in.Perm, i, r.Lost)
		}
	}
	t.Logf("%s; %d packets not fixed points", c.FoundBy, hunt.Moved(in.Perm))
	if r, err := replay(c); !r.Reproduced || err != nil {
		t.Fatalf("replay: %v %v", r.Reproduced, err)
	}
}

// pops-steps re-runs its hunted best and its random-sampling best on fresh
// seeds, and the fresh mean of the saved case is what the slot-model
// replay gives on those seeds (an independent run of each seed, not the
// engine the search used). pops-loss re-runs its permutation on fresh
// seeds: the replay's total lost packets over them is the fresh mean times
// the runs. A --fresh-runs out of range is refused naming the flag.
func TestFreshReevaluation(t *testing.T) {
	c := hunttest.Run(t, "pops-steps", hunt.Options{Seed: 5, Iters: 60}, "--d", "4", "--g", "2", "--evals", "4", "--shrink-evals", "-1", "--fresh-runs", "40")
	if c.Fresh == nil || c.Fresh.Runs != 40 || c.Fresh.Hunted == nil || c.Fresh.Random == nil || c.Fresh.Saved != nil {
		t.Fatalf("fresh %+v", c.Fresh)
	}
	if c.Fresh.Hunted.Search != c.Value || c.Fresh.Random.Search != *c.RandomBest {
		t.Errorf("search values %g, %g; case %g, random best %g", c.Fresh.Hunted.Search, c.Fresh.Random.Search, c.Value, *c.RandomBest)
	}
	hunttest.FreshByReplay(t, c, 1)
	l := hunttest.Run(t, "pops-loss", hunt.Options{Seed: 1, Iters: 2000}, "--d", "8", "--g", "4", "--fresh-runs", "30")
	if l.Fresh == nil || l.Fresh.Random != nil || l.Fresh.Hunted == nil || l.Fresh.Hunted.Search < 1 {
		t.Fatalf("pops-loss fresh %+v", l.Fresh)
	}
	hunttest.FreshByReplay(t, l, 30)
	tg, _ := hunt.LookupTarget("pops-steps")
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	tg.DefineFlags(fs)
	if err := fs.Parse([]string{"--fresh-runs", "-1"}); err != nil {
		t.Fatal(err)
	}
	if _, err := tg.Hunt(context.Background(), hunt.Options{Seed: 1, Iters: 1}); err == nil || !strings.HasPrefix(err.Error(), "--fresh-runs = -1") {
		t.Errorf("--fresh-runs -1: %v", err)
	}
}
