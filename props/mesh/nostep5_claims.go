package mesh

import (
	"fmt"
	"strings"

	amesh "routecheck/algos/mesh"
	"routecheck/internal/seeds"
	"routecheck/props"
)

// §6 of 003_8774480fe7c747cc.txt: "The factors log n that appear in the
// time consumption and queue size of our algorithm are introduced by Step 5
// of ALLOCATE. Possibly the packets with destination in the same row could
// be allocated all at once, but one has to be careful not to increase the
// routing time of Phase 3." Checked with ALLOCATE without Step 5
// (algos/mesh.AllocateNoStep5), a separately named variant.

// noStep5 is AllocateNoStep5 as DET_3_PHASE_ROUTE's allocator.
func noStep5(n int, _ int32, dst []amesh.Dest) (amesh.Allocation, error) {
	return amesh.AllocateNoStep5(n, dst, nil)
}

// withStep5 is the real ALLOCATE as an allocFn (the planted fault of the
// no-Step-5 claims: Step 5 put back).
func withStep5(n int, _ int32, dst []amesh.Dest) (amesh.Allocation, error) {
	return amesh.Allocate(n, dst, nil)
}

const faultWithStep5 = "ALLOCATE with Step 5 (the paper's algorithm) in place of AllocateNoStep5"

// noStep5Case is one k-k distribution the no-Step-5 claims route.
type noStep5Case struct {
	what string
	n, k int
	dst  [][]amesh.Dest
	cex  any
}

// noStep5Cases are the saved Lemma 7 hunt cases (hunted against ALLOCATE,
// so they load its Step-5 rounding), then one distribution of every k-k
// family at every size of kkSizes at the budget.
func noStep5Cases(env props.Env) ([]noStep5Case, error) {
	hunted, err := parseSaved(lemma7Cases)
	if err != nil {
		return nil, err
	}
	out := noStep5Hunted(hunted)
	for _, nk := range kkSizes(env.Budget) {
		n, k := nk[0], nk[1]
		for fi, f := range KKFamilies {
			seed := seeds.Derive(env.Seed, 0x5705, uint64(n), uint64(k), uint64(fi))
			out = append(out, noStep5Case{string(f), n, k, GenKK(f, n, k, seeds.Rand(seed)), KKCase{amesh.Det3, false, n, k, f, seed}})
		}
	}
	return out, nil
}

// noStep5Hunted are saved cases as noStep5Cases: "hunted " and the file,
// with the file as counterexample.
func noStep5Hunted(hs []huntedKK) []noStep5Case {
	var out []noStep5Case
	for _, h := range hs {
		out = append(out, noStep5Case{"hunted " + h.file, h.n, h.k, h.dst, map[string]any{"file": h.file}})
	}
	return out
}

func init() {
	queue := func(alloc allocFn) func(props.Env) props.Outcome {
		return func(env props.Env) props.Outcome {
			cases, err := noStep5Cases(env)
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
			}
			var sl slackMax
			var ev []string
			for _, c := range cases {
				r, err := det3Run(c.n, c.dst, alloc, false)
				if err != nil {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
				}
				q, b := r.EndQueue[1], c.k+c.n*c.n
				sl.see(float64(q), float64(b))
				if q >= b {
					return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n = %d, k = %d, %s: a PU ends Phase 2 with %d ≥ k + n² = %d packets", c.n, c.k, c.what, q, b), Counterexample: c.cex}
				}
				if strings.HasPrefix(c.what, "hunted") {
					ra, err := det3Run(c.n, c.dst, nil, false)
					if err != nil {
						return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
					}
					ev = append(ev, fmt.Sprintf("hunted n=%d k=%d: k + %d = k + %.3f·n² (ALLOCATE: k + %d = k + %.3f·n² log n; ratio %.3f)", c.n, c.k, q-c.k, float64(q-c.k)/float64(c.n*c.n), ra.EndQueue[1]-c.k, float64(ra.EndQueue[1]-c.k)/float64(nlogn2(c.n)), float64(q-c.k)/float64(ra.EndQueue[1]-c.k)))
				}
			}
			return sl.on(props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("below k + n² on all %d cases (the hunted ones and 4 families × %v); %s", len(cases), kkSizes(env.Budget), strings.Join(ev, "; "))})
		}
	}
	props.Register(withPowerNote(ledger.Text(props.Claim{ID: "mesh/sec-6/no-step-5-queue",
		Check:  queue(noStep5),
		Faults: []props.Fault{{Name: faultWithStep5, Check: queue(withStep5)}},
	})))

	phase1 := func(env props.Env) props.Outcome {
		cases, err := noStep5Cases(env)
		if err != nil {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
		}
		for _, c := range cases {
			for _, col := range []bool{false, true} {
				r, err := det3Run(c.n, c.dst, noStep5, col)
				if err != nil {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
				}
				div := 4
				if col {
					div = 8
				}
				if r.PhaseSteps[0] != c.k*c.n/div || r.EndQueue[0] != c.k {
					return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n = %d, k = %d, %s, coloring %v: Phase 1 takes %d steps (k·n/%d = %d) and leaves up to %d packets in a PU (k = %d)", c.n, c.k, c.what, col, r.PhaseSteps[0], div, c.k*c.n/div, r.EndQueue[0], c.k), Counterexample: c.cex}
				}
			}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("exact on all %d cases, with and without coloring", len(cases))}
	}
	props.Register(ledger.Text(props.Claim{ID: "mesh/sec-6/no-step-5-phase-1",
		Check: phase1,
	}))

	time := func(alloc allocFn) func(props.Env) props.Outcome {
		return func(env props.Env) props.Outcome {
			cases, err := noStep5Cases(env)
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
			}
			hunted, err := loadHuntedTime()
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
			}
			cases = append(cases, noStep5Hunted(hunted)...)
			var sl slackMax
			var ev []string
			for _, c := range cases {
				r, err := det3Run(c.n, c.dst, alloc, true)
				if err != nil {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
				}
				b := float64(c.k*c.n)/2 + 1.5*float64(c.n*c.n)
				sl.see(float64(r.Steps), b)
				if float64(r.Steps) > b {
					return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n = %d, k = %d, %s: %d steps %v > k·n/2 + 1.5·n² = %.0f", c.n, c.k, c.what, r.Steps, r.PhaseSteps, b), Counterexample: c.cex}
				}
				if c.what == string(KKUniform) || strings.HasPrefix(c.what, "hunted") {
					ra, err := det3Run(c.n, c.dst, nil, true)
					if err != nil {
						return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
					}
					ev = append(ev, fmt.Sprintf("n=%d k=%d %s: %d %v against ALLOCATE's %d %v", c.n, c.k, c.what, r.Steps, r.PhaseSteps, ra.Steps, ra.PhaseSteps))
				}
			}
			return sl.on(props.Outcome{Verdict: props.Holds, Evidence: "within k·n/2 + 1.5·n² on every case; " + strings.Join(ev, "; ")})
		}
	}
	props.Register(withPowerNote(ledger.Text(props.Claim{ID: "mesh/sec-6/no-step-5-time",
		Check:  time(noStep5),
		Faults: []props.Fault{{Name: faultWithStep5, Check: time(withStep5)}},
	})))
}
