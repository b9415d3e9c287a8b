package sortnet

import (
	_ "embed"
	"fmt"

	"routecheck/internal/sortnethunt"
	"routecheck/props"
	"routecheck/props/internal/cited"
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
// leaves no output out of place. A case whose replay does not reproduce its
// recorded value is judged on the replayed value: violated when that
// leaves outputs out of place, else inconclusive (a stale case).
func huntedUnsortedCheck(file string, raw []byte) func(props.Env) props.Outcome {
	return func(props.Env) props.Outcome {
		c, in, stale, fail := cited.Case[sortnethunt.Instance](file, raw)
		if fail != nil {
			return *fail
		}
		net := in.Network
		if in.Network == "aks-expander" {
			net = fmt.Sprintf("aks-expander, d = %d, net seed %d", in.D, in.NetSeed)
		}
		v := stale.Value(c.Value)
		ev := fmt.Sprintf("%s (%s network on n = %d wires, replayed with the model's Apply and a plain comparator loop): %g outputs out of place against none; %s",
			c.Path, net, in.N, v, c.Versus())
		switch {
		case v > 0:
			return props.Outcome{Verdict: props.Violated, Evidence: stale.Note(ev),
				Counterexample: stale.Mark(map[string]any{"file": c.Path, "network": in.Network, "n": in.N, "misplaced": v, "replay": c.ReplayCommand()})}
		case stale != nil:
			return props.Outcome{Verdict: props.Inconclusive, Evidence: stale.Inconclusive(ev)}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: ev}
	}
}

func init() {
	props.Register(ledger.Text(props.Claim{ID: "sortnet/aks/hunted-unsorted",
		Check:  huntedUnsortedCheck(huntedAKSFile, huntedAKSCase),
		Faults: []props.Fault{{Name: "separators from d = 4 random-matching halvers (aks-expander; its hunted input)", Check: huntedUnsortedCheck(huntedAKSExpanderFile, huntedAKSExpanderCase)}},
	}))
}
