package sortnet

import (
	_ "embed"
	"fmt"

	"routecheck/internal/hunt"
	"routecheck/internal/sortnethunt"
	"routecheck/props"
)

// The AKS family against the hunted worst inputs (issue 11 §3: bound claims
// cite the hunted worst case). The claim replays saved cases of `routecheck
// hunt sortnet-unsorted` (copied from testdata/hunt/, which `go test
// ./cmd/routecheck` replays too) through hunt.Cite — the replayer of
// `routecheck replay`: the network rebuilt and the input run through the
// model's Apply and through a plain loop over the comparators — and judges
// the misplaced outputs the hunt maximized against none.
var (
	//go:embed testdata/sortnet-unsorted-aks-n1024.json
	huntedAKSCase []byte
	//go:embed testdata/sortnet-unsorted-aks-expander-n1024-d4.json
	huntedAKSExpanderCase []byte
)

const (
	huntedAKSFile         = "props/sortnet/testdata/sortnet-unsorted-aks-n1024.json"
	huntedAKSExpanderFile = "props/sortnet/testdata/sortnet-unsorted-aks-expander-n1024-d4.json"
)

// huntedUnsortedCheck judges a cited sortnet-input case: a sorting network
// leaves no output out of place.
func huntedUnsortedCheck(file string, raw []byte) func(props.Env) props.Outcome {
	return func(props.Env) props.Outcome {
		c, in, err := hunt.CiteInstance[sortnethunt.Instance](file, raw)
		if err != nil {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
		}
		net := in.Network
		if in.Network == "aks-expander" {
			net = fmt.Sprintf("aks-expander, d = %d, net seed %d", in.D, in.NetSeed)
		}
		ev := fmt.Sprintf("%s (%s network on n = %d wires, replayed with the model's Apply and a plain comparator loop): %g outputs out of place against none; %s",
			c.Path, net, in.N, c.Value, c.Versus())
		if c.Value > 0 {
			return props.Outcome{Verdict: props.Violated, Evidence: ev,
				Counterexample: map[string]any{"file": c.Path, "network": in.Network, "n": in.N, "misplaced": c.Value, "replay": c.ReplayCommand()}}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: ev}
	}
}

func init() {
	props.Register(props.Claim{ID: "sortnet/aks/hunted-unsorted", Source: srcSeiferas + " §4–§6 (the network sorts); " + srcAKS000 + " (the hunted worst input; issue 11 §3)", Kind: props.Invariant, Recorded: props.Holds, Class: props.Construction,
		Statement: "The input that `routecheck hunt sortnet-unsorted --network aks` left furthest from sorted on Seiferas's network with exact separators at n = 1024 (hill climb over input permutations, against random permutations at the same number of evaluations) comes out sorted: no output out of place.",
		Scope:     "the saved case testdata/hunt/sortnet-unsorted-aks-n1024.json (copied to props/sortnet/testdata): the aks network (exact halvers, §5 parameters), n = 1024; replayed through hunt.Cite; the same at every budget",
		Notes: "Class construction, as sortnet/aks/exact-halver/sorts: Seiferas's schedule with our exact separators. The case (`routecheck hunt sortnet-unsorted --network aks --iters 2000`, seed 1): 0 misplaced outputs, and 0 for the best of 2000 random permutations; the climb accepted every move (all inputs tie at 0), so the hunt is a search that found nothing, reported as such; sortnet/aks/exact-halver/sorts proves sorting exhaustively only at small n (0-1 inputs), so this is evidence at n = 1024 against an adversary, not a proof. " +
			"Planted fault (written before running): the same network family with the exact separators replaced by halvers of d = 4 random perfect matchings (aks-expander, the substitute of sortnet/aks/expander-halver/sorts, recorded violated), whose hunted input (`routecheck hunt sortnet-unsorted --iters 2000`, seed 1, net seed 1: 70 misplaced against 47 for the best of 2000 random permutations; testdata/hunt/sortnet-unsorted-aks-expander-n1024-d4.json) is judged by the same check.",
		Check:  huntedUnsortedCheck(huntedAKSFile, huntedAKSCase),
		Faults: []props.Fault{{Name: "separators from d = 4 random-matching halvers (aks-expander; its hunted input)", Check: huntedUnsortedCheck(huntedAKSExpanderFile, huntedAKSExpanderCase)}},
	})
}
