// Package popsdethunt registers the hunt target pops-sort-slots and the
// "pops-sort-perm" case kind: permutations π of the n = dg processors of
// POPS(d, g) maximizing the slots of the deterministic sort router
// (routecheck/algos/popsdet.SortRouter: Corollary 2.4 of seed
// 000_de3be866f009217f.txt in its direct version, every comparator stage
// simulated by Lemma 2.2 with Theorem 2.1's schedule) against the bound
// Depth·(1 or 2⌈d/g⌉), plus every packet it fails to deliver and every
// coupler conflict, loss and duplicate:
//
//	value = slots / (Depth·s) + (n − delivered) + conflicts + lost + duplicated,
//	s = 1 (d = 1) or 2⌈d/g⌉.
//
// On a sorting network the corollary says value = 1 for every π (the
// schedule is compiled from the network alone, and the network sorts the
// packets by destination); a hunted value above 1 on a sorting network
// refutes it. On a network that does not sort (the AKS family with weak
// halvers, routecheck/algos/aks) the hypothesis fails and the hunt measures
// how many packets the adversary can leave undelivered.
//
// The search is hunt.PermSearch (families identity, reversal, rotation by
// one group; random permutations; annealing by transpositions; random
// baseline at the same evaluations), then the best is shrunk
// (hunt.ShrinkPerm: fixing swaps) while the value stays at least the hunted
// one, in at most --shrink-evals evaluations (default: as many as the
// search made, at least 2000; -1: none). On a sorting network every
// permutation has value 1, so the shrunk case is the identity (the
// corollary's bound is met already there); where the network does not
// sort, the case keeps only the packets its undelivered count needs out of
// place.
//
// Hunted against random sampling at the same number of evaluations (seed 1;
// CPU time user+sys on the shared 2-core machine; the saved cases record
// their figures in found_by):
//
//	routecheck hunt pops-sort-slots --iters 2000      (POPS(8,4), Batcher's odd-even network)
//	    1 vs random 1 at 1997 evaluations (1.4 s CPU): 15 stages, 60 slots
//	    = Depth·2⌈d/g⌉ on every permutation tried, all delivered, no conflict
//	routecheck hunt pops-sort-slots --network oddeven-transposition --d 4 --g 8 --iters 2000
//	    1 vs random 1 (64 slots = 32 stages · 2)
//	routecheck hunt pops-sort-slots --network aks-expander --halver-d 2 --d 16 --g 16 --iters 2000
//	    193 (192 of 256 packets undelivered) vs random 133 at 2054
//	    evaluations (86 s CPU); --halver-d 1: 240 vs 234
//	routecheck hunt pops-sort-slots --network aks-expander --halver-d 2 --d 4 --g 8 --iters 300 --shrink-evals -1 \
//	    --out testdata/hunt/pops-sort-slots-d4-g8-aks-expander-small.json
//	    25 vs random 23 at 360 evaluations
//
// The slot count itself never varies (the schedules are the network's):
// on sorting networks the search can only confirm the corollary; where the
// network does not sort it piles up undelivered packets faster than
// sampling does.
//
// A pops-sort-perm case replays through the router and, independently,
// through the network itself (models/sortnet.Apply on the destinations):
// it is reproduced when the router's final placement is the network's
// output and the value is the recorded one.
package popsdethunt

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"slices"

	"routecheck/algos/popsdet"
	"routecheck/internal/hunt"
	"routecheck/internal/sortnethunt"
	"routecheck/models/perm"
	mpops "routecheck/models/pops"
	msn "routecheck/models/sortnet"
)

// Instance is the "pops-sort-perm" case instance: POPS(D, G), the network
// on n = D·G wires (Network: oddeven-transposition, oddeven, bitonic, aks
// or aks-expander; HalverD and NetSeed only for aks-expander, as in
// routecheck/internal/sortnethunt), and the permutation (Perm[i] is the
// destination of processor i's packet).
type Instance struct {
	D       int     `json:"d"`
	G       int     `json:"g"`
	Network string  `json:"network"`
	HalverD int     `json:"halver_d,omitempty"`
	NetSeed uint64  `json:"net_seed,omitempty"`
	Perm    []int32 `json:"perm"`
}

const (
	metric   = "slots / (Depth·s) + undelivered + conflicts + lost + duplicated"
	claim    = "Corollary 2.4 (direct), Lemma 2.2, Theorem 2.1: = 1 for every permutation when the network sorts"
	networks = "oddeven-transposition, oddeven, bitonic, aks, aks-expander"
	maxN     = 4096
)

func init() {
	hunt.RegisterTarget(&target{})
	hunt.RegisterReplayer("pops-sort-perm", replay)
}

// network builds the comparator network of an instance.
func network(in Instance) (msn.Network, error) {
	n := in.D * in.G
	if in.Network == "oddeven-transposition" {
		if n < 2 || n > 1024 {
			return msn.Network{}, fmt.Errorf("n = d·g = %d: must be in [2, 1024] for oddeven-transposition (n stages)", n)
		}
		return popsdet.OddEvenTransposition(n), nil
	}
	return sortnethunt.Build(in.Network, n, in.HalverD, in.NetSeed)
}

// router is one network's compiled sort router and its bound.
type router struct {
	sh    mpops.Shape
	nw    msn.Network
	r     *popsdet.SortRouter
	bound float64
}

func newRouter(in Instance) (*router, error) {
	if in.D < 1 || in.G < 1 || in.D*in.G > maxN {
		return nil, fmt.Errorf("d = %d, g = %d: need d, g ≥ 1 and n = d·g ≤ %d", in.D, in.G, maxN)
	}
	sh := mpops.Shape{D: in.D, G: in.G}
	if err := popsdet.CheckShape(sh); err != nil {
		return nil, err
	}
	nw, err := network(in)
	if err != nil {
		return nil, err
	}
	r, err := popsdet.NewSortRouter(sh, nw)
	if err != nil {
		return nil, err
	}
	return &router{sh: sh, nw: nw, r: r, bound: float64(nw.Depth() * popsdet.Slots(sh))}, nil
}

// value routes dst and returns the metric and the router's result.
func (ro *router) value(dst []int32) (float64, popsdet.SortResult, error) {
	res, err := ro.r.Route(dst)
	if err != nil {
		return 0, res, err
	}
	bad := len(dst) - res.Delivered + res.Conflicts + res.Lost + res.Duplicated
	return float64(res.Slots)/ro.bound + float64(bad), res, nil
}

func replay(c hunt.Case) (hunt.Replayed, error) {
	in, err := hunt.DecodeOne[Instance](c, metric)
	if err != nil {
		return hunt.Replayed{}, err
	}
	ro, err := newRouter(in)
	if err != nil {
		return hunt.Replayed{}, fmt.Errorf("instance: %v", err)
	}
	if len(in.Perm) != ro.sh.N() {
		return hunt.Replayed{}, fmt.Errorf("instance: perm has %d entries, n = d·g = %d", len(in.Perm), ro.sh.N())
	}
	if err := perm.Validate(in.Perm, true); err != nil {
		return hunt.Replayed{}, fmt.Errorf("instance: perm: %v", err)
	}
	v, res, err := ro.value(in.Perm)
	if err != nil {
		return hunt.Replayed{}, err
	}
	// The network alone: sort the destinations; processor j should end
	// with the packet whose destination the network leaves on wire j.
	keys := slices.Clone(in.Perm)
	msn.Apply(ro.nw, keys)
	src := perm.Inverse(in.Perm)
	agree, delivered := true, 0
	for j, k := range keys {
		if res.Holder[j] != src[k] {
			agree = false
		}
		if k == int32(j) {
			delivered++
		}
	}
	report := fmt.Sprintf("deterministic sort router on %v, %s network (depth %d, %d comparators): %d stages, %d slots (bound Depth·s = %g); delivered %d of %d, conflicts %d, lost %d, duplicated %d\n  the network alone delivers %d; final placement equals the network's output: %v\n",
		ro.sh, in.Network, ro.nw.Depth(), ro.nw.Size(), res.Stages, res.Slots, ro.bound, res.Delivered, ro.sh.N(), res.Conflicts, res.Lost, res.Duplicated, delivered, agree)
	ok := agree && delivered == res.Delivered && math.Abs(v-c.Value) < 1e-9
	report += fmt.Sprintf("%s: %.6g (recorded %.6g; %s) — %s\n", metric, v, c.Value, claim, hunt.Verdict(ok))
	return hunt.Replayed{Report: report, Value: v, Reproduced: ok}, nil
}

type target struct {
	d, g, halverD *int
	samples       hunt.SamplesFlag
	network       *string
	netSeed       *uint64
	families      *bool
	shrink        hunt.ShrinkFlag
}

func (t *target) Name() string { return "pops-sort-slots" }
func (t *target) Description() string {
	return "permutations maximizing the POPS deterministic sort router's " + metric + " (" + claim + "), beside random sampling"
}

func (t *target) DefineFlags(fs *flag.FlagSet) {
	t.d = fs.Int("d", 8, "processors per group d (n = d·g ≤ 4096)")
	t.g = fs.Int("g", 4, "groups g")
	t.network = fs.String("network", "oddeven", "the comparator network on n = d·g wires: "+networks)
	t.halverD = fs.Int("halver-d", 4, "aks-expander only: random perfect matchings per halver, 1 … 64")
	t.netSeed = fs.Uint64("net-seed", 1, "aks-expander only: seed of the halvers' matchings")
	t.samples.Define(fs, "random permutations sampled before annealing")
	t.families = fs.Bool("families", true, "try the structured families first")
	t.shrink.Define(fs)
}

func (t *target) Shrinking() string {
	return hunt.ShrinkHelp("fixing swaps; on a sorting network every permutation has value 1, so the case shrinks to the identity")
}

func (t *target) DefaultFile() string {
	return fmt.Sprintf("testdata/hunt/pops-sort-slots-d%d-g%d-%s.json", *t.d, *t.g, *t.network)
}

func (t *target) Hunt(ctx context.Context, o hunt.Options) (hunt.Case, error) {
	in := Instance{D: *t.d, G: *t.g, Network: *t.network}
	switch {
	case in.D < 1 || in.D > maxN:
		return hunt.Case{}, fmt.Errorf("--d = %d: must be in [1, %d]", in.D, maxN)
	case in.G < 1 || in.D*in.G > maxN || in.D*in.G < 2:
		return hunt.Case{}, fmt.Errorf("--g = %d: need g ≥ 1 and 2 ≤ n = d·g ≤ %d (d = %d)", in.G, maxN, in.D)
	case !slices.Contains([]string{"oddeven-transposition", "oddeven", "bitonic", "aks", "aks-expander"}, in.Network):
		return hunt.Case{}, fmt.Errorf("--network = %q: allowed %s", in.Network, networks)
	}
	if err := hunt.CheckFlags(t.samples, t.shrink); err != nil {
		return hunt.Case{}, err
	}
	if in.Network == "aks-expander" {
		if *t.halverD < 1 || *t.halverD > 64 {
			return hunt.Case{}, fmt.Errorf("--halver-d = %d: must be in [1, 64]", *t.halverD)
		}
		in.HalverD, in.NetSeed = *t.halverD, *t.netSeed
	}
	ro, err := newRouter(in)
	if err != nil {
		return hunt.Case{}, fmt.Errorf("--network %s on n = %d: %v", in.Network, in.D*in.G, err)
	}
	n := ro.sh.N()
	o.Logf("pops-sort-slots: %v, %s network depth %d, bound %g slots", ro.sh, in.Network, ro.nw.Depth(), ro.bound)
	s := hunt.PermSearch{N: n, Samples: t.samples.N(), Shrink: &t.shrink, Eval: func(p []int32) (float64, error) {
		v, _, err := ro.value(p)
		return v, err
	}}
	if *t.families {
		rev, rot := make([]int32, n), make([]int32, n)
		for i := range n {
			rev[i] = int32(n - 1 - i)
			rot[i] = int32((i + in.D) % n)
		}
		s.Families = []hunt.Family{{Name: "identity", Perm: perm.Identity(n)}, {Name: "reversal", Perm: rev}, {Name: "rotation by a group", Perm: rot}}
	}
	res, err := s.Run(ctx, o, 0x5d7)
	if err != nil {
		return hunt.Case{}, err
	}
	if res.Value > 1 {
		o.Logf("  value %g > 1: a slot beyond the bound or a packet not delivered", res.Value)
	}
	in.Perm = res.Best
	raw, err := json.Marshal(in)
	if err != nil {
		return hunt.Case{}, err
	}
	return hunt.Case{Kind: "pops-sort-perm", Target: t.Name(), Metric: metric, Value: res.Value, FoundBy: res.FoundBy, Seed: o.Seed,
		RandomBest: hunt.Baseline(res.RandomBest), Evaluations: res.Evaluations, ShrinkFloor: res.ShrinkFloor(), Instance: raw}, nil
}
