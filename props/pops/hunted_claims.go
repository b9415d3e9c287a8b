package pops

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"

	ap "routecheck/algos/pops"
	"routecheck/internal/hunt"
	"routecheck/internal/popsdethunt"
	"routecheck/internal/seeds"
	"routecheck/internal/stats"
	"routecheck/oracles/popspaper"
	"routecheck/props"
)

// Corollaries 3.9 and 2.4 against the hunted worst cases (issue 11 §3:
// bound claims cite the hunted worst case). Each claim replays saved cases
// of `routecheck hunt` (copied from testdata/hunt/, which `go test
// ./cmd/routecheck` replays too) and judges the value the hunt maximized
// against the bound it hunts. A pops-sort-perm case replays through
// hunt.Cite (internal/popsdethunt's replayer, the path of `routecheck
// replay`). A pops-router case is replayed here by huntedRouterSteps, which
// makes the calls internal/popshunt's replayer makes (RunPops on the slot
// model, one run per seed): popshunt imports this package, so this package
// cannot import it; TestHuntedRouterStepsIsTheReplay checks that the two
// agree.
var (
	//go:embed testdata/pops-steps-d16-g4-time60s.json
	huntedStepsCase []byte
	//go:embed testdata/pops-sort-slots-d8-g4-oddeven.json
	huntedSortCase []byte
	//go:embed testdata/pops-sort-slots-d4-g8-aks-expander-small.json
	huntedSortAKSCase []byte
)

const (
	huntedStepsFile   = "props/pops/testdata/pops-steps-d16-g4-time60s.json"
	huntedSortFile    = "props/pops/testdata/pops-sort-slots-d8-g4-oddeven.json"
	huntedSortAKSFile = "props/pops/testdata/pops-sort-slots-d4-g8-aks-expander-small.json"
)

// huntedRouter is a pops-router case instance (internal/popshunt.Instance).
type huntedRouter struct {
	D         int      `json:"d"`
	G         int      `json:"g"`
	Algorithm string   `json:"algorithm"`
	Perm      []int32  `json:"perm"`
	Seeds     []uint64 `json:"seeds"`
}

// huntedRouterSteps replays a saved pops-router case whose metric is "mean
// steps" on the slot model, as internal/popshunt's replayer does: the steps
// of each seed's run, and an error unless every run is clean of model
// errors and their mean is the recorded value.
func huntedRouterSteps(file string, raw []byte) (hunt.Case, huntedRouter, []int, error) {
	var in huntedRouter
	c, err := hunt.Parse(file, raw)
	if err != nil {
		return c, in, nil, err
	}
	if c.Kind != "pops-router" || c.Metric != "mean steps" {
		return c, in, nil, fmt.Errorf("%s: kind %q, metric %q: want a pops-router case of mean steps", file, c.Kind, c.Metric)
	}
	if err := json.Unmarshal(c.Instance, &in); err != nil {
		return c, in, nil, fmt.Errorf("%s: instance: %v", file, err)
	}
	if len(in.Seeds) == 0 {
		return c, in, nil, fmt.Errorf("%s: no seeds", file)
	}
	if _, err := ap.ParseVariant(in.Algorithm); err != nil {
		return c, in, nil, fmt.Errorf("%s: %v", file, err)
	}
	steps, sum := make([]int, len(in.Seeds)), 0
	for i, s := range in.Seeds {
		r := RunPops(PopsInstance{D: in.D, G: in.G, Perm: in.Perm, Algorithm: in.Algorithm, Seed: s})
		if r.ModelErr != nil {
			return c, in, nil, fmt.Errorf("%s: seed %d: %v", file, s, r.ModelErr)
		}
		steps[i] = r.Result.Steps
		sum += r.Result.Steps
	}
	if got := float64(sum) / float64(len(steps)); math.Abs(got-c.Value) > 1e-9 {
		return c, in, nil, fmt.Errorf("%s: the replay gives mean steps %g, recorded %g", file, got, c.Value)
	}
	return c, in, steps, nil
}

// huntedFreshKey keys the fresh runs of the hunted permutation, shared by
// pops/cor-3.9/hunted-steps's check and its faults.
type huntedFreshKey struct {
	seed uint64
	runs int
}

var huntedFresh onceMap[huntedFreshKey, []float64]

// huntedStepsCheck judges the hunted permutation against Corollary 3.9's
// bound in steps as pops/cor-3.9/slots reads it, B = 4d/g + Q_g (Q_g: the
// empirical (1 − 1/g)-quantile of the steps on POPS(g, g), from the runs
// that claim uses), scaled by scale and lowered by minus steps (1 and 0 for
// the claim; the faults are that claim's). The case is first replayed on
// its own seeds (its recorded mean must come back); then the permutation —
// the adversary's choice, fixed before the coins — is routed with fresh
// seeds, since the hunt's value is a maximum over the very seeds it
// reports and so biased upward. As in pops/cor-3.9/slots, the claim is
// violated when the count of fresh runs above B has an exact binomial tail
// P(Bin(runs, 1/g) ≥ count) ≤ Alpha.
func huntedStepsCheck(scale, minus float64) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		c, in, steps, err := huntedRouterSteps(huntedStepsFile, huntedStepsCase)
		if err != nil {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
		}
		if in.Algorithm != ap.Faithful.String() {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("%s: algorithm %s, want %s (the router of Corollary 3.9)", c.Path, in.Algorithm, ap.Faithful)}
		}
		qRuns := env.Budget.Pick(40, 200, 1000)
		ys, err := runSteps(env, 39, ap.Faithful, in.G, in.G, qRuns)
		if err != nil {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
		}
		qg := upperQuantile(ys, 1/float64(in.G))
		bound := scale*(popspaper.Corollary39Slots(in.D, in.G)/5+qg) - minus
		huntOver := 0
		for _, s := range steps {
			if float64(s) > bound {
				huntOver++
			}
		}
		runs := env.Budget.Pick(60, 200, 1000)
		fresh, err := huntedFresh.get(huntedFreshKey{env.Seed, runs}, func() ([]float64, error) {
			xs := make([]float64, runs)
			for r := range runs {
				rep := RunPops(PopsInstance{D: in.D, G: in.G, Perm: in.Perm, Algorithm: in.Algorithm, Seed: seeds.Derive(env.Seed, 0x4b7, uint64(r))})
				if rep.ModelErr != nil {
					return nil, fmt.Errorf("%s: fresh run %d: %v", c.Path, r, rep.ModelErr)
				}
				xs[r] = float64(rep.Result.Steps)
			}
			return xs, nil
		})
		if err != nil {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
		}
		over := 0
		for _, x := range fresh {
			if x > bound {
				over++
			}
		}
		q := 1 / float64(in.G)
		tail := stats.BinomAtLeast(over, runs, q)
		s := stats.Summarize(fresh)
		rate := float64(over) / float64(runs)
		need := stats.BinomMinCount(runs, q, props.Alpha)
		ev := fmt.Sprintf("%s (POPS(%d,%d), %s): B = %g steps (4d/g = %g, Q_%d = %g from %d runs on POPS(%d,%d)); on its %d hunt seeds (replayed on the slot model) mean %.6g, %d above B (P(Bin(%d, 1/%d) ≥ %d) = %.3g; these seeds are the ones the hunt selected on) — %s; on %d fresh seeds mean %.4g (max %g), %d above B: rate %.4g against 1/g = %g, P(Bin(%d, 1/%d) ≥ %d) = %.3g (α = %g; a violation needs ≥ %d of %d runs above B, %.0f%%)",
			c.Path, in.D, in.G, in.Algorithm, bound, popspaper.Corollary39Slots(in.D, in.G)/5, in.G, qg, qRuns, in.G, in.G, len(steps), c.Value, huntOver, len(steps), in.G, huntOver, stats.BinomAtLeast(huntOver, len(steps), q), c.Versus(), runs, s.Mean, s.Max, over, rate, q, runs, in.G, over, tail, props.Alpha, need, runs, 100*float64(need)/float64(runs))
		if over > 0 && tail <= props.Alpha {
			return props.Outcome{Verdict: props.Violated, Evidence: ev, Slack: props.SlackOf(rate, q),
				Counterexample: map[string]any{"file": c.Path, "runs": runs, "over": over, "bound_steps": bound, "seed": env.Seed, "replay": c.ReplayCommand()}}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: ev, Slack: props.SlackOf(rate, q)}
	}
}

// huntedSortCheck judges a pops-sort-perm case's value (slots / (Depth·s)
// + undelivered + conflicts + lost + duplicated) against Corollary 2.4's 1
// on a sorting network; sScale 1 is the claim, ½ the fault that reads
// Lemma 2.2's 2⌈d/g⌉ slots per stage as ⌈d/g⌉ (the value doubles against
// the halved s).
func huntedSortCheck(file string, raw []byte, sScale float64) func(props.Env) props.Outcome {
	return func(props.Env) props.Outcome {
		c, in, err := hunt.CiteInstance[popsdethunt.Instance](file, raw)
		if err != nil {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
		}
		v := c.Value / sScale
		ev := fmt.Sprintf("%s (POPS(%d,%d), %s network, replayed through the router and the network itself): slots / (Depth·s) + failures = %.6g against 1 (s = 2⌈d/g⌉ scaled by %g), slack %.4f; %s",
			c.Path, in.D, in.G, in.Network, v, sScale, v, c.Versus())
		if v > 1 {
			return props.Outcome{Verdict: props.Violated, Evidence: ev, Slack: props.SlackOf(v, 1),
				Counterexample: map[string]any{"file": c.Path, "value": c.Value, "network": in.Network, "replay": c.ReplayCommand()}}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: ev, Slack: props.SlackOf(v, 1)}
	}
}

func init() {
	props.Register(props.Claim{ID: "pops/cor-3.9/hunted-steps", Source: seed000 + " Corollary 3.9 (the hunted worst case; issue 11 §3)", Kind: props.Bound, Recorded: props.Holds, Class: props.Reading,
		Statement: "The permutation that `routecheck hunt pops-steps` found slowest on POPS(16,4) (structured families, random sampling and simulated annealing, then shrunk) is routed by the faithful router within Corollary 3.9's 4d/g + O(log log g) steps w.h.p. — the adversary fixes it, the router's coins are fresh — with the O() and w.h.p. read as pops/cor-3.9/slots reads them.",
		Scope:     "the saved case testdata/hunt/pops-steps-d16-g4-time60s.json (copied to props/pops/testdata): POPS(16,4), pops-rand-5slot; replayed on its 16 hunt seeds on the slot model, then routed with 60, 200, 1000 fresh seeds (small, default, large) on the slot model; B = 4d/g + Q_g in steps with Q_g from the runs of pops/cor-3.9/slots at each budget; exact binomial tail at Alpha",
		Notes: "Reading as pops/cor-3.9/slots (w.h.p.: a fraction ≤ 1/g of runs above B). Why fresh seeds: the hunt compares permutations on 16 fixed seeds (common random numbers) and keeps the maximum, so its value is biased upward by selection. The case (`routecheck hunt pops-steps --d 16 --g 4 --time 60s --seed 2`, 164935 evaluations, 49 s CPU) has mean 23.56 steps on its own seeds, above B = 21, against 20.25 for the best of as many random permutations; on 400 fresh seeds (a scratch measurement) the same permutation averages 16.5 steps with 5% of runs above 21, no worse than a random permutation (16.5, 3%). So the search overfits the seeds. [Review fix] Judging the hunt's own mean (23.56 > 21) against B would compare a mean with what is a bound on the fraction of runs above B, and is not this claim's test; the claim's test applied to the hunt's 16 seeds (7 above B) gives P(Bin(16, 1/4) ≥ 7) ≈ 0.080, no violation either — but those seeds are the ones the permutation was selected on, so their fraction above B is biased upward, hence the fresh seeds; a shorter hunt (testdata/hunt/pops-steps-d16-g4.json, --iters 2000: 20.31 on its seeds) was the first case cited and was replaced by this one before recording, when the longer hunt showed the bias. As in pops/cor-3.9/slots, a packet the faithful router loses in slot 5 (d > g) counts as routed. " +
			"Power (exact binomial, q = 1/g = 1/4, α = 1e-9; the evidence prints it): a violation needs at least 38 of 60 fresh runs above B (63%) at small, 90 of 200 (45%) at default, 336 of 1000 (34%) at large, against the 25% the reading allows; a permutation whose true rate above B is between 25% and those fractions is not detected at that budget. α is conditional on the estimated Q_g (the (1 − 1/g)-quantile from 40 / 200 / 1000 runs on POPS(g,g) by budget), as in pops/cor-3.9/slots: B is itself a random quantity, and the test's false-alarm rate holds given it. " +
			"Planted faults (those of pops/cor-3.9/slots, chosen there before running; adopted here before this check was run on fresh seeds): B halved, and B lowered by one step. The first is caught at every budget (every fresh run is above B/2 = 10.5); the second is not (5–7% of fresh runs above 20 against 1/g = 1/4), as pops/cor-3.9/slots finds for it: the check cannot tell 4d/g + Q_g from a bound one step smaller.",
		Check: huntedStepsCheck(1, 0),
		Faults: []props.Fault{
			{Name: "the bound B halved", Check: huntedStepsCheck(0.5, 0)},
			{Name: "the bound B lowered by one step", Check: huntedStepsCheck(1, 1)},
		},
	})
	props.Register(props.Claim{ID: "pops/cor-2.4/hunted-sort-slots", Source: seed000 + " Corollary 2.4 with Lemma 2.2 and Theorem 2.1 (the hunted worst case; issue 11 §3)", Kind: props.Bound, Recorded: props.Holds, Class: props.Construction,
		Statement: "The permutation that `routecheck hunt pops-sort-slots` found worst for the deterministic sort router on POPS(8,4) with Batcher's odd-even network is routed in at most Depth·2⌈d/g⌉ slots, every packet delivered, with no coupler conflict, loss or duplicate (value ≤ 1).",
		Scope:     "the saved case testdata/hunt/pops-sort-slots-d8-g4-oddeven.json (copied to props/pops/testdata): POPS(8,4), oddeven network (depth 15, s = 2⌈d/g⌉ = 4: 60 slots); replayed through hunt.Cite (the router, and the network alone on the destinations); the same at every budget",
		Notes: "Class construction, as pops/cor-2.4/sort-router-delivers: our direct sort-based router. The case (`routecheck hunt pops-sort-slots --iters 2000`, seed 1): value 1 (60 slots, all delivered) for the identity and for the best of 1997 random permutations: the schedule is the network's, so every permutation takes the same slots and the hunt can only confirm the corollary (slack 1). " +
			"Planted faults (written before running, with the hunted value known): (1) Lemma 2.2's 2⌈d/g⌉ slots per comparator stage read as ⌈d/g⌉; (2) the router on a network that does not sort — the AKS family with random-matching halvers (d = 2) on POPS(4,8), whose hunted permutation (`routecheck hunt pops-sort-slots --network aks-expander --halver-d 2 --d 4 --g 8 --iters 300 --shrink-evals -1`: 25 against 23 for the best of 360 random permutations; testdata/hunt/pops-sort-slots-d4-g8-aks-expander-small.json) is judged by the same check.",
		Check: huntedSortCheck(huntedSortFile, huntedSortCase, 1),
		Faults: []props.Fault{
			{Name: "Lemma 2.2's 2⌈d/g⌉ slots per stage read as ⌈d/g⌉", Check: huntedSortCheck(huntedSortFile, huntedSortCase, 0.5)},
			{Name: "a network that does not sort (AKS with d = 2 random-matching halvers; its hunted permutation)", Check: huntedSortCheck(huntedSortAKSFile, huntedSortAKSCase, 1)},
		},
	})
}
