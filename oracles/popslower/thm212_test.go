package popslower

import (
	"slices"
	"testing"

	"routecheck/models/perm"
	"routecheck/models/pops"
)

// shift is c_out(i, t) = c_in(i, t) = (i + t) mod g, written here so the
// oracle's tests do not depend on algos/.
func shift(g int) func(i, t int) int { return func(i, t int) int { return (i + t) % g } }

func TestThm212Assumption(t *testing.T) {
	cases := []struct {
		d, g, T int
		ok      bool
	}{
		{17, 17, 2, true}, {16, 17, 2, false}, {17, 16, 2, false}, {1000, 17, 2, true},
		{17, 17, 4, false}, {256, 257, 4, false}, {257, 257, 4, true},
		{17, 17, 3, false}, {17, 17, 0, false},
	}
	for _, c := range cases {
		err := Thm212Assumption(pops.Shape{D: c.d, G: c.g}, c.T)
		if (err == nil) != c.ok {
			t.Errorf("POPS(%d,%d) T=%d: err = %v, want ok = %v", c.d, c.g, c.T, err, c.ok)
		}
	}
}

// A hand-made c_out on POPS(1, 9) (one processor per group, √g = 3), T = 4:
//
//	slot 1: processors 0..8 shoot at 0 0 0 1 1 2 2 2 2
//	slot 3: processors 0..8 shoot at 5 5 6 6 6 7 7 7 7
//
// Removal: (1, group 1) has 2 < 3 members {3,4}: removed; then (3, group 5)
// has {0,1}: removed; then (1, group 0) has {2}: removed. {5,6,7,8} remains,
// three pairs marked.
func TestLemmas29And211Hand(t *testing.T) {
	s1 := []int{0, 0, 0, 1, 1, 2, 2, 2, 2}
	s3 := []int{5, 5, 6, 6, 6, 7, 7, 7, 7}
	out := func(i, t int) int {
		if t == 1 {
			return s1[i]
		}
		return s3[i]
	}
	sh := pops.Shape{D: 1, G: 9}
	// Groups 3, 4 and 8 are shot at by nobody; the lowest is 3.
	if a0, k := LightGroup(sh, out, 4); a0 != 3 || k != 0 {
		t.Errorf("LightGroup = (%d, %d), want (3, 0)", a0, k)
	}
	// With T = 2 only slot 1 counts: still group 3.
	if a0, k := LightGroup(sh, out, 2); a0 != 3 || k != 0 {
		t.Errorf("LightGroup T=2 = (%d, %d), want (3, 0)", a0, k)
	}
	// Shooting on group 2 in slots 1 or 3: processors 5..8.
	if p := NotShooting(sh, out, 4, 2, false); !slices.Equal(p, []int32{0, 1, 2, 3, 4}) {
		t.Errorf("P(2) = %v", p)
	}
	if p := NotShooting(sh, out, 4, 2, true); !slices.Equal(p, []int32{0, 1, 3, 4}) {
		t.Errorf("P(2) without group 2 = %v", p)
	}
	all := []int32{0, 1, 2, 3, 4, 5, 6, 7, 8}
	r, pairs := RobustSubset(sh, out, 4, all)
	if !slices.Equal(r, []int32{5, 6, 7, 8}) || pairs != 3 {
		t.Errorf("RobustSubset = %v, %d pairs; want [5 6 7 8], 3", r, pairs)
	}
	if !IsRobust(sh, out, 4, r) || IsRobust(sh, out, 4, all) || !IsRobust(sh, out, 4, nil) {
		t.Error("IsRobust disagrees with the hand count")
	}
	// Only slot 1 (T = 2): {3,4} goes, the rest stays.
	if r, pairs := RobustSubset(sh, out, 2, all); !slices.Equal(r, []int32{0, 1, 2, 5, 6, 7, 8}) || pairs != 1 {
		t.Errorf("RobustSubset T=2 = %v, %d", r, pairs)
	}
}

// Shift on POPS(17,17), T = 2: every group is shot at by exactly 17
// processors in slot 1, so a_0 = 0. P(a_0) without group 0 is every
// processor of groups 1..16 with index ℓ ≠ 16 (ℓ = 16 shoots at
// (17x+17) mod 17 = 0): 256 processors, each target 1..16 hit by 16 of them
// (≥ √17), so P' = P. Processor 17 (group 1, ℓ = 0) shoots at 1; the lowest
// other processor shooting at 1 in P' is 34 (group 2, ℓ = 0), the only
// shooter of its group on c(1,2), and group 1 hears every group (its
// listeners use (i+1) mod 17 too): both rules pick 34.
func TestThm212MarkShift(t *testing.T) {
	sh := pops.Shape{D: 17, G: 17}
	c, err := NewThm212(sh, TwoHops{Out: shift(17), In: shift(17)}, 2, true)
	if err != nil {
		t.Fatal(err)
	}
	if c.A0 != 0 || c.Shooters != 17 || len(c.P) != 256 || len(c.Robust) != 256 || c.Pairs != 0 {
		t.Fatalf("a_0 %d, shooters %d, |P| %d, |P'| %d, pairs %d", c.A0, c.Shooters, len(c.P), len(c.Robust), c.Pairs)
	}
	want := []Mark{{17, 2, -1}, {34, 1, 17}}
	for _, rule := range []PartnerRule{PartnerLowest, PartnerReliable} {
		m, err := c.Mark(17, rule)
		if err != nil || !slices.Equal(m, want) {
			t.Errorf("%v: marks %v (%v), want %v", rule, m, err, want)
		}
	}
	if s, heard := c.Coupler(34, 1); s != 1 || !heard {
		t.Errorf("Coupler(34, 1) = %d, %v; want 1, true", s, heard)
	}
	pi := c.Permutation(want, nil)
	if err := perm.Validate(pi, true); err != nil {
		t.Fatal(err)
	}
	// Marked to 0 and 1; the rest lowest-first: 0→2, …, 14→16, 15→17, 16→18, 18→19, 33→34, 35→35.
	for src, dst := range map[int]int32{17: 0, 34: 1, 0: 2, 14: 16, 16: 18, 18: 19, 33: 34, 35: 35} {
		if pi[src] != dst {
			t.Errorf("π(%d) = %d, want %d", src, pi[src], dst)
		}
	}
	if _, err := c.Mark(0, PartnerLowest); err == nil {
		t.Error("Mark accepted p_0, which is in group a_0")
	}
	if _, err := c.Mark(16+17, PartnerLowest); err == nil {
		t.Error("Mark accepted p_33, which shoots on a_0")
	}
	// Under the coupler reading every coupler has one shooter: nothing is robust.
	if r, _ := RobustSubsetCoupler(sh, shift(17), 2, c.P); len(r) != 0 {
		t.Errorf("coupler-robust subset has %d members, want 0", len(r))
	}
}

// The two partner rules differ when the lowest candidate sits on a
// contested coupler: as shift, except processor 35 (group 2) also shoots at
// group 1 (so c(1,2) has shooters 34 and 35) and processor 272 (group 16,
// normally at 1) shoots at 2, which keeps every group at 17 shooters and
// a_0 = 0. For p_17 (target 1) the text's rule takes 34; the repaired rule
// skips 34 and 35 (contested, other group) and takes 51 (group 3, alone on
// c(1,3), heard).
func TestThm212ReliablePartner(t *testing.T) {
	sh := pops.Shape{D: 17, G: 17}
	out := func(i, t int) int {
		switch i {
		case 35:
			return 1
		case 272:
			return 2
		}
		return (i + t) % 17
	}
	c, err := NewThm212(sh, TwoHops{Out: out, In: shift(17)}, 2, true)
	if err != nil {
		t.Fatal(err)
	}
	if c.A0 != 0 {
		t.Fatalf("a_0 = %d, want 0", c.A0)
	}
	lo, err1 := c.Mark(17, PartnerLowest)
	re, err2 := c.Mark(17, PartnerReliable)
	if err1 != nil || err2 != nil || lo[1].Packet != 34 || re[1].Packet != 51 {
		t.Errorf("lowest %v (%v), reliable %v (%v); want partners 34 and 51", lo, err1, re, err2)
	}
	if s, _ := c.Coupler(34, 1); s != 2 {
		t.Errorf("c(1,2) has %d shooters, want 2", s)
	}
}

// PartnerAsNeeded, unheard: shift on POPS(17,17) but nobody listens, so no
// first hop is ever received. p_17 needs no partner (exempt "unheard" at
// slot 1); the reliable rule, which insists on a partner, finds none: the
// processors of group 1 shoot at 17 different groups and every other
// group's coupler is unheard.
func TestThm212AsNeededUnheard(t *testing.T) {
	sh := pops.Shape{D: 17, G: 17}
	deaf := func(i, t int) int { return -1 }
	c, err := NewThm212(sh, TwoHops{Out: shift(17), In: deaf}, 2, true)
	if err != nil {
		t.Fatal(err)
	}
	m, err := c.MarkAll(17, PartnerAsNeeded)
	wantEx := []Exemption{{Packet: 17, At: 1, Why: "unheard", With: -1}}
	if err != nil || !slices.Equal(m.Marks, []Mark{{17, 2, -1}}) || !slices.Equal(m.Exempt, wantEx) {
		t.Errorf("as-needed: %+v (%v), want p_17 alone, exempt unheard at slot 1", m, err)
	}
	if _, err := c.Mark(17, PartnerReliable); err == nil {
		t.Error("reliable rule found a partner although every coupler is unheard")
	}
}

// PartnerAsNeeded, contested, on POPS(257,257) with T = 4: every processor
// of group x shoots at group x+1 (mod 257) in both odd slots and listeners
// follow shift. a_0 = 0 (every group is shot at by one whole group; ties go
// to the lowest); P(a_0) is groups 1..255, all robust. p_257 (group 1, the
// lowest) gets at slot 3 the lowest unmarked partner with the same target:
// p_258, same group, same coupler. At slot 1 each of the two is contested
// by the other — both are alive at slot 1 — so no more partners: 2 marks
// and 2 exemptions, where the reliable rule marks 4.
func TestThm212AsNeededContested(t *testing.T) {
	sh := pops.Shape{D: 257, G: 257}
	next := func(i, t int) int { return (i/257 + 1) % 257 }
	c, err := NewThm212(sh, TwoHops{Out: next, In: shift(257)}, 4, true)
	if err != nil {
		t.Fatal(err)
	}
	if c.A0 != 0 {
		t.Fatalf("a_0 = %d, want 0", c.A0)
	}
	m, err := c.MarkAll(257, PartnerAsNeeded)
	wantM := []Mark{{257, 4, -1}, {258, 3, 257}}
	wantEx := []Exemption{{Packet: 257, At: 1, Why: "contested", With: 258}, {Packet: 258, At: 1, Why: "contested", With: 257}}
	if err != nil || !slices.Equal(m.Marks, wantM) || !slices.Equal(m.Exempt, wantEx) {
		t.Errorf("as-needed: %+v (%v), want marks %v, exemptions %v", m, err, wantM, wantEx)
	}
	re, err := c.Mark(257, PartnerReliable)
	if err != nil || len(re) != 4 {
		t.Errorf("reliable: %v (%v), want 4 marks", re, err)
	}
}
