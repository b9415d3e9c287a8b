package mbfly

import (
	"math"
	"slices"
	"strings"
	"testing"

	"routecheck/internal/seeds"
	"routecheck/models/expander"
	mb "routecheck/models/multibutterfly"
	"routecheck/props"
)

// The check can come out the other way by either path. On random design
// networks of degree 32 with only m ≤ 64 counted exactly it holds by
// Tanner's bound above (mbfly/cor-2.1/large-splitters-certified); the exact
// count is not tried there (random d = 32 concentrators leave the branch
// and bound little to prune).
func TestMGGTannerCheckOnDesignNetworks(t *testing.T) {
	env := props.Env{Budget: props.Small, Seed: props.DefaultSeed}
	design := func(n int) (*mb.Network, error) { return mb.Build(n, 32, seeds.Rand(env.Seed, 0x7a22, uint64(n))) }
	if o := mggTannerCheck(design, 64)(env); o.Verdict != props.Holds {
		t.Errorf("d = 32 design networks: %s: %s", o.Verdict, o.Evidence)
	}
}

// The exact path: the shifted fold (least pair neighbourhoods 9 and 8 at
// m = 128 and 256, the reviewer's count) holds at N ≤ 256; the plain fold
// fails first at N = 256 with the pair of inputs 0 and 128 of the m = 256
// upper concentrator, whose adjacency lists are equal (|Γ| = 5 < 6, the
// reviewer's count), while N = 128 holds with least ratio 4 (5 and 8 for
// |X| = 1, 2). With only m ≤ 64 counted exactly, Tanner's bound fails the
// plain fold at N = 128 instead.
func TestMGGTannerCheckExactPaths(t *testing.T) {
	env := props.Env{Budget: props.Small, Seed: props.DefaultSeed}
	if o := mggTannerCheck(mb.BuildMGGShifted, mggExactMaxM)(env); o.Verdict != props.Holds {
		t.Errorf("shifted fold: %s: %s", o.Verdict, o.Evidence)
	}
	o := mggTannerCheck(mb.BuildMGG, mggExactMaxM)(env)
	cex, _ := o.Counterexample.(map[string]any)
	if o.Verdict != props.Violated || cex["N"] != 256 || cex["m"] != 256 || cex["gamma"] != 5 || !slices.Equal(cex["X"].([]int32), []int32{0, 128}) {
		t.Errorf("plain fold: %s (counterexample %v): %s", o.Verdict, o.Counterexample, o.Evidence)
	}
	if !strings.Contains(o.Evidence, "N=128: holds, least |Γ(X)|/|X| = 4.00 (exact)") || strings.Contains(o.Evidence, "err <nil>") {
		t.Errorf("plain fold: N = 128 should hold with β = 4: %s", o.Evidence)
	}
	o = mggTannerCheck(mb.BuildMGG, 64)(env)
	if cex, _ := o.Counterexample.(map[string]any); o.Verdict != props.Violated || cex["N"] != 128 || !strings.Contains(o.Evidence, "not certified by Tanner's bound") {
		t.Errorf("plain fold, exact only to m = 64: %s (counterexample %v): %s", o.Verdict, o.Counterexample, o.Evidence)
	}
}

// λ₂ of M·Mᵀ for the MGG concentrators, recomputed without gonum: M·Mᵀ
// built by hand from the adjacency lists, power iteration on the
// complement of the all-ones vector (the eigenvector of dA·dB in a
// biregular graph). Tanner's bound at |X| = 1 from that λ₂ is below 3, as
// the claim records.
func TestMGGTannerLambdaByPowerIteration(t *testing.T) {
	for _, m := range []int{128, 256} {
		sp, err := expander.MGGSplitter(m)
		if err != nil {
			t.Fatal(err)
		}
		g := sp.Upper
		cols := make([][]float64, g.NA) // row a of M
		for a, l := range g.Adj {
			cols[a] = make([]float64, g.NB)
			for _, b := range l {
				cols[a][b]++
			}
		}
		mm := make([][]float64, g.NA)
		for a := range mm {
			mm[a] = make([]float64, g.NA)
			for c := range mm[a] {
				for b := range g.NB {
					mm[a][c] += cols[a][b] * cols[c][b]
				}
			}
		}
		v := make([]float64, g.NA)
		rng := seeds.Rand(1, uint64(m))
		for i := range v {
			v[i] = rng.Float64() - 0.5
		}
		var lambda float64
		w := make([]float64, len(v))
		for it := 0; ; it++ {
			if it == 20000 {
				t.Fatalf("m = %d: power iteration did not settle (λ ≈ %.9f)", m, lambda)
			}
			mean := 0.0
			for _, x := range v {
				mean += x
			}
			mean /= float64(len(v))
			norm := 0.0
			for i := range v {
				v[i] -= mean
				norm += v[i] * v[i]
			}
			norm = math.Sqrt(norm)
			for i := range v {
				v[i] /= norm
			}
			prev := lambda
			lambda = 0
			for a := range mm {
				w[a] = 0
				for c, x := range mm[a] {
					w[a] += x * v[c]
				}
				lambda += v[a] * w[a]
			}
			v, w = w, v
			if math.Abs(lambda-prev) < 1e-13*lambda {
				break
			}
		}
		c, err := expander.Spectral(g)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(c.Lambda2-lambda) > 1e-6*lambda {
			t.Errorf("m = %d: Spectral λ₂ = %.9f, power iteration %.9f", m, c.Lambda2, lambda)
		}
		if b1 := 64 / (lambda + (128-lambda)/float64(m)); b1 >= 3 {
			t.Errorf("m = %d: Tanner's bound at |X| = 1 from λ₂ = %.3f is %.3f ≥ 3", m, lambda, b1)
		}
	}
}

// tannerLambdaFor is the largest λ₂ at which Tanner's bound still gives
// Bound(x) ≥ βx for every x ≤ k: met with equality at some x, and λ₂ 1 %
// larger fails.
func TestTannerLambdaFor(t *testing.T) {
	for _, c := range []struct{ dA, dB, na, k int }{{8, 16, 128, 2}, {8, 16, 1024, 16}, {32, 64, 256, 4}} {
		l := tannerLambdaFor(c.dA, c.dB, c.na, c.k, 3)
		at := expander.Cert{NA: c.na, DA: c.dA, DB: c.dB, Lambda2: l}
		tight := false
		for x := 1; x <= c.k; x++ {
			b := at.Bound(x)
			if b < 3*float64(x)*(1-1e-12) {
				t.Errorf("%+v: λ₂ = %.4f gives Bound(%d) = %.6f < 3x", c, l, x, b)
			}
			tight = tight || math.Abs(b-3*float64(x)) < 1e-9
		}
		above := expander.Cert{NA: c.na, DA: c.dA, DB: c.dB, Lambda2: 1.01 * l}
		fails := false
		for x := 1; x <= c.k; x++ {
			fails = fails || above.Bound(x) < 3*float64(x)
		}
		if !tight || !fails {
			t.Errorf("%+v: λ₂ = %.4f not the largest (tight %v)", c, l, tight)
		}
	}
}
