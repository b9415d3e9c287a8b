package multibutterfly

import (
	"testing"

	"routecheck/internal/seeds"
	mb "routecheck/models/multibutterfly"
	"routecheck/models/perm"
)

// §3.2: L = ⌈1/(α(β+1))⌉. Hand values: α = 1/2312, β = 7 gives 2312/8 = 289;
// α = 1/189, β = 7 gives ⌈23.625⌉ = 24; α = 1/8, β = 3 gives exactly 2.
func TestBatchesFor(t *testing.T) {
	for _, c := range []struct {
		a, b float64
		want int
	}{{1.0 / 2312, 7, 289}, {1.0 / 189, 7, 24}, {1.0 / 8, 3, 2}, {0.1, 1, 5}, {0.3, 1, 2}} {
		if got := BatchesFor(c.a, c.b); got != c.want {
			t.Errorf("α=%v β=%v: L = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// N = 2, d = 1, identity: iteration 1 activates only odd stages (nothing
// to send); in iteration 2 the two inputs use differently coloured edges…
// packet 0 takes its upper edge and packet 1 its lower edge, and the two
// edges have the same colour (each output's two in-edges have different
// colours), so both arrive within iteration 2: 2 iterations, 4 steps.
func TestHandN2(t *testing.T) {
	net, err := mb.Build(2, 1, seeds.Rand(1))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range [][]int32{{0, 1}, {1, 0}} {
		s, _ := mb.Init(net, 1, p)
		res, fin, err := Run(s, Options{Check: true})
		if err != nil || !res.Complete || res.Iterations != 2 || res.Steps != 4 || res.Moves != 2 || !fin.Done() {
			t.Fatalf("perm %v: %+v err %v", p, res, err)
		}
	}
}

// Every permutation of 8 on several random networks and batch counts: the
// run completes, each packet ends at ⟨log N, its destination⟩, invariants
// and one-packet-per-batch hold after every step, no buffer exceeds L.
func TestAllPermutationsN8(t *testing.T) {
	for _, c := range []struct{ d, L int }{{1, 1}, {2, 2}, {3, 3}} {
		net, err := mb.Build(8, c.d, seeds.Rand(2, uint64(c.d)))
		if err != nil {
			t.Fatal(err)
		}
		count := 0
		perm.Each(8, func(p []int32) bool {
			count++
			if count%7 != 0 && c.d > 1 { // every permutation for d = 1, a seventh otherwise
				return true
			}
			s, _ := mb.Init(net, c.L, p)
			res, fin, err := Run(s, Options{Check: true})
			if err != nil || !res.Complete || res.MaxBuffer > c.L {
				t.Fatalf("d=%d L=%d perm %v: %+v err %v", c.d, c.L, p, res, err)
			}
			for q := range fin.Pos {
				if fin.Pos[q] != net.Node(net.LogN, int(p[fin.Source[q]])) {
					t.Fatalf("perm %v: packet from %d ends at %d", p, fin.Source[q], fin.Pos[q])
				}
			}
			return true
		})
	}
}

func TestRandomPermutationsLarger(t *testing.T) {
	for _, n := range []int{64, 256} {
		rng := seeds.Rand(3, uint64(n))
		net, _ := mb.Build(n, 3, rng)
		for range 3 {
			p := perm.Random(n, rng)
			s, _ := mb.Init(net, 4, p)
			res, fin, err := Run(s, Options{Check: n <= 64})
			if err != nil || !res.Complete || !fin.Done() || mb.CheckInvariants(fin) != nil || res.MaxBuffer > 4 {
				t.Fatalf("N=%d: %+v err %v", n, res, err)
			}
		}
	}
}

// A partial permutation (some inputs idle) routes too.
func TestPartial(t *testing.T) {
	net, _ := mb.Build(16, 2, seeds.Rand(4))
	p := perm.Identity(16)
	for i := 0; i < 16; i += 3 {
		p[i] = perm.None
	}
	s, _ := mb.Init(net, 2, p)
	res, _, err := Run(s, Options{Check: true})
	if err != nil || !res.Complete || res.Delivered != len(s.Pos) {
		t.Fatalf("%+v %v", res, err)
	}
}
