package aks

import (
	"fmt"
	"math"
	"math/rand/v2"

	mex "routecheck/models/expander"
	"routecheck/models/sortnet"
)

// Certified separators: Seiferas's §6 Lemma 2 construction (FromHalver)
// with every halver certified to the error the §5 analysis assumes.
//
// The ε each halver must meet. The §5 argument assumes separators that are
// ε-approximate λ-separators and ε-halvers at once ("Combining halving and
// separation"). The Lemma 2 proof sketch builds one from r halvers on nested
// prefixes (and suffixes) and bounds its error by r·ε₀·λ'n when every halver
// is an ε₀-halver, so ε₀ = ε/r suffices; FromHalver uses r = ⌈log₂(m/kick)⌉
// halvers on a bag of m items kicking back kick from each end (§7's "seven
// 1/700-halvers" is r = 7 for λ = 1/100 and large bags; small kicks need more).
// At the root (kick = 0) the separator is one halver and ε₀ = ε.
//
// Which halver. For l = 2h registers and target ε₀, the halver is a circulant
// bipartite graph: layer ℓ compares i with h + (i + s_ℓ) mod h. Its σ₂ is
// exact from character sums (mex.CirculantSigma2), and the certificate
// is mex.HalverMissBound, checked in integers: ⌊s*(k)⌋·r·ε.Den ≤
// ε.Num·k for every k ≤ h. The degree is the smallest that certifies, in this
// order: d starts at mex.HalverDegreeLowerBound(h, ε₀) (no d-regular
// graph below it can be certified), the shifts are a prefix of a random
// order of Z_h drawn from PCG(seed, l<<8 | r), and d grows by one until the
// prefix certifies; d = h (all shifts: K_{h,h}, σ₂ = 0, an exact halver) always
// does. For h·ε₀ < 1 the definition allows no misplacement at all, and the
// lower bound is h: such bags get exact complete-bipartite halvers ("exactly
// for small bags").

// CertifiedHalver describes one distinct halver a CertifiedSeparator used.
type CertifiedHalver struct {
	M      int     // registers (2h)
	R      int     // halvers in the separators it serves: target ε₀ = ε/R
	D      int     // degree = depth (number of shifts)
	LowerD int     // mex.HalverDegreeLowerBound(h, ε₀)
	Sigma2 float64 // σ₂ of the circulant graph (0 for K_{h,h})
	Eps    float64 // certified ε (max_k ⌊s*(k)⌋/k)
	WorstK int
	Shifts []int32
	Uses   int // calls that returned it
}

// Complete reports that the halver is K_{h,h} (every shift).
func (c CertifiedHalver) Complete() bool { return c.D == c.M/2 }

// CertifiedOptions configure Certified.
type CertifiedOptions struct {
	Seed uint64
	// Tap, if non-nil, sees the layers of every halver before FromHalver
	// uses them and returns the layers to use (it may record them, or, as a
	// planted fault, replace them). m is the register count, r as in
	// CertifiedHalver.
	Tap func(m, r int, layers []sortnet.Stage) []sortnet.Stage
}

// CertifiedSeparator is the Lemma 2 separator with certified halvers. It is
// not safe for concurrent use.
type CertifiedSeparator struct {
	eps   Frac
	opt   CertifiedOptions
	cache map[[2]int]*certEntry
	order []*certEntry
}

type certEntry struct {
	info   CertifiedHalver
	layers []sortnet.Stage
}

// Certified returns the certified separator for parameters p (only p.Eps is
// used). It returns an error unless p is valid and ε > 0.
func Certified(p Params, opt CertifiedOptions) (*CertifiedSeparator, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if p.Eps.Num <= 0 {
		return nil, fmt.Errorf("aks: ε = %v, need ε > 0 for certified halvers", p.Eps)
	}
	return &CertifiedSeparator{eps: p.Eps, opt: opt, cache: map[[2]int]*certEntry{}}, nil
}

// Name implements Separator.
func (c *CertifiedSeparator) Name() string {
	return fmt.Sprintf("lemma2(certified ε/r, ε = %v)", c.eps)
}

// HalverCount is the number r of halvers FromHalver applies to a bag of m
// items kicking back kick from each end: 1 at the root (kick = 0), else the
// least r with kick·2^r ≥ m.
func HalverCount(m, kick int) int {
	if kick <= 0 {
		return 1
	}
	r := 0
	for kick<<r < m {
		r++
	}
	return max(r, 1)
}

// Separate implements Separator.
func (c *CertifiedSeparator) Separate(m, kick int) []sortnet.Stage {
	r := HalverCount(m, kick)
	return FromHalver(boundHalver{c, r}).Separate(m, kick)
}

type boundHalver struct {
	c *CertifiedSeparator
	r int
}

func (b boundHalver) Name() string { return fmt.Sprintf("certified(ε/%d)", b.r) }

func (b boundHalver) Halve(m int) []sortnet.Stage {
	e := b.c.halver(m, b.r)
	e.info.Uses++
	if b.c.opt.Tap != nil {
		return b.c.opt.Tap(m, b.r, e.layers)
	}
	return e.layers
}

// Halvers lists the distinct halvers used so far, in order of first use.
func (c *CertifiedSeparator) Halvers() []CertifiedHalver {
	out := make([]CertifiedHalver, len(c.order))
	for i, e := range c.order {
		out[i] = e.info
		out[i].Shifts = append([]int32(nil), e.info.Shifts...)
	}
	return out
}

// certifies reports whether misses ⌊s*(k)⌋ ≤ (ε/r)·k for every k, in
// integers, and returns the certified ε and its k.
func certifies(h, d int, sigma2 float64, eps Frac, r int) (ok bool, e float64, worst int) {
	ok, worst = true, 1
	for k := 1; k <= h; k++ {
		miss := mex.HalverMissBound(h, d, sigma2, k)
		if x := float64(miss) / float64(k); x > e {
			e, worst = x, k
		}
		if int64(miss)*eps.Den*int64(r) > eps.Num*int64(k) {
			ok = false
		}
	}
	return ok, e, worst
}

func (c *CertifiedSeparator) halver(m, r int) *certEntry {
	key := [2]int{m, r}
	if e, ok := c.cache[key]; ok {
		return e
	}
	if m < 2 || m%2 != 0 {
		panic(fmt.Sprintf("aks: certified halver on %d registers", m))
	}
	h := m / 2
	eps0 := c.eps.Float() / float64(r)
	info := CertifiedHalver{M: m, R: r, LowerD: mex.HalverDegreeLowerBound(h, eps0)}
	if info.LowerD < h {
		rng := rand.New(rand.NewPCG(c.opt.Seed, uint64(m)<<8|uint64(r)))
		order := rng.Perm(h)
		// χ_j = Σ_{s ∈ S} e^{2πi·js/h}, j = 1..h−1, grown one shift at a time.
		re, im := make([]float64, h), make([]float64, h)
		cos, sin := make([]float64, h), make([]float64, h)
		for t := range h {
			sin[t], cos[t] = math.Sincos(2 * math.Pi * float64(t) / float64(h))
		}
		for d := 1; d < h; d++ {
			s := order[d-1]
			for j := 1; j < h; j++ {
				t := j * s % h
				re[j] += cos[t]
				im[j] += sin[t]
			}
			if d < info.LowerD {
				continue
			}
			sig := 0.0
			for j := 1; j < h; j++ {
				sig = math.Max(sig, math.Hypot(re[j], im[j]))
			}
			if ok, _, _ := certifies(h, d, sig, c.eps, r); !ok {
				continue
			}
			// Recompute σ₂ directly (no accumulated rounding) and certify
			// with that value.
			shifts := make([]int32, d)
			for i := range shifts {
				shifts[i] = int32(order[i])
			}
			sig = mex.CirculantSigma2(h, shifts)
			if ok, e, w := certifies(h, d, sig, c.eps, r); ok {
				info.D, info.Sigma2, info.Eps, info.WorstK, info.Shifts = d, sig, e, w, shifts
				break
			}
		}
	}
	if info.D == 0 { // K_{h,h}: σ₂ = 0 exactly
		info.D, info.Shifts = h, make([]int32, h)
		for i := range h {
			info.Shifts[i] = int32(i)
		}
		info.Sigma2 = 0
		ok, e, w := certifies(h, h, 0, c.eps, r)
		if !ok {
			panic("aks: K_{h,h} not certified")
		}
		info.Eps, info.WorstK = e, w
	}
	e := &certEntry{info: info, layers: CirculantLayers(m, info.Shifts)}
	c.cache[key] = e
	c.order = append(c.order, e)
	return e
}

// CirculantLayers returns the halver layers on m = 2h registers for the
// given shifts: layer ℓ compares i with h + (i + shifts[ℓ]) mod h.
func CirculantLayers(m int, shifts []int32) []sortnet.Stage {
	h := m / 2
	out := make([]sortnet.Stage, len(shifts))
	for l, s := range shifts {
		st := make(sortnet.Stage, h)
		for i := range h {
			st[i] = sortnet.Comparator{I: int32(i), J: int32(h + (i+int(s))%h)}
		}
		out[l] = st
	}
	return out
}

// CertifiedNet builds the network on n wires with the §5 parameters
// (SeiferasParams) and the certified separator (seed as in
// CertifiedOptions), tracing inputs as Construct does. Errors are
// Construct's.
func CertifiedNet(n int, opt CertifiedOptions, inputs ...[]int32) (*Result, *CertifiedSeparator, error) {
	sep, err := Certified(SeiferasParams(), opt)
	if err != nil {
		return nil, nil, err
	}
	res, err := Construct(n, SeiferasParams(), sep, inputs...)
	if err != nil {
		return nil, nil, err
	}
	return res, sep, nil
}
