package pops

import (
	"fmt"
	"math"
	"math/rand/v2"

	"routecheck/models/pops"
)

// Variant selects the version of the randomized router.
type Variant int

const (
	// Faithful is §III exactly as written: five slots per step, the original
	// deleted when the slot-4 ack arrives, delivery in slot 5.
	Faithful Variant = iota
	// SplitDelivery is a repaired variant for d > g (not in the paper): slots
	// 1–4 as written, then the delivery slot split into ⌈d/g⌉ sub-slots; in
	// sub-slot j only copies with ⌊(π(p) mod d)/g⌋ = j are sent. Within a
	// sub-slot, a temporary group t and a destination group G fix the
	// destination (one residue mod g in a window of g indices), so delivery
	// is conflict-free and the slot-4 ack is safe. For d = g it is Faithful.
	SplitDelivery
)

func (v Variant) String() string {
	switch v {
	case Faithful:
		return "pops-rand-5slot"
	case SplitDelivery:
		return "pops-rand-split-delivery"
	}
	return fmt.Sprintf("Variant(%d)", int(v))
}

// ParseVariant maps a variant's name (its String) back to it.
func ParseVariant(name string) (Variant, error) {
	for _, v := range []Variant{Faithful, SplitDelivery} {
		if v.String() == name {
			return v, nil
		}
	}
	return 0, fmt.Errorf("algorithm %q: unknown, allowed: %s, %s", name, Faithful, SplitDelivery)
}

// DeliverySlots is the number of delivery sub-slots: 1 for Faithful,
// ⌈d/g⌉ for SplitDelivery.
func (v Variant) DeliverySlots(s pops.Shape) int {
	if v == SplitDelivery {
		return (s.D + s.G - 1) / s.G
	}
	return 1
}

// SlotsPerStep is 4 + DeliverySlots: 5 for Faithful.
func (v Variant) SlotsPerStep(s pops.Shape) int { return 4 + v.DeliverySlots(s) }

// DefaultCEps is c+ε of Corollary 3.9.
const DefaultCEps = 4.0

// C is exp(1 + 1/e) of Theorem 3.8.
var C = math.Exp(1 + math.Exp(-1))

// Options configures the randomized router. The zero value is the paper's
// router (Faithful, c+ε = 4, generous step limit).
type Options struct {
	Variant Variant
	// CEps is c+ε in Theorem 3.8's stage-1 schedule; 0 means DefaultCEps.
	CEps float64
	// MaxSteps stops a run that has not finished; 0 means 64 + 8·⌈d/g⌉·(c+ε)
	// (576 at d = 16g). That default is a cut-off for tests, not a bound
	// on the algorithm: at small g the step count is heavy-tailed (POPS(32,2):
	// about 0.5% of runs need more than 576 steps, a few in 10^5 more than
	// 10^5), so experiments pass a much larger guard (internal/popsexp) and
	// count the runs that still hit it (Result.Completed = false).
	MaxSteps int
	// MaxTrace, if > 0, records Result.Remaining and Result.MaxDegree for
	// the first MaxTrace steps only, so that a very long run does not grow
	// them without bound; 0 records every step.
	MaxTrace int
	// OutOfScope lets RunOnModel run the §III procedure literally on a
	// shape with d < g, where the paper does not state it (CheckShape and the
	// engine still refuse it): every processor of a group then relays
	// (index within the group < g) and listens to c(group(i), i mod g) in
	// slots 1 and 2. Only the claim pops/sec3/d-lt-g-as-written uses it.
	OutOfScope bool
	// Step is the slot model RunOnModel drives; nil means pops.Step. Tests
	// and benchmarks plug in the naive oracle (oracles/popsnaive.Step) here.
	// The fast Engine ignores it.
	Step StepFunc
	// KeepCoin selects an alternative to the switch to stage 2 (§III-B):
	// false, as written ("then we can set p to one"), every remaining packet
	// takes part in every step after stage 1; true, the coin is kept after
	// stage 1 at its last value g/d_S (S = Stage1Steps; 0.8 with c+ε = 4) —
	// not a reading of the text but a hypothesis about the authors'
	// simulator. Only the comparison of the tables (issue 9 D) sets it.
	KeepCoin bool
	// Mutant plants a fault in the router for routecheck's power checks
	// (a claim's check must catch it); zero is the router as written.
	// RunOnModel only: the fast Engine refuses a mutant.
	Mutant Mutant
}

// Mutant is a planted fault in the §III router, used only to show that a
// claim's check can fail (issue 9: power). Each differs from the router in
// one rule.
type Mutant int

// The planted faults.
const (
	NoMutant Mutant = iota
	// MutantTempByGroup: relays forward a copy to temporary group
	// group(π(p)) mod g instead of Δ(π(p)) = π(p) mod g (and listen for the
	// ack there): two copies bound for one destination group meet in one
	// temporary group, and their slot-5 sends collide.
	MutantTempByGroup
	// MutantNoAckWait: the source deletes its original as soon as it sends
	// the copy in slot 1, without waiting for the slot-4 ack: a copy that
	// dies in slot 1 or 2 loses its packet.
	MutantNoAckWait
	// MutantRelayKeeps: a relay forwards the copy in slot 2 but does not
	// drop it, so copies pile up in relay buffers.
	MutantRelayKeeps
)

func (m Mutant) String() string {
	switch m {
	case NoMutant:
		return "none"
	case MutantTempByGroup:
		return "temporary group by destination group"
	case MutantNoAckWait:
		return "source deletes its original without waiting for the ack"
	case MutantRelayKeeps:
		return "relay keeps the copy it forwards"
	}
	return fmt.Sprintf("Mutant(%d)", int(m))
}

// StepFunc is the signature of a pure slot model's step.
type StepFunc func(pops.State, []pops.Action) (pops.State, pops.Events, error)

func (o Options) fill(s pops.Shape) Options {
	if o.CEps == 0 {
		o.CEps = DefaultCEps
	}
	if o.MaxSteps == 0 {
		o.MaxSteps = 64 + int(8*o.CEps*math.Ceil(float64(s.D)/float64(s.G)))
	}
	return o
}

// CheckShape returns an error unless the router is stated for s (d ≥ g).
func CheckShape(s pops.Shape) error {
	if s.D < s.G {
		return fmt.Errorf("d = %d < g = %d: the randomized router of §III is stated for d ≥ g (d < g is out of scope)", s.D, s.G)
	}
	return nil
}

func (o Options) check() error {
	if o.CEps < 0 || math.IsNaN(o.CEps) || math.IsInf(o.CEps, 0) || (o.CEps != 0 && o.CEps < 1) {
		return fmt.Errorf("c+ε = %v: must be a finite number ≥ 1 (0 selects the default 4)", o.CEps)
	}
	if o.MaxSteps < 0 {
		return fmt.Errorf("max steps = %d: must be ≥ 0 (0 selects the default)", o.MaxSteps)
	}
	if o.MaxTrace < 0 {
		return fmt.Errorf("max trace = %d: must be ≥ 0 (0 records every step)", o.MaxTrace)
	}
	if o.Mutant < NoMutant || o.Mutant > MutantRelayKeeps {
		return fmt.Errorf("mutant = %d: unknown", int(o.Mutant))
	}
	if o.Variant != Faithful && o.Variant != SplitDelivery {
		return fmt.Errorf("variant = %d: unknown", int(o.Variant))
	}
	return nil
}

// Stage1Steps is ⌈(c+ε)(d/g − 1)⌉, the number of steps with a participation
// coin (Theorem 3.8); 0 when d = g.
func Stage1Steps(s pops.Shape, cEps float64) int {
	if s.D <= s.G {
		return 0
	}
	return int(math.Ceil(cEps*(float64(s.D)/float64(s.G)-1) - 1e-12))
}

// Participation is the probability g / (d − g(s−1)/(c+ε)) with which a
// remaining packet takes part in step s (1-based) of stage 1, capped at 1; it
// is 1 after stage 1.
func Participation(sh pops.Shape, cEps float64, s int) float64 {
	if s > Stage1Steps(sh, cEps) {
		return 1
	}
	den := float64(sh.D) - float64(sh.G)*float64(s-1)/cEps
	if den <= float64(sh.G) {
		return 1
	}
	return float64(sh.G) / den
}

// participation is Participation under the options' reading of stage 2.
func (o Options) participation(sh pops.Shape, s int) float64 {
	if o.KeepCoin {
		if last := Stage1Steps(sh, o.CEps); last > 0 && s > last {
			s = last
		}
	}
	return Participation(sh, o.CEps, s)
}

// Result summarizes one run of the randomized router.
type Result struct {
	// Steps is the number of steps until every original was acked (the step
	// in which the last ack arrived), or MaxSteps if the run did not finish.
	Steps     int
	Completed bool
	// Delivered counts packets accepted at their destination; Lost counts
	// packets that vanished (copy destroyed after the original was deleted).
	Delivered, Lost int
	// Remaining[s] is the number of unacked originals after step s+1
	// (the first Options.MaxTrace steps only, when that is set).
	Remaining []int32
	// MaxDegree[s] is the maximum degree of the conflict graph (max over
	// source groups and temporary destination groups of unacked packets) at
	// the start of step s+1 (the first Options.MaxTrace steps only, when set).
	MaxDegree []int32
	// Conflicts[k] counts conflicting couplers in slot k+1 of all steps
	// (the fast engine fills slots 1, 2 and the delivery slots only).
	Conflicts []int
	// MaxMem are the largest per-processor memory needs seen at the end of any
	// slot (model runs only): [0] everything stored; [1] delivered packets exit
	// the slot after arrival; [2] also originals on an external feeding line.
	MaxMem [3]int
	// Duplicated counts packets accepted at their destination twice (model only).
	Duplicated int
}

func (o Options) trace(step int) bool { return o.MaxTrace == 0 || step <= o.MaxTrace }

// Slots is Steps times the slots per step of the variant.
func (r Result) Slots(v Variant, s pops.Shape) int { return r.Steps * v.SlotsPerStep(s) }

// choose draws the step's decisions for the pending packets (indices 0…m-1
// in increasing packet order) and returns the participants' indices, in
// increasing order, with their random intermediate groups in groups
// (parallel). Each pending packet takes part independently with probability p
// (the stage-1 coin of Theorem 3.8). The coins are drawn by geometric gap
// sampling — one rng.ExpFloat64 E per participant (plus one to end the step),
// gap = ⌊E/λ⌋ with λ = −ln(1−p), so P(gap ≥ j) = e^{−jλ} = (1−p)^j — which has
// exactly the distribution of independent coins while touching only
// participants; each participant then draws rng.IntN(g). With p = 1 every
// packet takes part and no coin is drawn.
func choose(rng *rand.Rand, g int, p float64, m int, part, groups []int32) ([]int32, []int32) {
	part, groups = part[:0], groups[:0]
	if p >= 1 {
		for k := range m {
			part = append(part, int32(k))
			groups = append(groups, int32(rng.IntN(g)))
		}
		return part, groups
	}
	lambda := -math.Log1p(-p)
	k := -1
	for {
		gap := math.Floor(rng.ExpFloat64() / lambda)
		if gap >= float64(m-k-1) {
			return part, groups
		}
		k += int(gap) + 1
		part = append(part, int32(k))
		groups = append(groups, int32(rng.IntN(g)))
	}
}
