package aks

import (
	"strings"
	"testing"
)

// §5 gives A = 10, λ = ε = 1/100, ν = 13/20 as satisfying every constraint;
// C1 holds with equality (4·10/100 + 5/20 = 13/20), so any smaller ν fails.
func TestSeiferasParamsSatisfyConstraints(t *testing.T) {
	p := SeiferasParams()
	if v := p.Violations(); v != nil {
		t.Fatalf("§5 parameters violate %v", v)
	}
	p.Nu = Frac{1_299_999_999, 2_000_000_000}
	if v := p.Violations(); len(v) != 1 || !strings.HasPrefix(v[0], "C1") {
		t.Fatalf("ν just below 13/20: violations %v, want C1 only", v)
	}
}

// Findings, checked by hand: the §3 preview (λ = ε = 1/99, ν = 0.65) breaks
// C1 (40/99 + 1/4 ≈ 0.65404 > 0.65), and the §7 alternative (A = 6.785,
// λ = 1/96.4, ε = 1/57.45) breaks C3 (λν ≈ 0.0067427 < 0.0067570) while
// meeting C1 (≈ 0.649995) and C2 (≈ 0.3836).
func TestPaperParamFindings(t *testing.T) {
	for _, c := range []struct {
		name string
		p    Params
		want string
	}{
		{"preview §3", PreviewParams(), "C1"},
		{"alternative §7", AltParams(), "C3"},
	} {
		v := c.p.Violations()
		if len(v) != 1 || !strings.HasPrefix(v[0], c.want) {
			t.Errorf("%s: violations %v, want exactly %s", c.name, v, c.want)
		}
	}
}

func TestValidate(t *testing.T) {
	bad := []Params{
		{A: Frac{1, 1}, Nu: Frac{1, 2}, Lambda: Frac{1, 100}, Eps: Frac{0, 1}},
		{A: Frac{10, 1}, Nu: Frac{1, 1}, Lambda: Frac{1, 100}, Eps: Frac{0, 1}},
		{A: Frac{10, 1}, Nu: Frac{1, 2}, Lambda: Frac{1, 2}, Eps: Frac{0, 1}},
		{A: Frac{10, 1}, Nu: Frac{1, 2}, Lambda: Frac{1, 100}, Eps: Frac{-1, 1}},
		{A: Frac{10, 0}, Nu: Frac{1, 2}, Lambda: Frac{1, 100}, Eps: Frac{0, 1}},
	}
	for _, p := range bad {
		if err := p.Validate(); err == nil {
			t.Errorf("%+v accepted", p)
		}
		if _, err := Construct(8, p, Exact()); err == nil {
			t.Errorf("Construct accepted %+v", p)
		}
	}
	if _, err := Construct(-1, SeiferasParams(), Exact()); err == nil {
		t.Error("n = −1 accepted")
	}
	if _, err := Construct(3, SeiferasParams(), Exact(), []int32{0, 0, 1}); err == nil {
		t.Error("non-permutation input accepted")
	}
}

// The number of stages T for n = 2^k: Construct counts it with exact
// rationals, Iterations with logarithms; both must agree, and with hand
// computations for the §5 parameters: n = 8: 800·0.65^4 ≈ 142.8 ≥ 100 >
// 800·0.65^5 ≈ 92.8, so T = 5; n = 16: 16000·0.65^11 ≈ 140.0, ·0.65 ≈ 91.0,
// so T = 12; n = 4: 40 < 100 already, T = 0.
func TestStageCount(t *testing.T) {
	hand := map[int]int{2: 0, 4: 0, 8: 5, 16: 12}
	for _, p := range []Params{SeiferasParams(), PreviewParams(), AltParams()} {
		for k := 1; k <= 20; k++ {
			sc := newSchedule(k, p)
			if want := Iterations(k, p); int64(sc.T) != want {
				t.Errorf("%v k=%d: exact T = %d, log formula %d", p, k, sc.T, want)
			}
		}
	}
	for n, want := range hand {
		r, err := Construct(n, SeiferasParams(), Exact())
		if err != nil {
			t.Fatal(err)
		}
		if r.Stages != want {
			t.Errorf("n = %d: %d stages, want %d", n, r.Stages, want)
		}
	}
}

// §4: with λ = 1/99 and A = 10, k = 1 (4-sorters) suffices; with λ = 1/100,
// A^(k+1) > 100 needs k = 2 (the §7 formula ⌈log(1/λ)/log A⌉ gives the
// same 2 but reads it as k(k+1)/2 = 3 levels, i.e. 4-sorters: it treats
// the boundary case A^k = 1/λ as enough).
func TestFinalHeight(t *testing.T) {
	if k := finalHeight(PreviewParams()); k != 1 {
		t.Errorf("λ = 1/99: k = %d, want 1", k)
	}
	if k := finalHeight(SeiferasParams()); k != 2 {
		t.Errorf("λ = 1/100: k = %d, want 2", k)
	}
}
