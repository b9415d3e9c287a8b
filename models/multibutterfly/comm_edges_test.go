package multibutterfly

import (
	"strings"
	"testing"

	"routecheck/internal/seeds"
)

// BuildComm accepts d = 64, 65 and §4.3's explicit d = 102 (the old
// [1, 64] range had no representation reason), refuses d = 0, and refuses
// a d whose (3d + 1)·n·log n edges overflow the int32 edge indices, before
// allocating: at n = 2^16, (3d + 1)·2^16·16 ≤ 2^31 − 1 up to d = 682.
func TestBuildCommDegreeRange(t *testing.T) {
	for _, d := range []int{64, 65, 102} {
		net, err := BuildComm(2, d, seeds.Rand(20))
		if err != nil {
			t.Errorf("d = %d: %v", d, err)
			continue
		}
		if len(net.Edges) != 2*(3*d+1) {
			t.Errorf("d = %d, n = 2: %d edges, want (3d + 1)·n·log n = %d", d, len(net.Edges), 2*(3*d+1))
		}
	}
	for _, d := range []int{0, 683, 1 << 40} {
		if _, err := BuildComm(1<<16, d, seeds.Rand(20)); err == nil {
			t.Errorf("n = 2^16, d = %d accepted", d)
		}
	}
	if _, err := BuildComm(1<<16, 683, seeds.Rand(20)); err == nil || !strings.Contains(err.Error(), "the largest d that fits at this size is 682") {
		t.Errorf("n = 2^16, d = 683: error %v does not name the largest d, 682", err)
	}
}

// A packet exchanged onto its destination node is absorbed, packet 0
// included: on the n = 2 network, packet 0 moves from node 0 to a stage-1
// node u, then to a stage-2 node y = dest[0] (the other destinations fill
// stages 2 and 3). After the second exchange exactly packet 0 is delivered
// and y is empty. Destinations at or past Nodes() and edges past the last
// are refused.
func TestCommDeliversPacketZero(t *testing.T) {
	net, err := BuildComm(2, 1, seeds.Rand(21))
	if err != nil {
		t.Fatal(err)
	}
	var e1, e2 int32 = -1, -1
	for i, e := range net.Edges {
		if e.From == 0 && e1 < 0 {
			e1 = int32(i)
		}
	}
	if e1 < 0 {
		t.Fatal("no edge out of node 0")
	}
	u := net.Edges[e1].To
	for i, e := range net.Edges {
		if e.From == u && e2 < 0 {
			e2 = int32(i)
		}
	}
	if e2 < 0 {
		t.Fatalf("no edge out of node %d", u)
	}
	y := net.Edges[e2].To
	lo := int32(2 * net.LogN * net.N)
	dest := []int32{y}
	for v := lo; v < int32(net.Nodes()); v++ {
		if v != y {
			dest = append(dest, v)
		}
	}
	s, err := InitComm(net, dest)
	if err != nil {
		t.Fatal(err)
	}
	s1, err := StepComm(s, []int32{e1})
	if err != nil || s1.Buf[u] != 0 {
		t.Fatalf("first exchange: node %d holds %d (%v), want packet 0", u, s1.Buf[u], err)
	}
	s2, err := StepComm(s1, []int32{e2})
	if err != nil {
		t.Fatal(err)
	}
	for p, d := range s2.Delivered {
		if d != (p == 0) {
			t.Errorf("packet %d delivered %v, want only packet 0", p, d)
		}
	}
	if s2.Buf[y] != -1 || s2.Buf[u] != -1 {
		t.Errorf("after delivery: node %d holds %d, node %d holds %d; want both empty", y, s2.Buf[y], u, s2.Buf[u])
	}
	bad := append([]int32(nil), dest...)
	bad[len(bad)-1] = int32(net.Nodes())
	if _, err := InitComm(net, bad); err == nil {
		t.Error("destination Nodes() accepted")
	}
	if _, err := StepComm(s, []int32{int32(len(net.Edges))}); err == nil {
		t.Error("edge len(Edges) accepted")
	}
}

// CheckComm's routing rule on n = 4 (k = 2; stages 0–1 expanders, 2–4 the
// multi-butterfly, 5–6 direct): a packet at multi-butterfly stage s must
// agree with its destination column in the top s − k bits of its row, and in
// the direct part its row must be the column; in the expander part any row
// will do. Packet i is sent to node 16 + i (column i mod 4), so packet 0's
// column is 0 (bits 00). Unknown packet ids are refused.
func TestCheckCommRoutes(t *testing.T) {
	net, err := BuildComm(4, 1, seeds.Rand(22))
	if err != nil {
		t.Fatal(err)
	}
	dest := make([]int32, 12)
	for i := range dest {
		dest[i] = int32(16 + i)
	}
	s, err := InitComm(net, dest)
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckComm(s); err != nil {
		t.Fatalf("initial state: %v", err)
	}
	for _, c := range []struct {
		stage, row int
		ok         bool
	}{
		{1, 3, true},                // expander part: anywhere
		{3, 1, true}, {3, 2, false}, // one bit fixed: rows 0, 1
		{4, 0, true}, {4, 1, false}, // both bits fixed
		{5, 0, true}, {5, 3, false}, // direct part: the column itself
		{6, 0, true}, {6, 2, false},
	} {
		x := s.Clone()
		v := c.stage*4 + c.row
		x.Buf[0], x.Buf[v] = x.Buf[v], x.Buf[0] // packet 0 to node v (and v's packet, if any, to node 0)
		if err := CheckComm(x); (err == nil) != c.ok {
			t.Errorf("packet 0 (column 0) at stage %d row %d: %v, want ok %v", c.stage, c.row, err, c.ok)
		}
	}
	x := s.Clone()
	x.Buf[20] = int32(len(dest))
	if err := CheckComm(x); err == nil {
		t.Error("unknown packet id 12 accepted")
	}
}

// Build accepts d = 64, 65 and 102 (the old [1, 64] range had no
// representation reason), refuses d = 0, and refuses — before allocating —
// a d whose 2d·N·log N edges overflow the int32 edge indices: at N = 2^20,
// 2d·2^20·20 ≤ 2^31 − 1 up to d = 51 (d = 64 was accepted there before and
// would have overflowed).
func TestBuildDegreeRange(t *testing.T) {
	for _, d := range []int{64, 65, 102} {
		net, err := Build(2, d, seeds.Rand(23))
		if err != nil {
			t.Errorf("d = %d: %v", d, err)
			continue
		}
		if len(net.Edges) != 4*d || len(net.Out[0]) != 2*d {
			t.Errorf("d = %d, N = 2: %d edges, %d out of input 0; want 2d·N·log N = %d and 2d = %d", d, len(net.Edges), len(net.Out[0]), 4*d, 2*d)
		}
	}
	for _, d := range []int{0, 52, 64, 102} {
		if _, err := Build(1<<20, d, seeds.Rand(23)); err == nil {
			t.Errorf("N = 2^20, d = %d accepted", d)
		}
		if _, err := BuildAppendixA(1<<20, d, seeds.Rand(23)); err == nil {
			t.Errorf("BuildAppendixA: N = 2^20, d = %d accepted", d)
		}
	}
}

// checkEdges refuses exactly above MaxEdges, and maxDegree names the
// largest degree that fits (an affine edge count, as BuildComm's).
func TestCheckEdgesBoundary(t *testing.T) {
	twice := func(d int64) int64 { return 2 * d }
	if err := checkEdges("x", MaxEdges/2, twice); err != nil {
		t.Errorf("2·(2^30 − 1) = 2^31 − 2 edges refused: %v", err)
	}
	if err := checkEdges("x", MaxEdges/2+1, twice); err == nil {
		t.Error("2^31 edges accepted")
	}
	affine := func(d int64) int64 { return (3*d + 1) * 1000 }
	want := (int64(MaxEdges)/1000 - 1) / 3
	if affine(want) > MaxEdges || affine(want+1) <= MaxEdges {
		t.Fatalf("test arithmetic: d = %d", want)
	}
	if got := maxDegree(want+50, affine); got != want {
		t.Errorf("maxDegree = %d, want %d", got, want)
	}
	if got := maxDegree(5, func(int64) int64 { return MaxEdges + 1 }); got != 0 {
		t.Errorf("maxDegree with no fitting d = %d, want 0", got)
	}
}
