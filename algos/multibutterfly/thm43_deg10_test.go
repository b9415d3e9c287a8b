package multibutterfly

import (
	"fmt"
	"math/bits"
	"strings"
	"testing"

	"routecheck/internal/seeds"
	mb "routecheck/models/multibutterfly"
)

func deg10For(t *testing.T, n, d int, fault Deg10Fault) *Deg10 {
	t.Helper()
	return deg10With(t, BuildThm43Deg10, n, d, fault)
}

func deg10With(t *testing.T, build func(*mb.Thm43Network, Deg10Fault) (*Deg10, error), n, d int, fault Deg10Fault) *Deg10 {
	t.Helper()
	net, err := mb.BuildThm43(n, d, seeds.Rand(7, uint64(n), uint64(d)))
	if err != nil {
		t.Fatal(err)
	}
	g, err := build(net, fault)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestDeg10DegreesByHand derives every vertex's degree from the
// construction's rules (thm43_deg10.go's comment), independently of
// Degrees: stage 0 sends on one line and lies on one cycle (3); stages 1 …
// G−1 have a backward and a forward line and one cycle (4), except the
// d − 1 stages k·G/d, which lie on two (6, with a 2-cycle a double line);
// stage G keeps the d lines of layer G (d + 3); the expander part's cycle
// nodes (stages G+1 … P−1) have d vertices with one line each way (4);
// stage P's 2d cycle vertices have a forward line each and a backward one
// for slots < d (4 or 3); stages P+1 … P + log 2d − 1: 4; stage P + log 2d
// keeps the 2d lines of level log 2d − 1 (2d + 3); the rest of the
// multi-butterfly 4; direct part 2 and 1 at the last stage.
// BuildThm43Deg10Even differs only in G (lowered by d when G/d is odd).
func TestDeg10DegreesByHand(t *testing.T) {
	for _, c := range [][3]int{{16, 2, 0}, {16, 4, 0}, {32, 4, 0}, {16, 2, 1}, {32, 4, 1}} {
		n, d, even := c[0], c[1], c[2] == 1
		build := BuildThm43Deg10
		if even {
			build = BuildThm43Deg10Even
		}
		g := deg10With(t, build, n, d, Deg10NoFault)
		if err := CheckDeg10(g); err != nil {
			t.Fatalf("n=%d d=%d: %v", n, d, err)
		}
		logn := bits.Len(uint(n)) - 1
		l2d := bits.Len(uint(2*d)) - 1
		P := logn + 2*d*l2d
		G := d * ((P - 1) / d)
		if even && G/d%2 == 1 {
			G -= d
		}
		if g.Net.P != P || g.G != G {
			t.Fatalf("n=%d d=%d: P, G = %d, %d; want %d, %d", n, d, g.Net.P, g.G, P, G)
		}
		last := 2*P + logn
		want := func(s, slot int) int {
			switch {
			case s == 0:
				return 3
			case s < G && s%(G/d) == 0:
				return 6
			case s < G:
				return 4
			case s == G:
				return d + 3
			case s < P:
				return 4
			case s == P && slot >= d:
				return 3
			case s == P+l2d:
				return 2*d + 3
			case s <= P+logn:
				return 4
			case s == last:
				return 1
			}
			return 2
		}
		deg := g.Degrees()
		perStage := map[int]int{}
		for v, x := range g.Vertices {
			s := int(x.Node) / n
			perStage[s]++
			if w := want(s, int(x.Slot)); deg[v] != w {
				t.Fatalf("n=%d d=%d: vertex %d (stage %d, slot %d) has degree %d, want %d", n, d, v, s, x.Slot, deg[v], w)
			}
		}
		for s := 0; s <= last; s++ {
			w := n
			if s > G && s < P {
				w = n * d
			} else if s >= P && s < P+l2d {
				w = n * 2 * d
			}
			if perStage[s] != w {
				t.Errorf("n=%d d=%d: stage %d has %d vertices, want %d", n, d, s, perStage[s], w)
			}
		}
	}
}

// TestDeg10PlantedFaults: each construction fault is caught by CheckDeg10
// (or the merge by MergeDegrees, the missing line by the simulation).
func TestDeg10PlantedFaults(t *testing.T) {
	for _, f := range []Deg10Fault{Deg10ShortCycle, Deg10DoubleSlot, Deg10DropCycle} {
		if err := CheckDeg10(deg10For(t, 16, 4, f)); err == nil {
			t.Errorf("fault %d: CheckDeg10 passed", f)
		}
	}
	g := deg10For(t, 16, 4, Deg10NoFault)
	proc, procs := MergeDeg10(g, Deg10MergeTwoOne)
	if _, err := MergeDegrees(g, proc, procs); err == nil {
		t.Error("two vertices of one part on one processor: MergeDegrees accepted the map")
	}
	if _, err := SimulateDeg10Iteration(deg10For(t, 16, 4, Deg10DropCycle), ZigzagSchedule); err == nil {
		t.Error("a cycle missing a line: the simulation did not notice")
	}
	// the receiver's edge c at slot (c+1) mod l: CheckDeg10 cannot see it
	// (still one edge per direction per vertex), the meeting step must
	for _, c := range [][2]int{{16, 2}, {16, 4}} {
		g := deg10For(t, c[0], c[1], Deg10ShiftRecv)
		if err := CheckDeg10(g); err != nil {
			t.Fatalf("n=%d d=%d: shifted receiver slots: CheckDeg10 %v (the fault should be invisible to it)", c[0], c[1], err)
		}
		r, err := SimulateDeg10Iteration(g, ZigzagSchedule)
		if err != nil || r.Missed == "" {
			t.Errorf("n=%d d=%d: shifted receiver slots not caught (missed %q, err %v)", c[0], c[1], r.Missed, err)
		}
	}
}

// TestDeg10IterationByHand: Theorem 4.2's simulation is d phases of a talk
// and a move step (2d on an expander set, 4d on a 2d-copy multi-butterfly
// level); a cycle node's process talks at d (expander part) or 2d
// (multi-butterfly) vertices and moves once per vertex; a direct vertex
// uses one line.
func TestDeg10IterationByHand(t *testing.T) {
	for _, c := range [][2]int{{16, 2}, {16, 4}, {32, 4}} {
		n, d := c[0], c[1]
		g := deg10For(t, n, d, Deg10NoFault)
		r, err := SimulateDeg10Iteration(g, ZigzagSchedule)
		if err != nil {
			t.Fatal(err)
		}
		cyc := 2 * d // expander cycle stages G+1 … P−1, if any
		if g.G+1 >= g.Net.P {
			cyc = 0
		}
		if r.Expander != 2*d || r.CycleExp != cyc || r.MB42 != 4*d || r.CycleMB != 4*d || r.Direct != 1 || r.MaxLines != 1 || r.Missed != "" {
			t.Errorf("n=%d d=%d: %+v; want 2d = %d, 4d = %d, direct 1, one line, none missed", n, d, r, 2*d, 4*d)
		}
		if len(r.Interface) != 2 {
			t.Errorf("n=%d d=%d: interface stages %v, want G and P + log 2d", n, d, r.Interface)
		}
	}
}

// TestDeg10ConflictsByHand: n = 16, d = 2 gives P = 12, G = 10 and the
// translates {0, 5}, …, {4, 9}, each with an even and an odd layer, so
// all move in both parities: stage 5 (sender of {0, 5}, receiver of {4,
// 9}) is on two moving cycles in both, and stage 10 sends on layer 10
// (parity 0) while {4, 9} moves. With G = 8 ({0, 4}, …, {3, 7}: one parity
// each) nothing conflicts.
func TestDeg10ConflictsByHand(t *testing.T) {
	r, err := SimulateDeg10Iteration(deg10For(t, 16, 2, Deg10NoFault), ZigzagSchedule)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"parity 0: stage 5 moves on the cycles of sets [0 5] and [4 9]",
		"parity 0: stage G = 10 sends on 2 lines while its process rides the cycle of set [4 9]",
		"parity 1: stage 5 moves on the cycles of sets [0 5] and [4 9]",
	}
	if fmt.Sprint(r.Conflicts) != fmt.Sprint(want) {
		t.Errorf("conflicts %q, want %q", r.Conflicts, want)
	}
	g := deg10With(t, BuildThm43Deg10Even, 16, 2, Deg10NoFault)
	if g.G != 8 {
		t.Fatalf("even grouping: G = %d, want 8", g.G)
	}
	r, err = SimulateDeg10Iteration(g, ZigzagSchedule)
	if err != nil || len(r.Conflicts) != 0 {
		t.Errorf("even grouping: conflicts %q, err %v", r.Conflicts, err)
	}
}

// TestGroupingConflicts: the number of ways to split 0 … G−1 into pairs
// of nonadjacent layers (d = 2) against inclusion–exclusion over the G − 1
// forbidden path edges (a path on G vertices has C(G − k, k) matchings of
// k edges; the rest pairs up in (G − 2k − 1)!! ways): 1, 5, 36, 329 for G
// = 4, 6, 8, 10. Every grouping of G = 6, 10 (G/d odd) conflicts (the
// argument in mbfly/thm-4.3/deg10-iteration-compose's Notes); at G = 4, 8
// some do not (the translates), and GroupingConflicts agrees with
// conflicts() on the built translates of n = 16, d = 2.
func TestGroupingConflicts(t *testing.T) {
	dfact := func(m int) int { // m!! for odd m, 1 for m ≤ 0
		r := 1
		for ; m > 1; m -= 2 {
			r *= m
		}
		return r
	}
	binom := func(a, b int) int {
		if b < 0 || b > a {
			return 0
		}
		r := 1
		for i := range b {
			r = r * (a - i) / (i + 1)
		}
		return r
	}
	for _, G := range []int{4, 6, 8, 10} {
		want := 0
		for k := 0; 2*k <= G; k++ {
			term := binom(G-k, k) * dfact(G-2*k-1)
			if k%2 == 1 {
				term = -term
			}
			want += term
		}
		free := 0
		got := EnumerateGroupings(G, 2, func(sets [][]int) {
			if len(GroupingConflicts(sets, G)) == 0 {
				free++
			}
		})
		if got != want {
			t.Errorf("G = %d: %d groupings into nonadjacent pairs, want %d", G, got, want)
		}
		if odd := (G/2)%2 == 1; odd && free != 0 {
			t.Errorf("G = %d (G/d odd): %d groupings without conflict, want 0", G, free)
		} else if !odd && free == 0 {
			t.Errorf("G = %d (G/d even): every grouping conflicts; the translates should not", G)
		}
	}
	if c := GroupingConflicts([][]int{{0, 4}, {1, 5}, {2, 6}, {3, 7}}, 8); len(c) != 0 {
		t.Errorf("even translates at G = 8: %q", c)
	}
	g := deg10For(t, 16, 2, Deg10NoFault)
	if len(GroupingConflicts(g.Sets, g.G)) == 0 || len(g.conflicts()) == 0 {
		t.Errorf("n = 16, d = 2 translates: GroupingConflicts %q, conflicts %q; want both non-empty", GroupingConflicts(g.Sets, g.G), g.conflicts())
	}
}

// TestDeg10SimpleDegrees: at n = 16, d = 2 (G = 10, G/d = 5, P = 12) the
// sets {0, 5} … {4, 9} have 2-vertex cycles, so stage 5 (on the cycles of
// {0, 5} and {4, 9}: two double lines to stages 0 and 10) has 2 line
// neighbours + 2 cycle neighbours = 4 distinct, and stage 10 (d = 2 lines
// of layer 10, one Theorem 4.2 line from stage 9, the 2-cycle with stage
// 5) 2 + 1 + 1 = 4; stage P + log 2d = 14 keeps 2d + 3 = 7 (its 2d + 1
// lines reach distinct vertices, its 2d-cycle two). At d = 4 (n = 16: P =
// 28, G = 24, k = G/d = 6) stage jk lies on the sender cycle 0 → k → 2k →
// 3k → 0 and the receiver cycle k → 2k → 3k → 4k → k, which share the
// lines k–2k and 2k–3k: stage k has neighbours {0, 2k, 4k} + 2 lines = 5,
// stage 2k {k, 3k} + 2 = 4, stage 3k {2k, 0, 4k} + 2 = 5; stage G = 24
// keeps d + 3 = 7 (d lines, one Theorem 4.2 line, cycle neighbours 3k and
// k), stage P + log 2d = 31 keeps 2d + 3 = 11.
func TestDeg10SimpleDegrees(t *testing.T) {
	for _, c := range []struct {
		n, d int
		want map[int]int // stage → simple degree of its vertices
	}{
		{16, 2, map[int]int{5: 4, 10: 4, 14: 7}},
		{16, 4, map[int]int{6: 5, 12: 4, 18: 5, 24: 7, 31: 11}},
	} {
		g := deg10For(t, c.n, c.d, Deg10NoFault)
		if g.Net.P+g.L2d != map[int]int{2: 14, 4: 31}[c.d] {
			t.Fatalf("d=%d: P + log 2d = %d", c.d, g.Net.P+g.L2d)
		}
		deg := g.SimpleDegrees()
		for v, x := range g.Vertices {
			s := int(x.Node) / c.n
			if w, ok := c.want[s]; ok && deg[v] != w {
				t.Errorf("n=%d d=%d: vertex %d (stage %d) simple degree %d, want %d", c.n, c.d, v, s, deg[v], w)
			}
		}
	}
}

// TestDeg10FbFaults: one multi-butterfly cycle stage more or fewer is a
// consistent construction (CheckDeg10 passes), with 2dn cycle vertices
// more or fewer in the multi-butterfly than 2nd log 2d.
func TestDeg10FbFaults(t *testing.T) {
	for _, c := range [][2]int{{16, 2}, {16, 4}} {
		n, d := c[0], c[1]
		l2d := bits.Len(uint(2*d)) - 1
		for f, delta := range map[Deg10Fault]int{Deg10NoFault: 0, Deg10FbPlus: 1, Deg10FbMinus: -1} {
			g := deg10For(t, n, d, f)
			if err := CheckDeg10(g); err != nil {
				t.Fatalf("n=%d d=%d fault %d: %v", n, d, f, err)
			}
			cnt := 0
			for _, x := range g.Vertices {
				if x.Kind == VertexCycle && int(x.Node)/n >= g.Net.P {
					cnt++
				}
			}
			if want := 2 * n * d * (l2d + delta); cnt != want {
				t.Errorf("n=%d d=%d fault %d: %d multi-butterfly cycle vertices, want %d", n, d, f, cnt, want)
			}
		}
	}
}

// TestCheckDeg10NamesTheLeastVertex: with two forward edges on many cycle
// vertices (Deg10DoubleSlot), CheckDeg10's error names the least such
// vertex — counted here from the lines directly — and the same one on
// every call (it iterated a map, so the ledger evidence that quotes it
// changed from run to run).
func TestCheckDeg10NamesTheLeastVertex(t *testing.T) {
	g := deg10For(t, 16, 4, Deg10DoubleSlot)
	fwd := map[int32]int{}
	for _, l := range g.Lines {
		if l.Kind == LineFull && g.Vertices[l.A].Kind == VertexCycle {
			fwd[l.A]++
		}
	}
	least, many := int32(-1), 0
	for v, k := range fwd {
		if k > 1 {
			many++
			if least < 0 || v < least {
				least = v
			}
		}
	}
	if many < 2 {
		t.Fatalf("the fault gives %d vertices with two forward edges; the test needs several", many)
	}
	want := fmt.Sprintf("cycle vertex %d (node %d) carries", least, g.Vertices[least].Node)
	for range 20 {
		err := CheckDeg10(g)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("CheckDeg10 = %v, want an error containing %q", err, want)
		}
	}
}
