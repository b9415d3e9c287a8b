package mbfly

import (
	"fmt"
	"math"
	"math/bits"
	"strings"

	amb "routecheck/algos/multibutterfly"
	"routecheck/internal/seeds"
	mb "routecheck/models/multibutterfly"
	"routecheck/props"
)

// Claims 4.1 and 4.2 of 004_8aa7b4c265a7324b.txt checked in simulation on
// the §4.1 network with the (absorbing) §4.2 protocol.

func init() {
	registerSec4Recurrence()
}

// sec4Cfg is one simulated configuration: n nodes per stage, degree d,
// A = ⌈1/α⌉ = 1/α batches per row (A | n, so every batch has exactly
// αn = n/A packets).
type sec4Cfg struct{ n, d, A int }

func sec4Cfgs(b props.Budget) []sec4Cfg {
	cs := []sec4Cfg{{8, 2, 2}, {8, 3, 4}, {16, 3, 4}}
	if b >= props.Default {
		cs = append(cs, sec4Cfg{16, 2, 4}, sec4Cfg{32, 3, 8})
	}
	return cs
}

// sec4Stages counts, for a state, the packets of each batch in each stage:
// c[stage][batch] (buffers only; delivered packets are gone).
func sec4Stages(s mb.CommState, A int) [][]int {
	net := s.Net
	nb := A * (net.LogN + 1)
	c := make([][]int, net.Stages())
	for i := range c {
		c[i] = make([]int, nb)
	}
	for v, p := range s.Buf {
		if p >= 0 {
			c[v/net.N][amb.CommBatch(net, A, s.Dest[p])]++
		}
	}
	return c
}

// sec4RecurrenceCheck checks Claim 4.1 (expander stages s < log n) or Claim
// 4.2 (the splitters of the multi-butterfly part) after every iteration in
// which the stage (splitter) sends, with β the exact expansion of that
// expander (splitter) for sets of size ≤ αn (αm), and with β scaled by
// betaScale (the planted fault raises it). Splitters whose batch load
// exceeds αm (mbfly/sec4.2/batch-load) or with ⌊αm⌋ = 0 are skipped.
func sec4RecurrenceCheck(splitters bool, betaScale float64) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		checked, runs := 0, 0
		var ev []string
		for _, c := range sec4Cfgs(env.Budget) {
			k := bits.Len(uint(c.n)) - 1
			alpha := 1 / float64(c.A)
			for r := range env.Budget.Pick(2, 3, 6) {
				rng := seeds.Rand(env.Seed, 0x5ec41, uint64(c.n), uint64(c.d), uint64(c.A), uint64(r))
				net, s0, dest, err := commStart(c.n, c.d, rng)
				if err != nil {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
				}
				// exact β of each expander stage / splitter
				var expBeta []float64
				var spBeta [][]float64
				if splitters {
					spBeta, err = mbflySplitterBeta(net.MB, alpha)
				} else {
					for s := range k {
						var b float64
						if b, err = exactBeta(commStageExpander(net, s), int(alpha*float64(c.n))); err != nil {
							break
						}
						expBeta = append(expBeta, b)
					}
				}
				if err != nil {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
				}
				prev := sec4Stages(s0, c.A)
				prevState := s0 // the state after iteration t − 1 (RunComm with maxIter 0 would run to the end)
				nb := c.A * (k + 1)
				for t := 1; ; t++ {
					res, st, err := amb.RunComm(s0, c.A, t, false)
					if err != nil {
						return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
					}
					cur := sec4Stages(st, c.A)
					cex := map[string]any{"n": c.n, "d": c.d, "A": c.A, "network_seed": []uint64{env.Seed, 0x5ec41, uint64(c.n), uint64(c.d), uint64(c.A), uint64(r)}, "dest": dest, "iteration": t}
					if !splitters {
						for s := t % 2; s < k; s += 2 { // stages sending in iteration t
							beta := betaScale * expBeta[s]
							sum := 0
							for b := range nb {
								sum += prev[s][b] + prev[s+1][b]
								rhs := float64(sum) / (beta + 1)
								checked++
								if float64(cur[s][b]) > rhs+1e-9 {
									return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n=%d d=%d A=%d network %d, iteration %d, stage %d, batch %d: X^t = %d > Σ_{j≤k}(X_s^{t−1}(j) + X_{s+1}^{t−1}(j))/(β+1) = %d/%.3f", c.n, c.d, c.A, r, t, s, b, cur[s][b], sum, beta+1), Counterexample: cex}
								}
							}
						}
					} else {
						for sg := 0; sg < k; sg++ {
							stage := k + sg
							if stage%2 != t%2 {
								continue
							}
							m := c.n >> sg
							for j := range 1 << sg {
								if math.IsNaN(spBeta[sg][j]) {
									continue
								}
								beta := betaScale * spBeta[sg][j]
								// per-batch counts in the splitter's columns
								count := func(st mb.CommState, stg int) []int {
									out := make([]int, nb)
									for q := j * m; q < (j+1)*m; q++ {
										if p := st.Buf[stg*c.n+q]; p >= 0 {
											out[amb.CommBatch(net, c.A, st.Dest[p])]++
										}
									}
									return out
								}
								Y1, Z1, Y := count(prevState, stage), count(prevState, stage+1), count(st, stage)
								sum := 0
								for b := range nb {
									sum += Y1[b] + Z1[b]
									// batch b's load through this splitter: its columns ≡ b (mod A) in range
									load := 0
									for q := j * m; q < (j+1)*m; q++ {
										if q%c.A == b%c.A {
											load++
										}
									}
									if float64(load) > alpha*float64(m)+1e-9 {
										continue
									}
									checked++
									if float64(Y[b]) > float64(sum)/(beta+1)+1e-9 {
										return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n=%d d=%d A=%d network %d, iteration %d, splitter (%d, %d), m = %d, batch %d: Y^t = %d > Σ_{j≤k}(Y^{t−1}(j) + Z^{t−1}(j))/(β+1) = %d/%.3f", c.n, c.d, c.A, r, t, sg, j, m, b, Y[b], sum, beta+1), Counterexample: cex}
									}
								}
							}
						}
					}
					prev, prevState = cur, st
					runs++
					if res.Complete {
						break
					}
				}
			}
			ev = append(ev, fmt.Sprintf("(n, d, A) = (%d, %d, %d)", c.n, c.d, c.A))
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("%d (iteration, stage or splitter, batch) triples checked over %d iterations; configurations %s", checked, runs, strings.Join(ev, ", "))}
	}
}

func registerSec4Recurrence() {
	props.Register(ledger.Text(props.Claim{
		ID:     "mbfly/claim-4.1/expander-recurrence",
		Check:  sec4RecurrenceCheck(false, 1),
		Faults: []props.Fault{{Name: "each expander's β doubled (fixed before running)", Check: sec4RecurrenceCheck(false, 2)}},
	}))
	props.Register(ledger.Text(props.Claim{
		ID:     "mbfly/claim-4.2/splitter-recurrence",
		Check:  sec4RecurrenceCheck(true, 1),
		Faults: []props.Fault{{Name: "each splitter's β doubled (fixed before running)", Check: sec4RecurrenceCheck(true, 2)}},
	}))
}
