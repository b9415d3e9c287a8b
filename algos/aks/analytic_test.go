package aks

import (
	"math"
	"testing"
)

// §7, "Sample parameter evaluation" and "Halver depth bounds": for A = 10,
// λ = ε = 1/100, ν = 13/20 about 6.95·log₂n iterations, each seven
// 1/700-halvers deep, Paterson halver depth 10564, total about
// 514247·log₂n; for the alternative parameters 6.05·log₂n, seven
// 1/402.15-halvers, depth 5621, total about 238198·log₂n.
func TestPaperDepthMatchesSection7(t *testing.T) {
	for _, c := range []struct {
		name      string
		p         Params
		coef      float64
		invEps0   float64
		halver    int64
		perLog2N  float64
		coefTol   float64
		totalTolR float64
	}{
		{"§5 params", SeiferasParams(), 6.95, 700, 10564, 514247, 0.01, 1e-4},
		{"§7 alternative", AltParams(), 6.05, 402.15, 5621, 238198, 0.01, 1e-4},
	} {
		if got := IterationCoefficient(c.p); math.Abs(got-c.coef) > c.coefTol {
			t.Errorf("%s: iteration coefficient %.4f, paper ≈ %.2f", c.name, got, c.coef)
		}
		const k = 1 << 22
		d, err := PaperDepth(k, c.p, 1)
		if err != nil {
			t.Fatal(err)
		}
		if d.SepHalvers != 7 {
			t.Errorf("%s: %d halvers per separator, paper 7", c.name, d.SepHalvers)
		}
		if math.Abs(1/d.HalverEps-c.invEps0) > 1e-6*c.invEps0 {
			t.Errorf("%s: ε₀ = 1/%.4f, paper 1/%.2f", c.name, 1/d.HalverEps, c.invEps0)
		}
		if d.HalverDepth != c.halver {
			t.Errorf("%s: halver depth %d, paper %d", c.name, d.HalverDepth, c.halver)
		}
		if per := float64(d.Total) / k; math.Abs(per/c.perLog2N-1) > c.totalTolR {
			t.Errorf("%s: depth/log₂n = %.1f at k = 2^22, paper ≈ %.0f", c.name, per, c.perLog2N)
		}
	}
}

// Iterations(k) is the least t with 2^k ν^t A^(k−1) < 1/λ: check the two
// defining inequalities directly in logarithms for a spread of k.
func TestIterationsDefinition(t *testing.T) {
	p := SeiferasParams()
	la, ln, ll := math.Log2(p.A.Float()), math.Log2(p.Nu.Float()), math.Log2(p.Lambda.Float())
	leafLog := func(k int, t int64) float64 { return float64(k) + float64(t)*ln + float64(k-1)*la }
	for _, k := range []int{1, 2, 5, 30, 1000, 123456} {
		T := Iterations(k, p)
		if leafLog(k, T) >= -ll {
			t.Errorf("k = %d: leaf capacity after %d stages not below 1/λ", k, T)
		}
		if T > 0 && leafLog(k, T-1) < -ll {
			t.Errorf("k = %d: %d stages already enough", k, T-1)
		}
	}
}

// The crossover with Batcher: depth ≈ 514247·k against k(k+1)/2 means
// k ≈ 2·514247 ≈ 1.03 million, i.e. n = 2^k with about 310,000 decimal
// digits. We accept ±0.1% of the paper-derived 2·514247 and check that the
// depth is above Batcher's just before.
func TestCrossoverWithBatcher(t *testing.T) {
	for _, c := range []struct {
		name     string
		p        Params
		perLog2N float64
	}{{"§5 params", SeiferasParams(), 514247}, {"§7 alternative", AltParams(), 238198}} {
		k, aks, bat, ok, err := Crossover(c.p, 1, 0, 1<<22)
		if err != nil || !ok {
			t.Fatalf("%s: no crossover (%v)", c.name, err)
		}
		if math.Abs(float64(k)/(2*c.perLog2N)-1) > 1e-3 {
			t.Errorf("%s: crossover at k = %d, expected ≈ %.0f", c.name, k, 2*c.perLog2N)
		}
		prev, _ := PaperDepth(k-1, c.p, 1)
		if prev.Total < BatcherDepth(k-1) {
			t.Errorf("%s: already below Batcher at k−1", c.name)
		}
		t.Logf("%s: AKS depth %d < Batcher %d first at n = 2^%d (≈ 10^%.0f)", c.name, aks, bat, k, float64(k)*math.Log10(2))
	}
}

func TestPatersonHalverDepth(t *testing.T) {
	// Hand evaluation: ε = 1/10: 2·ln(0.1)/ln(0.9) + 20 − 1 ≈ 43.71 + 19 = 62.71 → 63.
	if got := PatersonHalverDepth(0.1); got != 63 {
		t.Errorf("ε = 1/10: %d, want 63", got)
	}
}

// With halvers of depth d (our random-matching halvers) in place of
// Paterson's, the same estimate is 7d layers per stage, ≈ 6.95·7·d·k in all:
// the crossover with k(k+1)/2 moves to k ≈ 2·6.95·7·d − 1 (≈ 778 for d = 8).
func TestCrossoverWithDHalvers(t *testing.T) {
	p := SeiferasParams()
	for _, d := range []int64{8, 16} {
		k, aks, bat, ok, err := Crossover(p, 1, d, 1<<20)
		if err != nil || !ok {
			t.Fatalf("d = %d: no crossover (%v)", d, err)
		}
		want := 2 * IterationCoefficient(p) * 7 * float64(d)
		if math.Abs(float64(k)/want-1) > 0.05 {
			t.Errorf("d = %d: crossover at k = %d, expected ≈ %.0f", d, k, want)
		}
		t.Logf("d = %d: estimate %d < Batcher %d first at n = 2^%d", d, aks, bat, k)
	}
}
