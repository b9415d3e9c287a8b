package bflytest_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	ab "routecheck/algos/butterfly"
	mb "routecheck/models/butterfly"
	"routecheck/props/bflytest"
)

// straightOnly is a deliberately broken toy router: every node forwards the
// head of its queue, always on the straight link — as if every packet's
// path went straight. It routes the identity, and never randomizes
// (X = 0).
type straightOnly struct{}

func (straightOnly) Launch(mb.Shape, mb.Packet, *rand.Rand) (int32, uint64) { return 0, 0 }
func (straightOnly) Route(v mb.View, _ *rand.Rand) []mb.Forward {
	return []mb.Forward{{Link: 0, Index: 0}}
}

// The suite catches the toy router at once: on the 4-input butterfly, in
// the first family (a uniform random permutation), the first packet whose
// path crosses is sent straight — an illegal move, reported with the step
// and the node.
func Example() {
	fs := bflytest.Check(func() mb.Router { return straightOnly{} }, bflytest.Options{
		Shapes:    []mb.Shape{{LogN: 2, R: 0, Mode: mb.NodeQueue}},
		ReplayDir: "-",
	})
	fmt.Println(len(fs) > 0, fs[0].Property, fs[0].Family, "step", fs[0].Step)
	fmt.Println(fs[0].Message)
	// Output:
	// true legal uniform step 2
	// butterfly: illegal action: node (1, 2) sends packet 2 on link 0, its path takes link 1
}

// Our own router goes through the same door: the paper's greedy priority
// router (§2–§3) and its FIFO variant, in both node models, with the
// congestion bound on every queue and the default time bound.
func TestOurRouters(t *testing.T) {
	o := bflytest.Options{MaxQueue: bflytest.CongestionBound}
	if testing.Short() {
		o.Checks = 10
	}
	for _, pr := range []ab.Priority{ab.PaperPriority, ab.FIFO} {
		t.Run(pr.String(), func(t *testing.T) {
			g, err := ab.NewGreedy(ab.Options{Priority: pr})
			if err != nil {
				t.Fatal(err)
			}
			bflytest.Run(t, func() mb.Router { return g }, o)
		})
	}
}

func FuzzBflyGreedy(f *testing.F) {
	bflytest.Fuzz(f, func() mb.Router { return ab.Greedy{} })
}
