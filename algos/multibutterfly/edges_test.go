package multibutterfly

import (
	"testing"

	"routecheck/internal/seeds"
	mb "routecheck/models/multibutterfly"
	"routecheck/models/perm"
)

// BatchesFor at its boundaries: β = 0 is allowed (α = 0.3 gives ⌈3.33…⌉ =
// 4, not the nearest integer 3); α = 1/49, β = 0 is exactly 49 although
// 1/(1/49) is 49.00000000000001 in floating point, and α = 1/2915 is 2915
// (the rounding error, 4.5e-13, is relative: 1e-9·L tolerates it); α ≤ 0
// and β < 0 panic.
func TestBatchesForBoundaries(t *testing.T) {
	for _, c := range []struct {
		a, b float64
		want int
	}{{0.3, 0, 4}, {1.0 / 49, 0, 49}, {1.0 / 98, 1, 49}, {1.0 / 2915, 0, 2915}, {1, 0, 1}} {
		if got := BatchesFor(c.a, c.b); got != c.want {
			t.Errorf("α=%v β=%v: L = %d, want %d", c.a, c.b, got, c.want)
		}
	}
	for _, c := range [][2]float64{{0, 1}, {-0.5, 1}, {0.5, -1}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("BatchesFor(%v, %v) did not panic", c[0], c[1])
				}
			}()
			BatchesFor(c[0], c[1])
		}()
	}
	if got := DefaultMaxIterations(3, 2); got != 64*(3+2+4) {
		t.Errorf("DefaultMaxIterations(3, 2) = %d, want 576", got)
	}
}

// A run cut after two iterations reports exactly those: 4d steps, not
// complete, and the moves made (iteration 1 activates only edges leaving odd
// stages, so the inputs first move in iteration 2, and the reversal on
// N = 8 cannot finish then: a packet crosses at most one stage per
// iteration and there are three).
func TestRunCutAfterTwoIterations(t *testing.T) {
	net, err := mb.Build(8, 2, seeds.Rand(5))
	if err != nil {
		t.Fatal(err)
	}
	p := perm.Identity(8)
	for i := range p {
		p[i] = int32(7 - i)
	}
	s, _ := mb.Init(net, 2, p)
	res, _, err := Run(s, Options{MaxIterations: 2, Check: true})
	if err != nil || res.Complete || res.Iterations != 2 || res.Steps != 8 || res.Moves == 0 {
		t.Errorf("cut at two iterations: %+v %v; want 2 iterations, 8 steps, some moves, not complete", res, err)
	}
}

// §4: Steps = 2d and SimSteps = 3d + 1 per iteration, complete or cut; a
// run cut after one iteration has made exchanges and is not complete.
func TestRunCommCounts(t *testing.T) {
	const n, d = 8, 2
	net, err := mb.BuildComm(n, d, seeds.Rand(6))
	if err != nil {
		t.Fatal(err)
	}
	s, err := mb.InitComm(net, commDests(net, 6))
	if err != nil {
		t.Fatal(err)
	}
	full, _, err := RunComm(s, 2, 0, true)
	if err != nil || !full.Complete || full.Iterations < 2 {
		t.Fatalf("full run: %+v %v", full, err)
	}
	cut, _, err := RunComm(s, 2, 1, true)
	if err != nil || cut.Complete || cut.Iterations != 1 || cut.Exchanges == 0 {
		t.Fatalf("cut run: %+v %v", cut, err)
	}
	for _, r := range []CommResult{full, cut} {
		if r.Steps != r.Iterations*2*d || r.SimSteps != r.Iterations*(3*d+1) {
			t.Errorf("%+v: want Steps = %d·iterations and SimSteps = %d·iterations", r, 2*d, 3*d+1)
		}
	}
}

// highest and lowest: the packet of lowest (highest) batch q mod L, ties by
// the lower packet index. With L = 4 and destinations 5, 2, 6, 1, packets
// 0 … 3 are in batches 1, 2, 2, 1.
func TestHighestLowestPick(t *testing.T) {
	dest := []int32{5, 2, 6, 1}
	for _, ps := range [][]int32{{2, 1, 3, 0}, {0, 1, 2, 3}, {3, 2, 1, 0}} {
		if got := highest(ps, dest, 4); got != 0 {
			t.Errorf("highest(%v) = %d, want 0 (batch 1, lower index than 3)", ps, got)
		}
		if got := lowest(ps, dest, 4); got != 1 {
			t.Errorf("lowest(%v) = %d, want 1 (batch 2, lower index than 2)", ps, got)
		}
	}
	if highest(nil, dest, 4) != -1 || lowest(nil, dest, 4) != -1 {
		t.Error("an empty node has no packet")
	}
	// pick keeps the first header unless another beats its batch or ties it
	// with a lower packet name.
	buf := []mb.Header{{Packet: 5, Dest: 1}, {Packet: 2, Dest: 3}, {Packet: 7, Dest: 5}}
	if got := pick(buf, 4, func(k, bk int) bool { return k < bk }); got.Packet != 5 {
		t.Errorf("pick = %+v, want packet 5 (batch 1; packet 2 has batch 3, packet 7 ties with a higher name)", got)
	}
}

// The one-packet-per-batch check can fail: with the §3.2 rule skipped
// (FaultIgnoreBatch) and L = 2 batches (capacity 2), some node soon holds
// two packets of one batch, which onePerBatch reports. (A run the model
// stops at a full node is simply over.)
func TestOnePerBatchCatchesFault(t *testing.T) {
	net, err := mb.Build(8, 2, seeds.Rand(7))
	if err != nil {
		t.Fatal(err)
	}
	caught := false
	perm.Each(8, func(p []int32) bool {
		s, _ := mb.Init(net, 2, p)
		// Look at every state of the faulty run with onePerBatch itself.
		Run(s, Options{Fault: FaultIgnoreBatch, AfterIteration: func(_ int, st *mb.State) {
			at := make([][]int32, net.Nodes())
			for q, v := range st.Pos {
				at[v] = append(at[v], int32(q))
			}
			if onePerBatch(*st, at) != nil {
				caught = true
			}
		}})
		return !caught
	})
	if !caught {
		t.Error("no permutation of 8 makes the batch-ignoring fault put two packets of one batch in a node")
	}
}
