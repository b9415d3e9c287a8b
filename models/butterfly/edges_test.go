package butterfly

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// A packet waiting in a full link buffer is still in flight: after the first
// of two packets 0 → 0 crosses into stage 1 of a strict-buffer butterfly, one
// packet is queued and one is buffered, and InFlight counts both.
func TestInFlightCountsBuffers(t *testing.T) {
	same := []Packet{{ID: 0, Src: 0, Dst: 0}, {ID: 1, Src: 0, Dst: 0}}
	st, err := New(Shape{LogN: 2, Mode: Buffered, StrictBuffers: true}, same)
	if err != nil {
		t.Fatal(err)
	}
	next, _, err := Step(st, []Send{{0, 0}})
	if err != nil {
		t.Fatal(err)
	}
	full := 0
	for _, f := range next.Full {
		if f {
			full++
		}
	}
	if full != 1 || next.InFlight() != 2 {
		t.Errorf("after one step: %d full buffers, InFlight %d; want 1 and 2", full, next.InFlight())
	}
}

// The first queue past the end is refused with ErrAction (not a panic), and
// a second send from one queue is named for what it is in each mode: a
// node forwarding two packets, or two packets on one link.
func TestStepRejectsWording(t *testing.T) {
	two := []Packet{{ID: 0, Src: 0, Dst: 0}, {ID: 1, Src: 0, Dst: 1}}
	nq, _ := New(Shape{LogN: 2, Mode: NodeQueue}, two)
	if _, _, err := Step(nq, []Send{{int32(len(nq.Queues)), 0}}); !errors.Is(err, ErrAction) {
		t.Errorf("queue len(Queues): %v", err)
	}
	if _, _, err := Step(nq, []Send{{0, 0}, {0, 1}}); err == nil || !strings.Contains(err.Error(), "forwards two packets") {
		t.Errorf("node queue, two sends from node (0, 0): %v", err)
	}
	same := []Packet{{ID: 0, Src: 0, Dst: 0}, {ID: 1, Src: 0, Dst: 0}}
	bq, _ := New(Shape{LogN: 2, Mode: Buffered}, same)
	if _, _, err := Step(bq, []Send{{0, 0}, {0, 1}}); err == nil || !strings.Contains(err.Error(), "two packets on link") {
		t.Errorf("buffered, two sends on one link: %v", err)
	}
}

// The strict-buffer refusal names the node whose buffer is occupied: the
// second packet 0 → 0 may not follow the first into node (1, 0).
func TestStrictBufferNamesNode(t *testing.T) {
	same := []Packet{{ID: 0, Src: 0, Dst: 0}, {ID: 1, Src: 0, Dst: 0}}
	st, _ := New(Shape{LogN: 2, Mode: Buffered, StrictBuffers: true}, same)
	s1, _, err := Step(st, []Send{{0, 0}})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := Step(s1, []Send{{0, 0}}); !errors.Is(err, ErrAction) || !strings.Contains(err.Error(), "buffer of node (1, 0)") {
		t.Errorf("second packet into the full buffer: %v, want the occupied buffer of node (1, 0)", err)
	}
}

// CheckInvariants looks at link 0's queues too, and at everything after a
// full buffer: a packet for row 2 (it takes the cross link 1 at stage 0)
// put in the queue of link 0 is caught, and so is a wrong total with a
// packet in a buffer.
func TestCheckInvariantsLinkZeroAndBuffers(t *testing.T) {
	st, err := New(Shape{LogN: 2, Mode: Buffered}, []Packet{{ID: 0, Src: 0, Dst: 2}})
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Queues[1]) != 1 {
		t.Fatalf("packet 0 → 2 not in the queue of link 1 of (0, 0): %v", st.Queues[:2])
	}
	bad := st.Clone()
	bad.Queues[0], bad.Queues[1] = bad.Queues[1], nil
	if err := CheckInvariants(bad, 1); err == nil {
		t.Error("a packet in the queue of link 0 whose path takes link 1 accepted")
	}
	same := []Packet{{ID: 0, Src: 0, Dst: 0}, {ID: 1, Src: 0, Dst: 0}}
	sb, _ := New(Shape{LogN: 2, Mode: Buffered, StrictBuffers: true}, same)
	s1, _, err := Step(sb, []Send{{0, 0}})
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckInvariants(s1, 2); err != nil {
		t.Errorf("true state: %v", err)
	}
	if err := CheckInvariants(s1, 3); err == nil {
		t.Error("2 packets in flight accepted as 3")
	}
}

// firstRouter forwards the head of every non-empty queue on its link.
type firstRouter struct{}

func (firstRouter) Launch(Shape, Packet, *rand.Rand) (int32, uint64) { return 0, 0 }

func (firstRouter) Route(v View, _ *rand.Rand) []Forward {
	var out []Forward
	for _, q := range v.Queues {
		if len(q) > 0 {
			out = append(out, Forward{Link: v.Link(q[0], v.Stage), Index: 0})
		}
	}
	return out
}

// A node whose only packet waits in the queue of its cross link (link 1) is
// still asked to route: a lone packet from row 0 or row 1 to the other half
// (row ⊕ 2) leaves stage 0 in the first step.
func TestActionsAsksNodesWithOnlyLinkOne(t *testing.T) {
	for _, src := range []int32{0, 1} {
		st, err := New(Shape{LogN: 2, Mode: Buffered}, []Packet{{ID: 0, Src: src, Dst: src ^ 2}})
		if err != nil {
			t.Fatal(err)
		}
		a, err := Actions(st, firstRouter{}, rand.New(rand.NewPCG(1, 1)))
		if err != nil || len(a) != 1 || a[0].Queue != 2*src+1 {
			t.Errorf("packet %d → %d: actions %v (%v), want one send from queue %d", src, src^2, a, err, 2*src+1)
		}
	}
}
