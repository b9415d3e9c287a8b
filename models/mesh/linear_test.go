package mesh

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// NewLinear: PUs are [0, n) (n itself is out of range for a source and for a
// destination), a packet at its destination never enters a queue, and the
// others queue at their source in packet order.
func TestNewLinearPlacement(t *testing.T) {
	for _, c := range []struct{ src, dst []int32 }{
		{[]int32{3}, []int32{0}},
		{[]int32{0}, []int32{3}},
		{[]int32{-1}, []int32{0}},
		{[]int32{0}, []int32{-1}},
	} {
		if _, err := NewLinear(3, c.src, c.dst); err == nil {
			t.Errorf("n = 3, packet %d → %d accepted", c.src[0], c.dst[0])
		}
	}
	s, err := NewLinear(3, []int32{0, 2, 0, 1, 2}, []int32{2, 2, 1, 1, 0})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]Packet{{{0, 2}, {2, 1}}, nil, {{4, 0}}}
	for i := range want {
		if len(s.Queues[i]) != len(want[i]) || (len(want[i]) > 0 && !reflect.DeepEqual(s.Queues[i], want[i])) {
			t.Errorf("queue %d = %v, want %v", i, s.Queues[i], want[i])
		}
	}
	if s.Pending() != 3 || s.Step != 0 {
		t.Errorf("pending %d step %d, want 3 and 0", s.Pending(), s.Step)
	}
}

// refStepLinear is StepLinear's documented step written out plainly for
// legal actions: senders drop what they send; PU i then receives, in this
// order, the packet from its left neighbour and the one from its right; a
// packet reaching its destination is delivered instead of queued.
func refStepLinear(s Linear, a []Send) (next Linear, moves int, delivered []int32, maxQueue int) {
	n := len(s.Queues)
	next = Linear{Step: s.Step + 1, Queues: make([][]Packet, n)}
	for i, q := range s.Queues {
		for k, p := range q {
			if int32(k) != a[i].Right && int32(k) != a[i].Left {
				next.Queues[i] = append(next.Queues[i], p)
			}
		}
	}
	for i := 0; i < n; i++ {
		var in []Packet
		if i >= 1 && a[i-1].Right != -1 {
			in = append(in, s.Queues[i-1][a[i-1].Right])
		}
		if i <= n-2 && a[i+1].Left != -1 {
			in = append(in, s.Queues[i+1][a[i+1].Left])
		}
		for _, p := range in {
			moves++
			if int(p.Dst) == i {
				delivered = append(delivered, p.ID)
			} else {
				next.Queues[i] = append(next.Queues[i], p)
			}
		}
	}
	for _, q := range next.Queues {
		if len(q) > maxQueue {
			maxQueue = len(q)
		}
	}
	return next, moves, delivered, maxQueue
}

// Random legal steps (every PU sends with probability about 1/2 each way,
// index 0 included) against refStepLinear, for 10 steps from random
// placements on n = 1 … 7.
func TestStepLinearMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	for trial := range 400 {
		n := 1 + trial%7
		k := r.IntN(3 * n)
		src, dst := make([]int32, k), make([]int32, k)
		for p := range k {
			src[p], dst[p] = int32(r.IntN(n)), int32(r.IntN(n))
		}
		s, err := NewLinear(n, src, dst)
		if err != nil {
			t.Fatal(err)
		}
		for step := range 10 {
			a := make([]Send, n)
			for i := range a {
				a[i] = Idle
				q := len(s.Queues[i])
				if q > 0 && i < n-1 && r.IntN(2) == 0 {
					a[i].Right = int32(r.IntN(q))
				}
				if q > 0 && i > 0 && r.IntN(2) == 0 {
					if l := int32(r.IntN(q)); l != a[i].Right {
						a[i].Left = l
					}
				}
			}
			next, ev, err := StepLinear(s, a)
			if err != nil {
				t.Fatalf("trial %d step %d: legal actions %v refused: %v", trial, step, a, err)
			}
			want, moves, delivered, maxQ := refStepLinear(s, a)
			for i := range n {
				if len(next.Queues[i])+len(want.Queues[i]) > 0 && !reflect.DeepEqual(next.Queues[i], want.Queues[i]) {
					t.Fatalf("trial %d step %d PU %d: queue %v, reference %v", trial, step, i, next.Queues[i], want.Queues[i])
				}
			}
			if next.Step != want.Step || ev.Moves != moves || ev.MaxQueue != maxQ || !reflect.DeepEqual(ev.Delivered, delivered) {
				t.Fatalf("trial %d step %d: step %d moves %d delivered %v max queue %d; reference %d %d %v %d", trial, step, next.Step, ev.Moves, ev.Delivered, ev.MaxQueue, want.Step, moves, delivered, maxQ)
			}
			s = next
		}
	}
}
