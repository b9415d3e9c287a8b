package multibutterfly

import (
	"testing"

	"routecheck/internal/seeds"
	mb "routecheck/models/multibutterfly"
)

// §4.2's priority rule on one direct edge, traced by hand. n = 4 (k = 2,
// stages 0…6), A = 2: a packet for ⟨2k + r, q⟩ has batch 2r + (q mod 2).
// Packet p sits at ⟨5, 0⟩ with destination ⟨6, 0⟩ (batch 4); the direct
// edge ⟨5, 0⟩ → ⟨6, 0⟩ (stage 5, colour 0) is on its route and active in
// iteration 1 (odd stages). The two nodes exchange exactly when ⟨6, 0⟩ is
// empty or holds a packet of strictly lower priority (a higher batch);
// after an exchange p is absorbed at its destination.
func TestCommPriorityOnDirectEdge(t *testing.T) {
	net, err := mb.BuildComm(4, 1, seeds.Rand(11))
	if err != nil {
		t.Fatal(err)
	}
	node := func(s, q int) int32 { return int32(s*net.N + q) }
	for _, c := range []struct {
		name     string
		other    int32 // destination of the packet at ⟨6, 0⟩; −1: the node is empty
		exchange bool
	}{
		{"empty", -1, true},
		{"lower priority (batch 5)", node(6, 1), true},
		{"same batch (4)", node(6, 2), false},
		{"higher priority (batch 0)", node(4, 0), false},
	} {
		s := mb.CommState{Net: net, Buf: make([]int32, net.Nodes()), Dest: []int32{node(6, 0)}, Delivered: []bool{false}}
		for v := range s.Buf {
			s.Buf[v] = -1
		}
		s.Buf[node(5, 0)] = 0
		if c.other >= 0 {
			s.Dest = append(s.Dest, c.other)
			s.Delivered = append(s.Delivered, false)
			s.Buf[node(6, 0)] = 1
		}
		if c.other >= 0 {
			if b := CommBatch(net, 2, c.other); b <= 4 == c.exchange {
				t.Fatalf("%s: the other packet has batch %d", c.name, b)
			}
		}
		res, fin, err := RunComm(s, 2, 1, false)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if fin.Delivered[0] != c.exchange || (res.Exchanges > 0) != c.exchange {
			t.Errorf("%s: p delivered %v after %d exchanges, want exchange %v", c.name, fin.Delivered[0], res.Exchanges, c.exchange)
		}
		if !c.exchange && (fin.Buf[node(5, 0)] != 0 || fin.Buf[node(6, 0)] != 1) {
			t.Errorf("%s: buffers moved: ⟨5,0⟩ = %d, ⟨6,0⟩ = %d", c.name, fin.Buf[node(5, 0)], fin.Buf[node(6, 0)])
		}
		if c.exchange && c.other >= 0 && fin.Buf[node(5, 0)] != 1 {
			t.Errorf("%s: the other packet is not at ⟨5,0⟩ (%d there)", c.name, fin.Buf[node(5, 0)])
		}
	}
	// A direct edge is on a packet's route only before its destination row:
	// a packet at ⟨5, 0⟩ whose destination is ⟨5, 1⟩ (a state routing never
	// reaches, since the columns are fixed by then) does not take the edge
	// to the empty ⟨6, 0⟩.
	s := mb.CommState{Net: net, Buf: make([]int32, net.Nodes()), Dest: []int32{node(5, 1)}, Delivered: []bool{false}}
	for v := range s.Buf {
		s.Buf[v] = -1
	}
	s.Buf[node(5, 0)] = 0
	if res, fin, err := RunComm(s, 2, 1, false); err != nil || res.Exchanges != 0 || fin.Buf[node(5, 0)] != 0 {
		t.Errorf("in its destination row: %d exchanges, ⟨5,0⟩ holds %d (%v)", res.Exchanges, fin.Buf[node(5, 0)], err)
	}
}
