package multibutterfly

import (
	"testing"

	"routecheck/internal/seeds"
	mb "routecheck/models/multibutterfly"
)

// TestRunCommLiteralAgreesUntilADelivery: the literal run and RunComm make
// the same exchanges as long as no packet has reached its destination
// (the only difference between mb.StepCommKeep and mb.StepComm); so, for
// every instance, running both for t iterations gives the same buffers
// whenever RunComm has delivered nothing by then.
func TestRunCommLiteralAgreesUntilADelivery(t *testing.T) {
	compared := 0
	for seed := range uint64(20) {
		rng := seeds.Rand(seed, 0x11e7)
		net, err := mb.BuildComm(8, 2, rng)
		if err != nil {
			t.Fatal(err)
		}
		k, n := net.LogN, net.N
		np := n * (k + 1)
		dest := make([]int32, np)
		for i, j := range rng.Perm(np) {
			dest[i] = int32(2*k*n + j)
		}
		s, err := mb.InitComm(net, dest)
		if err != nil {
			t.Fatal(err)
		}
		for it := 1; it <= 12; it++ {
			_, a, err := RunComm(s, 4, it, true)
			if err != nil {
				t.Fatal(err)
			}
			any := false
			for _, d := range a.Delivered {
				any = any || d
			}
			if any {
				break
			}
			_, b, err := RunCommLiteral(s, 4, it, true)
			if err != nil {
				t.Fatal(err)
			}
			for v := range a.Buf {
				if a.Buf[v] != b.Buf[v] {
					t.Fatalf("seed %d after %d iterations: node %d holds %d (absorbing) and %d (literal)", seed, it, v, a.Buf[v], b.Buf[v])
				}
			}
			compared++
		}
	}
	if compared < 40 {
		t.Fatalf("only %d comparisons before the first delivery", compared)
	}
}
