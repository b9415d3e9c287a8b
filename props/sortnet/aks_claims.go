package sortnet

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"

	"routecheck/algos/aks"
	asn "routecheck/algos/sortnet"
	msn "routecheck/models/sortnet"
	"routecheck/props"
)

// Claims about the AKS-family network of algos/aks (Seiferas's
// simplification of Paterson's version), the network behind Theorem 2.3 and
// Corollary 2.4 of 000_de3be866f009217f.txt §II-A. Section numbers (§) in
// this file are Seiferas's unless the seed file is named.

const ()

// AKSExpanderD is the number of random perfect matchings per halver in the
// expander-halver claim (the d of the algos/aks examples and depth table).
const AKSExpanderD = 8

// AKSCrossoverK is the recorded least k for which the §7 depth estimate with
// the §5 parameters and Paterson's halvers is below Batcher's k(k+1)/2.
const AKSCrossoverK = 1028489

// AKSBuildExact is the construction with the exact separator (every bag
// sorted by Batcher's network) and the §5 parameters.
var AKSBuildExact = SortnetBuild{
	Name: "aks-exact",
	Build: func(n int) (msn.Network, error) {
		res, err := aks.Construct(n, aks.SeiferasParams(), aks.Exact())
		if err != nil {
			return msn.Network{}, err
		}
		return res.Net, nil
	},
}

var aksExactSortsPlan = snSortsPlan{MaxExh: [3]int{18, 20, 22}, MaxN: [3]int{1 << 10, 1 << 12, 1 << 13}, Perms: [3]int{3, 8, 16}}

// AKSExpanderFailure is a 0-1 input the expander-halver network leaves
// unsorted, on the smallest n where that happens.
type AKSExpanderFailure struct {
	N, D        int
	NetworkSeed [2]uint64 // the matchings are drawn from PCG(NetworkSeed[0], NetworkSeed[1])
	Stages      int
	Depth, Size int
	Input       []int // wire i holds Input[i]
	Output      []int // what the network leaves on the wires
	Replay      string
}

// aksMinFailing01 returns, among all 0-1 inputs nw leaves unsorted, one of
// least min(weight, n − weight), ties broken by the smaller binary number.
// n ≤ 30.
func aksMinFailing01(nw msn.Network) (uint64, bool) {
	n := nw.N
	var order []int
	for w := 1; w <= n/2; w++ {
		order = append(order, w)
		if n-w != w {
			order = append(order, n-w)
		}
	}
	for _, w := range order {
		var ins []uint64
		for x := uint64(1)<<w - 1; x < uint64(1)<<n; {
			ins = append(ins, x)
			c := x & -x // Gosper's hack: next number with the same popcount
			r := x + c
			x = (((r ^ x) >> 2) / c) | r
		}
		// ins is increasing, so the first failure is the smallest number.
		words, masks := msn.Pack01(n, ins)
		if bad, found := msn.FailsOn01(nw, words, masks); found {
			return bad, true
		}
	}
	return 0, false
}

// AKSExpanderSmallest searches n = 2, 3, …, maxN for the first n on which
// the expander-halver network (d matchings, seed) fails the exhaustive 0-1
// check, and returns the failure with a minimal input, and the sizes that
// sorted.
func AKSExpanderSmallest(d int, seed uint64, maxN int) (*AKSExpanderFailure, []int, error) {
	var ok []int
	for n := 2; n <= maxN; n++ {
		res, err := aks.ExpanderNet(n, d, seed)
		if err != nil {
			return nil, ok, err
		}
		x, bad := aksMinFailing01(res.Net)
		if !bad {
			ok = append(ok, n)
			continue
		}
		in := asn.Bits01(n, x)
		out := slices.Clone(in)
		msn.Apply(res.Net, out)
		return &AKSExpanderFailure{
			N: n, D: d, NetworkSeed: [2]uint64{seed, uint64(n)}, Stages: res.Stages,
			Depth: res.Net.Depth(), Size: res.Net.Size(), Input: in, Output: out,
			Replay: fmt.Sprintf("aks.Construct(%d, aks.SeiferasParams(), aks.FromHalver(aks.ExpanderHalver(%d, rand.New(rand.NewPCG(%d, %d))))); sortnet.Apply(res.Net, input)", n, d, seed, n),
		}, ok, nil
	}
	return nil, ok, nil
}

// aksZeroKick describes, for the padded size N of n, the levels whose bags
// hold items at some stage but never kick anything back (⌊λb⌋ = 0 at every
// such stage), from the data-independent schedule.
func aksZeroKick(n int) (string, error) {
	res, err := aks.Construct(n, aks.SeiferasParams(), aks.Exact())
	if err != nil {
		return "", err
	}
	lam := aks.SeiferasParams().Lambda.Float()
	never := map[int]bool{}
	seen := map[int]bool{}
	zero, total := 0, 0
	for _, rep := range res.Schedule[:res.Stages] { // the state before each stage
		for _, lv := range rep.Levels {
			if lv.Depth == 0 {
				continue
			}
			k := math.Floor(lam*lv.Capacity + 1e-12)
			if !seen[lv.Depth] {
				seen[lv.Depth], never[lv.Depth] = true, true
			}
			if k >= 1 {
				never[lv.Depth] = false
			} else {
				zero++
			}
			total++
		}
	}
	var ds []string
	for d := 1; d < 64; d++ {
		if seen[d] && never[d] {
			ds = append(ds, fmt.Sprint(d))
		}
	}
	return fmt.Sprintf("padded to N = %d: %d of the %d (stage, non-empty non-root level) pairs have ⌊λb⌋ = 0; level(s) %s never kick anything back, and the root never does (K = 0 at the root)",
		res.N, zero, total, strings.Join(ds, ", ")), nil
}

// AKSInvariantFailure is a stage at which the §4 invariant (or the stronger
// ε = 0 form) failed.
type AKSInvariantFailure struct {
	N     int
	Input []int32 `json:",omitempty"` // nil: the data-independent schedule
	What  string
}

// AKSExactInvariants runs the exact-separator construction on each n with
// the given number of random inputs (PCG(seed, n)) traced, and checks after
// every stage the four clauses of the §4 invariant (StageReport.Violations,
// clause 4 with the §5 bounds), that there are no 2-strangers at all (the
// §5 argument with ε = 0 bounds them by 0), and that the finishing subtrees
// are no higher than §4's k. It returns the number of stage reports checked.
//
// Before the clauses, it checks the capacities b = N·ν^t·A^d the reports
// carry, and clause 4's bounds, against aksCapacityMismatch's independent
// exact evaluation from the printed §5 values.
//
// newSep makes the separator for n (nil: aks.Exact) and mu is the
// construction's planted fault (the zero aks.Mutant: none); a planted fault
// passes a mutant.
func AKSExactInvariants(ns []int, inputs int, seed uint64, newSep func(n int) aks.Separator, mu aks.Mutant) (int, *AKSInvariantFailure) {
	if newSep == nil {
		newSep = func(int) aks.Separator { return aks.Exact() }
	}
	reports := 0
	for _, n := range ns {
		r := rand.New(rand.NewPCG(seed, uint64(n)))
		ins := make([][]int32, inputs)
		for k := range ins {
			ins[k] = snPerm(r, n)
		}
		res, err := aks.ConstructMutant(n, aks.SeiferasParams(), newSep(n), mu, ins...)
		if err != nil {
			return reports, &AKSInvariantFailure{N: n, What: err.Error()}
		}
		if what := aksCapacityMismatch(n, res); what != "" {
			return reports, &AKSInvariantFailure{N: n, What: what}
		}
		for _, rep := range res.Schedule {
			reports++
			if v := rep.Violations(); len(v) > 0 {
				return reports, &AKSInvariantFailure{N: n, What: "schedule: " + v[0].String()}
			}
		}
		for k, tr := range res.Traces {
			for _, rep := range tr.Reports {
				reports++
				if v := rep.Violations(); len(v) > 0 {
					return reports, &AKSInvariantFailure{N: n, Input: ins[k], What: v[0].String()}
				}
				for _, lv := range rep.Levels {
					if len(lv.Strangers) >= 2 && lv.Strangers[1] > 0 {
						return reports, &AKSInvariantFailure{N: n, Input: ins[k], What: fmt.Sprintf("t=%d depth %d: %d 2-strangers with an exact separator", rep.T, lv.Depth, lv.Strangers[1])}
					}
				}
			}
			if !tr.Sorted {
				return reports, &AKSInvariantFailure{N: n, Input: ins[k], What: fmt.Sprintf("the construction misplaces %d items", tr.Misplaced)}
			}
		}
		if res.FinalHeight > res.PaperFinalHeight {
			return reports, &AKSInvariantFailure{N: n, What: fmt.Sprintf("finishing subtrees of height %d > §4's k = %d", res.FinalHeight, res.PaperFinalHeight)}
		}
	}
	return reports, nil
}

// aksCapacityMismatch recomputes, for the construction res on n wires, the
// capacity b = N·ν^t·A^d (§4; N the padded size, the least power of two
// ≥ max(n, 2)) of every level in every report in exact rationals from the
// printed §5 values (aksSec5, parsed here, not aks.SeiferasParams), and
// compares it with what the reports carry: ⌊b⌋ exactly (algos/aks clamps
// it to 2^62), the float b exactly (both are b rounded to nearest), and
// clause 4's bounds λ·ε^(j−1)·b in traced reports to a relative 1e−9
// (algos/aks multiplies floats). It returns "" when all agree, else the
// first difference.
func aksCapacityMismatch(n int, res *aks.Result) string {
	N := 1 << bits.Len(uint(max(n, 2)-1))
	if res.N != N {
		return fmt.Sprintf("padded size %d, want %d", res.N, N)
	}
	A, nu, lam, eps := aksRat(aksSec5.A), aksRat(aksSec5.nu), aksRat(aksSec5.lam), aksRat(aksSec5.eps)
	clampQ := new(big.Int).Lsh(big.NewInt(1), 62)
	// want(t, d) = N ν^t A^d, memoized per (t, d).
	memo := map[[2]int]*big.Rat{}
	want := func(t, d int) *big.Rat {
		if b, ok := memo[[2]int{t, d}]; ok {
			return b
		}
		b := new(big.Rat).SetInt64(int64(N))
		for range t {
			b.Mul(b, nu)
		}
		for range d {
			b.Mul(b, A)
		}
		memo[[2]int{t, d}] = b
		return b
	}
	var lamEps []float64 // lamEps[j] = λ ε^j as the nearest float
	check := func(rep aks.StageReport) string {
		for _, lv := range rep.Levels {
			b := want(rep.T, lv.Depth)
			fl := new(big.Int).Quo(b.Num(), b.Denom())
			if fl.Cmp(clampQ) > 0 {
				fl.Set(clampQ)
			}
			bf, _ := b.Float64()
			if !fl.IsInt64() || fl.Int64() != lv.CapFloor || bf != lv.Capacity {
				return fmt.Sprintf("t=%d depth %d: capacity %v (⌊b⌋ = %d) reported, N·ν^t·A^d = %s (⌊b⌋ = %v)", rep.T, lv.Depth, lv.Capacity, lv.CapFloor, b.FloatString(6), fl)
			}
			for j, got := range lv.Bounds {
				for len(lamEps) <= j {
					x := new(big.Rat).Set(lam)
					for range len(lamEps) {
						x.Mul(x, eps)
					}
					f, _ := x.Float64()
					lamEps = append(lamEps, f)
				}
				if w := lamEps[j] * bf; math.Abs(got-w) > 1e-9*w {
					return fmt.Sprintf("t=%d depth %d: clause 4's bound for %d-strangers %v reported, λ·ε^%d·b = %v", rep.T, lv.Depth, j+1, got, j, w)
				}
			}
		}
		return ""
	}
	for _, rep := range res.Schedule {
		if what := check(rep); what != "" {
			return "schedule: " + what
		}
	}
	for _, tr := range res.Traces {
		for _, rep := range tr.Reports {
			if what := check(rep); what != "" {
				return what
			}
		}
	}
	return ""
}

// aksParamSet is a parameter set as printed in Seiferas's text, parsed
// independently of algos/aks.
type aksParamSet struct {
	name            string
	A, nu, lam, eps string // decimal or a/b, as printed
	aksParams       aks.Params
}

// aksSec5 is the §5 example as printed ("For example, A = 10, λ = 1/100,
// ε = 1/100, and ν = 13/20").
var aksSec5 = aksParamSet{name: "§5 example", A: "10", nu: "13/20", lam: "1/100", eps: "1/100", aksParams: aks.SeiferasParams()}

func aksRat(s string) *big.Rat {
	// "1/96.4" is printed as a fraction with a decimal denominator.
	if num, den, ok := strings.Cut(s, "/"); ok {
		a, b := aksRat(num), aksRat(den)
		return new(big.Rat).Quo(a, b)
	}
	x, ok := new(big.Rat).SetString(s)
	if !ok {
		panic("props: bad rational " + s)
	}
	return x
}

// AKSConstraint is one constraint of §5, LHS ≥ RHS (or LHS > RHS for the
// strict ones), evaluated exactly.
type AKSConstraint struct {
	Name     string
	Text     string
	LHS, RHS string // decimal, 10 digits
	Holds    bool
}

// aksConstraints evaluates the seven constraints of §5 exactly, written out
// from the paper's list (independent of aks.Params.Violations):
// A > 1, ν < 1, ε > 0, λ < 1, ν ≥ 4λA + 5/(2A), ν ≥ 2Aε + 1/A,
// λν ≥ 2λεA + ελ/A + ε/(2A) + 2λεA/(1 − (2εA)²) + 1/(8A³ − 2A); the series
// behind the last term needs 2εA < 1, checked as an eighth condition.
func aksConstraints(A, nu, lam, eps *big.Rat) []AKSConstraint {
	q := func(n, d int64) *big.Rat { return big.NewRat(n, d) }
	prod := func(xs ...*big.Rat) *big.Rat {
		p := q(1, 1)
		for _, x := range xs {
			p = new(big.Rat).Mul(p, x)
		}
		return p
	}
	sum := func(xs ...*big.Rat) *big.Rat {
		s := q(0, 1)
		for _, x := range xs {
			s = new(big.Rat).Add(s, x)
		}
		return s
	}
	div := func(a, b *big.Rat) *big.Rat { return new(big.Rat).Quo(a, b) }
	sub := func(a, b *big.Rat) *big.Rat { return new(big.Rat).Sub(a, b) }
	var out []AKSConstraint
	add := func(name, text string, lhs, rhs *big.Rat, strict bool) {
		c := lhs.Cmp(rhs)
		out = append(out, AKSConstraint{Name: name, Text: text, LHS: lhs.FloatString(10), RHS: rhs.FloatString(10), Holds: c > 0 || (!strict && c == 0)})
	}
	add("A > 1", "A > 1", A, q(1, 1), true)
	add("ν < 1", "ν < 1", q(1, 1), nu, true)
	add("ε > 0", "ε > 0", eps, q(0, 1), true)
	add("λ < 1", "λ < 1", q(1, 1), lam, true)
	add("C1", "ν ≥ 4λA + 5/(2A)", nu, sum(prod(q(4, 1), lam, A), div(q(5, 1), prod(q(2, 1), A))), false)
	add("C2", "ν ≥ 2Aε + 1/A", nu, sum(prod(q(2, 1), A, eps), div(q(1, 1), A)), false)
	twoEpsA := prod(q(2, 1), eps, A)
	add("C3", "2εA < 1 (needed by the geometric series behind C3)", q(1, 1), twoEpsA, true)
	if twoEpsA.Cmp(q(1, 1)) < 0 {
		rhs := sum(
			prod(q(2, 1), lam, eps, A),
			div(prod(eps, lam), A),
			div(eps, prod(q(2, 1), A)),
			div(prod(q(2, 1), lam, eps, A), sub(q(1, 1), prod(twoEpsA, twoEpsA))),
			div(q(1, 1), sub(prod(q(8, 1), A, A, A), prod(q(2, 1), A))),
		)
		add("C3", "λν ≥ 2λεA + ελ/A + ε/(2A) + 2λεA/(1 − (2εA)²) + 1/(8A³ − 2A)", prod(lam, nu), rhs, false)
	}
	return out
}

// aksParamCheck evaluates a parameter set, compares the failing constraints
// with the ledger's and with algos/aks, and with the values algos/aks uses.
func aksParamCheck(ps aksParamSet) props.Outcome {
	A, nu, lam, eps := aksRat(ps.A), aksRat(ps.nu), aksRat(ps.lam), aksRat(ps.eps)
	p := ps.aksParams
	for _, c := range []struct {
		name   string
		mine   *big.Rat
		theirs aks.Frac
	}{{"A", A, p.A}, {"ν", nu, p.Nu}, {"λ", lam, p.Lambda}, {"ε", eps, p.Eps}} {
		if c.mine.Cmp(c.theirs.Rat()) != 0 {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("algos/aks uses %s = %v, the paper prints %s = %s", c.name, c.theirs, c.name, c.mine.RatString())}
		}
	}
	cs := aksConstraints(A, nu, lam, eps)
	var failed []string
	var first *AKSConstraint
	var parts []string
	for i, c := range cs {
		mark := "holds"
		if !c.Holds {
			mark = "FAILS"
			failed = append(failed, c.Name)
			if first == nil {
				first = &cs[i]
			}
		}
		if strings.HasPrefix(c.Name, "C") {
			parts = append(parts, fmt.Sprintf("%s %s (%s vs %s)", c.Text, mark, c.LHS, c.RHS))
		}
	}
	var theirs []string
	for _, v := range p.Violations() {
		name, _, _ := strings.Cut(v, ":")
		theirs = append(theirs, strings.TrimSpace(name))
	}
	if !slices.Equal(failed, theirs) {
		return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("independent evaluation fails %v, algos/aks Params.Violations reports %v", failed, p.Violations())}
	}
	ev := fmt.Sprintf("%s: A = %s, ν = %s, λ = %s, ε = %s (exact rationals): %s; algos/aks agrees", ps.name, ps.A, ps.nu, ps.lam, ps.eps, strings.Join(parts, "; "))
	if first == nil {
		return props.Outcome{Verdict: props.Holds, Evidence: ev}
	}
	return props.Outcome{Verdict: props.Violated, Evidence: ev, Counterexample: first}
}

// aksDepthModel evaluates §7's depth estimate for n = 2^k, written out from
// the text independently of aks.PaperDepth: iterations = the least integer
// exceeding ((1 + log₂A)/log₂(1/ν))·k − log₂(A/λ)/log₂(1/ν) (§4), each
// h = ⌈log₂(1/c) + log₂(1/λ)⌉ halvers (c → 1) of Paterson depth
// ⌈2 ln ε₀/ln(1 − ε₀) + 2/ε₀ − 1⌉ with ε₀ = ε/h (§6, §7), plus the final
// Batcher sorters on 2^j items, j = min(K+1, k), where K is §4's least k
// with A^(k+1) > 1/λ (computed exactly).
type aksDepthModel struct {
	coef, offset  float64 // iterations bound = coef·k − offset
	halvers       int64
	halverDepth   int64
	finalJ        int
	perStageDepth int64
}

func newAKSDepthModel(p aks.Params) aksDepthModel {
	A, nu, lam, eps := p.A.Float(), p.Nu.Float(), p.Lambda.Float(), p.Eps.Float()
	l := math.Log2(1 / nu)
	m := aksDepthModel{coef: (1 + math.Log2(A)) / l, offset: math.Log2(A/lam) / l}
	m.halvers = int64(math.Ceil(math.Log2(1 / lam)))
	if float64(m.halvers) == math.Log2(1/lam) { // c → 1 from below: ⌈0⁺ + x⌉ = x + 1 for integer x
		m.halvers++
	}
	e0 := eps / float64(m.halvers)
	m.halverDepth = int64(math.Ceil(2*math.Log(e0)/math.Log(1-e0) + 2/e0 - 1))
	invLam := new(big.Rat).Inv(p.Lambda.Rat())
	for pw := p.A.Rat(); pw.Cmp(invLam) <= 0; pw.Mul(pw, p.A.Rat()) {
		m.finalJ++ // K: A^(K+1) ≤ 1/λ still
	}
	m.finalJ++ // sorters on 2^(K+1) items
	m.perStageDepth = m.halvers * m.halverDepth
	return m
}

// iterations returns the stage count for n = 2^k and the distance of the
// bound from the nearest integer (float64 rounding could only matter when
// that is tiny).
func (m aksDepthModel) iterations(k int) (int64, float64) {
	x := m.coef*float64(k) - m.offset
	if x < 0 {
		return 0, -x
	}
	return int64(math.Floor(x)) + 1, math.Abs(x - math.Round(x))
}

func (m aksDepthModel) total(k int) (int64, float64) {
	t, slack := m.iterations(k)
	j := int64(min(m.finalJ, k))
	return t*m.perStageDepth + j*(j+1)/2, slack
}

// AKSCrossover is a counterexample to the crossover claim.
type AKSCrossover struct {
	K            int
	Depth        int64
	BatcherDepth int64
	What         string
}

// aksCrossoverCheck is the crossover claim's check for parameters p and the
// recorded crossover wantK (the claim: aks.SeiferasParams, AKSCrossoverK).
func aksCrossoverCheck(p aks.Params, wantK int) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome { return aksCrossoverCheckAt(p, wantK, env) }
}

func aksCrossoverCheckAt(p aks.Params, wantK int, env props.Env) props.Outcome {
	m := newAKSDepthModel(p)
	if m.halvers != 7 || m.halverDepth != 10564 {
		return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("§7 says seven 1/700-halvers of Paterson depth 10564; evaluated %d halvers of depth %d", m.halvers, m.halverDepth), Counterexample: AKSCrossover{What: "halver depth"}}
	}
	batcher := func(k int) int64 { return int64(k) * int64(k+1) / 2 }
	limit := wantK + env.Budget.Pick(1_000, 100_000, 1_000_000)
	first := 0
	for k := 1; k <= limit; k++ {
		d, _ := m.total(k)
		below := d < batcher(k)
		if below && first == 0 {
			first = k
		}
		if first != 0 && !below {
			return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("below Batcher at k = %d but not at k = %d", first, k), Counterexample: AKSCrossover{K: k, Depth: d, BatcherDepth: batcher(k), What: "not below Batcher after the crossover"}}
		}
	}
	if first != wantK {
		d, _ := m.total(wantK)
		return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("the estimate first drops below Batcher at k = %d, not %d", first, wantK), Counterexample: AKSCrossover{K: wantK, Depth: d, BatcherDepth: batcher(wantK), What: fmt.Sprintf("first crossover at k = %d", first)}}
	}
	dPrev, s1 := m.total(first - 1)
	dAt, s2 := m.total(first)
	if min(s1, s2) < 1e-6 {
		return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("the iteration bound is within %.2g of an integer at k = %d: float64 logarithms cannot decide", min(s1, s2), first)}
	}
	ka, da, ba, ok, err := aks.Crossover(p, 1, 0, limit)
	if err != nil || !ok || ka != first || da != dAt || ba != batcher(first) {
		return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("independent evaluation: k = %d (depth %d); algos/aks Crossover: k = %d, depth %d, ok %v, err %v", first, dAt, ka, da, ok, err)}
	}
	kd, dd, bd, okd, _ := aks.Crossover(p, 1, AKSExpanderD, 1<<16)
	dHalver := "none found"
	if okd {
		dHalver = fmt.Sprintf("k = %d (%d < %d, n ≈ 10^%.0f)", kd, dd, bd, float64(kd)*math.Log10(2))
	}
	return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf(
		"§7 estimate = iterations(k)·7·10564 + 6 (≈ %.0f·log₂n): at k = %d it is %d ≥ Batcher's %d (by %d); at k = %d it is %d < %d (by %d), and it stays below up to k = %d (linear against quadratic beyond). n = 2^%d ≈ 10^%.0f. algos/aks Crossover agrees. With halvers of depth d = %d in place of Paterson's (the estimate for our random-matching halvers) the crossover is at %s.",
		float64(m.perStageDepth)*m.coef, first-1, dPrev, batcher(first-1), dPrev-batcher(first-1), first, dAt, batcher(first), batcher(first)-dAt, limit,
		first, float64(first)*math.Log10(2), AKSExpanderD, dHalver)}
}

func init() {
	props.Register(ledger.Text(props.Claim{
		ID:    "sortnet/aks/exact-halver/sorts",
		Check: sortnetSortsCheck(aksExactSortsPlan, AKSBuildExact, nil),
		Faults: append(sortnetSortsFaults(aksExactSortsPlan, AKSBuildExact),
			props.Fault{Name: aksSkipRootName + ", at every n", Check: sortnetSortsCheck(aksExactSortsPlan, aksBuildSkipRoot, nil)}),
	}))
	props.Register(ledger.Text(props.Claim{
		ID:        "sortnet/aks/expander-halver/sorts",
		Statement: fmt.Sprintf("Seiferas's network with the §5 parameters and §6 Lemma 2 separators built from halvers of d = %d random perfect matchings between the two halves (a random d-regular bipartite graph in place of an explicit expander) sorts every input on n wires.", AKSExpanderD),
		Check: func(env props.Env) props.Outcome {
			maxN := env.Budget.Pick(16, 20, 22)
			f, ok, err := AKSExpanderSmallest(AKSExpanderD, env.Seed, maxN)
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
			}
			if f == nil {
				return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("every n = 2..%d sorts all 2^n 0-1 inputs (matchings from PCG(%d, n))", maxN, env.Seed)}
			}
			if msn.Sorted(f.Output) {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("n = %d: the reported input %v comes out sorted when replayed", f.N, f.Input)}
			}
			why, err := aksZeroKick(f.N)
			if err != nil {
				why = err.Error()
			}
			sorted := "none"
			if len(ok) > 0 {
				sorted = fmt.Sprintf("n = %d..%d sort (exhaustively)", ok[0], ok[len(ok)-1])
			}
			return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("%s; n = %d (%d stages, depth %d, %d comparators, matchings from PCG(%d, %d)) leaves the 0-1 input %v as %v. Schedule at n = %d: %s",
				sorted, f.N, f.Stages, f.Depth, f.Size, env.Seed, f.N, f.Input, f.Output, f.N, why), Counterexample: f}

		},
	}))
	props.Register(ledger.Text(props.Claim{
		ID:    "sortnet/aks/invariants",
		Check: aksExactInvariantsCheck(nil, aks.Mutant{}),
		Faults: []props.Fault{
			{Name: aksSkipRootName, Check: aksExactInvariantsCheck(aksSkipRoot, aks.Mutant{})},
			{Name: aksKickPlusOneName, Check: aksExactInvariantsCheck(nil, aks.Mutant{KickDelta: 1})},
		},
	}))
	for _, ps := range []struct {
		id       string
		set      aksParamSet
		recorded props.Verdict
	}{
		{
			id:       "sortnet/aks/params/seiferas-sec5",
			set:      aksSec5,
			recorded: props.Holds,
		},
		{
			id:       "sortnet/aks/params/sec7-alternative",
			set:      aksParamSet{name: "§7 alternative", A: "6.785", nu: "13/20", lam: "1/96.4", eps: "1/57.45", aksParams: aks.AltParams()},
			recorded: props.Violated,
		},
		{
			id:       "sortnet/aks/params/sec3-preview",
			set:      aksParamSet{name: "§3 preview", A: "10", nu: "0.65", lam: "1/99", eps: "1/99", aksParams: aks.PreviewParams()},
			recorded: props.Violated,
		},
	} {
		var faults []props.Fault
		if ps.recorded == props.Holds {
			faults = aksParamFaults(ps.set)
		}
		props.Register(ledger.Text(props.Claim{
			ID: ps.id, Kind: props.Exact, Recorded: ps.recorded,
			Scope:  "exact rational arithmetic on the values as printed; the seven constraints of §5 (A > 1, ν < 1, ε > 0, λ < 1, C1: ν ≥ 4λA + 5/(2A), C2: ν ≥ 2Aε + 1/A, C3: λν ≥ 2λεA + ελ/A + ε/(2A) + 2λεA/(1 − (2εA)²) + 1/(8A³ − 2A)) and 2εA < 1, evaluated independently of algos/aks and compared with its Params.Violations",
			Check:  func(props.Env) props.Outcome { return aksParamCheck(ps.set) },
			Faults: faults,
		}))
	}
	props.Register(ledger.Text(props.Claim{
		ID: "sortnet/aks/depth/crossover",
		Statement: fmt.Sprintf("With the §5 parameters and Paterson's halvers (seven 1/700-halvers of depth 10564 per iteration), §7's depth estimate for n = 2^k is below Batcher's k(k+1)/2 exactly when k ≥ %d (n ≈ 10^%.0f): for every smaller n Batcher's network is shallower.",
			AKSCrossoverK, float64(AKSCrossoverK)*math.Log10(2)),
		Check: aksCrossoverCheck(aks.SeiferasParams(), AKSCrossoverK),
		Faults: []props.Fault{
			{Name: fmt.Sprintf("the recorded crossover with its last digit changed (k = %d)", AKSCrossoverK-1), Check: aksCrossoverCheck(aks.SeiferasParams(), AKSCrossoverK-1)},
			{Name: "a Seiferas parameter with one digit changed: ν = 12/20 for 13/20", Check: aksCrossoverCheck(aks.Params{A: aks.SeiferasParams().A, Nu: aks.Frac{Num: 12, Den: 20}, Lambda: aks.SeiferasParams().Lambda, Eps: aks.SeiferasParams().Eps}, AKSCrossoverK)},
		},
	}))
}
