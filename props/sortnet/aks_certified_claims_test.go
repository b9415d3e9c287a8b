package sortnet

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"routecheck/algos/aks"
	mex "routecheck/models/expander"
	msn "routecheck/models/sortnet"
)

// certDegreeClosed against values worked by hand: h ≤ 1/ε − … gives h
// (b = 1, a = h − 1: h(h−1)²/((h−1)² + h − 1) = h − 1, +1 = h); h = 2048,
// ε = 1/100: b = 21, a = 2027, 2048·2027²/(2027² + 441·2047) = 1679.6…, so
// 1680; ε = 1/10: b = 205, a = 1843, 2048·1843²/(1843² + 205²·2047) =
// 77.79…, so 78; the limit (1/ε − 1)² for h = 2^399.
func TestCertDegreeClosedWorked(t *testing.T) {
	for _, c := range []struct {
		h    int64
		den  int64
		want int64
	}{{1, 100, 1}, {8, 100, 8}, {99, 100, 99}, {2048, 100, 1680}, {2048, 10, 78}} {
		if got := certDegreeClosed(big.NewInt(c.h), c.den); got.Int64() != c.want {
			t.Fatalf("D(%d, 1/%d) = %v, want %d", c.h, c.den, got, c.want)
		}
	}
	if got := certDegreeClosed(new(big.Int).Lsh(big.NewInt(1), 399), 100); got.Int64() != 9801 {
		t.Fatalf("D(2^399, 1/100) = %v, want 9801", got)
	}
}

// certAlonBoppana against values worked independently: m = 1/ε − 1;
// d² > 4m²(d − 1) is (d − 2m²)² > 4m²(m² − 1), so the least d ≥ 3 is
// ⌊2m² + 2m√(m² − 1)⌋ + 1 when that root is not an integer. m = 1: every
// d ≠ 2, so 3; m = 2: 8 + √48 = 14.93, so 15; m = 99: 19602 + 198√9800 =
// 39202.99997, so 39203, and Batcher's 279·280/2 = 39060 < 39203 ≤
// 280·281/2 = 39340; m = 699: 1954402.9999995, so 1954403.
func TestCertAlonBoppanaWorked(t *testing.T) {
	for _, c := range []struct{ den, d int64 }{{2, 3}, {3, 15}, {100, 39203}, {700, 1954403}} {
		if d, _ := certAlonBoppana(c.den); d != c.d {
			t.Fatalf("Alon–Boppana degree at 1/%d = %d, want %d", c.den, d, c.d)
		}
	}
	if d, k := certAlonBoppana(100); d != CertAlonBoppanaDegree || k != 279 || CertAlonBoppanaBatcherTo != 279 {
		t.Fatalf("at 1/100: d = %d, k = %d; want 39203 and 279 (recorded %d, %d)", d, k, CertAlonBoppanaDegree, CertAlonBoppanaBatcherTo)
	}
}

// certifyLayers accepts K_{h,h} and a certified circulant, and rejects
// layers that are not matchings across the halves, random matchings (no
// certificate at the target), and a circulant one shift short of its
// certificate.
func TestCertifyLayers(t *testing.T) {
	key := certHalverKey{m: 16, r: 1}
	full := aks.CirculantLayers(16, []int32{0, 1, 2, 3, 4, 5, 6, 7})
	if _, f := certifyLayers(key, full); f != nil {
		t.Fatalf("K_{8,8} rejected: %+v", f)
	}
	if _, f := certifyLayers(key, full[:7]); f == nil {
		t.Fatal("K_{8,8} minus one shift accepted at ε = 1/100 (h = 8 needs an exact halver)")
	}
	bad := aks.CirculantLayers(16, []int32{0, 1})
	bad[0][0] = msn.Comparator{I: 0, J: 1}
	if _, f := certifyLayers(key, bad); f == nil {
		t.Fatal("a comparator inside the first half accepted")
	}
	rnd := aks.ExpanderHalver(8, rand.New(rand.NewPCG(1, 2))).Halve(256)
	if _, f := certifyLayers(certHalverKey{256, 1}, rnd); f == nil {
		t.Fatal("8 random matchings certified as a 1/100-halver")
	}
	// The builder's root halver at m = 256 (target 1/100) passes, and with
	// its last shift dropped fails (the degree search rejected that prefix).
	sep, err := aks.Certified(aks.SeiferasParams(), aks.CertifiedOptions{Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	sep.Separate(256, 0)
	hv := sep.Halvers()[0]
	if hv.Complete() {
		t.Fatalf("m = 256 root halver is complete (d = %d)", hv.D)
	}
	ls := aks.CirculantLayers(256, hv.Shifts)
	if _, f := certifyLayers(certHalverKey{256, 1}, ls); f != nil {
		t.Fatalf("the builder's halver rejected: %+v", f)
	}
	if _, f := certifyLayers(certHalverKey{256, 1}, ls[:len(ls)-1]); f == nil {
		t.Fatal("the builder's halver minus its last shift accepted")
	}
	// The same halver at r = 2 (target 1/200) is not certified.
	if _, f := certifyLayers(certHalverKey{256, 2}, ls); f == nil {
		c := mex.CertifyHalver(128, hv.D, hv.Sigma2)
		t.Fatalf("a 1/100 halver (ε ≤ %v) accepted at 1/200", c.Eps)
	}
}
