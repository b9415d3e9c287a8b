package fuzz

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"routecheck/models/mesh"
)

// meshStepSeeds are f.Add seeds for FuzzMeshStep, decoded as described at
// runMeshStep. More are in testdata/fuzz/FuzzMeshStep/.
var meshStepSeeds = [][]byte{
	{},                              // a 1×1 mesh, no packet, one idle step
	{2, 0, 6, 0, 1, 2, 3, 4, 5, 6},  // a 3×3 mesh with packets
	{3, 1, 12, 9, 9, 9, 9, 3, 3, 3}, // a 4×4 torus
	[]byte("routecheck mesh grid step model: legal, illegal and raw moves"),
}

// FuzzMeshStep steps models/mesh's grid model through byte-decoded runs
// and checks every step: StepGrid never panics, rejects exactly the
// illegal moves (an index outside the queue other than −1, a send over a
// missing border link, one packet sent twice) with an error wrapping
// mesh.ErrAction, leaves its input untouched, and on accepted moves
// returns exactly the state a naive simulation computes (so packets are
// conserved: mesh.CheckConservation and Count agree).
func FuzzMeshStep(f *testing.F) {
	for _, seed := range meshStepSeeds {
		f.Add(seed)
	}
	f.Fuzz(runMeshStep)
}

// runMeshStep decodes data as: n (1–5), torus, the number of packets
// (0–2n²) and for each its start PU and destination, the number of steps
// (1–8), and per step and PU the four moves, each −1 (byte mod 8 < 4), a
// queue index (mod 8 in 4–6), or a raw value in [−3, queue length + 1].
func runMeshStep(t *testing.T, data []byte) {
	c := &byteChoices{b: data}
	n := c.intn(1, 5)
	torus := c.bool()
	g, err := mesh.NewGrid(n, torus)
	if err != nil {
		t.Fatalf("NewGrid(%d, %v): %v", n, torus, err)
	}
	P := c.intn(0, 2*n*n)
	for id := 0; id < P; id++ {
		at := c.intn(0, n*n-1)
		dst := c.intn(0, n*n-1)
		g.Queues[at] = append(g.Queues[at], mesh.Item{ID: int32(id), Row: int32(dst / n), Col: int32(dst % n), Target: int32(dst)})
	}
	steps := c.intn(1, 8)
	for s := 0; s < steps; s++ {
		m := make([]mesh.Moves, n*n)
		for p := range m {
			q := len(g.Queues[p])
			for d := range m[p] {
				switch k := c.intn(0, 7); {
				case k < 4 || q == 0:
					m[p][d] = -1
				case k < 7:
					m[p][d] = int32(c.intn(0, q-1))
				default:
					m[p][d] = int32(c.intn(-3, q+1))
				}
			}
		}
		before := g.Clone()
		next, ev, err := func() (next mesh.Grid, ev mesh.GridEvents, err error) {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("step %d: StepGrid panicked: %v\n  grid: %v\n  moves: %v", s, r, g.Queues, m)
				}
			}()
			return mesh.StepGrid(g, m)
		}()
		if !reflect.DeepEqual(g, before) {
			t.Fatalf("step %d: StepGrid modified its input", s)
		}
		want, problem := meshNaiveStep(g, m)
		if problem != "" {
			if err == nil {
				t.Fatalf("step %d: StepGrid accepted illegal moves (%s): %v", s, problem, m)
			}
			if !errors.Is(err, mesh.ErrAction) {
				t.Fatalf("step %d: error does not wrap ErrAction: %v", s, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("step %d: StepGrid rejected legal moves %v: %v", s, m, err)
		}
		if err := mesh.CheckConservation(g, next); err != nil {
			t.Fatalf("step %d: %v", s, err)
		}
		if next.Count() != P {
			t.Fatalf("step %d: %d packets, want %d", s, next.Count(), P)
		}
		if !reflect.DeepEqual(next, want) {
			t.Fatalf("step %d: StepGrid and the naive step disagree\n  got:  %v\n  want: %v", s, next, want)
		}
		moved, maxq := 0, 0
		for _, mv := range m {
			for _, k := range mv {
				if k >= 0 {
					moved++
				}
			}
		}
		for _, q := range want.Queues {
			maxq = max(maxq, len(q))
		}
		if ev.Moved != moved || ev.MaxQueue != maxq {
			t.Fatalf("step %d: events %+v, want Moved %d, MaxQueue %d", s, ev, moved, maxq)
		}
		g = next
	}
}

// meshNaiveStep is an independent reading of StepGrid's contract: the
// problem with moves m on g, or the next grid (every PU keeps the packets
// it does not send, in order; then arrivals join in the order of the
// sender's index, then direction Right, Left, Up, Down).
func meshNaiveStep(g mesh.Grid, m []mesh.Moves) (mesh.Grid, string) {
	n := g.N
	if len(m) != n*n {
		return mesh.Grid{}, "wrong number of moves"
	}
	neighbour := func(p, d int) int {
		i, j := p/n, p%n
		di := [4][2]int{{0, 1}, {0, -1}, {1, 0}, {-1, 0}}[d]
		i, j = i+di[0], j+di[1]
		if g.Torus {
			return ((i+n)%n)*n + (j+n)%n
		}
		if i < 0 || i >= n || j < 0 || j >= n {
			return -1
		}
		return i*n + j
	}
	for p, mv := range m {
		sent := map[int32]bool{}
		for d, k := range mv {
			switch {
			case k == -1:
				continue
			case k < -1 || int(k) >= len(g.Queues[p]):
				return mesh.Grid{}, fmt.Sprintf("PU %d index %d", p, k)
			case neighbour(p, d) < 0:
				return mesh.Grid{}, fmt.Sprintf("PU %d border link %d", p, d)
			case sent[k]:
				return mesh.Grid{}, fmt.Sprintf("PU %d sends %d twice", p, k)
			}
			sent[k] = true
		}
	}
	next := mesh.Grid{N: n, Torus: g.Torus, Step: g.Step + 1, Queues: make([][]mesh.Item, n*n)}
	for p, q := range g.Queues {
		next.Queues[p] = []mesh.Item{}
		for k, it := range q {
			if !slices.Contains(m[p][:], int32(k)) {
				next.Queues[p] = append(next.Queues[p], it)
			}
		}
	}
	for p, mv := range m {
		for d, k := range mv {
			if k >= 0 {
				r := neighbour(p, d)
				next.Queues[r] = append(next.Queues[r], g.Queues[p][k])
			}
		}
	}
	return next, ""
}
