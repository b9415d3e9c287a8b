package bfly

import (
	_ "embed"
	"fmt"

	"routecheck/internal/bflyhunt"
	"routecheck/internal/seeds"
	"routecheck/internal/stats"
	"routecheck/props"
	"routecheck/props/internal/cited"
)

// Theorems 2 and 8 against the hunted worst cases (issue 11 §3: bound
// claims cite the hunted worst case). Each claim replays a saved case of
// `routecheck hunt` (copied from testdata/hunt/, which `go test
// ./cmd/routecheck` replays too) through hunt.Cite — the replayer of
// `routecheck replay`, fast engine and step model — and judges the value
// the hunt maximized against the bound it hunts.
var (
	//go:embed testdata/bfly-latency-n6-r0.json
	huntedLatencyCase []byte
	//go:embed testdata/bfly-queue-n6-r3.json
	huntedQueueCase []byte
)

const (
	huntedLatencyFile = "props/bfly/testdata/bfly-latency-n6-r0.json"
	huntedQueueFile   = "props/bfly/testdata/bfly-queue-n6-r3.json"
)

// bflyHuntedLatencyCheck judges the hunted renamed permutation against
// Theorem 2 with a (3: the ledger's reading; the fault halves it). The
// case is first replayed on its own seeds (hunt.Cite); then the
// permutation — the adversary's choice, fixed before σ and the router's
// coins — is routed with fresh seeds, since the hunt's value is a maximum
// over the very seeds it reports and so biased upward. Theorem 2 bounds the
// probability of a run taking ≥ a·log N steps by 1/N: the claim is
// violated when the count of such fresh runs has an exact binomial tail
// P(Bin(runs, 1/N) ≥ count) ≤ Alpha. The verdict rests on the fresh runs,
// not on the case's value (a mean, which Theorem 2 does not bound), so a
// case whose replay does not reproduce its value is still routed fresh:
// violated when the fresh runs say so, else inconclusive (a stale case).
func bflyHuntedLatencyCheck(a float64) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		c, in, stale, fail := cited.Case[bflyhunt.Instance](huntedLatencyFile, huntedLatencyCase)
		if fail != nil {
			return *fail
		}
		if !in.Rename || in.R != 0 {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("%s: rename %v, r = %d: Theorem 2 is about renamed permutations with r = 0", c.Path, in.Rename, in.R)}
		}
		runs := env.Budget.Pick(60, 200, 1000)
		limit := a * float64(in.LogN)
		over, worst, sum := 0, 0, 0
		for i := range runs {
			r, err := in.Run(seeds.Derive(env.Seed, 0xb17, uint64(i)))
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("%s: fresh run %d: %v", c.Path, i, err)}
			}
			sum += r.Steps
			worst = max(worst, r.Steps)
			if float64(r.Steps) >= limit {
				over++
			}
		}
		q := 1 / float64(int(1)<<in.LogN)
		tail := stats.BinomAtLeast(over, runs, q)
		need := stats.BinomMinCount(runs, q, props.Alpha)
		ev := fmt.Sprintf("%s (N = 2^%d, renamed, r = 0): on its %d hunt seeds (replayed on the engine and the step model) mean steps / log N = %.6g — %s; on %d fresh seeds mean %.4g, largest %d steps = %.4g·log N against a·log N = %g: %d runs at or above it, P(Bin(%d, 1/N) ≥ %d) = %.3g (α = %g; a violation needs ≥ %d of %d runs, %.1f%%, against 1/N = %.2f%%); slack (largest / (a·log N)) %.3f",
			c.Path, in.LogN, len(in.Seeds), stale.Value(c.Value), c.Versus(), runs, float64(sum)/float64(runs)/float64(in.LogN), worst, float64(worst)/float64(in.LogN), limit, over, runs, over, tail, props.Alpha, need, runs, 100*float64(need)/float64(runs), 100*q, float64(worst)/limit)
		switch {
		case over > 0 && tail <= props.Alpha:
			return props.Outcome{Verdict: props.Violated, Evidence: stale.Note(ev), Slack: props.SlackOf(float64(worst), limit),
				Counterexample: stale.Mark(map[string]any{"file": c.Path, "runs": runs, "over": over, "a": a, "seed": env.Seed, "replay": c.ReplayCommand()})}
		case stale != nil:
			return props.Outcome{Verdict: props.Inconclusive, Evidence: stale.Inconclusive(ev)}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: ev, Slack: props.SlackOf(float64(worst), limit)}
	}
}

// bflyHuntedQueueCheck judges the hunted permutation's mean largest queue
// against Lemma 9's congestion bound 6c·log N (c = 7 as in
// bfly/thm-8/time-and-congestion; cScale 1 for the claim, ½ for the fault).
// A queue holds packets that all pass through its node, so the largest
// queue is at most the congestion. A case whose replay does not reproduce
// its value is judged on the replayed value: violated when that reaches
// the bound, else inconclusive (a stale case).
func bflyHuntedQueueCheck(cScale float64) func(props.Env) props.Outcome {
	return func(props.Env) props.Outcome {
		c, in, stale, fail := cited.Case[bflyhunt.Instance](huntedQueueFile, huntedQueueCase)
		if fail != nil {
			return *fail
		}
		const cPsi = 7
		if m := bflyMaxM(in.LogN, in.R); m >= cPsi<<in.R {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("%s: N = 2^%d, r = %d: |M| can reach %d ≥ c·2^r = %d, so the permutation's membership of Ψ(r, c·2^r) would have to be checked", c.Path, in.LogN, in.R, m, cPsi<<in.R)}
		}
		bound := 6 * cScale * cPsi * float64(in.LogN)
		v := stale.Value(c.Value)
		ev := fmt.Sprintf("%s (N = 2^%d, r = %d, renamed %v, %d fixed seeds; every permutation of this N is in Ψ(%d, %d): |M| ≤ %d): mean largest queue %.6g against 6c·log N = %g, slack %.4f; %s",
			c.Path, in.LogN, in.R, in.Rename, len(in.Seeds), in.R, cPsi<<in.R, bflyMaxM(in.LogN, in.R), v, bound, v/bound, c.Versus())
		switch {
		case v >= bound:
			return props.Outcome{Verdict: props.Violated, Evidence: stale.Note(ev), Slack: props.SlackOf(v, bound),
				Counterexample: stale.Mark(map[string]any{"file": c.Path, "mean_largest_queue": v, "bound": bound, "replay": c.ReplayCommand()})}
		case stale != nil:
			return props.Outcome{Verdict: props.Inconclusive, Evidence: stale.Inconclusive(ev)}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: ev, Slack: props.SlackOf(v, bound)}
	}
}

func init() {
	props.Register(ledger.Text(props.Claim{ID: "bfly/thm-2/hunted-latency",
		Check:  bflyHuntedLatencyCheck(3),
		Faults: []props.Fault{{Name: "a halved (1.5·log N)", Check: bflyHuntedLatencyCheck(1.5)}},
	}))
	props.Register(ledger.Text(props.Claim{ID: "bfly/thm-8/hunted-queue",
		Check:  bflyHuntedQueueCheck(1),
		Faults: []props.Fault{{Name: "c halved (21·log N)", Check: bflyHuntedQueueCheck(0.5)}},
	}))
}
