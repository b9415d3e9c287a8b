package butterfly

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"

	"pgregory.net/rapid"
)

// randomRouter forwards a random queued packet of each queue on its link
// (or nothing), honouring Blocked, and scribbles over its view.
type randomRouter struct{}

func (randomRouter) Launch(sh Shape, _ Packet, rng *rand.Rand) (int32, uint64) {
	return int32(rng.IntN(1 << sh.R)), 0
}

func (randomRouter) Route(v View, rng *rand.Rand) []Forward {
	var out []Forward
	for qi, q := range v.Queues {
		if len(q) == 0 || rng.IntN(4) == 0 {
			continue
		}
		k := rng.IntN(len(q))
		l := v.Link(q[k], v.Stage)
		if v.Mode == Buffered && l != qi {
			panic("butterfly: a packet in the queue of the other link")
		}
		if !v.Blocked[l] {
			out = append(out, Forward{Link: l, Index: k})
		}
		q[0].Dst ^= 1 // a view is a copy: this changes nothing
	}
	return out
}

// RouteStep with a router that obeys the view (Blocked included) never
// makes an illegal move, keeps the invariants, leaves its input untouched
// whatever the router does to its view, and its actions are Send's the
// model accepts.
func TestRouteStepLegalAndPure(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sh := genShape(t)
		ps := genPackets(t, sh)
		st, err := New(sh, ps)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 3))
		for st.InFlight() > 0 && st.Step < 200 {
			before := st.Clone()
			next, _, a, err := RouteStep(st, randomRouter{}, rng)
			if err != nil {
				t.Fatalf("step %d: %v", st.Step, err)
			}
			if !reflect.DeepEqual(before, st) {
				t.Fatal("RouteStep modified its input (through the view)")
			}
			if _, _, err := Step(st, a); err != nil {
				t.Fatal(err)
			}
			if err := CheckInvariants(next, len(ps)); err != nil {
				t.Fatal(err)
			}
			st = next
		}
	})
}

// fixed forwards the same Forward from every node.
type fixed Forward

func (fixed) Launch(Shape, Packet, *rand.Rand) (int32, uint64) { return 0, 0 }
func (f fixed) Route(View, *rand.Rand) []Forward               { return []Forward{Forward(f)} }

// RouteStep rejects, with ErrAction, a link other than 0 and 1, an index
// outside the queue, and a packet sent on the link its path does not take.
func TestRouteStepRejects(t *testing.T) {
	sh := Shape{LogN: 2, Mode: NodeQueue}
	// Packet 0 goes 0 → 2: stage 1 flips bit 1, so it leaves input 0 by the cross link.
	st, err := New(sh, []Packet{{ID: 0, Src: 0, Dst: 2}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []Forward{{Link: 2}, {Link: 1, Index: 1}, {Link: 1, Index: -1}, {Link: 0}} {
		if _, _, _, err := RouteStep(st, fixed(f), nil); !errors.Is(err, ErrAction) {
			t.Errorf("forward %+v: error %v, want ErrAction", f, err)
		}
	}
	if _, _, _, err := RouteStep(st, fixed{Link: 1}, nil); err != nil {
		t.Errorf("the legal forward: %v", err)
	}
}
