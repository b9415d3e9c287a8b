package multibutterfly

import (
	"testing"

	"routecheck/internal/seeds"
	mb "routecheck/models/multibutterfly"
)

// RunComm's default cap, as documented: maxIter = 0 means
// 64(3 log n + A + 4) iterations. A run that can never complete shows it: a
// packet of batch 0 (destination in stage 2 log n, so row 0; A = 1 or 2 and
// an even column) is moved past its destination into the last stage, which
// has no outgoing edges, and no packet may displace it (only a packet of a
// strictly lower batch could). With n = 4 (log n = 2): 64·11 = 704
// iterations for A = 1, 64·12 = 768 for A = 2; an explicit cap is kept.
func TestRunCommDefaultCap(t *testing.T) {
	net, err := mb.BuildComm(4, 1, seeds.Rand(9))
	if err != nil {
		t.Fatal(err)
	}
	s, err := mb.InitComm(net, commDests(net, 9))
	if err != nil {
		t.Fatal(err)
	}
	k, n := net.LogN, net.N
	stuck := -1
	for p, d := range s.Dest {
		if int(d)/n == 2*k && int(d)%n%2 == 0 {
			stuck = p
			break
		}
	}
	if stuck < 0 {
		t.Fatal("no packet with a destination in row 0 and an even column")
	}
	last := int32(3*k*n + n - 1) // a node of the last stage, empty at the start
	s.Buf[stuck], s.Buf[last] = -1, int32(stuck)
	for _, c := range []struct{ A, maxIter, want int }{{1, 0, 704}, {2, 0, 768}, {1, 5, 5}} {
		if b := CommBatch(net, c.A, s.Dest[stuck]); b != 0 {
			t.Fatalf("A = %d: the stuck packet has batch %d, want 0", c.A, b)
		}
		res, fin, err := RunComm(s, c.A, c.maxIter, false)
		if err != nil {
			t.Fatalf("A = %d: %v", c.A, err)
		}
		if res.Complete || res.Iterations != c.want || fin.Buf[last] != int32(stuck) {
			t.Errorf("A = %d, maxIter %d: complete %v after %d iterations (want incomplete after %d); last-stage node holds %d", c.A, c.maxIter, res.Complete, res.Iterations, c.want, fin.Buf[last])
		}
		if res.Steps != c.want*2*net.D {
			t.Errorf("A = %d: %d steps, want 2d per iteration = %d", c.A, res.Steps, c.want*2*net.D)
		}
	}
}
