package aks

import (
	"slices"
	"strings"
	"testing"
)

// Violations on hand-built reports, one clause of the §4 invariant at a
// time, each at its boundary: a level with the parity of T (d − T even,
// also for d < T), equal loads, load = ⌊b⌋ and j-strangers equal to the
// bound λε^(j−1)b are all allowed; one more item, one more stranger, or the
// other parity is a violation of exactly that clause, and the message names
// j.
func TestViolationsClauses(t *testing.T) {
	ok := LevelReport{Depth: 2, Bags: 4, MinLoad: 4, MaxLoad: 4, Capacity: 4.5, CapFloor: 4,
		Strangers: []int{2, 1}, Bounds: []float64{2, 1}}
	if v := (StageReport{T: 0, Levels: []LevelReport{ok}}).Violations(); len(v) != 0 {
		t.Fatalf("every clause at its boundary: %v", v)
	}
	if v := (StageReport{T: 4, Levels: []LevelReport{ok}}).Violations(); len(v) != 0 {
		t.Fatalf("depth 2 at T = 4: %v", v)
	}
	for _, c := range []struct {
		name   string
		t      int
		edit   func(*LevelReport)
		clause int
		msg    string
	}{
		{"parity", 1, func(*LevelReport) {}, 1, "parity"},
		{"parity below T", 3, func(*LevelReport) {}, 1, "parity"},
		{"loads", 2, func(l *LevelReport) { l.MinLoad = 3 }, 2, "3..4"},
		{"capacity", 2, func(l *LevelReport) { l.MinLoad, l.MaxLoad = 5, 5 }, 3, "load 5"},
		{"1-strangers", 2, func(l *LevelReport) { l.Strangers = []int{3, 1} }, 4, "1-strangers 3"},
		{"2-strangers", 2, func(l *LevelReport) { l.Strangers = []int{2, 2} }, 4, "2-strangers 2"},
		{"fractional bound", 2, func(l *LevelReport) { l.Bounds = []float64{1.99, 1} }, 4, "1-strangers 2"},
	} {
		lv := ok
		lv.Strangers = append([]int(nil), ok.Strangers...)
		lv.Bounds = append([]float64(nil), ok.Bounds...)
		c.edit(&lv)
		v := (StageReport{T: c.t, Levels: []LevelReport{lv}}).Violations()
		if len(v) != 1 || v[0].Clause != c.clause || v[0].T != c.t || v[0].Depth != 2 || !strings.Contains(v[0].Msg, c.msg) {
			t.Errorf("%s: %v, want one clause-%d violation at t=%d depth 2 mentioning %q", c.name, v, c.clause, c.t, c.msg)
		}
	}
}

// Construct's parameter and input checks: n < 0, n > 2^30, inputs of the
// wrong length, with a value out of [0, n) (n itself, −1) or repeated; the
// message names the range 0..n−1.
func TestConstructRejects(t *testing.T) {
	p := SeiferasParams()
	for _, n := range []int{-1, 1<<30 + 1} {
		if _, err := Construct(n, p, Exact()); err == nil {
			t.Errorf("n = %d accepted", n)
		}
	}
	for _, in := range [][]int32{{0, 1, 2}, {0, 1, 2, 4}, {0, 1, 2, -1}, {0, 1, 1, 2}} {
		_, err := Construct(4, p, Exact(), []int32{0, 1, 2, 3}, in)
		if err == nil {
			t.Errorf("input %v accepted for n = 4", in)
			continue
		}
		if !strings.Contains(err.Error(), "input 1") {
			t.Errorf("input %v: %v does not name input 1", in, err)
		}
		if len(in) == 4 && !strings.Contains(err.Error(), "0..3") {
			t.Errorf("input %v: %v does not name the range 0..3", in, err)
		}
	}
	bad := p
	bad.Nu = Frac{1, 1}
	if _, err := Construct(4, bad, Exact()); err == nil {
		t.Error("ν = 1 accepted")
	}
}

// §5's range conditions A > 1, ν < 1, ε > 0, λ < 1 are strict: each
// parameter set exactly at its limit (A = 1, ν = 1, ε = 0, λ = 1) is
// reported, by the condition's text.
func TestViolationsStrictRanges(t *testing.T) {
	for _, c := range []struct {
		edit func(*Params)
		want string
	}{
		{func(p *Params) { p.A = Frac{1, 1} }, "A > 1"},
		{func(p *Params) { p.Nu = Frac{1, 1} }, "ν < 1"},
		{func(p *Params) { p.Eps = Frac{0, 1} }, "ε > 0"},
		{func(p *Params) { p.Lambda = Frac{1, 1} }, "λ < 1"},
	} {
		p := SeiferasParams()
		c.edit(&p)
		if v := p.Violations(); !slices.Contains(v, c.want) {
			t.Errorf("%+v: violations %v, want %q among them", p, v, c.want)
		}
	}
}

// C2 and C3 are "≥" constraints and 2εA < 1 is strict; each at equality,
// computed by hand:
//   - C2 with A = 2, ε = 1/16: 2Aε + 1/A = 1/4 + 1/2 = 3/4, so ν = 3/4 meets it;
//   - C3 with A = 2, ε = 1/16, λ = 1/4 (2εA = 1/4, 1 − (2εA)² = 15/16):
//     2λεA + ελ/A + ε/(2A) + 2λεA·16/15 + 1/(64 − 4)
//     = 1/16 + 1/128 + 1/64 + 1/15 + 1/60 = 325/1920 = 65/384, so
//     λν = 65/384 at ν = 65/96 meets it;
//   - 2εA = 1 with A = 2, ε = 1/4 is reported.
func TestViolationsAtEquality(t *testing.T) {
	has := func(v []string, prefix string) bool {
		return slices.ContainsFunc(v, func(s string) bool { return strings.HasPrefix(s, prefix) })
	}
	c2 := Params{A: Frac{2, 1}, Nu: Frac{3, 4}, Lambda: Frac{1, 100}, Eps: Frac{1, 16}}
	if v := c2.Violations(); has(v, "C2") {
		t.Errorf("C2 at equality reported: %v", v)
	}
	c2.Nu = Frac{3*1_000_000 - 1, 4 * 1_000_000}
	if v := c2.Violations(); !has(v, "C2") {
		t.Errorf("C2 just below equality not reported: %v", v)
	}
	c3 := Params{A: Frac{2, 1}, Nu: Frac{65, 96}, Lambda: Frac{1, 4}, Eps: Frac{1, 16}}
	if v := c3.Violations(); has(v, "C3") {
		t.Errorf("C3 at equality reported: %v", v)
	}
	c3.Nu = Frac{65*1_000_000 - 1, 96 * 1_000_000}
	if v := c3.Violations(); !has(v, "C3") {
		t.Errorf("C3 just below equality not reported: %v", v)
	}
	geo := Params{A: Frac{2, 1}, Nu: Frac{1, 2}, Lambda: Frac{1, 100}, Eps: Frac{1, 4}}
	if v := geo.Violations(); !slices.Contains(v, "C3: needs 2εA < 1") {
		t.Errorf("2εA = 1 not reported: %v", v)
	}
}

// The number of stages at the boundary N ν^t A^(L−1) = 1/λ, exactly and
// with float64 logarithms: A = 2, ν = 1/2, λ = 1/8. L = 1: 2 < 8, no stage;
// L = 2: 4·2 = 8 is not < 8, one stage (8ν = 4); L = 3: 8·4 = 32, and
// 32ν² = 8 is not < 8, 32ν³ = 4 is: three stages. (Logarithms of powers of
// two are exact in float64.)
func TestStagesAtBoundary(t *testing.T) {
	p := Params{A: Frac{2, 1}, Nu: Frac{1, 2}, Lambda: Frac{1, 8}, Eps: Frac{1, 100}}
	for L, want := range map[int]int{1: 0, 2: 1, 3: 3} {
		if got := stagesNeeded(L, p); got != want {
			t.Errorf("L = %d: stagesNeeded %d, want %d", L, got, want)
		}
		if got := Iterations(L, p); got != int64(want) {
			t.Errorf("k = %d: Iterations %d, want %d", L, got, want)
		}
	}
}
