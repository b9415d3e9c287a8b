package mbfly

import (
	"math"
	"testing"

	"routecheck/internal/seeds"
	mb "routecheck/models/multibutterfly"
)

// The AKS-family coefficients, recomputed from Seiferas's §5 parameters by
// hand: (1 + log₂ 10)/log₂(20/13) stages per log₂ N; ⌊log₂ 100⌋ + 1 = 7
// halvers of ε₀ = 1/700 per separator; Paterson's depth
// ⌈2 ln ε₀/ln(1 − ε₀) + 2/ε₀ − 1⌉ and the certified (1/ε₀ − 1)² = 699².
func TestSec33AKSCoefficientsByHand(t *testing.T) {
	it := (1 + math.Log2(10)) / math.Log2(20.0/13)
	eps := 1.0 / 700
	pat := math.Ceil(2*math.Log(eps)/math.Log(1-eps) + 2/eps - 1)
	if pat != 10564 {
		t.Fatalf("Paterson depth %v, want 10564 (§7)", pat)
	}
	cp, ce, d, err := sec33AKSCoefficients(false)
	if err != nil {
		t.Fatal(err)
	}
	if d.SepHalvers != 7 || d.HalverDepth != 10564 {
		t.Errorf("halvers %d of depth %d, want 7 of 10564", d.SepHalvers, d.HalverDepth)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"Paterson", cp, it * 7 * pat}, {"certified", ce, it * 7 * 699 * 699}} {
		if math.Abs(c.got/c.want-1) > 1e-9 {
			t.Errorf("%s coefficient %v, want %v", c.name, c.got, c.want)
		}
	}
}

// The planted rewiring moves exactly the n direct edges leaving stage
// 2 log n, each to the next node of stage 2 log n + 1.
func TestSec41ShiftDirectOnlyThatLayer(t *testing.T) {
	n := 8
	a, err := mb.BuildComm(n, 2, seeds.Rand(3))
	if err != nil {
		t.Fatal(err)
	}
	b, err := mb.BuildComm(n, 2, seeds.Rand(3))
	if err != nil {
		t.Fatal(err)
	}
	sec41ShiftDirect(b)
	k, moved := a.LogN, 0
	for i := range a.Edges {
		if a.Edges[i] == b.Edges[i] {
			continue
		}
		moved++
		q := int(a.Edges[i].From) - 2*k*n
		if a.Part[i] != 2 || int(a.Edges[i].Stage) != 2*k || int(b.Edges[i].To) != (2*k+1)*n+(q+1)%n {
			t.Errorf("edge %d: %+v became %+v", i, a.Edges[i], b.Edges[i])
		}
	}
	if moved != n {
		t.Errorf("%d edges moved, want n = %d", moved, n)
	}
}
