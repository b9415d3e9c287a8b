package aks

import (
	"math"
	"math/rand/v2"
	"testing"

	mex "routecheck/models/expander"
	"routecheck/models/sortnet"
)

// Every halver the certified separator hands out is what it says: a
// circulant bipartite halver whose σ₂, recomputed from its layers, certifies
// ε/r; and where the halver is small enough to enumerate (2h ≤ 20) its exact
// ε is at most the certified one.
func TestCertifiedHalversCertified(t *testing.T) {
	n := 1024
	if short() {
		n = 256
	}
	type use struct{ m, r int }
	seen := map[use][]sortnet.Stage{}
	opt := CertifiedOptions{Seed: 7, Tap: func(m, r int, l []sortnet.Stage) []sortnet.Stage {
		seen[use{m, r}] = l
		return l
	}}
	_, sep, err := CertifiedNet(n, opt)
	if err != nil {
		t.Fatal(err)
	}
	hs := sep.Halvers()
	if len(hs) != len(seen) {
		t.Fatalf("%d halvers recorded, %d seen by the tap", len(hs), len(seen))
	}
	partial := 0
	for _, hv := range hs {
		layers := seen[use{hv.M, hv.R}]
		g, err := mex.BipartiteLayers(hv.M, layers)
		if err != nil {
			t.Fatalf("m = %d, r = %d: %v", hv.M, hv.R, err)
		}
		sh, ok := mex.CirculantShifts(g)
		if !ok || len(sh) != hv.D {
			t.Fatalf("m = %d, r = %d: not the recorded circulant of degree %d", hv.M, hv.R, hv.D)
		}
		h := hv.M / 2
		target := 0.01 / float64(hv.R)
		c := mex.CertifyHalver(h, hv.D, mex.CirculantSigma2(h, sh))
		if c.Eps > target*(1+1e-12) {
			t.Fatalf("m = %d, r = %d, d = %d: certified ε = %v > 1/(100·%d)", hv.M, hv.R, hv.D, c.Eps, hv.R)
		}
		if hv.D < hv.LowerD || hv.LowerD != mex.HalverDegreeLowerBound(h, target) {
			t.Fatalf("m = %d: degree %d, lower bound %d", hv.M, hv.D, hv.LowerD)
		}
		if hv.D < h {
			partial++
		}
		if hv.M <= 20 {
			e, err := mex.ExactHalverEps(hv.M, layers)
			if err != nil || e > c.Eps {
				t.Fatalf("m = %d: exact ε = %v > certified %v (%v)", hv.M, e, c.Eps, err)
			}
		}
	}
	// The root halver of n = 256 and 1024 (h = 128, 512, target 1/100) is
	// not complete: the certificate allows ⌊h/100⌋ ≥ 1 misplacements.
	if partial == 0 {
		t.Fatalf("n = %d: every halver is complete bipartite", n)
	}
}

// For h·ε₀ < 1 the definition allows no misplacement, so the halver is
// K_{h,h}: checked on the small bags, and K_{h,h} halves exactly on every
// 0-1 input (2h ≤ 16).
func TestCertifiedSmallBagsExact(t *testing.T) {
	sep, err := Certified(SeiferasParams(), CertifiedOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for m := 2; m <= 16; m += 2 {
		sep.Separate(m, 0)
	}
	for _, hv := range sep.Halvers() {
		if !hv.Complete() || hv.Eps != 0 {
			t.Fatalf("m = %d: d = %d, ε = %v, want K_{h,h}", hv.M, hv.D, hv.Eps)
		}
		if e, err := mex.ExactHalverEps(hv.M, CirculantLayers(hv.M, hv.Shifts)); err != nil || e != 0 {
			t.Fatalf("m = %d: exact ε = %v (%v)", hv.M, e, err)
		}
	}
}

// The certified network sorts every 0-1 input for n ≤ 18 (14 under -short),
// and random permutations at n = 100, 1024 (and 4096 without -short) keep
// every clause of the §4 invariant after every stage and come out sorted.
func TestCertifiedNetSortsAndKeepsInvariant(t *testing.T) {
	maxN := 18
	if short() {
		maxN = 14
	}
	for n := 2; n <= maxN; n++ {
		res, _, err := CertifiedNet(n, CertifiedOptions{Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		if bad, ok, err := sortnet.Sorts01Exhaustive(res.Net); err != nil || !ok {
			t.Fatalf("n = %d: 0-1 input %b not sorted (%v)", n, bad, err)
		}
	}
	sizes := []int{100, 1024}
	if !short() {
		sizes = append(sizes, 4096)
	}
	r := rand.New(rand.NewPCG(3, 3))
	for _, n := range sizes {
		ins := [][]int32{randPerm(r, n), randPerm(r, n)}
		res, _, err := CertifiedNet(n, CertifiedOptions{Seed: 3}, ins...)
		if err != nil {
			t.Fatal(err)
		}
		for k, tr := range res.Traces {
			for _, rep := range tr.Reports {
				if v := rep.Violations(); len(v) > 0 {
					t.Fatalf("n = %d, input %d: %v", n, k, v[0])
				}
			}
			if !tr.Sorted {
				t.Fatalf("n = %d, input %d: %d misplaced", n, k, tr.Misplaced)
			}
			out := append([]int32(nil), ins[k]...)
			sortnet.Apply(res.Net, out)
			for i, x := range out {
				if x != int32(i) {
					t.Fatalf("n = %d, input %d: the network leaves %d at %d", n, k, x, i)
				}
			}
		}
	}
}

// HalverCount is the number of halvers FromHalver applies: 1 + (r − 1),
// counted from the layers of a separator built on one-layer halvers.
func TestHalverCount(t *testing.T) {
	one := oneLayer{}
	for _, c := range []struct{ m, kick, want int }{{8, 0, 1}, {8, 1, 3}, {8, 3, 2}, {100, 1, 7}, {1000, 10, 7}, {1000, 1, 10}} {
		if got := HalverCount(c.m, c.kick); got != c.want {
			t.Fatalf("HalverCount(%d, %d) = %d, want %d", c.m, c.kick, got, c.want)
		}
		if got := len(FromHalver(one).Separate(c.m, c.kick)); got != c.want {
			t.Fatalf("FromHalver on (%d, %d) has %d layers, want %d", c.m, c.kick, got, c.want)
		}
	}
	if _, err := Certified(Params{A: Frac{10, 1}, Nu: Frac{13, 20}, Lambda: Frac{1, 100}, Eps: Frac{0, 1}}, CertifiedOptions{}); err == nil {
		t.Fatal("ε = 0 accepted")
	}
}

// oneLayer is a halver of one layer (i, i + m/2).
type oneLayer struct{}

func (oneLayer) Name() string { return "one" }
func (oneLayer) Halve(m int) []sortnet.Stage {
	st := sortnet.Stage{}
	for i := range m / 2 {
		st = append(st, sortnet.Comparator{I: int32(i), J: int32(i + m/2)})
	}
	return []sortnet.Stage{st}
}

// The degree needed at the root of n = 2^12 (h = 2048, target 1/100): the
// lower bound agrees with the closed form at k = h (solved by hand below),
// and the degree found lies between it and h.
func TestCertifiedRootDegree(t *testing.T) {
	if short() {
		t.Skip("n = 4096 root halver")
	}
	sep, err := Certified(SeiferasParams(), CertifiedOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	sep.Separate(4096, 0)
	hv := sep.Halvers()[0]
	// ⌊s*(h)⌋ ≤ 20 (= ⌊2048/100⌋) needs hσ/(d+σ) < 21, σ < 21d/(h − 21);
	// with σ² = d(h − d)/(h − 1): d(h−d)/(h−1) < 441d²/(h−21)², i.e.
	// d > (h(h−21)²)/((h−21)² + 441(h−1)) = 1679.6… for h = 2048.
	h := 2048.0
	want := math.Ceil(h * (h - 21) * (h - 21) / ((h-21)*(h-21) + 441*(h-1)))
	if float64(hv.LowerD) < want-1 || float64(hv.LowerD) > want+1 {
		t.Fatalf("lower bound %d, hand computation %v", hv.LowerD, want)
	}
	if hv.D < hv.LowerD || hv.D >= 2048 {
		t.Fatalf("degree %d outside [%d, 2048)", hv.D, hv.LowerD)
	}
}
