package props

import (
	"fmt"

	"routecheck/algos/mesh"
	mmesh "routecheck/models/mesh"
	"routecheck/oracles/mesh1d"

	"pgregory.net/rapid"
)

const seed003 = "003_8774480fe7c747cc.txt"

// LinearInstance is a packet distribution on a linear array, as a
// counterexample.
type LinearInstance struct {
	N   int     `json:"n"`
	Src []int32 `json:"src"`
	Dst []int32 `json:"dst"`
}

// GenLinear draws a distribution on at most maxN PUs with at most maxP
// packets (arbitrary sources and destinations: rightward, leftward and
// standing packets mixed).
func GenLinear(t *rapid.T, maxN, maxP int) LinearInstance {
	n := rapid.IntRange(1, maxN).Draw(t, "n")
	p := rapid.IntRange(0, maxP).Draw(t, "packets")
	in := LinearInstance{N: n, Src: make([]int32, p), Dst: make([]int32, p)}
	for k := range p {
		in.Src[k] = int32(rapid.IntRange(0, n-1).Draw(t, "src"))
		in.Dst[k] = int32(rapid.IntRange(0, n-1).Draw(t, "dst"))
	}
	return in
}

// rightSteps is T_r measured by farthest-first routing on the step model.
func rightSteps(in LinearInstance) (int, error) {
	s, err := mmesh.NewLinear(in.N, in.Src, in.Dst)
	if err != nil {
		return 0, err
	}
	r, err := mesh.RunLinear(s, 4*in.N+2*len(in.Src)+4)
	return r.StepsRight, err
}

func init() {
	const src = seed003 + " Lemma 4"
	lemma4 := func(id, statement string, recorded Verdict, notes string, formula func(n int, s, d []int32) int) {
		Register(Claim{ID: id, Source: src, Kind: Exact, Recorded: recorded, Statement: statement,
			Scope: "linear arrays of n ≤ 12 PUs, up to 40 packets with arbitrary sources and destinations, farthest-first on the step model (ties: earliest in queue)",
			Notes: notes,
			Check: func(env Env) Outcome {
				checks := env.Budget.Pick(300, 3000, 30000)
				cex, rep := Falsify(env, checks, func(t *rapid.T) any {
					in := GenLinear(t, 12, 40)
					got, err := rightSteps(in)
					if err != nil {
						return map[string]any{"instance": in, "error": err.Error()}
					}
					if want := formula(in.N, in.Src, in.Dst); got != want {
						return map[string]any{"instance": in, "steps": got, "formula": want}
					}
					return nil
				})
				if cex != nil {
					return Outcome{Verdict: Violated, Evidence: fmt.Sprintf("formula differs from the routing time (shrunk by rapid): %s", rep), Counterexample: cex}
				}
				return Outcome{Verdict: Holds, Evidence: fmt.Sprintf("equal on %d random distributions (rapid)", checks)}
			}})
	}
	lemma4("mesh/lemma-4/printed",
		"T_r(D) = max_{i<j} (j − i − 1 + h_r(i, j)), h_r(i, j) = packets from PUs with index smaller than i to PUs with index ≥ j.",
		Violated,
		"As printed the formula is off: with no packets at all it gives n − 2, and one packet 0 → 2 on three PUs (2 steps) gives 1. Two corrections make it exact (mesh/lemma-4/corrected): count the packets from PUs with index at most i, and take the maximum only over pairs with h(i, j) > 0 (0 if none). The paper then uses only the simplified form 'the maximum number of packets that have to cross any connection', which is unaffected.",
		mesh1d.Lemma4Printed)
	lemma4("mesh/lemma-4/corrected",
		"T_r(D) = max over i < j with h(i, j) > 0 of (j − i − 1 + h(i, j)), h(i, j) = packets from PUs with index ≤ i to PUs with index ≥ j; farthest-first attains it.",
		Holds,
		"routecheck's correction of the printed Lemma 4 (see mesh/lemma-4/printed). The leftward twin (mirror image) is checked in algos/mesh's tests, where the step model, a fast counting engine and a naive reference simulator are also compared.",
		mesh1d.Lemma4)
}
