package mbfly

import (
	"fmt"
	"strings"

	"routecheck/props"
)

// Theorem 4.3's proof, first step of its degree reduction: "We can apply
// Theorem 4.2 to sets of d nonadjacent expanders to reduce the degree of all
// the vertices in the first part of the network to 4."
//
// Theorem 4.2 on a set S of d layers (layer ℓ joins stage ℓ to ℓ + 1) gives
// each vertex one line of its layer and a cycle through its d copies: the
// copies of node v in the sender stages {ℓ : ℓ ∈ S}, and the copies of u in
// the receiver stages {ℓ + 1 : ℓ ∈ S}. A node of stage s is a sender in the
// set S(s) holding layer s and a receiver in the set S(s − 1); it has
// degree 4 (forward line, backward line, one cycle) only if the two cycles
// through it are one: senders(S(s)) = receivers(S(s − 1)). Otherwise it
// lies on two cycles: degree 6, or 5 when the two cycles happen to share
// one of its lines (a 2-cycle counted as a double line, as Theorem 4.2's
// G' has it).

func init() {
	registerThm43Groups()
}

// groupBad returns, over every partition of layers 0 … P−1 into sets of d
// pairwise nonadjacent layers, the least number of stages s (1 ≤ s ≤ P−1,
// or every s mod P on a ring) whose two cycles differ, one partition
// attaining it, and how many partitions there are. On a ring layer P − 1
// joins stage P − 1 to stage 0 and layers 0, P − 1 are adjacent.
func groupBad(P, d int, ring bool) (best int, bestPart [][]int, count int) {
	adj := func(a, b int) bool {
		return a-b == 1 || b-a == 1 || ring && (a == 0 && b == P-1 || b == 0 && a == P-1)
	}
	set := make([]int, P) // set index of each layer, −1 unassigned
	for i := range set {
		set[i] = -1
	}
	best = P + 1
	var sets [][]int
	// stages of a set as a bitmask
	senders := func(s []int) uint64 {
		var m uint64
		for _, l := range s {
			m |= 1 << uint(l)
		}
		return m
	}
	receivers := func(s []int) uint64 {
		var m uint64
		for _, l := range s {
			r := l + 1
			if ring {
				r %= P
			}
			m |= 1 << uint(r)
		}
		return m
	}
	judge := func() {
		count++
		bad := 0
		lo, hi := 1, P-1
		if ring {
			lo = 0
		}
		for s := lo; s <= hi; s++ {
			prev := s - 1
			if prev < 0 {
				prev = P - 1
			}
			if senders(sets[set[s]]) != receivers(sets[set[prev]]) {
				bad++
			}
		}
		if bad < best {
			best = bad
			bestPart = nil
			for _, x := range sets {
				bestPart = append(bestPart, append([]int(nil), x...))
			}
		}
	}
	var fill func()
	fill = func() {
		first := -1
		for i, s := range set {
			if s < 0 {
				first = i
				break
			}
		}
		if first < 0 {
			judge()
			return
		}
		cur := []int{first}
		var pick func(from int)
		pick = func(from int) {
			if len(cur) == d {
				idx := len(sets)
				sets = append(sets, append([]int(nil), cur...))
				for _, l := range cur {
					set[l] = idx
				}
				fill()
				for _, l := range cur {
					set[l] = -1
				}
				sets = sets[:idx]
				return
			}
			for l := from; l < P; l++ {
				if set[l] >= 0 {
					continue
				}
				ok := true
				for _, x := range cur {
					if adj(x, l) {
						ok = false
						break
					}
				}
				if ok {
					cur = append(cur, l)
					pick(l + 1)
					cur = cur[:len(cur)-1]
				}
			}
		}
		pick(first + 1)
	}
	fill()
	return best, bestPart, count
}

// thm43GroupsCheck searches every grouping of the expander layers. As a
// control it first searches the same (P, d) on a ring of layers, where the
// translates {j, j + P/d, …} leave no node on two cycles: a search that
// finds a bad stage there is broken (inconclusive).
func thm43GroupsCheck() func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		var ev []string
		var first map[string]any
		firstEv := ""
		cases := [][2]int{{4, 2}, {6, 2}, {8, 2}, {8, 4}, {6, 3}}
		if env.Budget >= props.Default {
			cases = append(cases, [2]int{10, 2}, [2]int{12, 2}, [2]int{12, 4}, [2]int{12, 3}, [2]int{9, 3})
		}
		for _, c := range cases {
			P, d := c[0], c[1]
			if rb, rp, _ := groupBad(P, d, true); rb != 0 {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("control failed: on a ring of P = %d layers, d = %d, the search's best grouping %v leaves %d bad stages (translates leave none)", P, d, rp, rb)}
			}
			best, part, count := groupBad(P, d, false)
			if count == 0 {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("P = %d, d = %d: no grouping into sets of nonadjacent layers", P, d)}
			}
			ev = append(ev, fmt.Sprintf("P=%d d=%d: %d groupings, least %d stage(s) on two cycles (%v)", P, d, count, best, part))
			if best > 0 && first == nil {
				first = map[string]any{"P": P, "d": d, "groupings": count, "least_bad_stages": best, "grouping": part}
				firstEv = fmt.Sprintf("P = %d expander layers, d = %d: every one of the %d groupings into sets of d nonadjacent layers leaves at least %d stage(s) whose nodes lie on two Theorem 4.2 cycles (degree 5 or 6, not 4); best grouping %v", P, d, count, best, part)
			}
		}
		if first != nil {
			return props.Outcome{Verdict: props.Violated, Evidence: firstEv + ". All: " + strings.Join(ev, "; "), Counterexample: first}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: strings.Join(ev, "; ")}
	}
}

func registerThm43Groups() {
	props.Register(ledger.Text(props.Claim{
		ID:    "mbfly/thm-4.3/expander-part-degree-4",
		Check: thm43GroupsCheck(),
	}))
}
