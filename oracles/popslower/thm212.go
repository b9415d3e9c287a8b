package popslower

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"routecheck/models/pops"
)

// Theorem 2.12 (000_de3be866f009217f.txt §II-B): any deterministic two-hops
// algorithm needs Ω(log n) slots. The construction: a group a_0 few
// processors shoot on (Lemma 2.9), the processors P(a_0) that never shoot on
// it, a √g-robust subset P'(a_0) (Lemma 2.11), a marking that pairs every
// marked packet with a fresh partner at every odd slot, counted down from
// T−1, and a permutation sending the marked packets into group a_0.
//
// How the text is read here (the claims in props/pops/twohop_claims.go record
// what each reading gives):
//
//   - c(i, t) is the target group c_out(i, t), not a coupler: only then does
//     Lemma 2.11's count of "at most Tg" pairs hold (RobustSubsetCoupler is
//     the coupler reading, for comparison).
//   - "for every t < T" ranges over odd t < T, the slots with a c_out;
//     "at least √g processors j in A" counts i itself.
//   - P(a_0) as written contains processors of group a_0 itself; a packet
//     starting there and sent into a_0 is already in its destination group
//     (property 6), so NewThm212 can leave them out (excludeA0).
//   - "for every marked p_j" iterates over the packets marked before the
//     current t, in marking order; partners are distinct and taken from
//     P'(a_0) ("they are chosen from P'(a_0)").
//   - "Why same-target packets must collide": under the group reading p_j and
//     p_h shoot at the same group a from different groups, on different
//     couplers; they collide only in slot t+1, on c(a_0, a), and only if both
//     were received in group a in slot t. The text's rule does not ensure
//     that the partner is received; PartnerReliable does. PartnerAsNeeded
//     also skips the partner when the marked packet cannot be relayed in
//     slot t anyway (its coupler is unheard, or shared with another marked
//     packet of its group). Neither rule is guaranteed to find a partner:
//     robustness promises √g packets with the same target, not one on a
//     suitable coupler; MarkAll then returns an error.
//   - The rest of the permutation is left arbitrary by the text; Permutation
//     fills it lowest-first or in a seeded random order (no adversarial
//     "jamming" completion is attempted).

// TwoHops is a deterministic two-hops algorithm (§II-B, properties 1–6) as
// the construction of Theorem 2.12 sees it: Out(i, t), for odd t ≥ 1, is the
// group c_out(i, t) processor i shoots its A-buffer packet at; In(i, t) is
// the group c_in(i, t) it listens to (−1: not listening). Only Out matters
// to the paper's construction; In is used by the repaired partner rule.
type TwoHops struct {
	Out func(i, t int) int
	In  func(i, t int) int
}

// Thm212Assumption checks Theorem 2.12's hypothesis on the running time:
// T even, T ≥ 2 and T < ½·min(log₂ d, log₂ g), i.e. d > 4^T and g > 4^T.
// (T = 2 needs d, g ≥ 17; T = 4 needs d, g ≥ 257; T = 6 needs 4097.)
func Thm212Assumption(sh pops.Shape, T int) error {
	if T < 2 || T%2 != 0 {
		return fmt.Errorf("T = %d: Theorem 2.12 takes T even and ≥ 2", T)
	}
	if T > 15 || sh.D <= 1<<(2*T) || sh.G <= 1<<(2*T) {
		return fmt.Errorf("T = %d on %v: T < ½·min(log₂ d, log₂ g) needs d, g > 4^T = %d", T, sh, 1<<(2*min(T, 15)))
	}
	return nil
}

// Shoots reports whether processor i shoots on group a in the first T slots:
// c_out(i, t) = a for some odd t < T.
func Shoots(out func(i, t int) int, T, i, a int) bool {
	for t := 1; t < T; t += 2 {
		if out(i, t) == a {
			return true
		}
	}
	return false
}

// LightGroup is Lemma 2.9's group a_0: the group the fewest processors shoot
// on in the first T slots (the lowest index among ties), and that number.
// By counting it is at most n·(T/2)/g = dT/2, within the lemma's dT. Cost
// O(n·T).
func LightGroup(sh pops.Shape, out func(i, t int) int, T int) (a0, shooters int) {
	cnt := make([]int, sh.G)
	seen := make([]int, sh.G) // last processor counted for the group, +1
	for i := range sh.N() {
		for t := 1; t < T; t += 2 {
			if a := out(i, t); seen[a] != i+1 {
				seen[a] = i + 1
				cnt[a]++
			}
		}
	}
	a0 = 0
	for a, c := range cnt {
		if c < cnt[a0] {
			a0 = a
		}
	}
	return a0, cnt[a0]
}

// NotShooting is P(a_0): the processors that do not shoot on a0 in the first
// T slots, in increasing order. With excludeA0 the processors of group a0
// itself are left out too — the repaired reading: a packet starting in group
// a_0 and sent there is already in its destination group (property 6), so
// it cannot be a packet that "has to perform two hops". Corollary 2.10 gives
// |P(a_0)| ≥ n − dT; with the exclusion the count is ≥ n − dT/2 − d.
func NotShooting(sh pops.Shape, out func(i, t int) int, T, a0 int, excludeA0 bool) []int32 {
	var p []int32
	for i := range sh.N() {
		if excludeA0 && sh.Group(i) == a0 {
			continue
		}
		if !Shoots(out, T, i, a0) {
			p = append(p, int32(i))
		}
	}
	return p
}

// RobustSubset is Lemma 2.11's iterative removal, c(i, t) read as the group
// c_out(i, t): while some pair (t, a), t odd < T, has between 1 and ⌈√g⌉−1
// members i of the current set with c_out(i, t) = a, remove them all and
// mark the pair. It returns the remaining set (√g-robust: every member
// shares c_out at every odd t < T with at least √g members, itself
// included) and the number of pairs marked. "t < T" is read as odd t < T,
// the only slots with a c_out. The lemma's bound is |P'| ≥ dg/2 − Tg√g
// (each of at most (T/2)·g pairs removes fewer than √g processors). Cost
// O(passes · T · |p|) for passes ≤ pairs + 1.
func RobustSubset(sh pops.Shape, out func(i, t int) int, T int, p []int32) (robust []int32, pairs int) {
	return robustSubset(sh, out, sh.G, T, p)
}

// RobustSubsetCoupler is the same removal with c(i, t) read as the coupler
// c(c_out(i, t), group(i)) (key c_out·g + group): robustness then asks for
// √g members of the same source group shooting at the same group. The
// lemma's counting would then allow (T/2)·g² pairs, not Tg.
func RobustSubsetCoupler(sh pops.Shape, out func(i, t int) int, T int, p []int32) (robust []int32, pairs int) {
	key := func(i, t int) int { return out(i, t)*sh.G + sh.Group(i) }
	return robustSubset(sh, key, sh.G*sh.G, T, p)
}

func robustSubset(sh pops.Shape, key func(i, t int) int, keys, T int, p []int32) ([]int32, int) {
	need := int(math.Ceil(math.Sqrt(float64(sh.G))))
	in := slices.Clone(p)
	pairs := 0
	cnt := make([]int, keys)
	for {
		removed := false
		for t := 1; t < T && !removed; t += 2 {
			clear(cnt)
			for _, i := range in {
				cnt[key(int(i), t)]++
			}
			for a, c := range cnt {
				if c > 0 && c < need {
					in = slices.DeleteFunc(in, func(i int32) bool { return key(int(i), t) == a })
					pairs++
					removed = true
					break
				}
			}
		}
		if !removed {
			return in, pairs
		}
	}
}

// IsRobust checks √g-robustness of a set directly, by counting (an
// independent check of RobustSubset's result): for every member i and odd
// t < T, at least √g members j have c_out(j, t) = c_out(i, t).
func IsRobust(sh pops.Shape, out func(i, t int) int, T int, a []int32) bool {
	root := math.Sqrt(float64(sh.G))
	cnt := make([]int, sh.G)
	for t := 1; t < T; t += 2 {
		clear(cnt)
		for _, j := range a {
			cnt[out(int(j), t)]++
		}
		for _, i := range a {
			if float64(cnt[out(int(i), t)]) < root {
				return false
			}
		}
	}
	return true
}

// PartnerRule says which unmarked packet p_h a marked p_j is paired with at
// odd slot t.
type PartnerRule int

const (
	// PartnerLowest is the text: any unmarked p_h, h ∈ P'(a_0), with
	// c_out(h, t) = c_out(j, t) — the lowest such h.
	PartnerLowest PartnerRule = iota
	// PartnerReliable is the repaired rule: the lowest unmarked h ∈ P'(a_0)
	// with c_out(h, t) = c_out(j, t) = a that either shares p_j's source
	// group (then p_h and p_j collide on the coupler c(a, group(j)) in slot
	// t itself, so neither reaches a B-buffer) or is the only processor of
	// its group with c_out = a at t and some processor of group a listens
	// to its group at t (then p_h, while alive, is surely received, so if
	// p_j is received too both sit in group a's B-buffers with destinations
	// in a_0 and collide on c(a_0, a) in slot t+1).
	PartnerReliable
	// PartnerAsNeeded is PartnerReliable where a partner is needed at all:
	// a marked p_j gets no partner at odd slot t when it cannot be relayed
	// in slot t anyway — nobody in group c_out(j, t) listens to group(j) at
	// t ("unheard"), or another marked packet of p_j's own group shoots at
	// c_out(j, t) too ("contested": both are alive at t, as every marked
	// packet is up to its marking slot, so they collide on the coupler in
	// slot t). The exemptions are returned by MarkAll.
	PartnerAsNeeded
)

func (r PartnerRule) String() string {
	switch r {
	case PartnerLowest:
		return "lowest"
	case PartnerReliable:
		return "reliable"
	case PartnerAsNeeded:
		return "as-needed"
	}
	return fmt.Sprintf("PartnerRule(%d)", int(r))
}

// Thm212 is the construction's fixed part for one algorithm: a_0, P(a_0)
// and P'(a_0). Mark and Permutation then build the adversarial input for a
// chosen p_i.
type Thm212 struct {
	Shape pops.Shape
	T     int
	// A0 is Lemma 2.9's group and Shooters the number of processors
	// shooting on it in the first T slots.
	A0, Shooters int
	// P is P(a_0) and Robust is P'(a_0) (Lemma 2.11); Pairs is the number
	// of (t, group) pairs the removal marked.
	P, Robust []int32
	Pairs     int
	// ExcludeA0 records whether group a_0's processors were left out of P.
	ExcludeA0 bool

	alg      TwoHops
	inRobust []bool
	// per odd slot t (index (t−1)/2): static shooters per coupler a·g+x,
	// and whether group a listens to x.
	shooters [][]int32
	heard    [][]bool
}

// NewThm212 runs Lemma 2.9 and Lemma 2.11 for alg on shape sh and running
// time T. It returns an error when T violates the theorem's assumption (see
// Thm212Assumption). Cost O(n·T + T·g²) plus the removal.
func NewThm212(sh pops.Shape, alg TwoHops, T int, excludeA0 bool) (*Thm212, error) {
	if err := Thm212Assumption(sh, T); err != nil {
		return nil, err
	}
	c := &Thm212{Shape: sh, T: T, ExcludeA0: excludeA0, alg: alg}
	c.A0, c.Shooters = LightGroup(sh, alg.Out, T)
	c.P = NotShooting(sh, alg.Out, T, c.A0, excludeA0)
	c.Robust, c.Pairs = RobustSubset(sh, alg.Out, T, c.P)
	c.inRobust = make([]bool, sh.N())
	for _, i := range c.Robust {
		c.inRobust[i] = true
	}
	g := sh.G
	for t := 1; t < T; t += 2 {
		sc, hd := make([]int32, g*g), make([]bool, g*g)
		for i := range sh.N() {
			sc[alg.Out(i, t)*g+sh.Group(i)]++
			if x := alg.In(i, t); x >= 0 {
				hd[sh.Group(i)*g+x] = true
			}
		}
		c.shooters, c.heard = append(c.shooters, sc), append(c.heard, hd)
	}
	return c, nil
}

// Target is c_out(h, t), the group p_h is shot at in odd slot t.
func (c *Thm212) Target(h, t int) int { return c.alg.Out(h, t) }

// Coupler describes p_h's first hop in odd slot t < T: the number of
// processors of group(h) with c_out = c_out(h, t) (1: h alone), and whether
// some processor of the target group listens to group(h) in slot t.
func (c *Thm212) Coupler(h, t int) (shooters int, heard bool) {
	k := c.alg.Out(h, t)*c.Shape.G + c.Shape.Group(h)
	return int(c.shooters[(t-1)/2][k]), c.heard[(t-1)/2][k]
}

// Mark is one marked packet: Packet was marked while pairing it with With
// at odd slot At (for the first packet p_i, At = T and With = −1).
type Mark struct {
	Packet int32 `json:"packet"`
	At     int   `json:"at"`
	With   int32 `json:"with"`
}

// Exemption is a marked packet that needed no partner at odd slot At
// (rule PartnerAsNeeded): Why is "unheard" or "contested", and With the
// marked packet of the same group sharing the coupler (contested; −1
// otherwise).
type Exemption struct {
	Packet int32  `json:"packet"`
	At     int    `json:"at"`
	Why    string `json:"why"`
	With   int32  `json:"with"`
}

// Marking is the result of MarkAll.
type Marking struct {
	Marks  []Mark      `json:"marks"`
	Exempt []Exemption `json:"exempt,omitempty"`
}

// Mark runs the marking and returns the marks (see MarkAll).
func (c *Thm212) Mark(i int32, rule PartnerRule) ([]Mark, error) {
	m, err := c.MarkAll(i, rule)
	return m.Marks, err
}

// MarkAll runs the marking: mark p_i; for t = T−1, T−3, …, 1 and every
// packet marked before this t (in marking order), mark an unmarked p_h,
// h ∈ P'(a_0), with c_out(h, t) = c_out(j, t), chosen by rule (with
// PartnerAsNeeded, first see whether p_j needs a partner at t at all). The
// proof's invariant is that a packet marked at At is not routed in slots
// ≤ At. It returns an error if i ∉ P'(a_0) or no partner exists (a step of
// the construction is impossible), with the marking done so far. At most
// 2^{T/2} packets are marked.
func (c *Thm212) MarkAll(i int32, rule PartnerRule) (Marking, error) {
	if i < 0 || int(i) >= c.Shape.N() || !c.inRobust[i] {
		return Marking{}, fmt.Errorf("popslower: p_%d: i must be in P'(a_0)", i)
	}
	sh := c.Shape
	marked := make([]bool, sh.N())
	marked[i] = true
	out := Marking{Marks: []Mark{{Packet: i, At: c.T, With: -1}}}
	for t := c.T - 1; t >= 1; t -= 2 {
		for _, m := range out.Marks[:len(out.Marks):len(out.Marks)] {
			j := int(m.Packet)
			a := c.alg.Out(j, t)
			if rule == PartnerAsNeeded {
				if _, heard := c.Coupler(j, t); !heard {
					out.Exempt = append(out.Exempt, Exemption{Packet: int32(j), At: t, Why: "unheard", With: -1})
					continue
				}
				co := int32(-1)
				for _, q := range out.Marks {
					if k := int(q.Packet); k != j && sh.Group(k) == sh.Group(j) && c.alg.Out(k, t) == a {
						co = q.Packet
						break
					}
				}
				if co >= 0 {
					out.Exempt = append(out.Exempt, Exemption{Packet: int32(j), At: t, Why: "contested", With: co})
					continue
				}
			}
			h := -1
			for _, cand := range c.Robust {
				k := int(cand)
				if marked[k] || c.alg.Out(k, t) != a {
					continue
				}
				if rule != PartnerLowest && sh.Group(k) != sh.Group(j) {
					if s, heard := c.Coupler(k, t); s != 1 || !heard {
						continue
					}
				}
				h = k
				break
			}
			if h < 0 {
				return out, fmt.Errorf("popslower: no unmarked partner (rule %v) for p_%d at slot %d (c_out = %d)", rule, j, t, a)
			}
			marked[h] = true
			out.Marks = append(out.Marks, Mark{Packet: int32(h), At: t, With: int32(j)})
		}
	}
	return out, nil
}

// Permutation sends the marked packets, in marking order, to processors
// a_0·d, a_0·d+1, … of group a_0, and completes it: the other sources in
// increasing order take the free destinations in increasing order (rng ==
// nil), or in an order shuffled by rng. The proof leaves the completion
// arbitrary; its argument is meant to hold for every completion. It panics
// if more than d packets are marked (impossible under the assumption).
func (c *Thm212) Permutation(marks []Mark, rng *rand.Rand) []int32 {
	n, d := c.Shape.N(), c.Shape.D
	if len(marks) > d {
		panic("popslower: more marked packets than processors in group a_0")
	}
	pi := make([]int32, n)
	for k := range pi {
		pi[k] = -1
	}
	used := make([]bool, n)
	for k, m := range marks {
		pi[m.Packet] = int32(c.A0*d + k)
		used[c.A0*d+k] = true
	}
	var free []int32
	for b := range n {
		if !used[b] {
			free = append(free, int32(b))
		}
	}
	if rng != nil {
		rng.Shuffle(len(free), func(x, y int) { free[x], free[y] = free[y], free[x] })
	}
	for k := range pi {
		if pi[k] < 0 {
			pi[k], free = free[0], free[1:]
		}
	}
	return pi
}
