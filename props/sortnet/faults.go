package sortnet

import (
	"fmt"
	"iter"
	"math/rand/v2"
	"slices"
	"sync"

	msn "routecheck/models/sortnet"
	"routecheck/props"
)

// Planted faults for the comparator-network claims (issue 9): each check of
// sortnet_claims*.go and aks_claims*.go is a function of what a fault
// mutates, and the same function with a mutant is the claim's fault. The
// mutants were fixed before any of them was run:
//
//   - a deletion: one comparator of the network's last stage deleted, chosen
//     by snDropExchanging — the first comparator of the last stage that
//     exchanges on a permutation drawn from PCG(snFaultSeed, n), a stream no
//     check draws from. A deletion chosen blindly may be redundant (the
//     pruned networks have such comparators: the mutation-sensitive/pruned
//     claims); this one is not: the mutant leaves that permutation unsorted
//     wherever the real network sorted it, so the claim is false for it;
//   - an added comparator that never exchanges (for the mutation claims);
//   - a closed form off by one, a printed digit changed, a separator that
//     does not separate one bag (aks_faults.go).

// snFaultSeed seeds the permutations that choose the deleted comparator.
const snFaultSeed = 0xfa017

// snPerm returns r.Perm(n) as int32 inputs: a uniformly random
// permutation of {0, …, n−1}, drawn as r.Perm draws it.
func snPerm(r *rand.Rand, n int) []int32 {
	xs := make([]int32, n)
	for i, x := range r.Perm(n) {
		xs[i] = int32(x)
	}
	return xs
}

// snFaultDraws yields the permutations of {0, …, n−1} that choose the
// deleted comparator: up to 16 draws from PCG(snFaultSeed, n) (snPerm),
// fewer when the loop body breaks.
func snFaultDraws(n int) iter.Seq[[]int32] {
	return func(yield func([]int32) bool) {
		r := rand.New(rand.NewPCG(snFaultSeed, uint64(n)))
		for range 16 {
			if !yield(snPerm(r, n)) {
				return
			}
		}
	}
}

// snLastExchange runs nw on y in place and returns the stage and the index
// in it of the last comparator (in the order nw applies them) that
// exchanged; (−1, −1) when none did.
func snLastExchange(nw msn.Network, y []int32) (ls, lk int) {
	ls, lk = -1, -1
	for s, st := range nw.Stages {
		for k, c := range st {
			if y[c.J] < y[c.I] {
				y[c.I], y[c.J] = y[c.J], y[c.I]
				ls, lk = s, k
			}
		}
	}
	return ls, lk
}

// snDropExchanging returns a copy of nw without one comparator whose
// deletion is known to matter: for the first of up to 16 permutations x
// drawn from PCG(snFaultSeed, n) that nw sorts and on which the rule
// succeeds, the last comparator (in the order nw applies them) that
// exchanges on x, provided the network without it leaves x unsorted. It
// returns nw unchanged and false when none is found (n ≤ 1, or 16 draws
// without success). Cost: two runs of nw per draw.
//
// (The first rule, "the first comparator of the last stage that exchanges
// on x", was a no-op on the AKS-family networks: their last 40 stages never
// exchange on random inputs. On Batcher's networks both rules delete a
// last-stage comparator.)
func snDropExchanging(nw msn.Network) (msn.Network, bool) {
	n := nw.N
	if n < 2 || len(nw.Stages) == 0 {
		return nw, false
	}
	for xs := range snFaultDraws(n) {
		y := slices.Clone(xs)
		ls, lk := snLastExchange(nw, y)
		if ls < 0 || !msn.Sorted(y) {
			continue
		}
		out := msn.Network{N: n, Stages: slices.Clone(nw.Stages)}
		out.Stages[ls] = slices.Delete(slices.Clone(nw.Stages[ls]), lk, lk+1)
		out = out.Compact()
		y = slices.Clone(xs)
		msn.Apply(out, y)
		if !msn.Sorted(y) {
			return out, true
		}
	}
	return nw, false
}

// snAddIdle returns nw with a final stage holding the one comparator
// [0:n−1], which never exchanges after a sorting network (n ≥ 2).
func snAddIdle(nw msn.Network) (msn.Network, bool) {
	if nw.N < 2 {
		return nw, false
	}
	out := nw.Clone()
	out.Stages = append(out.Stages, msn.Stage{{I: 0, J: int32(nw.N - 1)}})
	return out, true
}

// snFault is a planted fault on a network construction: the network built
// for n is replaced by Mutate's result wherever At(env, n) holds (At nil:
// every n).
type snFault struct {
	Name   string
	At     func(env props.Env, n int) bool
	Mutate func(msn.Network) (msn.Network, bool)
	// dropExchanging says that Mutate is snDropExchanging's rule (as
	// snDropExchangingResumed), so that where that rule is known to find
	// nothing on a network (packedFindsNoDeletion), Mutate need not run.
	dropExchanging bool
	// miss, set by tracked, records a size where Mutate found nothing
	// without running it; raw is then the Mutate that records nothing.
	miss func(n int)
	raw  func(msn.Network) (msn.Network, bool)
}

// tracked returns a copy of f that records the sizes where Mutate found
// nothing to mutate, and a function that describes them for the evidence.
func (f snFault) tracked() (*snFault, func() string) {
	var mu sync.Mutex
	var missed []int
	g := f
	g.miss = func(n int) {
		mu.Lock()
		missed = append(missed, n)
		mu.Unlock()
	}
	g.raw = f.Mutate
	g.Mutate = func(nw msn.Network) (msn.Network, bool) {
		out, ok := f.Mutate(nw)
		if !ok {
			g.miss(nw.N)
		}
		return out, ok
	}
	return &g, func() string {
		mu.Lock()
		defer mu.Unlock()
		if len(missed) == 0 {
			return ""
		}
		return fmt.Sprintf("[the fault found nothing to mutate at n = %v: those networks ran unchanged] ", missed)
	}
}

// snFaultCheck makes the Fault that runs check with f, saying in the
// evidence where f could not be applied.
func snFaultCheck(f snFault, check func(*snFault) func(props.Env) props.Outcome) props.Fault {
	return props.Fault{Name: f.Name, Check: func(env props.Env) props.Outcome {
		g, missed := f.tracked()
		o := check(g)(env)
		o.Evidence = missed() + o.Evidence
		return o
	}}
}

// mutate applies f to the network built for n (f nil: no fault).
func (f *snFault) mutate(env props.Env, n int, nw msn.Network) msn.Network {
	if f == nil || (f.At != nil && !f.At(env, n)) {
		return nw
	}
	out, _ := f.Mutate(nw)
	return out
}

// build returns b with f applied to every network it builds.
func (f *snFault) build(b SortnetBuild, env props.Env) SortnetBuild {
	if f == nil {
		return b
	}
	out := b
	out.Name = b.Name + " (" + f.Name + ")"
	out.Build = func(n int) (msn.Network, error) {
		nw, err := b.Build(n)
		if err != nil {
			return nw, err
		}
		return f.mutate(env, n, nw), nil
	}
	return out
}

// snDeleteFault deletes a last-stage comparator (snDropExchanging) at the
// sizes where at holds (nil: every n); where says which, for the name.
func snDeleteFault(where string, at func(env props.Env, n int) bool) snFault {
	return snFault{
		Name:   fmt.Sprintf("one comparator deleted %s (the last one to exchange on a permutation from PCG(%#x, n) that its deletion leaves unsorted)", where, snFaultSeed),
		At:     at,
		Mutate: snDropExchanging,
	}
}
