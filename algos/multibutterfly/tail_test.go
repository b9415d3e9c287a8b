package multibutterfly

import (
	"slices"
	"testing"

	"routecheck/internal/seeds"
	mb "routecheck/models/multibutterfly"
	"routecheck/models/perm"
)

// At stop = log N with StopOnePerBatch the stop stage is the output stage
// and its rule is Run's, so RunToStage is Run: same iterations, moves and
// final positions (differential test on random networks and permutations).
func TestRunToStageAtOutputsIsRun(t *testing.T) {
	for _, n := range []int{4, 8, 16, 32} {
		for d := 1; d <= 3; d++ {
			net, err := mb.Build(n, d, seeds.Rand(7, uint64(n), uint64(d)))
			if err != nil {
				t.Fatal(err)
			}
			for i := range 6 {
				p := perm.Random(n, seeds.Rand(8, uint64(n), uint64(d), uint64(i)))
				for _, L := range []int{1, 2, 3} {
					s, _ := mb.Init(net, L, p)
					want, wfin, err1 := Run(s, Options{Check: true})
					got, gfin, err2 := RunToStage(s, net.LogN, StopOnePerBatch, 0, true)
					if err1 != nil || err2 != nil {
						t.Fatalf("N=%d d=%d L=%d: errors %v, %v", n, d, L, err1, err2)
					}
					if !want.Complete || !got.Complete || got.Iterations != want.Iterations || got.Moves != want.Moves || !slices.Equal(gfin.Pos, wfin.Pos) {
						t.Fatalf("N=%d d=%d L=%d perm %v: RunToStage %+v, Run %+v", n, d, L, p, got, want)
					}
				}
			}
		}
	}
}

// N = 2, stop = 1: both packets go to the one node of their output set
// (each set has one node), in iteration 2 (stage 0 sends in even
// iterations), under either rule: 2 iterations, 2d steps each, 2 moves.
func TestRunToStageHandN2(t *testing.T) {
	for d := 1; d <= 3; d++ {
		net, err := mb.Build(2, d, seeds.Rand(1, uint64(d)))
		if err != nil {
			t.Fatal(err)
		}
		for _, rule := range []StopRule{StopOnePerNode, StopOnePerBatch} {
			for _, p := range [][]int32{{0, 1}, {1, 0}} {
				s, _ := mb.Init(net, 1, p)
				res, fin, err := RunToStage(s, 1, rule, 0, true)
				if err != nil || !res.Complete || res.Stuck || res.Iterations != 2 || res.Steps != 4*d || res.Moves != 2 || !fin.Done() {
					t.Fatalf("d=%d %v perm %v: %+v err %v", d, rule, p, res, err)
				}
			}
		}
	}
}

// Stop stage 1 of N = 4 under StopOnePerNode: a set A_{1,j} has two nodes
// and receives exactly the two packets with top bit j, so a run that
// completes leaves one packet on each node of stage 1 and none elsewhere;
// a stuck run leaves packets at stage 0 and says so.
func TestRunToStageOnePerNode(t *testing.T) {
	for d := 1; d <= 3; d++ {
		net, err := mb.Build(4, d, seeds.Rand(3, uint64(d)))
		if err != nil {
			t.Fatal(err)
		}
		perm.Each(4, func(p []int32) bool {
			s, _ := mb.Init(net, 2, p)
			res, fin, err := RunToStage(s, 1, StopOnePerNode, 0, true)
			if err != nil {
				t.Fatalf("d=%d perm %v: %v", d, p, err)
			}
			if res.Complete == res.Stuck || res.Complete != (res.Waiting == 0) {
				t.Fatalf("d=%d perm %v: %+v", d, p, res)
			}
			if res.Complete {
				for q := range 4 {
					if c := fin.Count[net.Node(1, q)]; c != 1 {
						t.Fatalf("d=%d perm %v: node ⟨1,%d⟩ holds %d packets", d, p, q, c)
					}
				}
			}
			return true
		})
	}
}

func TestRunToStageBadStop(t *testing.T) {
	net, _ := mb.Build(4, 1, seeds.Rand(1))
	s, _ := mb.Init(net, 1, perm.Identity(4))
	for _, stop := range []int{0, 3, -1} {
		if _, _, err := RunToStage(s, stop, StopOnePerNode, 0, false); err == nil {
			t.Errorf("stop = %d accepted", stop)
		}
	}
	if _, _, err := RunToStage(s, 1, StopRule(9), 0, false); err == nil {
		t.Error("unknown rule accepted")
	}
}
