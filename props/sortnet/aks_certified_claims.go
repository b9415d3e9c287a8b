package sortnet

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"weak"

	"routecheck/algos/aks"
	asn "routecheck/algos/sortnet"
	mex "routecheck/models/expander"
	"routecheck/models/perm"
	msn "routecheck/models/sortnet"
	"routecheck/props"
)

// Claims about the AKS-family network whose every halver is certified to the
// ε the §5 analysis assumes (issue 12, "Comparator networks"): algos/aks
// Certified / CertifiedNet, certificates from models/expander (halvercert.go).
// Section numbers are Seiferas's (§5 the invariant's constraints, §6 Lemmas 1
// and 2, §7 the depth estimate).

// certifiedN is the size the certified-network claims build at each budget:
// 2^12 is the largest whose construction (≈ 32 million comparators, ≈ 0.6 GB
// while building) fits the large budget; 2^13 builds (127 million
// comparators, 2.2 GB, ≈ 8 s) but only outside the ledger.
func certifiedN(b props.Budget) int { return b.Pick(256, 2048, 4096) }

// certHalverKey is one distinct halver: m registers, r halvers per separator.
type certHalverKey struct{ m, r int }

// certBuild is one construction of the certified network with the layers of
// every halver as handed to FromHalver (via the Tap), and traced inputs.
type certBuild struct {
	res     *aks.Result
	halvers []aks.CertifiedHalver
	layers  map[certHalverKey][]msn.Stage
	inputs  [][]int32
	err     error
}

type certMemoKey struct {
	n    int
	seed uint64
}

// certMemoEntry holds the real build weakly: claims running at the same
// time share it, and it is freed once none of them holds it (at 2^12 it is
// ≈ 0.3 GB, too much to keep for the rest of a ledger run).
type certMemoEntry struct {
	mu sync.Mutex
	wp weak.Pointer[certBuild]
}

var certMemo sync.Map // certMemoKey → *certMemoEntry

// certifiedInputs are the traced permutations of the invariant check: from
// PCG(seed, n), 2/4/8 by budget.
func certifiedInputs(n int, seed uint64, count int) [][]int32 {
	r := rand.New(rand.NewPCG(seed, uint64(n)))
	ins := make([][]int32, count)
	for k := range ins {
		ins[k] = perm.Random(n, r)
	}
	return ins
}

// buildCertified constructs the network on n wires with halver seed `seed`
// and the given separator wrapper (nil: the certified separator itself), and
// tap (nil: record only). The real build (wrap and tap nil) is memoized per
// process for (n, seed) with 4 traced inputs, while someone holds it.
func buildCertified(n int, seed uint64, wrap func(aks.Separator) aks.Separator, tap func(m, r int, l []msn.Stage) []msn.Stage) *certBuild {
	do := func() *certBuild {
		b := &certBuild{layers: map[certHalverKey][]msn.Stage{}, inputs: certifiedInputs(n, seed, 4)}
		opt := aks.CertifiedOptions{Seed: seed, Tap: func(m, r int, l []msn.Stage) []msn.Stage {
			if tap != nil {
				l = tap(m, r, l)
			}
			b.layers[certHalverKey{m, r}] = l
			return l
		}}
		sep, err := aks.Certified(aks.SeiferasParams(), opt)
		if err != nil {
			b.err = err
			return b
		}
		var s aks.Separator = sep
		if wrap != nil {
			s = wrap(sep)
		}
		b.res, b.err = aks.Construct(n, aks.SeiferasParams(), s, b.inputs...)
		b.halvers = sep.Halvers()
		return b
	}
	if wrap != nil || tap != nil {
		return do()
	}
	v, _ := certMemo.LoadOrStore(certMemoKey{n, seed}, &certMemoEntry{})
	e := v.(*certMemoEntry)
	e.mu.Lock()
	defer e.mu.Unlock()
	if b := e.wp.Value(); b != nil {
		return b
	}
	b := do()
	e.wp = weak.Make(b)
	return b
}

// certEigenMaxH is the largest half size for which a non-circulant halver
// is certified by gonum's eigenvalues (O(h³)); larger ones get no
// certificate.
const certEigenMaxH = 256

// CertifiedHalverFailure is a halver whose certificate does not meet its
// target.
type CertifiedHalverFailure struct {
	M, R, D  int
	Target   string
	Eps      float64
	Sigma2   float64
	WorstK   int
	Why      string
	Circular bool
}

// certifyLayers certifies one halver from its layers alone, independently of
// the algos/aks search: the layers must be perfect matchings of the first
// half onto the second; σ₂ comes from character sums when the graph is
// circulant and from gonum's eigenvalues of M·Mᵀ otherwise (h ≤
// certEigenMaxH); the certificate is mex.CertifyHalver, compared with
// ε/r = 1/(100r) in integers (misses·100·r ≤ k for every k). Where 2h ≤ 20 the
// exact ε (all 0-1 inputs) must not exceed the certified one.
func certifyLayers(key certHalverKey, layers []msn.Stage) (mex.HalverCert, *CertifiedHalverFailure) {
	fail := func(why string) *CertifiedHalverFailure {
		return &CertifiedHalverFailure{M: key.m, R: key.r, D: len(layers), Target: fmt.Sprintf("1/%d", 100*key.r), Why: why}
	}
	h := key.m / 2
	g, err := mex.BipartiteLayers(key.m, layers)
	if err != nil {
		return mex.HalverCert{}, fail(err.Error())
	}
	d := len(layers)
	var sigma float64
	sh, circ := mex.CirculantShifts(g)
	switch {
	case circ:
		sigma = mex.CirculantSigma2(h, sh)
	case h == 1:
		sigma = 0
	case h <= certEigenMaxH:
		c, _, err := mex.SpectrumCert(g)
		if err != nil {
			return mex.HalverCert{}, fail(err.Error())
		}
		sigma = math.Sqrt(math.Max(c.Lambda2, 0))
	default:
		return mex.HalverCert{}, fail(fmt.Sprintf("not circulant and h = %d > %d: no spectral certificate computed", h, certEigenMaxH))
	}
	c := mex.CertifyHalver(h, d, sigma)
	for k := 1; k <= h; k++ {
		if miss := mex.HalverMissBound(h, d, sigma, k); miss*100*key.r > k {
			f := fail(fmt.Sprintf("at k = %d the certificate allows %d misplaced > k/(100·%d)", k, miss, key.r))
			f.Eps, f.Sigma2, f.WorstK, f.Circular = c.Eps, sigma, c.WorstK, circ
			return c, f
		}
	}
	if key.m <= 20 {
		e, err := mex.ExactHalverEps(key.m, layers)
		if err != nil || e > c.Eps {
			return c, fail(fmt.Sprintf("exact ε = %v above the certified %v (%v)", e, c.Eps, err))
		}
	}
	return c, nil
}

// certHalversCheck is sortnet/aks/certified/halvers' check; fault (nil: none)
// replaces layers as a planted fault would, applied to the layers the real
// construction used (the schedule is data-independent, so a construction
// with the faulty halver source asks for the same halvers).
func certHalversCheck(fault func(n int, key certHalverKey, l []msn.Stage) []msn.Stage) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		n := certifiedN(env.Budget)
		b := buildCertified(n, env.Seed, nil, nil)
		if b.err != nil {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: b.err.Error()}
		}
		keys := make([]certHalverKey, 0, len(b.layers))
		for k := range b.layers {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			if keys[i].m != keys[j].m {
				return keys[i].m > keys[j].m
			}
			return keys[i].r < keys[j].r
		})
		if len(keys) != len(b.halvers) {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("%d halvers recorded by the separator, %d seen by the tap", len(b.halvers), len(keys))}
		}
		partial, exactSmall, worstRatio := 0, 0, 0.0
		var parts []string
		for _, k := range keys {
			l := b.layers[k]
			if fault != nil {
				l = fault(n, k, l)
			}
			c, f := certifyLayers(k, l)
			if f != nil {
				return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n = %d, halver on %d registers (r = %d, degree %d): %s", n, k.m, k.r, len(l), f.Why), Counterexample: f}
			}
			if c.D < k.m/2 {
				partial++
				worstRatio = math.Max(worstRatio, c.Eps*float64(100*k.r))
				if len(parts) < 6 {
					parts = append(parts, fmt.Sprintf("m = %d, r = %d: d = %d of h = %d, σ₂ = %.3f, ε ≤ %.5f ≤ 1/%d", k.m, k.r, c.D, k.m/2, c.Sigma2, c.Eps, 100*k.r))
				}
			}
			if k.m <= 20 {
				exactSmall++
			}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf(
			"n = %d (shifts from PCG(%d, m<<8|r)): all %d distinct halvers are perfect-matching layers between the halves whose certificate, recomputed from the layers, meets ε/r; %d are K_{h,h} (exact), %d are partial (largest: %s); the worst partial certificate uses %.0f%% of its allowance; %d with 2h ≤ 20 enumerated exactly (exact ε ≤ certified)",
			n, env.Seed, len(keys), len(keys)-partial, partial, strings.Join(parts, "; "), 100*worstRatio, exactSmall), Slack: props.SlackOf(worstRatio, 1)}
	}
}

// certRootRandom is the first certificate fault: the root's halver (all N
// registers, r = 1) replaced by d = 8 random perfect matchings
// (aks.ExpanderHalver, the uncertified construction of
// sortnet/aks/expander-halver/sorts).
func certRootRandom(n int, key certHalverKey, l []msn.Stage) []msn.Stage {
	N := 1 << bits.Len(uint(n-1))
	if key.m != N || key.r != 1 {
		return l
	}
	return aks.ExpanderHalver(8, rand.New(rand.NewPCG(0xbad, uint64(n)))).Halve(key.m)
}

// certDropShift is the second: the largest partial (non-complete) halver with
// its last shift dropped (degree d − 1, the prefix the degree search
// rejected).
func certDropShift(target *certHalverKey) func(n int, key certHalverKey, l []msn.Stage) []msn.Stage {
	return func(n int, key certHalverKey, l []msn.Stage) []msn.Stage {
		if key != *target {
			return l
		}
		return l[:len(l)-1]
	}
}

// certLargestPartial finds the largest halver of the real build at n that is
// not K_{h,h}.
func certLargestPartial(env props.Env) *certHalverKey {
	b := buildCertified(certifiedN(env.Budget), env.Seed, nil, nil)
	var best *certHalverKey
	for _, hv := range b.halvers {
		if !hv.Complete() && (best == nil || hv.M > best.m) {
			best = &certHalverKey{hv.M, hv.R}
		}
	}
	return best
}

// CertifiedRunFailure is a failed sort or invariant clause of the certified
// network.
type CertifiedRunFailure struct {
	N     int
	Input []int32 `json:",omitempty"`
	Bits  string  `json:",omitempty"`
	What  string
}

// certSortsCheck is sortnet/aks/certified/sorts-invariants' check with a
// separator wrapper and a halver tap (as in buildCertified; both nil for
// the real network), each made for the network's n. A planted fault passes
// one of them: the construction, and so its traces, use what they return.
func certSortsCheck(wrap func(n int) func(aks.Separator) aks.Separator, tap func(n int) func(m, r int, l []msn.Stage) []msn.Stage) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		// traced builds the network on n wires with the wrapper and tap,
		// judges the construction's own traces (certTraceFailure) and
		// returns the build and the emitted network; a non-nil outcome (the
		// build failed, or the traces broke the invariant) ends the check.
		traced := func(n int) (*certBuild, msn.Network, *props.Outcome) {
			var w func(aks.Separator) aks.Separator
			if wrap != nil {
				w = wrap(n)
			}
			var tp func(m, r int, l []msn.Stage) []msn.Stage
			if tap != nil {
				tp = tap(n)
			}
			b := buildCertified(n, env.Seed, w, tp)
			if b.err != nil {
				return nil, msn.Network{}, &props.Outcome{Verdict: props.Inconclusive, Evidence: b.err.Error()}
			}
			if f := certTraceFailure(n, b); f != nil {
				return nil, msn.Network{}, &props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n = %d: %s", n, f.What), Counterexample: f}
			}
			return b, b.res.Net, nil
		}
		maxExh := env.Budget.Pick(12, 16, 18)
		for n := 2; n <= maxExh; n++ {
			_, nw, stop := traced(n)
			if stop != nil {
				return *stop
			}
			if bad, ok, err := msn.Sorts01Exhaustive(nw); err != nil || !ok {
				in := fmt.Sprint(asn.Bits01(n, bad))
				return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n = %d: 0-1 input %s not sorted (%v)", n, in, err), Counterexample: &CertifiedRunFailure{N: n, Bits: in, What: "unsorted 0-1 input"}}
			}
		}
		n := certifiedN(env.Budget)
		b, nw, stop := traced(n)
		if stop != nil {
			return *stop
		}
		for k, in := range b.inputs {
			out := append([]int32(nil), in...)
			msn.Apply(nw, out)
			for i, x := range out {
				if x != int32(i) {
					return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n = %d: the network leaves %d at wire %d on traced permutation %d", n, x, i, k), Counterexample: &CertifiedRunFailure{N: n, Input: in, What: "unsorted permutation"}}
				}
			}
		}
		// Random 0-1 inputs of every weight class, 64 at a time.
		r := rand.New(rand.NewPCG(env.Seed, uint64(n)^0x01))
		batches := env.Budget.Pick(1, 2, 4)
		w01 := make([]uint64, n)
		for range batches {
			weights := make([]int, 64)
			for lane := range weights {
				weights[lane] = r.IntN(n + 1)
			}
			clear(w01)
			for lane, wt := range weights {
				for _, i := range r.Perm(n)[:wt] {
					w01[i] |= 1 << lane
				}
			}
			in := append([]uint64(nil), w01...)
			msn.Eval01(nw, w01)
			if bad := msn.Unsorted01(w01); bad != 0 {
				lane := bits.TrailingZeros64(bad)
				var sb strings.Builder
				for i := range n {
					sb.WriteByte('0' + byte(in[i]>>lane&1))
				}
				return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n = %d: a random 0-1 input of weight %d is not sorted", n, weights[lane]), Counterexample: &CertifiedRunFailure{N: n, Bits: sb.String(), What: "unsorted 0-1 input"}}
			}
		}
		reps := 0
		for _, tr := range b.res.Traces {
			reps += len(tr.Reports)
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf(
			"every 0-1 input sorted for n = 2..%d (and the construction's own traces keep the invariant there); n = %d (%d stages, depth %d, %d comparators): %d traced permutations from PCG(%d, n) keep clauses 1–4 of the §4 invariant (clause 4 with ε = 1/100) in all %d stage reports and are sorted by the construction and by the network; %d random 0-1 inputs sorted",
			maxExh, n, b.res.Stages, b.res.Net.Depth(), b.res.Net.Size(), len(b.inputs), env.Seed, reps, 64*batches)}
	}
}

// certTraceFailure checks the data-independent schedule and every traced
// input's stage reports of b against the §4 invariant, and that the
// construction sorts them and the finishing subtrees are no higher than §4's k.
func certTraceFailure(n int, b *certBuild) *CertifiedRunFailure {
	for _, rep := range b.res.Schedule {
		if v := rep.Violations(); len(v) > 0 {
			return &CertifiedRunFailure{N: n, What: "schedule: " + v[0].String()}
		}
	}
	for k, tr := range b.res.Traces {
		for _, rep := range tr.Reports {
			if v := rep.Violations(); len(v) > 0 {
				return &CertifiedRunFailure{N: n, Input: b.inputs[k], What: v[0].String()}
			}
		}
		if !tr.Sorted {
			return &CertifiedRunFailure{N: n, Input: b.inputs[k], What: fmt.Sprintf("the construction misplaces %d items", tr.Misplaced)}
		}
	}
	if b.res.FinalHeight > b.res.PaperFinalHeight {
		return &CertifiedRunFailure{N: n, What: fmt.Sprintf("finishing subtrees of height %d > §4's k = %d", b.res.FinalHeight, b.res.PaperFinalHeight)}
	}
	return nil
}

// certSkipRoot wraps the certified separator so that the bag of all N items
// (the root at stage 0) is not separated: stage 0 dropped.
func certSkipRoot(n int) func(aks.Separator) aks.Separator {
	return func(s aks.Separator) aks.Separator {
		return skipRootSep{Separator: s, N: 1 << bits.Len(uint(max(n, 2)-1))}
	}
}

// certPartialHalvesTap is a planted fault aimed at the partial halvers
// (ε > 0: every halver that is not K_{h,h}, the only ones §5's ε-argument
// is needed for): each keeps only the first ⌈d/2⌉ of its d layers. Complete
// halvers are left alone, so the network at n ≤ 64 is the real one.
func certPartialHalvesTap(int) func(m, r int, l []msn.Stage) []msn.Stage {
	return func(m, r int, l []msn.Stage) []msn.Stage {
		if len(l) >= m/2 {
			return l
		}
		return l[:(len(l)+1)/2]
	}
}

// certRootOneLayerTap is a planted fault aimed at the largest partial
// halver: the root's (all N registers, r = 1) keeps only its first layer,
// one perfect matching between the halves, where it is partial (n ≥ 256
// here); a complete root halver is left alone.
func certRootOneLayerTap(n int) func(m, r int, l []msn.Stage) []msn.Stage {
	N := 1 << bits.Len(uint(max(n, 2)-1))
	return func(m, r int, l []msn.Stage) []msn.Stage {
		if m != N || r != 1 || len(l) >= m/2 {
			return l
		}
		return l[:1]
	}
}

// certDepthCheck is sortnet/aks/certified/depth's check; emptySep (a planted
// fault) builds with separators that emit no comparators.
func certDepthCheck(emptySep bool) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		var rows []string
		minRatio := math.Inf(1)
		for k := 8; ; k++ {
			n := 1 << k
			if n > certifiedN(env.Budget) {
				break
			}
			var depth, stageMax int
			var rootD, rootLo int
			if emptySep {
				res, err := aks.Construct(n, aks.SeiferasParams(), noComparators{})
				if err != nil {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
				}
				depth = res.Net.Depth()
			} else {
				b := buildCertified(n, env.Seed, nil, nil)
				if b.err != nil {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: b.err.Error()}
				}
				depth = b.res.Net.Depth()
				for _, d := range b.res.StageDepth {
					stageMax = max(stageMax, d)
				}
				for _, hv := range b.halvers {
					if hv.M == n && hv.R == 1 {
						rootD, rootLo = hv.D, hv.LowerD
					}
				}
			}
			bn, err := asn.OddEvenMergeSort(n)
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
			}
			batcher := bn.Depth()
			if int64(batcher) != int64(k)*int64(k+1)/2 {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("Batcher's network on 2^%d wires has depth %d, not k(k+1)/2", k, batcher)}
			}
			ex, err := aks.Construct(n, aks.SeiferasParams(), aks.Exact())
			if err != nil {
				return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
			}
			ratio := float64(depth) / float64(batcher)
			minRatio = math.Min(minRatio, ratio)
			rows = append(rows, fmt.Sprintf("n = 2^%d: depth %d = %.0f× Batcher's %d (exact-separator network %d; deepest stage %d; root halver degree %d of %d, lower bound %d)", k, depth, ratio, batcher, ex.Net.Depth(), stageMax, rootD, n/2, rootLo))
			if depth <= batcher {
				return props.Outcome{Verdict: props.Violated, Evidence: strings.Join(rows, "; "), Counterexample: map[string]int{"n": n, "depth": depth, "batcher": batcher}}
			}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: strings.Join(rows, "; "), Slack: props.SlackOf(1, minRatio)}
	}
}

// noComparators is a separator that emits nothing (a planted fault).
type noComparators struct{}

func (noComparators) Name() string                  { return "none" }
func (noComparators) Separate(int, int) []msn.Stage { return nil }

// certDegreeClosed is the degree a spectrally certified ε-halver on 2h
// registers needs by the k = h case of (★) alone, in exact integers: with
// b = ⌊εh⌋ + 1 and a = h − b, ⌊s*(h)⌋ ≤ ⌊εh⌋ needs σ₂ < bd/a, and
// σ₂² ≥ d(h − d)/(h − 1) then forces d > h·a²/(a² + b²(h − 1)); so
// D(h) = ⌊h·a²/(a² + b²(h − 1))⌋ + 1, capped at h. ε = 1/epsDen.
func certDegreeClosed(h *big.Int, epsDen int64) *big.Int {
	one := big.NewInt(1)
	b := new(big.Int).Quo(h, big.NewInt(epsDen))
	b.Add(b, one)
	a := new(big.Int).Sub(h, b)
	if a.Sign() <= 0 {
		return new(big.Int).Set(h)
	}
	a2 := new(big.Int).Mul(a, a)
	num := new(big.Int).Mul(h, a2)
	den := new(big.Int).Mul(new(big.Int).Mul(b, b), new(big.Int).Sub(h, one))
	den.Add(den, a2)
	d := new(big.Int).Quo(num, den)
	d.Add(d, one)
	if d.Cmp(h) > 0 {
		d.Set(h)
	}
	return d
}

// Recorded outcome of sortnet/aks/certified/degree-needed: the root halver
// at stage 0 alone is deeper than Batcher's whole network exactly for
// k = CertRootBeatsBatcherFrom..CertRootBeatsBatcherTo (n = 2^k).
const (
	CertRootBeatsBatcherFrom = 5
	CertRootBeatsBatcherTo   = 139
	// CertSec7CrossoverK is the least k at which §7's depth estimate with
	// seven halvers of 699² = 488601 layers per stage (the §5 parameters) is
	// below Batcher's k(k+1)/2.
	CertSec7CrossoverK = 47569314
	// CertAlonBoppanaDegree is the least d ≥ 3 with d² > 4(1/ε − 1)²(d − 1)
	// at ε = 1/100: the degree the k = h case of (★) needs for large h once
	// σ₂ ≥ 2√(d − 1) − o(1) (Alon–Boppana) replaces the trace bound.
	CertAlonBoppanaDegree = 39203
	// CertAlonBoppanaBatcherTo is the largest k with k(k+1)/2 below it.
	CertAlonBoppanaBatcherTo = 279
)

// certAlonBoppana is the least d ≥ 3 with d² > 4m²(d − 1), m = epsDen − 1:
// with b/a → ε/(1 − ε) = 1/m in the k = h case of (★), certification needs
// σ₂ < d/m, and Alon–Boppana's σ₂ ≥ 2√(d − 1) − o(1) then needs
// d > 2m√(d − 1) (d = 1, 2 are excluded by D(h) for large h). It also
// returns the largest k whose Batcher depth k(k+1)/2 is below that d. Both
// are asymptotic in h (the o(1)), so they are reported beside the exact
// D(h) figures, not in their place.
func certAlonBoppana(epsDen int64) (d, k int64) {
	m := epsDen - 1
	d = 3
	for d*d <= 4*m*m*(d-1) {
		d++
	}
	for (k+1)*(k+2)/2 < d {
		k++
	}
	return d, k
}

// certSec7Crossover checks that §7's estimate with halvers of depth hd (the
// independent model of sortnet/aks/depth/crossover, aksDepthModel) first
// drops below Batcher's at k = crossK, without scanning every k: directly at
// crossK − 1 and crossK (also with algos/aks DepthWithHalver); for
// 3 ≤ k ≤ crossK − 2 through the lower bound iterations(k) ≥ coef·k − offset,
// whose gap to k(k+1)/2 is convex in k, so it stays ≥ 0 between two points
// where it is; k = 1, 2 directly. Once below, the estimate stays below
// (linear against quadratic). It returns a description and whether all held.
func certSec7Crossover(hd int64, crossK int) (string, bool) {
	m := newAKSDepthModel(aks.SeiferasParams())
	m.halverDepth = hd
	m.perStageDepth = m.halvers * hd
	batcher := func(k int) float64 { return float64(k) * float64(k+1) / 2 }
	for _, k := range []int{1, 2} {
		if d, _ := m.total(k); float64(d) < batcher(k) {
			return fmt.Sprintf("below Batcher already at k = %d", k), false
		}
	}
	lower := func(k int) float64 { return float64(m.perStageDepth)*(m.coef*float64(k)-m.offset) + 6 }
	if lower(3) < batcher(3) || lower(crossK-2) < batcher(crossK-2) {
		return fmt.Sprintf("the linear lower bound does not stay above Batcher's on [3, %d]", crossK-2), false
	}
	dPrev, _ := m.total(crossK - 1)
	dAt, _ := m.total(crossK)
	if float64(dPrev) < batcher(crossK-1) || float64(dAt) >= batcher(crossK) {
		return fmt.Sprintf("at k = %d: %d vs %.0f; at k = %d: %d vs %.0f", crossK-1, dPrev, batcher(crossK-1), crossK, dAt, batcher(crossK)), false
	}
	for _, k := range []int{crossK - 1, crossK} {
		d, err := aks.DepthWithHalver(k, aks.SeiferasParams(), 1, hd)
		want, _ := m.total(k)
		if err != nil || d.Total != want {
			return fmt.Sprintf("algos/aks DepthWithHalver at k = %d: %d (%v), the independent model %d", k, d.Total, err, want), false
		}
	}
	return fmt.Sprintf("§7's estimate with 7 halvers of %d layers per stage: %d ≥ Batcher's %.0f at k = %d, %d < %.0f at k = %d (algos/aks DepthWithHalver agrees)", hd, dPrev, batcher(crossK-1), crossK-1, dAt, batcher(crossK), crossK), true
}

// certDegreeCheck is sortnet/aks/certified/degree-needed's check against
// the recorded range, crossover and Alon–Boppana degree; the faults change
// one of them (or ε).
func certDegreeCheck(epsDen int64, from, to, crossK int) func(props.Env) props.Outcome {
	return certDegreeCheckWith(epsDen, from, to, crossK, CertAlonBoppanaDegree)
}

// certDegreeCheckAB is the check with the recorded Alon–Boppana degree
// replaced by abRec (a planted fault).
func certDegreeCheckAB(abRec int64) func(props.Env) props.Outcome {
	return certDegreeCheckWith(100, CertRootBeatsBatcherFrom, CertRootBeatsBatcherTo, CertSec7CrossoverK, abRec)
}

func certDegreeCheckWith(epsDen int64, from, to, crossK int, abRec int64) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		// (1) The closed form is a lower bound on the full certificate's
		// degree (mex.HalverDegreeLowerBound scans every k), checked for
		// h up to 2^11: a scan below it refutes the claim's D(h) ≤ d.
		for _, h := range []int{1, 2, 7, 8, 50, 99, 100, 128, 700, 1000, 1024, 2048} {
			c := certDegreeClosed(big.NewInt(int64(h)), epsDen)
			if lo := mex.HalverDegreeLowerBound(h, 1/float64(epsDen)); int64(lo) < c.Int64() {
				return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("h = %d: the scanned lower bound %d is below the closed form %v, so the closed form is not a lower bound on the degree", h, lo, c), Counterexample: map[string]any{"h": h, "scanned": lo, "closed": c.String()}}
			}
		}
		// (2) For n = 2^k the root's halver at stage 0 (h = 2^(k−1), target
		// ε = 1/epsDen, r = 1) alone is deeper than Batcher's network.
		var beats []int
		var at []string
		for k := 1; k <= 400; k++ {
			h := new(big.Int).Lsh(big.NewInt(1), uint(k-1))
			d := certDegreeClosed(h, epsDen)
			batcher := big.NewInt(int64(k) * int64(k+1) / 2)
			if d.Cmp(batcher) > 0 {
				beats = append(beats, k)
			}
			if k == 12 || k == 20 || k == 64 || k == 139 || k == 140 {
				at = append(at, fmt.Sprintf("k = %d: D = %v vs %v", k, d, batcher))
			}
		}
		lim := (epsDen - 1) * (epsDen - 1)
		limit := certDegreeClosed(new(big.Int).Lsh(big.NewInt(1), 400), epsDen)
		if len(beats) == 0 {
			return props.Outcome{Verdict: props.Violated, Evidence: "the root halver is never deeper than Batcher's network", Counterexample: map[string]int{"from": from, "to": to}}
		}
		lo, hi := beats[0], beats[len(beats)-1]
		contiguous := hi-lo+1 == len(beats)
		ev := fmt.Sprintf("ε = 1/%d: D(h) → %v at h = 2^399 ((1/ε − 1)² = %d); D(2^(k−1)) exceeds Batcher's k(k+1)/2 for k = %d..%d (contiguous: %v) [%s]. At §7's ε₀ = 1/700 the limit is 699² = 488601 layers per halver, at least 46× Paterson's 10564",
			epsDen, limit, lim, lo, hi, contiguous, strings.Join(at, "; "))
		if !contiguous || lo != from || hi != to || limit.Int64() != lim {
			return props.Outcome{Verdict: props.Violated, Evidence: ev + fmt.Sprintf("; recorded k = %d..%d", from, to), Counterexample: map[string]int{"from": lo, "to": hi}}
		}
		abD, abK := certAlonBoppana(epsDen)
		ab700, _ := certAlonBoppana(700)
		ev += fmt.Sprintf(". Alon–Boppana (σ₂ ≥ 2√(d − 1) − o(1), for large h): certifying 1/%d at k = h needs d ≥ %d, above Batcher's for k ≤ %d; at 1/700, d ≥ %d (%.0f× Paterson's)", epsDen, abD, abK, ab700, float64(ab700)/10564)
		if abD != abRec || abK != CertAlonBoppanaBatcherTo {
			return props.Outcome{Verdict: props.Violated, Evidence: ev + fmt.Sprintf("; recorded d = %d, k ≤ %d", abRec, CertAlonBoppanaBatcherTo), Counterexample: map[string]int64{"d": abD, "k": abK}}
		}
		cross, ok := certSec7Crossover(699*699, crossK)
		if !ok {
			return props.Outcome{Verdict: props.Violated, Evidence: ev + "; " + cross + fmt.Sprintf(" (recorded crossover k = %d)", crossK), Counterexample: map[string]int{"crossover": crossK}}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: ev + "; " + cross + " (a lower bound on the crossover: deeper halvers move it later)"}
	}
}

func certMem(small, def, large int64) props.MemEstimate {
	return props.MemEstimate{Small: small << 20, Default: def << 20, Large: large << 20}
}

func init() {
	props.Register(ledger.Text(props.Claim{
		ID:    "sortnet/aks/certified/halvers",
		Check: certHalversCheck(nil),
		Faults: []props.Fault{
			{Name: "an uncertified halver slipped in: the root's halver replaced by 8 random perfect matchings", Check: certHalversCheck(certRootRandom)},
			{Name: "the largest partial halver with its last shift (layer) dropped", Check: func(env props.Env) props.Outcome {
				k := certLargestPartial(env)
				if k == nil {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: "no partial halver to mutate"}
				}
				return certHalversCheck(certDropShift(k))(env)
			}},
		},
		Mem: certMem(32, 200, 750),
	}))
	props.Register(ledger.Text(props.Claim{
		ID:    "sortnet/aks/certified/sorts-invariants",
		Check: certSortsCheck(nil, nil),
		Faults: []props.Fault{
			{Name: "stage 0 dropped: the root bag is not separated at stage 0", Check: certSortsCheck(certSkipRoot, nil)},
			{Name: "every partial (non-K_{h,h}) halver with the second half of its layers removed (⌈d/2⌉ of d kept), in the construction", Check: certSortsCheck(nil, certPartialHalvesTap)},
			{Name: "the root's halver, where partial, cut to its first layer (one perfect matching), in the construction", Check: certSortsCheck(nil, certRootOneLayerTap)},
		},
		Mem: certMem(32, 200, 700),
	}))
	props.Register(ledger.Text(props.Claim{
		ID:     "sortnet/aks/certified/depth",
		Check:  certDepthCheck(false),
		Faults: []props.Fault{{Name: "separators with no comparators", Check: certDepthCheck(true)}},
		Mem:    certMem(32, 180, 600),
	}))
	props.Register(ledger.Text(props.Claim{
		ID: "sortnet/aks/certified/degree-needed",
		Statement: fmt.Sprintf("A d-regular bipartite ε-halver on 2h registers certified by the spectral bound (σ₂ and d alone) has d ≥ D(h), the lower bound that the k = h case of (★) and the trace bound σ₂² ≥ d(h − d)/(h − 1) give; D(h) → (1/ε − 1)² as h grows (9801 for the root's ε = 1/100, 488601 for §7's 1/700). For n = 2^k, D(2^(k−1)) exceeds Batcher's depth k(k+1)/2 exactly for k = %d..%d, so for every such n the root's halver at stage 0 alone, and with it a spectrally certified AKS-family network, is deeper than Batcher's whole network. The degree actually needed is larger: by Alon–Boppana (σ₂ ≥ 2√(d − 1) − o(1)) certifying 1/100 at k = h needs d ≥ %d for large h, above Batcher's for k ≤ %d. At §7's 1/700, D(h) → 488601, 46 times the 10564 layers §7's estimate assumes; that estimate (which charges every stage the same halver depth) with halvers of 488601 layers drops below Batcher's first at k = %d, a lower bound on its crossover with certified halvers, which need more (Alon–Boppana) and only move it later.",
			CertRootBeatsBatcherFrom, CertRootBeatsBatcherTo, CertAlonBoppanaDegree, CertAlonBoppanaBatcherTo, CertSec7CrossoverK),
		Check: certDegreeCheck(100, CertRootBeatsBatcherFrom, CertRootBeatsBatcherTo, CertSec7CrossoverK),
		Faults: []props.Fault{
			{Name: "the recorded upper end with its last digit changed (138)", Check: certDegreeCheck(100, CertRootBeatsBatcherFrom, CertRootBeatsBatcherTo-1, CertSec7CrossoverK)},
			{Name: "ε printed 1/10 for 1/100", Check: certDegreeCheck(10, CertRootBeatsBatcherFrom, CertRootBeatsBatcherTo, CertSec7CrossoverK)},
			{Name: "the recorded crossover with its last digit changed (47569313)", Check: certDegreeCheck(100, CertRootBeatsBatcherFrom, CertRootBeatsBatcherTo, CertSec7CrossoverK-1)},
			{Name: "the recorded Alon–Boppana degree with its last digit changed (39202)", Check: certDegreeCheckAB(CertAlonBoppanaDegree - 1)},
		},
	}))
}
