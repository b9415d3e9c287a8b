package pops

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"

	ap "routecheck/algos/pops"
	"routecheck/internal/hunt"
	"routecheck/internal/popsdethunt"
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
	//go:embed testdata/pops-steps-d16-g4.json
	huntedStepsCase []byte
	//go:embed testdata/pops-sort-slots-d8-g4-oddeven.json
	huntedSortCase []byte
	//go:embed testdata/pops-sort-slots-d4-g8-aks-expander-small.json
	huntedSortAKSCase []byte
)

const (
	huntedStepsFile   = "props/pops/testdata/pops-steps-d16-g4.json"
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

// huntedStepsCheck judges the hunted permutation's mean steps against
// Corollary 3.9's bound in steps as pops/cor-3.9/slots reads it, B = 4d/g
// + Q_g (Q_g: the empirical (1 − 1/g)-quantile of the steps on POPS(g, g),
// from the same runs that claim uses), scaled by scale and lowered by
// minus steps (1 and 0 for the claim; the faults are that claim's).
func huntedStepsCheck(scale, minus float64) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		c, in, steps, err := huntedRouterSteps(huntedStepsFile, huntedStepsCase)
		if err != nil {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
		}
		if in.Algorithm != ap.Faithful.String() {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("%s: algorithm %s, want %s (the router of Corollary 3.9)", c.Path, in.Algorithm, ap.Faithful)}
		}
		runs := env.Budget.Pick(40, 200, 1000)
		ys, err := runSteps(env, 39, ap.Faithful, in.G, in.G, runs)
		if err != nil {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
		}
		qg := upperQuantile(ys, 1/float64(in.G))
		bound := scale*(popspaper.Corollary39Slots(in.D, in.G)/5+qg) - minus
		over := 0
		for _, s := range steps {
			if float64(s) > bound {
				over++
			}
		}
		ev := fmt.Sprintf("%s (POPS(%d,%d), %s, %d fixed seeds, replayed on the slot model): mean steps %.6g against B = %g (4d/g = %g, Q_%d = %g from %d runs on POPS(%d,%d)), slack %.4f; %d of %d runs above B (w.h.p. allows a fraction 1/g = %g); %s",
			c.Path, in.D, in.G, in.Algorithm, len(steps), c.Value, bound, popspaper.Corollary39Slots(in.D, in.G)/5, in.G, qg, runs, in.G, in.G, c.Value/bound, over, len(steps), 1/float64(in.G), c.Versus())
		if c.Value > bound {
			return props.Outcome{Verdict: props.Violated, Evidence: ev, Slack: props.SlackOf(c.Value, bound),
				Counterexample: map[string]any{"file": c.Path, "mean_steps": c.Value, "bound_steps": bound, "replay": "go run ./cmd/routecheck replay testdata/hunt/pops-steps-d16-g4.json"}}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: ev, Slack: props.SlackOf(c.Value, bound)}
	}
}

// huntedSortCheck judges a pops-sort-perm case's value (slots / (Depth·s)
// + undelivered + conflicts + lost + duplicated) against Corollary 2.4's 1
// on a sorting network; sScale 1 is the claim, ½ the fault that reads
// Lemma 2.2's 2⌈d/g⌉ slots per stage as ⌈d/g⌉ (the value doubles against
// the halved s).
func huntedSortCheck(file string, raw []byte, sScale float64) func(props.Env) props.Outcome {
	return func(props.Env) props.Outcome {
		c, err := hunt.Cite(file, raw)
		if err != nil {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
		}
		var in popsdethunt.Instance
		if err := json.Unmarshal(c.Instance, &in); err != nil {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("%s: instance: %v", file, err)}
		}
		v := c.Value / sScale
		ev := fmt.Sprintf("%s (POPS(%d,%d), %s network, replayed through the router and the network itself): slots / (Depth·s) + failures = %.6g against 1 (s = 2⌈d/g⌉ scaled by %g), slack %.4f; %s",
			c.Path, in.D, in.G, in.Network, v, sScale, v, c.Versus())
		if v > 1 {
			return props.Outcome{Verdict: props.Violated, Evidence: ev, Slack: props.SlackOf(v, 1),
				Counterexample: map[string]any{"file": c.Path, "value": c.Value, "network": in.Network, "replay": "go run ./cmd/routecheck replay testdata/hunt/" + c.Path[len("props/pops/testdata/"):]}}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: ev, Slack: props.SlackOf(v, 1)}
	}
}

func init() {
	props.Register(props.Claim{ID: "pops/cor-3.9/hunted-steps", Source: seed000 + " Corollary 3.9 (the hunted worst case; issue 11 §3)", Kind: props.Bound, Recorded: props.Holds, Class: props.Reading,
		Statement: "The permutation that `routecheck hunt pops-steps` found slowest on POPS(16,4) (structured families, random sampling and simulated annealing, then shrunk) is routed by the faithful router in at most Corollary 3.9's 4d/g + O(log log g) steps on average over its fixed seeds, the O() read as pops/cor-3.9/slots reads it.",
		Scope:     "the saved case testdata/hunt/pops-steps-d16-g4.json (copied to props/pops/testdata): POPS(16,4), pops-rand-5slot, 16 fixed seeds, replayed on the slot model; B = 4d/g + Q_g in steps with Q_g from the runs of pops/cor-3.9/slots at each budget (40, 200, 1000 runs)",
		Notes: "Reading: the hunt maximizes the mean over the case's seeds, so the mean is judged; the w.h.p. statement (a fraction ≤ 1/g of runs above B) is pops/cor-3.9/slots's test on random permutations, and the evidence counts this case's runs above B without judging them (16 runs cannot reach that claim's α). The case (`routecheck hunt pops-steps --d 16 --g 4 --iters 2000`, seed 1): hunted 20.19 against 19.19 for the best of 2069 random permutations, then shrunk to 40 packets not fixed points with mean 20.31. As in pops/cor-3.9/slots, a packet the faithful router loses in slot 5 (d > g) counts as routed. " +
			"Planted faults (those of pops/cor-3.9/slots, chosen there before running; adopted here with the hunted mean known): B halved, and B lowered by one step.",
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
