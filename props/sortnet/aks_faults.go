package sortnet

import (
	"fmt"
	"math/bits"
	"sync"

	"routecheck/algos/aks"
	msn "routecheck/models/sortnet"
	"routecheck/props"
)

// Checks of the AKS-family claims written as functions of what a planted
// fault mutates (issue 9; the deletion faults are in faults.go).

// aksExactInvariantsCheck is sortnet/aks/invariants' check with the
// separator newSep(n) (nil: aks.Exact) and the construction's planted fault
// mu (the zero aks.Mutant: none).
func aksExactInvariantsCheck(newSep func(n int) aks.Separator, mu aks.Mutant) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		ns := []int{8, 13, 64, 100, 512, 1024}
		switch env.Budget {
		case props.Default:
			ns = append(ns, 4096)
		case props.Large:
			ns = append(ns, 4096, 8192)
		}
		inputs := env.Budget.Pick(4, 8, 16)
		reps, bad := AKSExactInvariants(ns, inputs, env.Seed, newSep, mu)
		if bad != nil {
			return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n = %d: %s", bad.N, bad.What), Counterexample: bad}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("%d stage reports checked (n = %v, %d traced random permutations each from PCG(%d, n), plus the schedule): clauses 1–4 hold, no 2-strangers, finishing height ≤ §4's k = 2, every traced input sorted; the capacities N·ν^t·A^d and clause 4's bounds the reports carry agree with an independent exact evaluation from the printed §5 values", reps, ns, inputs, env.Seed)}
	}
}

// skipRootSep is the exact separator except on a bag of all N items (the
// root at stage 0, the only such bag), which it leaves as it is: the root's
// items go to its children unsorted, in input order. A planted fault: a
// separator that does not separate one bag.
type skipRootSep struct {
	aks.Separator
	N int
}

func (s skipRootSep) Separate(m, kick int) []msn.Stage {
	if m == s.N {
		return nil
	}
	return s.Separator.Separate(m, kick)
}

// aksSkipRootName names the skipRootSep fault.
const aksSkipRootName = "a separator that does not separate one bag: the root at stage 0 (all N items) is split into halves unsorted; exact elsewhere"

// aksKickPlusOneName names the schedule fault of sortnet/aks/invariants:
// aks.Mutant{KickDelta: 1} with the exact separator.
const aksKickPlusOneName = "a schedule bug: the kick-back count K of every non-root bag one too large (⌊λb⌋ + 1 items from each end to the parent, the separator asked for the same K), exact separator"

// aksBuildSkipRoot is AKSBuildExact with the skipRootSep fault.
var aksBuildSkipRoot = SortnetBuild{
	Name: "aks-exact (root not separated at stage 0)",
	Build: func(n int) (msn.Network, error) {
		res, err := aks.Construct(n, aks.SeiferasParams(), aksSkipRoot(n))
		if err != nil {
			return msn.Network{}, err
		}
		return res.Net, nil
	},
}

// aksSkipRoot makes the skipRootSep for n wires (padded to N = 2^⌈lg n⌉).
func aksSkipRoot(n int) aks.Separator {
	return skipRootSep{Separator: aks.Exact(), N: 1 << bits.Len(uint(max(n, 2)-1))}
}

// aksParamFaults are the planted faults of the params claim that holds (the
// §5 example): the same set with one printed digit changed, given to both
// the independent evaluation and algos/aks (as if the paper had printed it).
func aksParamFaults(ps aksParamSet) []props.Fault {
	nu := ps
	nu.name, nu.nu = ps.name+" with ν printed 12/20", "12/20"
	nu.aksParams.Nu = aks.Frac{Num: 12, Den: 20}
	lam := ps
	lam.name, lam.lam = ps.name+" with λ printed 2/100", "2/100"
	lam.aksParams.Lambda = aks.Frac{Num: 2, Den: 100}
	return []props.Fault{
		{Name: "one printed digit changed: ν = 12/20 for 13/20", Check: func(props.Env) props.Outcome { return aksParamCheck(nu) }},
		{Name: "one printed digit changed: λ = 2/100 for 1/100", Check: func(props.Env) props.Outcome { return aksParamCheck(lam) }},
	}
}

// aksNetFault is a planted fault on a constructed network: Mutate returns
// the network to use in place of res.Net (false: nothing to mutate, res.Net
// unchanged). It leaves the construction's bag-level trace alone.
type aksNetFault struct {
	Name   string
	Mutate func(res *aks.Result) (msn.Network, bool)
	missed func(n int) // set by fault: records sizes Mutate could not mutate
}

// aksNetFaultOf lifts a network fault (nil: nil).
func aksNetFaultOf(f *snFault) *aksNetFault {
	if f == nil {
		return nil
	}
	return &aksNetFault{Name: f.Name, Mutate: func(res *aks.Result) (msn.Network, bool) { return f.Mutate(res.Net) }}
}

func (f *aksNetFault) mutate(res *aks.Result) msn.Network {
	if f == nil {
		return res.Net
	}
	nw, ok := f.Mutate(res)
	if !ok && f.missed != nil {
		f.missed(res.Net.N)
	}
	return nw
}

// fault makes the Fault that runs check with f, saying in the evidence
// where f could not be applied.
func (f aksNetFault) fault(check func(*aksNetFault) func(props.Env) props.Outcome) props.Fault {
	return props.Fault{Name: f.Name, Check: func(env props.Env) props.Outcome {
		var mu sync.Mutex
		var missed []int
		g := f
		g.missed = func(n int) { mu.Lock(); missed = append(missed, n); mu.Unlock() }
		o := check(&g)(env)
		if len(missed) > 0 {
			o.Evidence = fmt.Sprintf("[the fault found nothing to mutate at n = %v: those networks ran unchanged] ", missed) + o.Evidence
		}
		return o
	}}
}

// aksFinalMergeFault finishes one level too low: each finishing subtree's
// registers are sorted as two halves, never merged (the last FinalHeight+1
// stages of the network, the final merge of Batcher's sorter on
// 2^(FinalHeight+1) registers, dropped). An off-by-one in §4's finishing
// height k. It applies only where the finishing part kept all of Batcher's
// k'(k'+1)/2 stages, k' = FinalHeight+1, when lowered.
var aksFinalMergeFault = aksNetFault{
	Name: "finishing subtrees one level too low: the final merge of every finishing sorter (the network's last FinalHeight+1 stages) dropped",
	Mutate: func(res *aks.Result) (msn.Network, bool) {
		t := res.FinalHeight + 1
		if res.FinalDepth != t*(t+1)/2 || len(res.Net.Stages) < t {
			return res.Net, false
		}
		return msn.Network{N: res.Net.N, Stages: res.Net.Stages[:len(res.Net.Stages)-t]}, true
	},
}
