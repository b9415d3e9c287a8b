package multibutterfly

import (
	"testing"

	"routecheck/internal/seeds"
)

// BuildComm accepts d = 64 (the top of [1, 64]) and refuses 65.
func TestBuildCommDegreeRange(t *testing.T) {
	if _, err := BuildComm(2, 64, seeds.Rand(20)); err != nil {
		t.Errorf("d = 64: %v", err)
	}
	if _, err := BuildComm(2, 65, seeds.Rand(20)); err == nil {
		t.Error("d = 65 accepted")
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

// Build accepts d = 64 (the top of its range) and refuses 65.
func TestBuildDegreeRange(t *testing.T) {
	if _, err := Build(2, 64, seeds.Rand(23)); err != nil {
		t.Errorf("d = 64: %v", err)
	}
	if _, err := Build(2, 65, seeds.Rand(23)); err == nil {
		t.Error("d = 65 accepted")
	}
}
