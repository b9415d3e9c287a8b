package multibutterfly

import (
	"testing"

	"routecheck/internal/seeds"
)

// TestStepCommKeepDifferential: on random exchange sets in which no packet
// lands on its destination, StepCommKeep and StepComm give the same state;
// where one does, StepComm absorbs it and StepCommKeep keeps it in the
// buffer (and the two agree everywhere else).
func TestStepCommKeepDifferential(t *testing.T) {
	for seed := range uint64(30) {
		rng := seeds.Rand(seed, 0x4ee9)
		net, err := BuildComm(8, 2, rng)
		if err != nil {
			t.Fatal(err)
		}
		k, n := net.LogN, net.N
		np := n * (k + 1)
		dest := make([]int32, np)
		for i, j := range rng.Perm(np) {
			dest[i] = int32(2*k*n + j)
		}
		s, err := InitComm(net, dest)
		if err != nil {
			t.Fatal(err)
		}
		// scramble: put packets anywhere (a state reachable or not; the step
		// is defined for any buffer contents)
		perm := rng.Perm(net.Nodes())
		for v := range s.Buf {
			s.Buf[v] = -1
		}
		for p := range np {
			s.Buf[perm[p]] = int32(p)
		}
		busy := map[int32]bool{}
		var ex []int32
		for _, ei := range rng.Perm(len(net.Edges)) {
			e := net.Edges[ei]
			if !busy[e.From] && !busy[e.To] && rng.IntN(3) == 0 {
				busy[e.From], busy[e.To] = true, true
				ex = append(ex, int32(ei))
			}
		}
		a, err := StepComm(s, ex)
		if err != nil {
			t.Fatal(err)
		}
		b, err := StepCommKeep(s, ex)
		if err != nil {
			t.Fatal(err)
		}
		for v := range a.Buf {
			if a.Buf[v] == b.Buf[v] {
				continue
			}
			if p := b.Buf[v]; a.Buf[v] != -1 || p < 0 || b.Dest[p] != int32(v) || !a.Delivered[p] {
				t.Fatalf("seed %d node %d: absorbing %d, keeping %d", seed, v, a.Buf[v], b.Buf[v])
			}
		}
		if s.Buf[perm[0]] != 0 {
			t.Fatal("StepCommKeep modified its input")
		}
	}
}
