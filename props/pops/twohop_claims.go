package pops

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"routecheck/algos/popstwohop"
	mpops "routecheck/models/pops"
	"routecheck/oracles/popslower"
	"routecheck/props"
)

// The claims of 000_de3be866f009217f.txt §II-B on deterministic two-hops
// algorithms: Lemma 2.9, Corollary 2.10, Lemma 2.11 and Theorem 2.12's
// marking construction, run against the two-hops algorithms of
// algos/popstwohop on the slot model.
//
// Theorem 2.12 assumes T < ½·min(log₂ d, log₂ g), T even: T = 2 needs d, g ≥
// 17, T = 4 needs d, g ≥ 257 (n ≥ 66049), T = 6 needs d, g ≥ 4097 (n ≈ 1.7·10⁷,
// beyond what the slot model holds in memory here). So T = 2 and T = 4 are
// the values exercised.

// twoHopAlgs are the deterministic two-hops algorithms the construction
// attacks.
func twoHopAlgs(sh mpops.Shape) []popstwohop.Schedule {
	return []popstwohop.Schedule{popstwohop.Shift(sh), popstwohop.Spread(sh), popstwohop.Hashed(sh)}
}

func twoHops(s popstwohop.Schedule) popslower.TwoHops {
	return popslower.TwoHops{Out: s.Out, In: s.In}
}

// thm212Case is a shape and a running time inside the theorem's assumption.
type thm212Case struct {
	sh mpops.Shape
	T  int
	// perAlg is how many processors i ∈ P'(a_0) are tried (evenly spread;
	// 0 = all).
	perAlg int
}

// thm212Cases are the instances, smallest n first, at a budget.
func thm212Cases(b props.Budget) []thm212Case {
	cs := []thm212Case{
		{mpops.Shape{D: 17, G: 17}, 2, 0},
		{mpops.Shape{D: 34, G: 17}, 2, b.Pick(96, 0, 0)},
		{mpops.Shape{D: 17, G: 34}, 2, b.Pick(96, 0, 0)},
	}
	if b >= props.Default {
		cs = append(cs, thm212Case{mpops.Shape{D: 32, G: 32}, 2, 0}, thm212Case{mpops.Shape{D: 64, G: 48}, 2, b.Pick(0, 256, 0)})
	}
	cs = append(cs, thm212Case{mpops.Shape{D: 257, G: 257}, 4, b.Pick(2, 16, 48)})
	if b == props.Large {
		cs = append(cs, thm212Case{mpops.Shape{D: 300, G: 260}, 4, 8})
	}
	return cs
}

// spreadPick returns k members of xs evenly spread (all when k ≤ 0 or k ≥ len).
func spreadPick(xs []int32, k int) []int32 {
	if k <= 0 || k >= len(xs) {
		return xs
	}
	out := make([]int32, k)
	for j := range k {
		out[j] = xs[j*len(xs)/k]
	}
	return out
}

// thm212Run is one run of the construction's permutation.
type thm212Run struct {
	marks      []popslower.Mark
	perm       []int32
	completion string
	res        popstwohop.Result
	// broken is the first mark routed no later than its slot At (−1: none).
	broken int
	// exempt are the (packet, slot) pairs that needed no partner
	// (PartnerAsNeeded).
	exempt []popslower.Exemption
}

// runMarking builds the permutation for marks with the given completion and
// runs the algorithm for T slots; broken names the first marked packet
// routed within its At slots — for p_i (At = T) that is the theorem's
// failure.
func runMarking(c *popslower.Thm212, s popstwohop.Schedule, marks []popslower.Mark, rng *rand.Rand, completion string) (thm212Run, error) {
	pi := c.Permutation(marks, rng)
	res, err := popstwohop.Run(s, pi, c.T)
	if err != nil {
		return thm212Run{}, err
	}
	r := thm212Run{marks: marks, perm: pi, completion: completion, res: res, broken: -1}
	for k, m := range marks {
		if res.Routed[m.Packet] && res.RoutedAt[m.Packet] <= m.At {
			r.broken = k
			break
		}
	}
	return r, nil
}

// explain212 says why marked packet marks[k] was routed early.
func explain212(c *popslower.Thm212, r thm212Run, k int) string {
	sh, m := c.Shape, r.marks[k]
	p := int(m.Packet)
	at := r.res.RoutedAt[p]
	if at == 0 {
		return fmt.Sprintf("p_%d starts in group %d = a_0, its destination group: routed at slot 0 (property 6)", p, sh.Group(p))
	}
	s := fmt.Sprintf("p_%d (group %d) was routed at slot %d", p, sh.Group(p), at)
	if at%2 == 1 {
		return s + " in one hop"
	}
	t := at - 1
	for _, e := range r.exempt {
		if e.Packet == m.Packet && e.At == t {
			s += fmt.Sprintf("; it had no partner at slot %d, being exempt as %q", t, e.Why)
			if e.With >= 0 {
				s += fmt.Sprintf(" (with p_%d)", e.With)
			}
			s += " — unexpected: it should not have been relayed in that slot"
		}
	}
	for _, q := range r.marks {
		if q.With != m.Packet || q.At != t {
			continue
		}
		h := int(q.Packet)
		sc, heard := c.Coupler(h, t)
		s += fmt.Sprintf("; its slot-%d partner p_%d (group %d, same target group %d)", t, h, sh.Group(h), c.Target(h, t))
		relayed := slices.Contains(r.res.Relayed[t-1], q.Packet)
		switch {
		case r.res.Routed[h] && r.res.RoutedAt[h] < t:
			s += fmt.Sprintf(" was already routed at slot %d", r.res.RoutedAt[h])
		case relayed:
			s += fmt.Sprintf(" was relayed in slot %d (unexpected: they should have collided)", t)
		case sh.Group(h) == sh.Group(p):
			s += " shares its coupler (unexpected: they should have collided)"
		case sc > 1:
			s += fmt.Sprintf(" was not received in slot %d: it shares coupler c(%d,%d) with %d other shooter(s) of its group", t, c.Target(h, t), sh.Group(h), sc-1)
		case !heard:
			s += fmt.Sprintf(" was not received in slot %d: nobody in group %d listens to group %d", t, c.Target(h, t), sh.Group(h))
		default:
			s += fmt.Sprintf(" was not received in slot %d", t)
		}
		s += fmt.Sprintf(", so p_%d was alone among the marked packets relayed through group %d and met no conflict on c(%d,%d) in slot %d", p, c.Target(p, t), c.A0, c.Target(p, t), at)
	}
	return s
}

// thm212Instance is the JSON counterexample of a failed construction.
func thm212Instance(c *popslower.Thm212, s popstwohop.Schedule, r thm212Run, rule popslower.PartnerRule) map[string]any {
	inst := map[string]any{
		"d": c.Shape.D, "g": c.Shape.G, "T": c.T, "algorithm": s.Name, "a0": c.A0, "exclude_a0": c.ExcludeA0,
		"partner_rule": rule.String(), "completion": r.completion, "marks": r.marks, "i": r.marks[0].Packet,
	}
	if len(r.perm) <= 1024 {
		inst["perm"] = r.perm
	}
	var at []string
	for _, m := range r.marks {
		if r.res.Routed[m.Packet] {
			at = append(at, fmt.Sprintf("p_%d@%d", m.Packet, r.res.RoutedAt[m.Packet]))
		}
	}
	inst["marked_routed_at"] = at
	return inst
}

// completions are the ways the proof's "arbitrary" rest of the permutation
// is filled: lowest free destination first, then a random order drawn from
// the seed (stream = i).
func completions(env props.Env, i int32) []struct {
	name string
	rng  *rand.Rand
} {
	return []struct {
		name string
		rng  *rand.Rand
	}{
		{"lowest", nil},
		{fmt.Sprintf("random(seed=%d, stream=%d)", env.Seed, i), rand.New(rand.NewPCG(env.Seed, uint64(i)))},
	}
}

// searchMarking runs the construction with the given reading for every case
// and algorithm, over p_i ∈ P'(a_0) (all of them: it stops at the first
// failure), and returns the first failure, smallest n first.
func searchMarking(env props.Env, excludeA0 bool, rule popslower.PartnerRule, cases []thm212Case) (props.Outcome, string) {
	var ev []string
	for _, cs := range cases {
		for _, s := range twoHopAlgs(cs.sh) {
			c, err := popslower.NewThm212(cs.sh, twoHops(s), cs.T, excludeA0)
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}, ""
			}
			tried, impossible := 0, 0
			for _, i := range spreadPick(c.Robust, cs.perAlg) {
				marks, err := c.Mark(i, rule)
				if err != nil {
					impossible++
					continue
				}
				for _, comp := range completions(env, i) {
					r, err := runMarking(c, s, marks, comp.rng, comp.name)
					if err != nil {
						return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("%v %s: %v", cs.sh, s.Name, err)}, ""
					}
					tried++
					if r.broken >= 0 {
						m := r.marks[r.broken]
						return props.Outcome{Verdict: props.Violated, Counterexample: thm212Instance(c, s, r, rule), Evidence: fmt.Sprintf("%v, T = %d, %s, a_0 = %d, i = %d, completion %s: marked packet p_%d (marked for slot %d) was routed at slot %d: %s",
								cs.sh, cs.T, s.Name, c.A0, i, comp.name, m.Packet, m.At, r.res.RoutedAt[m.Packet], explain212(c, r, r.broken))},

							""
					}
				}
			}
			ev = append(ev, fmt.Sprintf("%v T=%d %s: %d runs, %d impossible", cs.sh, cs.T, s.Name, tried, impossible))
		}
	}
	return props.Outcome{Verdict: props.Holds, Evidence: "no marked packet routed early: " + strings.Join(ev, "; ")}, strings.Join(ev, "; ")
}

// literalMarkingCheck searches the text's marking (partner = lowest
// eligible index) on the small cases, with group a_0's own processors left
// out of P(a_0) when excludeA0 is set.
func literalMarkingCheck(excludeA0 bool) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		o, _ := searchMarking(env, excludeA0, popslower.PartnerLowest, thm212Cases(props.Small))
		return o
	}
}

func init() {
	props.Register(ledger.Text(props.Claim{ID: "pops/lemma-2.9/light-group",
		Check:  checkLemma29(1),
		Faults: []props.Fault{{Name: "the bound dT divided by 4 (below the counting's dT/2)", Check: checkLemma29(0.25)}}}))
	props.Register(ledger.Text(props.Claim{ID: "pops/lemma-2.11/robust-size",
		Check:  checkLemma211(1),
		Faults: []props.Fault{{Name: "the Tg√g allowance dropped (|P'(a_0)| ≥ dg/2)", Check: checkLemma211(0)}}}))
	props.Register(ledger.Text(props.Claim{ID: "pops/lemma-2.11/coupler-reading",
		Check: checkLemma211Coupler}))
	props.Register(ledger.Text(props.Claim{ID: "pops/thm-2.12/literal-marking",
		Check: literalMarkingCheck(false)}))
	props.Register(ledger.Text(props.Claim{ID: "pops/thm-2.12/literal-marking-excluding-a0",
		Check: literalMarkingCheck(true)}))
	props.Register(ledger.Text(props.Claim{ID: "pops/thm-2.12/two-hops-log-n",
		Check:  checkThm212(popslower.PartnerAsNeeded),
		Faults: []props.Fault{{Name: "the text's partner rule (any unmarked p_h with the same target) in place of the repaired one", Check: checkThm212(popslower.PartnerLowest)}}}))
}

// thm212Baseline runs the algorithm on `runs` uniformly random
// permutations for T slots and returns the fraction of the packets that
// need a hop (source group ≠ destination group) routed by then.
func thm212Baseline(s popstwohop.Schedule, T, runs int, rng *rand.Rand) (float64, error) {
	n, d := s.Shape.N(), s.Shape.D
	need, routed := 0, 0
	for range runs {
		pi := make([]int32, n)
		for k, x := range rng.Perm(n) {
			pi[k] = int32(x)
		}
		res, err := popstwohop.Run(s, pi, T)
		if err != nil {
			return 0, err
		}
		for p, q := range pi {
			if p/d != int(q)/d {
				need++
				if res.Routed[p] {
					routed++
				}
			}
		}
	}
	return float64(routed) / float64(max(1, need)), nil
}

// checkThm212 runs the marking construction with partner rule rule
// (PartnerAsNeeded for the claim; the text's PartnerLowest is the planted
// fault, which the literal-marking claims show can leave p_i routed).
func checkThm212(rule popslower.PartnerRule) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome { return thm212(env, rule) }
}

func thm212(env props.Env, rule popslower.PartnerRule) props.Outcome {
	var ev []string
	rng := rand.New(rand.NewPCG(env.Seed, 0x0212))
	for _, cs := range thm212Cases(env.Budget) {
		for _, s := range twoHopAlgs(cs.sh) {
			c, err := popslower.NewThm212(cs.sh, twoHops(s), cs.T, true)
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
			}
			tried, runs, partners := 0, 0, 0
			var impossible []string
			exempt := map[string]int{}
			exhibit := ""
			for _, i := range spreadPick(c.Robust, cs.perAlg) {
				tried++
				mk, err := c.MarkAll(i, rule)
				if err != nil {
					impossible = append(impossible, fmt.Sprintf("i=%d (%v)", i, err))
					continue
				}
				marks := mk.Marks
				if len(marks) > 1<<(cs.T/2) || float64(len(marks)) > math.Sqrt(float64(cs.sh.G)) || len(marks) > cs.sh.D {
					return props.Outcome{Verdict: props.Violated, Counterexample: map[string]any{"d": cs.sh.D, "g": cs.sh.G, "T": cs.T, "algorithm": s.Name, "i": i, "marks": marks}, Evidence: fmt.Sprintf("%v %s i=%d: %d packets marked, more than 2^{T/2}, √g or d", cs.sh, s.Name, i, len(marks))}

				}
				partners += len(marks) - 1
				for _, e := range mk.Exempt {
					exempt[e.Why]++
				}
				for _, comp := range completions(env, i) {
					r, err := runMarking(c, s, marks, comp.rng, comp.name)
					if err != nil {
						return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("%v %s: %v", cs.sh, s.Name, err)}
					}
					r.exempt = mk.Exempt
					runs++
					if r.broken >= 0 {
						m := r.marks[r.broken]
						inst := thm212Instance(c, s, r, rule)
						inst["exempt"] = mk.Exempt
						return props.Outcome{Verdict: props.Violated, Counterexample: inst, Evidence: fmt.Sprintf("%v T=%d %s i=%d completion %s: p_%d (marked for slot %d) routed at slot %d: %s", cs.sh, cs.T, s.Name, i, comp.name, m.Packet, m.At, r.res.RoutedAt[m.Packet], explain212(c, r, r.broken))}

					}
					if exhibit == "" {
						var relayed []string
						for t := 1; t < cs.T; t += 2 {
							if slices.Contains(r.res.Relayed[t-1], i) {
								relayed = append(relayed, fmt.Sprint(t))
							}
						}
						fate := "never received by a relay"
						if len(relayed) > 0 {
							fate = "relayed in slot(s) " + strings.Join(relayed, ", ") + " but not received in the slot after"
						}
						exhibit = fmt.Sprintf("e.g. i = %d: p_%d (group %d) → processor %d in a_0 = %d, %s completion, %d packet(s) marked, still in its A-buffer after %d slots: %s",
							i, i, cs.sh.Group(int(i)), r.perm[i], c.A0, comp.name, len(marks), cs.T, fate)
					}
				}
			}
			if tried == len(impossible) {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("%v T=%d %s: no i ∈ P'(a_0) admits the repaired marking (%d tried): %s", cs.sh, cs.T, s.Name, tried, strings.Join(impossible, "; "))}
			}
			base, err := thm212Baseline(s, cs.T, env.Budget.Pick(1, 2, 4), rng)
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
			}
			skipped := "none impossible"
			if len(impossible) > 0 {
				skipped = fmt.Sprintf("%d impossible (no partner): %s", len(impossible), strings.Join(impossible[:min(len(impossible), 5)], "; "))
			}
			ev = append(ev, fmt.Sprintf("%v T=%d %s: a_0=%d, |P'|=%d, %d i tried, %s; %d partners marked, %d exempt unheard, %d exempt contested; p_i unrouted after %d slots in all %d runs (%s); baseline: a random permutation gets %.1f%% of the packets needing a hop routed within %d slots",
				cs.sh, cs.T, s.Name, c.A0, len(c.Robust), tried, skipped, partners, exempt["unheard"], exempt["contested"], cs.T, runs, exhibit, 100*base, cs.T))
		}
	}
	return props.Outcome{Verdict: props.Holds, Evidence: "attained: " + strings.Join(ev, " | ")}
}

// lemmaSchedule is a named c_out function.
type lemmaSchedule = struct {
	name string
	out  func(i, t int) int
}

// lemmaSchedules are the c_out functions Lemmas 2.9 and 2.11 are checked
// on: the algorithms, random tables and a clumped table.
func lemmaSchedules(sh mpops.Shape, T, random int, rng *rand.Rand) []lemmaSchedule {
	type sched = lemmaSchedule
	var ss []sched
	for _, s := range twoHopAlgs(sh) {
		ss = append(ss, sched{s.Name, s.Out})
	}
	n, g := sh.N(), sh.G
	for k := range random {
		tab := make([]int32, n*(T/2))
		for x := range tab {
			tab[x] = int32(rng.IntN(g))
		}
		ss = append(ss, sched{fmt.Sprintf("random#%d", k), func(i, t int) int { return int(tab[i*(T/2)+(t-1)/2]) }})
	}
	clump := max(1, int(math.Ceil(math.Sqrt(float64(g))))-1)
	ss = append(ss, sched{"clumped", func(i, t int) int {
		r := (i + t*7919) % n // a different cut of the processors in every slot
		return min(r/clump, g-1)
	}})
	return ss
}

func lemmaCases(b props.Budget) []thm212Case {
	cs := []thm212Case{{sh: mpops.Shape{D: 17, G: 17}, T: 2}, {sh: mpops.Shape{D: 34, G: 17}, T: 2}, {sh: mpops.Shape{D: 17, G: 34}, T: 2}, {sh: mpops.Shape{D: 257, G: 257}, T: 4}}
	if b >= props.Default {
		cs = append(cs, thm212Case{sh: mpops.Shape{D: 32, G: 32}, T: 2}, thm212Case{sh: mpops.Shape{D: 300, G: 260}, T: 4})
	}
	return cs
}

// lemmaCheck is the check of Lemmas 2.9 and 2.11: perCase judges one
// case of lemmaCases on its schedules (lemmaSchedules, random ones drawn
// from the lemma's stream tag) and returns its evidence or a violation;
// the first violation is the outcome, else holds with every case's
// evidence.
func lemmaCheck(tag uint64, perCase func(sh mpops.Shape, T int, ss []lemmaSchedule) (string, *props.Outcome)) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		rng := rand.New(rand.NewPCG(env.Seed, tag))
		var ev []string
		for _, cs := range lemmaCases(env.Budget) {
			e, bad := perCase(cs.sh, cs.T, lemmaSchedules(cs.sh, cs.T, env.Budget.Pick(8, 32, 128), rng))
			if bad != nil {
				return *bad
			}
			ev = append(ev, e)
		}
		return props.Outcome{Verdict: props.Holds, Evidence: strings.Join(ev, "; ")}
	}
}

// checkLemma29 checks Lemma 2.9 with its bound dT scaled by scale.
func checkLemma29(scale float64) func(props.Env) props.Outcome {
	return lemmaCheck(0x0209, func(sh mpops.Shape, T int, ss []lemmaSchedule) (string, *props.Outcome) {
		d, n := sh.D, sh.N()
		worst := 0
		for _, s := range ss {
			a0, shooters := popslower.LightGroup(sh, s.out, T)
			p := popslower.NotShooting(sh, s.out, T, a0, false)
			inst := map[string]any{"d": d, "g": sh.G, "T": T, "schedule": s.name, "a0": a0}
			if lim := scale * float64(d*T); float64(shooters) > lim {
				return "", &props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("%v T=%d %s: every group has ≥ %d > %.4g·dT = %.1f shooters", sh, T, s.name, shooters, scale, lim), Counterexample: inst}
			}
			if len(p) < n-d*T || 2*(n-d*T) <= n {
				return "", &props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("%v T=%d %s: |P(a_0)| = %d, n − dT = %d, dg/2 = %d", sh, T, s.name, len(p), n-d*T, n/2), Counterexample: inst}
			}
			worst = max(worst, shooters)
		}
		return fmt.Sprintf("%v T=%d: most shooters on a_0 %d (dT/2 = %d, dT = %d)", sh, T, worst, d*T/2, d*T), nil
	})
}

// checkLemma211 checks Lemma 2.11 with its Tg√g allowance scaled by
// allowance. The claim and its planted fault differ only in the bound: both
// judge the same P'(a_0)s, computed once per (seed, budget)
// (lemma211Table).
func checkLemma211(allowance float64) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		tab, err := lemma211Rows.get(lemma211Key{env.Seed, env.Budget}, func() ([]lemma211Case, error) { return lemma211Table(env), nil })
		if err != nil {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
		}
		var ev []string
		for _, cs := range tab {
			e, bad := judgeLemma211(cs, allowance)
			if bad != nil {
				return *bad
			}
			ev = append(ev, e)
		}
		return props.Outcome{Verdict: props.Holds, Evidence: strings.Join(ev, "; ")}
	}
}

// lemma211Row is what Lemma 2.11's check reads from one schedule and one
// reading of P(a_0): the removal's result, re-checked by counting.
type lemma211Row struct {
	schedule    string
	a0          int
	excludeA0   bool
	size, pairs int
	robust      bool
}

type lemma211Case struct {
	sh   mpops.Shape
	T    int
	rows []lemma211Row
}

type lemma211Key struct {
	seed   uint64
	budget props.Budget
}

var lemma211Rows onceMap[lemma211Key, []lemma211Case]

// lemma211Table computes, for every case of lemmaCases and every schedule
// (lemmaSchedules, random ones from the lemma's stream tag 0x0211, drawn
// case by case as lemmaCheck draws them), a_0, and P'(a_0) by the lemma's
// removal for P(a_0) as written and without group a_0.
func lemma211Table(env props.Env) []lemma211Case {
	rng := rand.New(rand.NewPCG(env.Seed, 0x0211))
	var out []lemma211Case
	for _, cs := range lemmaCases(env.Budget) {
		sh, T := cs.sh, cs.T
		c := lemma211Case{sh: sh, T: T}
		for _, s := range lemmaSchedules(sh, T, env.Budget.Pick(8, 32, 128), rng) {
			a0, _ := popslower.LightGroup(sh, s.out, T)
			for _, ex := range []bool{false, true} {
				p := popslower.NotShooting(sh, s.out, T, a0, ex)
				r, pairs := popslower.RobustSubset(sh, s.out, T, p)
				c.rows = append(c.rows, lemma211Row{schedule: s.name, a0: a0, excludeA0: ex, size: len(r), pairs: pairs, robust: popslower.IsRobust(sh, s.out, T, r)})
			}
		}
		out = append(out, c)
	}
	return out
}

// judgeLemma211 judges one case's rows against dg/2 − allowance·Tg√g, in
// order: the first row that fails is the violation.
func judgeLemma211(c lemma211Case, allowance float64) (string, *props.Outcome) {
	sh, T := c.sh, c.T
	bound := float64(sh.N())/2 - allowance*float64(T*sh.G)*math.Sqrt(float64(sh.G))
	smallest, maxPairs := sh.N(), 0
	for _, r := range c.rows {
		inst := map[string]any{"d": sh.D, "g": sh.G, "T": T, "schedule": r.schedule, "a0": r.a0, "exclude_a0": r.excludeA0}
		if !r.robust {
			return "", &props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("%v T=%d %s: the removal left a set that is not √g-robust", sh, T, r.schedule), Counterexample: inst}
		}
		if float64(r.size) < bound || r.pairs > (T/2)*sh.G {
			return "", &props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("%v T=%d %s: |P'(a_0)| = %d < dg/2 − Tg√g = %.1f (%d pairs marked)", sh, T, r.schedule, r.size, bound, r.pairs), Counterexample: inst}
		}
		smallest, maxPairs = min(smallest, r.size), max(maxPairs, r.pairs)
	}
	return fmt.Sprintf("%v T=%d: smallest |P'(a_0)| %d ≥ %.1f, most pairs marked %d", sh, T, smallest, bound, maxPairs), nil
}

func checkLemma211Coupler(env props.Env) props.Outcome {
	sh, T := mpops.Shape{D: 17, G: 17}, 2
	bound := float64(sh.N())/2 - float64(T*sh.G)*math.Sqrt(float64(sh.G))
	var ev []string
	for _, s := range twoHopAlgs(sh) {
		a0, _ := popslower.LightGroup(sh, s.Out, T)
		p := popslower.NotShooting(sh, s.Out, T, a0, false)
		r, pairs := popslower.RobustSubsetCoupler(sh, s.Out, T, p)
		if float64(len(r)) < bound {
			return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("%v T=%d %s: coupler-robust P'(a_0) has %d members < dg/2 − Tg√g = %.1f (|P(a_0)| = %d, %d pairs removed)", sh, T, s.Name, len(r), bound, len(p), pairs), Counterexample: map[string]any{"d": sh.D, "g": sh.G, "T": T, "algorithm": s.Name, "a0": a0}}

		}
		ev = append(ev, fmt.Sprintf("%s: %d", s.Name, len(r)))
	}
	return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("coupler-robust sizes ≥ %.1f: %s", bound, strings.Join(ev, ", "))}
}
