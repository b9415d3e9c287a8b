package pops

import (
	"fmt"
	"slices"

	ap "routecheck/algos/pops"
	"routecheck/internal/seeds"
	"routecheck/models/perm"
	mpops "routecheck/models/pops"
	"routecheck/props/popstest"

	"pgregory.net/rapid"
)

// PopsInstance is a replayable input of the randomized POPS router: a shape,
// a (partial) permutation, the algorithm and either a seed for its random
// stream or, for exhaustive cases, the forced choices of step 1.
type PopsInstance struct {
	D         int     `json:"d"`
	G         int     `json:"g"`
	Perm      []int32 `json:"perm"`
	Algorithm string  `json:"algorithm"`
	Seed      uint64  `json:"seed,omitempty"`
	// Groups, when set, are the intermediate groups of step 1 (index =
	// packet, -1 = does not take part) and the run stops after step 1.
	Groups []int32 `json:"groups,omitempty"`
	// Why is what the instance shows.
	Why string `json:"why,omitempty"`
	// Mutant is a planted fault in the router (power checks only); zero is
	// the router as written.
	Mutant ap.Mutant `json:"mutant,omitempty"`
}

// PopsRunReport is everything the §III claims look at in one model run.
type PopsRunReport struct {
	Result      ap.Result
	ModelErr    error // a model violation: the router asked for the impossible
	InvariantAt string
	Packets     int
	// Slots is what popstest's per-slot checks found (props/popstest.
	// SlotCheck: invariants, conservation, conflicts in slots 3 to the end
	// of every step, and the peak memory under §III-A's three
	// accountings): the claims judge conflicts, losses, duplicates and
	// memory from it, the one home of those checks.
	Slots popstest.SlotReport
	// PerStep is the slots per step of the run's variant.
	PerStep int
}

// At names a slot of the run (1-based, from its start) as step and slot
// within the step.
func (r PopsRunReport) At(slot int) string {
	if r.PerStep < 1 {
		return fmt.Sprintf("slot %d", slot)
	}
	return fmt.Sprintf("step %d slot %d", (slot-1)/r.PerStep+1, (slot-1)%r.PerStep+1)
}

// Conflicts345 counts conflicting couplers in slots 3, 4 and the delivery
// slot(s): zero is Proposition 3.2.
func (r PopsRunReport) Conflicts345() int {
	s := 0
	for k, c := range r.Result.Conflicts {
		if k >= 2 {
			s += c
		}
	}
	return s
}

// Shape returns the instance's shape.
func (in PopsInstance) Shape() mpops.Shape { return mpops.Shape{D: in.D, G: in.G} }

// Variant parses the algorithm name.
func (in PopsInstance) Variant() ap.Variant {
	v, err := ap.ParseVariant(in.Algorithm)
	if err != nil {
		panic("props: " + err.Error())
	}
	return v
}

// RunPops runs the instance on the slot model, with popstest's per-slot
// checks after every slot (Slots; InvariantAt words its invariants
// failure).
func RunPops(in PopsInstance) (rep PopsRunReport) {
	sh := in.Shape()
	for _, x := range in.Perm {
		if x != perm.None {
			rep.Packets++
		}
	}
	// Slots 3, 4 and the delivery slot(s) of every step are the ones
	// Proposition 3.2 declares conflict-free.
	rep.PerStep = in.Variant().SlotsPerStep(sh)
	chk := popstest.NewSlotCheck(popstest.Options{ConflictFree: func(slot int) bool { return (slot-1)%rep.PerStep >= 2 }})
	obs := func(_, _ int, _ []mpops.Action, _, after mpops.State, ev mpops.Events) { chk.Observe(after, ev) }
	defer func() {
		rep.Slots = chk.Report()
		if f, ok := rep.Slots.Broke("invariants"); ok {
			rep.InvariantAt = rep.At(f.Slot) + ": " + f.Message
		}
	}()
	o := ap.Options{Variant: in.Variant(), Mutant: in.Mutant}
	var err error
	if in.Groups != nil {
		o.MaxSteps = 1
		groups := in.Groups
		rep.Result, err = ap.RunOnModelWith(sh, in.Perm, func(_, m int, _ float64) ([]int32, []int32) {
			// Pending packets are the packets in increasing order.
			var part, gs []int32
			k := 0
			for p, x := range in.Perm {
				if x == perm.None {
					continue
				}
				if groups[p] >= 0 {
					part, gs = append(part, int32(k)), append(gs, groups[p])
				}
				k++
			}
			return part, gs
		}, o, obs)
	} else {
		rep.Result, err = ap.RunOnModel(sh, in.Perm, seeds.Rand(in.Seed), o, obs)
	}
	rep.ModelErr = err
	return
}

// GenPopsInstance draws a router instance: shape with g in [1, maxG] and d in
// [g·minRatio, g·maxRatio] (minRatio ≥ 1), a permutation (shrinking towards
// the identity), and a seed.
func GenPopsInstance(t *rapid.T, alg ap.Variant, maxG, minExtra, maxExtra int) PopsInstance {
	g := rapid.IntRange(1, maxG).Draw(t, "g")
	d := g + rapid.IntRange(minExtra, maxExtra).Draw(t, "d-g")
	n := d * g
	p := rapid.Permutation(perm.Identity(n)).Draw(t, "perm")
	return PopsInstance{D: d, G: g, Perm: slices.Clone(p), Algorithm: alg.String(), Seed: rapid.Uint64().Draw(t, "seed")}
}

// Exhaustive enumerates, for every shape d ≥ g with keep(d, g), every
// permutation and every assignment of intermediate groups to the packets in
// step 1 (with "does not take part" as an extra choice when step 1 has a
// participation coin, i.e. d > g), runs step 1 on the slot model and calls
// visit; it stops at the first instance visit rejects and returns it. It
// returns the number of cases covered.
func Exhaustive(alg ap.Variant, maxN int, keep func(d, g int) bool, visit func(PopsInstance, PopsRunReport) bool) (cases int, bad *PopsInstance) {
	for n := 1; n <= maxN; n++ {
		for g := 1; g <= n; g++ {
			if n%g != 0 || n/g < g || !keep(n/g, g) {
				continue
			}
			d := n / g
			lo := int32(0)
			if ap.Participation(mpops.Shape{D: d, G: g}, ap.DefaultCEps, 1) < 1 {
				lo = -1
			}
			stop := false
			perm.Each(n, func(p []int32) bool {
				groups := make([]int32, n)
				for i := range groups {
					groups[i] = lo
				}
				for {
					in := PopsInstance{D: d, G: g, Perm: slices.Clone(p), Algorithm: alg.String(), Groups: slices.Clone(groups)}
					cases++
					if !visit(in, RunPops(in)) {
						bad, stop = &in, true
						return false
					}
					// next assignment (odometer over [lo, g))
					i := 0
					for i < n {
						groups[i]++
						if groups[i] < int32(g) {
							break
						}
						groups[i] = lo
						i++
					}
					if i == n {
						return true
					}
				}
			})
			if stop {
				return cases, bad
			}
		}
	}
	return cases, nil
}
