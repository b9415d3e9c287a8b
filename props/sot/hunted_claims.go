package sot

import (
	_ "embed"
	"encoding/json"
	"fmt"

	asot "routecheck/algos/sot"
	"routecheck/internal/sothunt"
	"routecheck/models/perm"
	"routecheck/oracles/sotforms"
	"routecheck/props"
	"routecheck/props/internal/cited"
)

// Algorithm 2's time and deflections against the hunted worst cases (issue
// 11 §3: bound claims cite the hunted worst case). Each claim replays
// saved cases of `routecheck hunt` (copied from testdata/hunt/, which `go
// test ./cmd/routecheck` replays too) through hunt.Cite — the replayer of
// `routecheck replay`: the fast engine with invariant checks after every
// step and the algorithm's local router on the model — and judges the
// value the hunt maximized against the bound it hunts.
var (
	//go:embed testdata/sot-time-scheduled-n8-h8-annealed.json
	huntedScheduledTimeCase []byte
	//go:embed testdata/sot-deflections-scheduled-n8-h8.json
	huntedScheduledDeflCase []byte
	//go:embed testdata/sot-deflections-greedy-a-n8-h8.json
	huntedGreedyADeflCase []byte
)

const (
	huntedScheduledTimeFile = "props/sot/testdata/sot-time-scheduled-n8-h8-annealed.json"
	huntedScheduledDeflFile = "props/sot/testdata/sot-deflections-scheduled-n8-h8.json"
	huntedGreedyADeflFile   = "props/sot/testdata/sot-deflections-greedy-a-n8-h8.json"
)

// sotHuntedPairs is the relation of an instance as (source, target) pairs.
func sotHuntedPairs(in sothunt.Instance) []perm.Pair {
	var rel []perm.Pair
	for i, ds := range in.Dest {
		for _, d := range ds {
			rel = append(rel, perm.Pair{Src: int32(i), Dst: d})
		}
	}
	return rel
}

// sotHuntedTimeCheck judges the hunted relation's steps / h for Algorithm 2
// against (n·h + n − 1)/h: §4.3's time from n and max w(i, j), T ≤ n·W +
// n − 1, with W ≤ h in an h-relation. offset false is the planted fault:
// the bound n·h, the offset term n − 1 dropped. A case whose replay does
// not reproduce its value is judged on the replayed time: over the bound,
// violated (whatever the formula says: the run took that long); within it,
// inconclusive (a stale case).
func sotHuntedTimeCheck(offset bool) func(props.Env) props.Outcome {
	return func(props.Env) props.Outcome {
		c, in, stale, fail := cited.Case[sothunt.Instance](huntedScheduledTimeFile, huntedScheduledTimeCase)
		if fail != nil {
			return *fail
		}
		if in.Algorithm != "scheduled" {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("%s: algorithm %s, want scheduled (Algorithm 2)", c.Path, in.Algorithm)}
		}
		n, h := in.N, in.H
		bound := n * h
		if offset {
			bound += n - 1
		}
		steps := stale.Value(c.Value) * float64(h)
		T, W := sotforms.ScheduledTime(n, sotHuntedPairs(in))
		ev := fmt.Sprintf("%s (SOT(%d), h = %d, replayed on the engine and the local router): %g steps (formula n·w + (j − i) mod n: %d, W = max w(i, j) = %d) against n·h%s = %d, slack %.4f; the w.h.p. bound for random relations, n + 4h = %d, is no bound for the adversary's; %s",
			c.Path, n, h, steps, T, W, map[bool]string{true: " + n − 1", false: ""}[offset], bound, steps/float64(bound), n+4*h, c.Versus())
		switch {
		case stale == nil && float64(T) != steps:
			return props.Outcome{Verdict: props.Inconclusive, Evidence: "the replayed time and the formula disagree: " + ev}
		case steps > float64(bound):
			return props.Outcome{Verdict: props.Violated, Evidence: stale.Note(ev), Slack: props.SlackOf(steps, float64(bound)),
				Counterexample: stale.Mark(map[string]any{"file": c.Path, "steps": steps, "bound": bound, "replay": c.ReplayCommand()})}
		case stale != nil:
			return props.Outcome{Verdict: props.Inconclusive, Evidence: stale.Inconclusive(ev)}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: ev, Slack: props.SlackOf(steps, float64(bound))}
	}
}

// sotHuntedDeflCheck judges a hunted relation's deflections against none
// (§3.2: Algorithm 2 completely avoids deflections). The claim cites the
// scheduled hunt; the first fault cites the Greedy-a hunt (Algorithm 2's
// processors without the schedule). The cited relation is then routed
// again by the case's algorithm with the router's actions rewritten by
// tamper (nil: the real router, which must reproduce the cited value) on
// the fully checked model run (sotCheckedRun), and that run's deflections
// are judged, so a mutant of the router (the second fault) meets the same
// check. A case whose replay does not reproduce its value is routed again
// all the same (the real router must then give the replayed value): a run
// that deflects is a violation, one that does not is inconclusive (a stale
// case).
func sotHuntedDeflCheck(file string, raw []byte, tamper sotTamper) func(props.Env) props.Outcome {
	return func(props.Env) props.Outcome {
		c, in, stale, fail := cited.Case[sothunt.Instance](file, raw)
		if fail != nil {
			return *fail
		}
		alg, err := asot.ParseAlgorithm(in.Algorithm)
		if err != nil || alg.Random() {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("%s: algorithm %q: want a deterministic one (%v)", c.Path, in.Algorithm, err)}
		}
		rel := sotHuntedPairs(in)
		r := sotCheckedRun(alg, in.N, rel, nil, asot.DefaultMaxSteps(in.N, len(rel)), true, tamper)
		defl := float64(len(r.Deflections)) / float64(len(rel))
		ev := fmt.Sprintf("%s (%s on SOT(%d), h = %d, %d packets, replayed on the engine and the local router; routed again on the checked model%s): %.6g deflections per packet against none; %s",
			c.Path, in.Algorithm, in.N, in.H, len(rel), map[bool]string{true: "", false: " with the router mutated"}[tamper == nil], defl, c.Versus())
		switch {
		case len(r.Deflections) == 0 && r.Problem != "":
			return props.Outcome{Verdict: props.Inconclusive, Evidence: ev + "; the checked run failed: " + r.Problem}
		case tamper == nil && defl != stale.Value(c.Value):
			return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("%s; the cited value is %g", ev, stale.Value(c.Value))}
		}
		c.Value = defl
		switch {
		case c.Value > 0:
			return props.Outcome{Verdict: props.Violated, Evidence: stale.Note(ev),
				Counterexample: stale.Mark(map[string]any{"file": c.Path, "algorithm": in.Algorithm, "deflections_per_packet": c.Value, "replay": c.ReplayCommand()})}
		case stale != nil:
			return props.Outcome{Verdict: props.Inconclusive, Evidence: stale.Inconclusive(ev)}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: ev}
	}
}

// sotCaseAs is the saved case raw with its instance's algorithm replaced
// by alg (the same relation, replayed and routed by another router); it
// panics on a case that is not JSON with an instance (a programmer error:
// the cases are embedded).
func sotCaseAs(raw []byte, alg asot.Algorithm) []byte {
	var c map[string]any
	if err := json.Unmarshal(raw, &c); err != nil {
		panic(err)
	}
	in, ok := c["instance"].(map[string]any)
	if !ok {
		panic("sotCaseAs: no instance")
	}
	in["algorithm"] = string(alg)
	out, err := json.Marshal(c)
	if err != nil {
		panic(err)
	}
	return out
}

func init() {
	props.Register(ledger.Text(props.Claim{ID: "sot/sec4.3/hunted-scheduled-time",
		Check:  sotHuntedTimeCheck(true),
		Faults: []props.Fault{{Name: "the bound n·h (offset n − 1 dropped)", Check: sotHuntedTimeCheck(false)}},
	}))
	props.Register(ledger.Text(props.Claim{ID: "sot/sec3.2/hunted-no-deflections",
		Check: sotHuntedDeflCheck(huntedScheduledDeflFile, huntedScheduledDeflCase, nil),
		Faults: []props.Fault{
			{Name: "Algorithm 2 without its schedule (Greedy-a) on the hunted relation", Check: sotHuntedDeflCheck(huntedScheduledDeflFile, sotCaseAs(huntedScheduledDeflCase, asot.GreedyA), nil)},
			{Name: "an off-by-one schedule at P_0 (sotSkewP0, the fault of sot/alg-2/no-deflections) on the hunted relation", Check: sotHuntedDeflCheck(huntedScheduledDeflFile, huntedScheduledDeflCase, sotSkewP0)},
		},
	}))
}
