package aks

import (
	"math"
	"testing"
)

// The parameter ranges PatersonHalverDepth and PaperDepth document: ε and
// c at the ends of their ranges. PatersonHalverDepth panics outside
// 0 < ε < 1 (at ε = 1 the formula would give 2·0 + 2 − 1 = 1, at ε = 0 NaN);
// PaperDepth errors for c = 0, for c > 1, and for ε = 0 with Paterson's
// halvers, but accepts ε = 0 when the halver depth is given.
func TestAnalyticParameterRanges(t *testing.T) {
	for _, eps := range []float64{0, 1, -0.5, 1.5} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("PatersonHalverDepth(%v) did not panic", eps)
				}
			}()
			PatersonHalverDepth(eps)
		}()
	}
	p := SeiferasParams()
	for _, c := range []float64{0, -0.5, 1.0000001, 2} {
		if _, err := PaperDepth(10, p, c); err == nil {
			t.Errorf("c = %v accepted", c)
		}
	}
	if _, err := PaperDepth(10, p, 1e-9); err != nil {
		t.Errorf("c = 1e-9 refused: %v", err)
	}
	p0 := p
	p0.Eps = Frac{0, 1}
	if _, err := PaperDepth(10, p0, 1); err == nil {
		t.Error("ε = 0 accepted with Paterson's halvers")
	}
	d, err := DepthWithHalver(10, p0, 1, 8)
	if err != nil {
		t.Fatalf("ε = 0 with halver depth 8 refused: %v", err)
	}
	if d.HalverDepth != 8 || d.HalverEps != 0 {
		t.Errorf("ε = 0, halver depth 8: got depth %d, ε₀ %v", d.HalverDepth, d.HalverEps)
	}
	if _, err := DepthWithHalver(10, p, 1, -1); err == nil {
		t.Error("halver depth −1 accepted")
	}
	if _, err := PaperDepth(0, p, 1); err == nil {
		t.Error("k = 0 accepted")
	}
}

// Lemma 2 (§6, §7): a separator needs ⌈log₂(1/c) + log₂(1/λ)⌉ halvers, and
// c = 1 is the limit c → 1, ⌊log₂(1/λ)⌋ + 1. By hand: λ = 1/100 has
// log₂ 100 ≈ 6.644, so c = 1/2 gives ⌈7.644⌉ = 8 and c = 1 gives 7; with
// λ = 1/128 (log₂ exactly 7) c = 1 gives 8 (not ⌈7⌉ = 7) and c = 1/2 gives
// ⌈8⌉ = 8. ε₀ = ε / halvers.
func TestSepHalversLemma2(t *testing.T) {
	p128 := SeiferasParams()
	p128.Lambda = Frac{1, 128}
	for _, c := range []struct {
		p    Params
		c    float64
		want int64
	}{
		{SeiferasParams(), 1, 7},
		{SeiferasParams(), 0.5, 8},
		{SeiferasParams(), 0.25, 9},
		{p128, 1, 8},
		{p128, 0.5, 8},
	} {
		d, err := PaperDepth(10, c.p, c.c)
		if err != nil {
			t.Fatal(err)
		}
		if d.SepHalvers != c.want {
			t.Errorf("λ = %v, c = %v: %d halvers, want %d", c.p.Lambda, c.c, d.SepHalvers, c.want)
		}
		if want := c.p.Eps.Float() / float64(c.want); math.Abs(d.HalverEps-want) > 1e-15 {
			t.Errorf("λ = %v, c = %v: ε₀ = %v, want %v", c.p.Lambda, c.c, d.HalverEps, want)
		}
	}
}

// Batcher's odd-even merge sort on 2^k wires has depth k(k+1)/2 (Knuth,
// TAOCP vol. 3 §5.3.4): 1, 3, 6, 10, 15 for 2, 4, 8, 16, 32 wires, and
// the network BatcherSort builds has that many stages.
func TestBatcherDepthValues(t *testing.T) {
	for k, want := range []int64{0, 1, 3, 6, 10, 15} {
		if got := BatcherDepth(k); got != want {
			t.Errorf("BatcherDepth(%d) = %d, want %d", k, got, want)
		}
		if got := int64(len(BatcherSort(1 << k))); got != want {
			t.Errorf("BatcherSort(2^%d) has %d stages, want %d", k, got, want)
		}
	}
}

// Crossover searches k ≤ maxK inclusive: with maxK equal to the crossover
// found with room to spare it still finds it, and with maxK one less it
// reports none.
func TestCrossoverSearchLimit(t *testing.T) {
	p := SeiferasParams()
	k, _, _, ok, err := Crossover(p, 1, 8, 1<<20)
	if err != nil || !ok {
		t.Fatalf("no crossover (%v)", err)
	}
	if k2, _, _, ok, err := Crossover(p, 1, 8, k); err != nil || !ok || k2 != k {
		t.Errorf("maxK = %d: got k = %d, ok %v, err %v; want %d", k, k2, ok, err, k)
	}
	if _, _, _, ok, err := Crossover(p, 1, 8, k-1); err != nil || ok {
		t.Errorf("maxK = %d: found a crossover below the least one (err %v)", k-1, err)
	}
	if _, _, _, _, err := Crossover(p, 0, 8, 10); err == nil {
		t.Error("c = 0 accepted by Crossover")
	}
}
