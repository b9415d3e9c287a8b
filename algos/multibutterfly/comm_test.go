package multibutterfly

import (
	"testing"

	"routecheck/internal/seeds"
	mb "routecheck/models/multibutterfly"
)

func commDests(net *mb.CommNetwork, seed uint64) []int32 {
	np := net.N * (net.LogN + 1)
	lo := int32(2 * net.LogN * net.N)
	d := make([]int32, np)
	rng := seeds.Rand(seed)
	for i, j := range rng.Perm(np) {
		d[i] = lo + int32(j)
	}
	return d
}

// §4: every packet reaches its destination node on random instances, with
// conservation and routing checked after every step; a hand-checkable
// batch: with n = 8 (k = 3), A = 4, destination ⟨7, 6⟩ is row 1, column 6:
// batch 1·4 + 6 mod 4 = 6.
func TestCommRoutes(t *testing.T) {
	net0, _ := mb.BuildComm(8, 2, seeds.Rand(1))
	if b := CommBatch(net0, 4, int32(7*8+6)); b != 6 {
		t.Fatalf("batch %d, want 6", b)
	}
	for r := range 12 {
		n := 1 << (1 + r%4) // 2…16
		d := 1 + r%3
		net, err := mb.BuildComm(n, d, seeds.Rand(2, uint64(r)))
		if err != nil {
			t.Fatal(err)
		}
		s, err := mb.InitComm(net, commDests(net, uint64(r)))
		if err != nil {
			t.Fatal(err)
		}
		for _, A := range []int{1, 2, 4} {
			res, fin, err := RunComm(s, A, 0, true)
			if err != nil || !res.Complete || !fin.CommDone() || mb.CheckComm(fin) != nil {
				t.Fatalf("n=%d d=%d A=%d: %+v %v", n, d, A, res, err)
			}
			for v, p := range fin.Buf {
				if p != -1 {
					t.Fatalf("node %d still holds %d", v, p)
				}
			}
		}
	}
}

func TestStepCommRejects(t *testing.T) {
	net, _ := mb.BuildComm(4, 1, seeds.Rand(3))
	s, _ := mb.InitComm(net, commDests(net, 3))
	// two edges out of node 0
	var out []int32
	for i, e := range net.Edges {
		if e.From == 0 {
			out = append(out, int32(i))
		}
	}
	if len(out) > 1 {
		if _, err := mb.StepComm(s, out[:2]); err == nil {
			t.Fatal("two active lines at one node accepted")
		}
	}
	if _, err := mb.StepComm(s, []int32{int32(len(net.Edges))}); err == nil {
		t.Fatal("unknown edge accepted")
	}
	bad := s.Clone()
	bad.Buf[1] = bad.Buf[0]
	if mb.CheckComm(bad) == nil {
		t.Fatal("duplicate not caught")
	}
}
