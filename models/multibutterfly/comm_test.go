package multibutterfly

import (
	"reflect"
	"testing"

	"routecheck/internal/seeds"
)

// §4.1 topology: 3 log n + 1 stages; d·n expander edges per expander
// stage, 2d·n per multi-butterfly stage, n direct edges per direct stage.
func TestCommTopology(t *testing.T) {
	for _, c := range []struct{ n, d int }{{2, 1}, {8, 2}, {16, 3}} {
		net, err := BuildComm(c.n, c.d, seeds.Rand(1, uint64(c.n)))
		if err != nil {
			t.Fatal(err)
		}
		k := net.LogN
		if net.Stages() != 3*k+1 || len(net.Edges) != k*c.d*c.n+k*2*c.d*c.n+k*c.n {
			t.Fatalf("n=%d: %d stages, %d edges", c.n, net.Stages(), len(net.Edges))
		}
		for i, e := range net.Edges {
			if e.To/int32(c.n) != e.From/int32(c.n)+1 || int(e.Stage) != int(e.From)/c.n {
				t.Fatalf("edge %d not forward: %+v", i, e)
			}
			if net.Part[i] == 2 && e.To-e.From != int32(c.n) {
				t.Fatalf("direct edge %+v changes column", e)
			}
		}
	}
}

// Purity: StepComm does not modify its input and is deterministic;
// conservation holds after random legal exchange sets (a matching of edges
// drawn at random).
func TestStepCommPure(t *testing.T) {
	net, _ := BuildComm(8, 2, seeds.Rand(2))
	np := 8 * 4
	dest := make([]int32, np)
	rng := seeds.Rand(3)
	for i, j := range rng.Perm(np) {
		dest[i] = int32(6*8 + j)
	}
	s, err := InitComm(net, dest)
	if err != nil {
		t.Fatal(err)
	}
	for range 100 {
		busy := map[int32]bool{}
		var ex []int32
		for _, i := range rng.Perm(len(net.Edges)) {
			e := net.Edges[i]
			if net.Part[i] != 0 || busy[e.From] || busy[e.To] || rng.IntN(4) != 0 {
				continue // expander edges only: every position there is on route
			}
			busy[e.From], busy[e.To] = true, true
			ex = append(ex, int32(i))
		}
		before := s.Clone()
		a, err1 := StepComm(s, ex)
		b, err2 := StepComm(s.Clone(), ex)
		if err1 != nil || err2 != nil || !reflect.DeepEqual(a, b) || !reflect.DeepEqual(s, before) {
			t.Fatalf("impure or rejected: %v %v", err1, err2)
		}
		if err := CheckComm(a); err != nil {
			t.Fatal(err)
		}
		s = a
	}
	if _, err := InitComm(net, append([]int32{0}, dest[1:]...)); err == nil {
		t.Fatal("destination outside the last stages accepted")
	}
}
