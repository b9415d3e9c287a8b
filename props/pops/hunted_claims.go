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
	"routecheck/props/internal/cited"
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
// errors and their mean is the recorded value — when only the mean differs,
// a *hunt.NotReproduced (as hunt.Cite's) with the steps and the case.
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
		return c, in, steps, &hunt.NotReproduced{File: file, Metric: c.Metric, Recorded: c.Value, Replayed: got,
			Report: fmt.Sprintf("the replay gives mean steps %g, recorded %g", got, c.Value)}
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
// P(Bin(runs, 1/g) ≥ count) ≤ Alpha. The verdict rests on the fresh runs,
// so a case whose replay does not reproduce its mean is still routed
// fresh: violated when the fresh runs say so, else inconclusive (a stale
// case).
func huntedStepsCheck(scale, minus float64) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		c, in, steps, err := huntedRouterSteps(huntedStepsFile, huntedStepsCase)
		stale, err := hunt.Stale(err)
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
			c.Path, in.D, in.G, in.Algorithm, bound, popspaper.Corollary39Slots(in.D, in.G)/5, in.G, qg, qRuns, in.G, in.G, len(steps), stale.Value(c.Value), huntOver, len(steps), in.G, huntOver, stats.BinomAtLeast(huntOver, len(steps), q), c.Versus(), runs, s.Mean, s.Max, over, rate, q, runs, in.G, over, tail, props.Alpha, need, runs, 100*float64(need)/float64(runs))
		switch {
		case over > 0 && tail <= props.Alpha:
			return props.Outcome{Verdict: props.Violated, Evidence: stale.Note(ev), Slack: props.SlackOf(rate, q),
				Counterexample: stale.Mark(map[string]any{"file": c.Path, "runs": runs, "over": over, "bound_steps": bound, "seed": env.Seed, "replay": c.ReplayCommand()})}
		case stale != nil:
			return props.Outcome{Verdict: props.Inconclusive, Evidence: stale.Inconclusive(ev)}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: ev, Slack: props.SlackOf(rate, q)}
	}
}

// huntedSortCheck judges a pops-sort-perm case's value (slots / (Depth·s)
// + undelivered + conflicts + lost + duplicated) against Corollary 2.4's 1
// on a sorting network; sScale 1 is the claim, ½ the fault that reads
// Lemma 2.2's 2⌈d/g⌉ slots per stage as ⌈d/g⌉ (the value doubles against
// the halved s). A case whose replay does not reproduce its value is
// judged on the replayed value: over 1, violated; else inconclusive (a
// stale case).
func huntedSortCheck(file string, raw []byte, sScale float64) func(props.Env) props.Outcome {
	return func(props.Env) props.Outcome {
		c, in, stale, fail := cited.Case[popsdethunt.Instance](file, raw)
		if fail != nil {
			return *fail
		}
		v := stale.Value(c.Value) / sScale
		ev := fmt.Sprintf("%s (POPS(%d,%d), %s network, replayed through the router and the network itself): slots / (Depth·s) + failures = %.6g against 1 (s = 2⌈d/g⌉ scaled by %g), slack %.4f; %s",
			c.Path, in.D, in.G, in.Network, v, sScale, v, c.Versus())
		switch {
		case v > 1:
			return props.Outcome{Verdict: props.Violated, Evidence: stale.Note(ev), Slack: props.SlackOf(v, 1),
				Counterexample: stale.Mark(map[string]any{"file": c.Path, "value": stale.Value(c.Value), "network": in.Network, "replay": c.ReplayCommand()})}
		case stale != nil:
			return props.Outcome{Verdict: props.Inconclusive, Evidence: stale.Inconclusive(ev)}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: ev, Slack: props.SlackOf(v, 1)}
	}
}

func init() {
	props.Register(ledger.Text(props.Claim{ID: "pops/cor-3.9/hunted-steps",
		Check: huntedStepsCheck(1, 0),
		Faults: []props.Fault{
			{Name: "the bound B halved", Check: huntedStepsCheck(0.5, 0)},
			{Name: "the bound B lowered by one step", Check: huntedStepsCheck(1, 1)},
		},
	}))
	props.Register(ledger.Text(props.Claim{ID: "pops/cor-2.4/hunted-sort-slots",
		Check: props.NotJudged("every permutation takes the network's slots, so the hunted case can only confirm the corollary, and the one fault on it (the slot count halved) is caught whatever the case; the delivery half is pops/cor-2.4/sort-router-delivers's", huntedSortCheck(huntedSortFile, huntedSortCase, 1)),
		Faults: []props.Fault{
			{Name: "Lemma 2.2's 2⌈d/g⌉ slots per stage read as ⌈d/g⌉", Check: huntedSortCheck(huntedSortFile, huntedSortCase, 0.5)},
			{Name: "a network that does not sort (AKS with d = 2 random-matching halvers; its hunted permutation)", Check: huntedSortCheck(huntedSortAKSFile, huntedSortAKSCase, 1)},
		},
	}))
}
