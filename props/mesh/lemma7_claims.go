package mesh

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	amesh "routecheck/algos/mesh"
	"routecheck/internal/seeds"
	"routecheck/props"
)

// Lemma 7 "rather tight" (003_8774480fe7c747cc.txt §3, after Lemma 7): the
// hunted worst cases of the end-of-Phase-2 queue against the bound.

// The saved hunt cases (routecheck hunt mesh-phase2-queue, no coloring):
// n = 4, k = 16 (--iters 20000 --seed 13), n = 8, k = 64 (a copy of
// testdata/hunt/mesh-phase2-queue-n8-k64.json) and n = 16, k = 256 (--time
// 6m --seed 13: 9253 evaluations, 884 s wall, 269 s CPU; gzipped, 0.8 MB
// of JSON).
var lemma7Cases = []savedCase{
	{"props/mesh/testdata/mesh-lemma7-queue-n4-k16.json"},
	{"props/mesh/testdata/mesh-lemma7-queue-n8-k64.json"},
	{"props/mesh/testdata/mesh-lemma7-queue-n16-k256.json.gz"},
}

// lemma7Bound is Lemma 7's bound on the end-of-Phase-2 queue (strict:
// less than k + n²·log n), checked on the k-k families and on the hunted
// lemma7Cases.
var lemma7Bound = kkBound{value: func(r amesh.KKResult) int { return r.EndQueue[1] }, bound: func(n, k int) float64 { return float64(k + nlogn2(n)) }, strict: true,
	over:     "queue %d ≥ k + n² log n = %d",
	describe: func(n, k, v int, b float64) string { return fmt.Sprintf("queue k + %d (bound k + %d)", v-k, int(b)-k) },
	hunted:   sync.OnceValues(func() ([]huntedKK, error) { return parseSaved(lemma7Cases) })}

// Lemma7TightMin is the fraction of Lemma 7's additive term n²·log n that
// the hunted excess (end-of-Phase-2 queue − k) must reach at every n for
// the bound to count as "rather tight".
const Lemma7TightMin = 0.25

// endQueue2Uncoloured is the largest queue at the end of Phase 2 of
// DET_3_PHASE_ROUTE without coloring, counted from the plan and measured
// by RouteKK (fast engine); they must agree.
func endQueue2Uncoloured(n int, d [][]amesh.Dest) (int, error) {
	l, err := phase2Loads(n, d, false, nil)
	if err != nil {
		return 0, err
	}
	r, err := det3Run(n, d, nil, false)
	if err != nil {
		return 0, err
	}
	if q := slices.Max(l); q != r.EndQueue[1] {
		return 0, fmt.Errorf("end-of-Phase-2 queue %d counted from the plan, %d measured", q, r.EndQueue[1])
	}
	return r.EndQueue[1], nil
}

func init() {
	// tight judges the hunted cases, or with uniform a uniform random
	// k-k distribution of each case's size in its place (the planted
	// fault: no hunt).
	tight := func(env props.Env, scale int, uniform bool) props.Outcome {
		var ev []string
		worst := 2.0
		for i, c := range lemma7Cases {
			n, k, d, err := c.parse()
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("%s: %v", c.file, err)}
			}
			if uniform {
				d = GenKK(KKUniform, n, k, seeds.Rand(env.Seed, 0x7a, uint64(i)))
				c.file = "uniform random in place of " + c.file
			}
			q, err := endQueue2Uncoloured(n, d)
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("%s: %v", c.file, err)}
			}
			term := scale * nlogn2(n)
			frac := float64(q-k) / float64(term)
			worst = min(worst, frac)
			ev = append(ev, fmt.Sprintf("n=%d k=%d: queue %d = k + %d, %.3f of %d·n² log n = %d (%s)", n, k, q, q-k, frac, scale, term, c.file))
			if q >= k+nlogn2(n) {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("%s: the hunted queue %d breaks Lemma 7 itself (k + n² log n = %d); see mesh/lemma-7/queue-after-phase-2", c.file, q, k+nlogn2(n))}
			}
			if frac < Lemma7TightMin {
				return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n = %d, k = %d: the hunted excess %d is only %.3f of %d·n² log n (< %g): %s", n, k, q-k, frac, scale, Lemma7TightMin, strings.Join(ev, "; ")),
					Counterexample: map[string]any{"file": c.file, "n": n, "k": k, "queue": q, "term": term}}
			}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("hunted excess ≥ %.3f of n² log n at every n: %s", worst, strings.Join(ev, "; ")), Slack: props.SlackOf(worst, 1)}
	}
	props.Register(withPowerNote(ledger.Text(props.Claim{ID: "mesh/lemma-7/rather-tight",
		Statement: fmt.Sprintf("Lemma 7's estimate k + n²·log n is rather tight: a k-k distribution exists (found by hunting) whose end-of-Phase-2 queue exceeds k by at least %g·n²·log n, at every n hunted.", Lemma7TightMin),
		Notes: "Class reading (2026-11-24, review): 'rather tight' gives no number, and the floor below was chosen after hunts, so it is our reading of the sentence, not the paper's; a shortfall would say the hunt is weak (or the reading too strict), not that the paper is wrong. Tightness hunted, not assumed. " + fmt.Sprintf("The fraction %g (within a factor 4 of the bound's additive term) was chosen knowing that earlier hunts had reached about 0.5; the hunted values are 0.5625 (n = 4: queue 34 = k + 18 against k + 32; the best of 18801 random distributions reached k + 13), 0.583 (n = 8: 176 = k + 112 against k + 192) and 0.358 (n = 16: 623 = k + 367 against k + 1024; the best of 9253 random distributions reached k + 158, and the climb was still improving when its 6 minutes ran out). ", Lemma7TightMin) +
			"The factor n² is visible in the cases: the excess grows from 18 to 112 to 367 as n²·log n grows from 32 to 192 to 1024. Planted fault (written before running): the same check against Lemma 7's term scaled by 4 (a bound four times looser would not be tight). [2026-11-25, review] A fresh reviewer showed that fault cannot escape: a case at or over k + n²·log n makes the check inconclusive, so on any data where the claim can hold the excess is below n²·log n, hence below 0.25 of 4·n²·log n: the fault is caught whatever the data. It is replaced by a fault on the other side, written before running: no hunt, one uniform random k-k distribution of each size in place of the hunted case (the hunt's own random baselines reached k + 13 at n = 4 and k + 158 at n = 16, 0.41 and 0.15 of n²·log n); caught at n = 4 (k + 5 = 0.16 of 32 at the ledger's seed).",
		Check:  func(env props.Env) props.Outcome { return tight(env, 1, false) },
		Faults: []props.Fault{{Name: "no hunt: a uniform random k-k distribution of each hunted size in place of the hunted case", Check: func(env props.Env) props.Outcome { return tight(env, 1, true) }}},
	})))
}
