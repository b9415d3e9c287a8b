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

// peekNext is the greedy router with a congestion cheat: it remembers how
// many packets each node held when it served it, and a node holds back a
// packet bound straight while the node that link leads to held 2 or more
// when last seen. Holding back is legal; but a node cannot see another
// node's queue, and the locality property catches the router that can.
type peekNext struct {
	ab.Greedy
	held map[[2]int]int
}

func (p *peekNext) Route(v mb.View, rng *rand.Rand) []mb.Forward {
	k := 0
	for _, q := range v.Queues {
		k += len(q)
	}
	p.held[[2]int{v.Stage, int(v.Row)}] = k
	var out []mb.Forward
	for _, f := range p.Greedy.Route(v, rng) {
		if f.Link != 0 || p.held[[2]int{v.Stage + 1, int(v.Row)}] < 2 {
			out = append(out, f)
		}
	}
	return out
}

// The cheat changes a decision only where a node's straight neighbour
// holds two packets: on the 8-input butterfly with r = 1 the permutation
// families never queue that much, the hot-spot 2-relation does, and the
// locality property reports the first node whose decision differs.
func Example_locality() {
	fs := bflytest.Check(func() mb.Router { return &peekNext{held: map[[2]int]int{}} }, bflytest.Options{
		Shapes:    []mb.Shape{{LogN: 3, R: 1, Mode: mb.NodeQueue}},
		ReplayDir: "-",
	})
	for _, f := range fs {
		fmt.Println(f.Property, f.Family, "step", f.Step)
	}
	// Output:
	// locality hot-spot step 4
}
