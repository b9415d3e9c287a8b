package multibutterfly

import (
	"testing"

	"routecheck/internal/seeds"
	mb "routecheck/models/multibutterfly"
)

// With P = log n (no extra stages) Theorem 4.3's layout is §4.1's, so
// RunThm43 on a CommNetwork's edges must do exactly what RunComm does:
// same iterations and exchanges (differential test).
func TestRunThm43IsRunCommAtP(t *testing.T) {
	for _, n := range []int{4, 8, 16} {
		for _, d := range []int{1, 2, 3} {
			for _, A := range []int{1, 2, 4} {
				rng := seeds.Rand(11, uint64(n), uint64(d), uint64(A))
				cn, err := mb.BuildComm(n, d, rng)
				if err != nil {
					t.Fatal(err)
				}
				k := cn.LogN
				dest := make([]int32, n*(k+1))
				for i, j := range rng.Perm(len(dest)) {
					dest[i] = int32(2*k*n + j)
				}
				cs, _ := mb.InitComm(cn, dest)
				want, _, err1 := RunComm(cs, A, 0, true)
				tn := &mb.Thm43Network{N: n, LogN: k, D: d, P: k, MB: cn.MB, Edges: cn.Edges, Part: cn.Part}
				ts, err := mb.InitThm43(tn, dest)
				if err != nil {
					t.Fatal(err)
				}
				got, fin, err2 := RunThm43(ts, A, 0, true)
				if err1 != nil || err2 != nil || !got.Complete || got.Iterations != want.Iterations || got.Exchanges != want.Exchanges || !fin.Done() {
					t.Fatalf("n=%d d=%d A=%d: RunThm43 %+v (%v), RunComm %+v (%v)", n, d, A, got, err2, want, err1)
				}
			}
		}
	}
}

// The planted fault (exchanges off the route) misroutes a packet, which
// CheckThm43 reports.
func TestRunThm43FaultCaught(t *testing.T) {
	rng := seeds.Rand(5)
	net, _ := mb.BuildThm43(8, 2, rng)
	np := 8 * (net.P + 1)
	dest := make([]int32, np)
	for i, j := range rng.Perm(np) {
		dest[i] = int32(net.FirstDirect()*8 + j)
	}
	s, _ := mb.InitThm43(net, dest)
	if _, _, err := RunThm43Fault(s, 2, 0, true, FaultIgnoreBit); err == nil {
		t.Fatal("off-route exchanges not reported")
	}
	if res, _, err := RunThm43(s, 2, 0, true); err != nil || !res.Complete || res.SimSteps != res.Iterations*13 {
		t.Fatalf("%+v %v", res, err)
	}
}
