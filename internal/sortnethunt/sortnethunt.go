// Package sortnethunt registers the comparator-network hunt target
// sortnet-unsorted and the "sortnet-input" case kind: the hill climb of
// routecheck/algos/sortnet/hillclimb over input permutations, maximizing
// the output positions a network leaves out of place (a sorting network
// leaves none: any input it leaves unsorted refutes "it sorts"; for the
// AKS family, Seiferas 2009 §6 Lemma 2 with random-matching halvers, the
// claim is that the network sorts when the halvers are good enough).
// `routecheck sortnet KIND --climb E` runs the same climb (Climb below) on
// the same stream when --net-seed equals its --seed.
//
// After the climb, as many uniformly random permutations as it evaluated
// are run and the best is reported beside the hunted best.
//
// Hunted against random sampling at the same number of evaluations (seed 1,
// net seed 1; the saved cases under testdata/hunt/ record each figure in
// found_by; CPU time user+sys on the shared 2-core machine):
//
//	routecheck hunt sortnet-unsorted --iters 2000     (aks-expander, n = 1024, d = 4)
//	    70 misplaced vs random 47 at 2000 evaluations (0.9 s CPU)
//	routecheck hunt sortnet-unsorted --iters 500 \
//	    --out testdata/hunt/sortnet-unsorted-aks-expander-n1024-d4-small.json
//	    47 vs random 43 at 500 evaluations
//	routecheck hunt sortnet-unsorted --n 256 --d 1 --iters 2000
//	    243 vs random 231
//	routecheck hunt sortnet-unsorted --n 4096 --d 8 --iters 2000
//	    6 vs random 6 (11.7 s CPU): where failures are rare the climb gains
//	    nothing over sampling (hillclimb's package comment: it can lose)
//	routecheck hunt sortnet-unsorted --network oddeven --n 1024 --iters 2000
//	    0 vs random 0: Batcher's network sorts every input (0-1 principle)
//
// A sortnet-input case replays by building the network again and running
// the input through it twice, with the model's Apply and with a plain loop
// over the comparators written here; it is reproduced when both leave the
// recorded number of positions out of place.
package sortnethunt

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"slices"

	"routecheck/algos/aks"
	asn "routecheck/algos/sortnet"
	"routecheck/algos/sortnet/hillclimb"
	"routecheck/internal/hunt"
	"routecheck/internal/seeds"
	"routecheck/models/perm"
	msn "routecheck/models/sortnet"
)

// Instance is the "sortnet-input" case instance: the network (Network is
// oddeven, bitonic, aks or aks-expander; D and NetSeed only for
// aks-expander) on N wires and the input permutation (Input[p] is the
// value on wire p).
type Instance struct {
	Network string  `json:"network"`
	N       int     `json:"n"`
	D       int     `json:"d,omitempty"`
	NetSeed uint64  `json:"net_seed,omitempty"`
	Input   []int32 `json:"input"`
}

const (
	metric = "misplaced outputs"
	claim  = "a sorting network leaves no output out of place (AKS family: Seiferas §6 Lemma 2 separators from halvers)"
	// The size limits keep a hunt's network build and evaluations small.
	maxBatcherN = 1 << 16
	maxAKSN     = 1 << 12
)

// Kinds lists the networks, in the order errors name them.
const Kinds = "oddeven, bitonic, aks, aks-expander"

func init() {
	hunt.RegisterTarget(&target{})
	hunt.RegisterReplayer("sortnet-input", replay)
}

// Build returns the network of an instance; errors name the bad field.
func Build(network string, n, d int, netSeed uint64) (msn.Network, error) {
	switch network {
	case "oddeven", "bitonic":
		if n < 2 || n > maxBatcherN {
			return msn.Network{}, fmt.Errorf("n = %d: must be in [2, %d] for %s", n, maxBatcherN, network)
		}
		if network == "oddeven" {
			return asn.OddEvenMergeSort(n)
		}
		return asn.BitonicSort(n)
	case "aks", "aks-expander":
		if n < 2 || n > maxAKSN {
			return msn.Network{}, fmt.Errorf("n = %d: must be in [2, %d] for %s", n, maxAKSN, network)
		}
		var res *aks.Result
		var err error
		if network == "aks" {
			res, err = aks.Construct(n, aks.SeiferasParams(), aks.Exact())
		} else {
			if d < 1 || d > 64 {
				return msn.Network{}, fmt.Errorf("d = %d: must be in [1, 64]", d)
			}
			res, err = aks.ExpanderNet(n, d, netSeed)
		}
		if err != nil {
			return msn.Network{}, err
		}
		return res.Net, nil
	}
	return msn.Network{}, fmt.Errorf("network %q unknown; allowed: %s", network, Kinds)
}

// Climb is the hill climb `routecheck sortnet --climb` and this target run:
// hillclimb.Climb with evals evaluations on the stream
// seeds.Rand(seed, 0xc11b, N).
func Climb(nw msn.Network, seed uint64, evals int) hillclimb.Result {
	return hillclimb.Climb(nw, seeds.Rand(seed, 0xc11b, uint64(nw.N)), hillclimb.Options{Evals: evals})
}

func misplaced(y []int32) int {
	m := 0
	for p, v := range y {
		if v != int32(p) {
			m++
		}
	}
	return m
}

// plainApply is the replay's second evaluation: every comparator of every
// stage in order, as a plain compare-exchange.
func plainApply(nw msn.Network, y []int32) {
	for _, st := range nw.Stages {
		for _, c := range st {
			if y[c.I] > y[c.J] {
				y[c.I], y[c.J] = y[c.J], y[c.I]
			}
		}
	}
}

func replay(c hunt.Case) (hunt.Replayed, error) {
	in, err := hunt.DecodeOne[Instance](c, metric)
	if err != nil {
		return hunt.Replayed{}, err
	}
	nw, err := Build(in.Network, in.N, in.D, in.NetSeed)
	if err != nil {
		return hunt.Replayed{}, fmt.Errorf("instance: %v", err)
	}
	if len(in.Input) != in.N {
		return hunt.Replayed{}, fmt.Errorf("instance: input has %d entries, n = %d", len(in.Input), in.N)
	}
	if err := perm.Validate(in.Input, true); err != nil {
		return hunt.Replayed{}, fmt.Errorf("instance: input: %v", err)
	}
	y1, y2 := slices.Clone(in.Input), slices.Clone(in.Input)
	msn.Apply(nw, y1)
	plainApply(nw, y2)
	m1, m2 := misplaced(y1), misplaced(y2)
	report := fmt.Sprintf("%s network on n = %d wires (d = %d, net seed %d), depth %d, %d comparators:\n  model Apply leaves %d positions out of place, a plain comparator loop %d\n", in.Network, in.N, in.D, in.NetSeed, nw.Depth(), nw.Size(), m1, m2)
	ok := m1 == m2 && float64(m1) == c.Value
	report += fmt.Sprintf("%s: %d (recorded %g; %s) — %s\n", metric, m1, c.Value, claim, hunt.Verdict(ok))
	return hunt.Replayed{Report: report, Value: float64(m1), Reproduced: ok}, nil
}

type target struct {
	network *string
	n, d    *int
	netSeed *uint64
}

func (t *target) Name() string { return "sortnet-unsorted" }
func (t *target) Description() string {
	return "input permutations maximizing the outputs a comparator network leaves out of place (" + claim + "), hill climb beside random sampling"
}

func (t *target) DefineFlags(fs *flag.FlagSet) {
	t.network = fs.String("network", "aks-expander", "the network: "+Kinds)
	t.n = fs.Int("n", 1024, fmt.Sprintf("wires (2 … %d; aks and aks-expander ≤ %d)", maxBatcherN, maxAKSN))
	t.d = fs.Int("d", 4, "aks-expander only: random perfect matchings per halver, 1 … 64")
	t.netSeed = fs.Uint64("net-seed", 1, "aks-expander only: seed of the halvers' matchings (sortnet --seed)")
}

func (t *target) Shrinking() string {
	return "shrinking: none — the input is a permutation of the n wires' values with nothing to remove, a wire holding its own rank is not simpler for a data-oblivious network, and the case is what `routecheck sortnet --climb` finds on the same stream"
}

func (t *target) DefaultFile() string {
	if *t.network == "aks-expander" {
		return fmt.Sprintf("testdata/hunt/sortnet-unsorted-%s-n%d-d%d.json", *t.network, *t.n, *t.d)
	}
	return fmt.Sprintf("testdata/hunt/sortnet-unsorted-%s-n%d.json", *t.network, *t.n)
}

func (t *target) Hunt(ctx context.Context, o hunt.Options) (hunt.Case, error) {
	in := Instance{Network: *t.network, N: *t.n}
	switch in.Network {
	case "oddeven", "bitonic", "aks", "aks-expander":
	default:
		return hunt.Case{}, fmt.Errorf("--network = %q: allowed %s", in.Network, Kinds)
	}
	lim := maxBatcherN
	if in.Network == "aks" || in.Network == "aks-expander" {
		lim = maxAKSN
	}
	if in.N < 2 || in.N > lim {
		return hunt.Case{}, fmt.Errorf("--n = %d: must be in [2, %d] for %s", in.N, lim, in.Network)
	}
	if in.Network == "aks-expander" {
		if *t.d < 1 || *t.d > 64 {
			return hunt.Case{}, fmt.Errorf("--d = %d: must be in [1, 64]", *t.d)
		}
		in.D, in.NetSeed = *t.d, *t.netSeed
	}
	if o.Iters < 1 {
		return hunt.Case{}, fmt.Errorf("--iters = %d: the climb needs at least 1 evaluation", o.Iters)
	}
	nw, err := Build(in.Network, in.N, in.D, in.NetSeed)
	if err != nil {
		return hunt.Case{}, err
	}
	o.Logf("sortnet-unsorted: %s on n = %d wires, depth %d, %d comparators", in.Network, in.N, nw.Depth(), nw.Size())
	var cr hillclimb.Result
	if o.Deadline.IsZero() {
		cr = Climb(nw, o.Seed, o.Iters)
	} else {
		cr = climbUntil(ctx, o, nw)
	}
	o.Logf("  hill climb: %d evaluations, %d misplaced (best start %d)", cr.Evals, cr.Misplaced, cr.StartMisplaced)
	// The baseline: as many random permutations as the climb evaluated.
	rb := seeds.Rand(o.Seed, 0xc11c, uint64(in.N))
	randBest, y := -1, make([]int32, in.N)
	for i := 0; i < cr.Evals && ctx.Err() == nil; i++ {
		perm.RandomInto(y, rb)
		msn.Apply(nw, y)
		randBest = max(randBest, misplaced(y))
	}
	o.Logf("  hunted %d vs random sampling %d at %d evaluations", cr.Misplaced, randBest, cr.Evals)
	in.Input = cr.Input
	raw, err := json.Marshal(in)
	if err != nil {
		return hunt.Case{}, err
	}
	var rbp *float64
	if randBest >= 0 {
		rbp = hunt.Baseline(float64(randBest))
	}
	return hunt.Case{Kind: "sortnet-input", Target: t.Name(), Metric: metric, Value: float64(cr.Misplaced),
		FoundBy: fmt.Sprintf("hill climb (%d accepted, %d improving moves); hunted %d vs best of %d random permutations %d", cr.Accepted, cr.Improved, cr.Misplaced, cr.Evals, randBest),
		Seed:    o.Seed, RandomBest: rbp, Evaluations: cr.Evals, Instance: raw}, nil
}

// climbUntil runs the climb in chunks of 256 evaluations, each continuing
// from the best input so far, until o.Iters evaluations or o.Stop (at least one chunk).
func climbUntil(ctx context.Context, o hunt.Options, nw msn.Network) hillclimb.Result {
	rng := seeds.Rand(o.Seed, 0xc11b, uint64(nw.N))
	var best hillclimb.Result
	best.Misplaced = -1
	var start []int32
	for done := 0; done < o.Iters && (done == 0 || !o.Stop(ctx)); {
		k := min(256, o.Iters-done)
		r := hillclimb.Climb(nw, rng, hillclimb.Options{Evals: k, Start: start})
		if done == 0 {
			best.StartMisplaced = r.StartMisplaced
		}
		best.Evals += r.Evals
		best.Accepted += r.Accepted
		best.Improved += r.Improved
		if r.Misplaced > best.Misplaced || r.Misplaced == best.Misplaced && r.Guide > best.Guide {
			best.Input, best.Output, best.Misplaced, best.Guide = r.Input, r.Output, r.Misplaced, r.Guide
		}
		start = best.Input
		done += k
	}
	return best
}
