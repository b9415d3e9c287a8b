package bflytest

import (
	"slices"
	"testing"

	ab "routecheck/algos/butterfly"
	mb "routecheck/models/butterfly"
)

// A router cannot lose or duplicate a packet through the model (it names
// packets by position, and the model moves them), so the conservation and
// delivery checks are shown to fail on a planted faulty model step: one
// that loses a packet, one that duplicates one, one that reports a delivery
// twice, one that delivers at the wrong output.
func TestConservationCatches(t *testing.T) {
	firstQueued := func(st mb.State) int {
		return slices.IndexFunc(st.Queues, func(q []mb.Packet) bool { return len(q) > 0 })
	}
	cases := []struct {
		name  string
		plant func(next mb.State, ev mb.Events) (mb.State, mb.Events)
		want  string
	}{
		{"loses a packet", func(next mb.State, ev mb.Events) (mb.State, mb.Events) {
			if i := firstQueued(next); i >= 0 && next.Step == 2 {
				next.Queues[i] = next.Queues[i][1:]
			}
			return next, ev
		}, "invariants"},
		{"duplicates a packet", func(next mb.State, ev mb.Events) (mb.State, mb.Events) {
			if i := firstQueued(next); i >= 0 && next.Step == 2 {
				next.Queues[i] = append(next.Queues[i], next.Queues[i][0])
			}
			return next, ev
		}, "invariants"},
		{"delivers twice", func(next mb.State, ev mb.Events) (mb.State, mb.Events) {
			if len(ev.Delivered) > 0 {
				next.Delivered--
				ev.Delivered = append(ev.Delivered, ev.Delivered[0])
				next.Delivered += 2
			}
			return next, ev
		}, "invariants"},
		{"delivers at the wrong output", func(next mb.State, ev mb.Events) (mb.State, mb.Events) {
			if len(ev.Delivered) > 0 {
				ev.Delivered[0].Row ^= 1
			}
			return next, ev
		}, "delivery"},
	}
	defer func(s func(mb.State, []mb.Send) (mb.State, mb.Events, error)) { step = s }(step)
	for _, c := range cases {
		step = func(st mb.State, a []mb.Send) (mb.State, mb.Events, error) {
			next, ev, err := mb.Step(st, a)
			if err == nil {
				next, ev = c.plant(next, ev)
			}
			return next, ev, err
		}
		fs := Check(func() mb.Router { return ab.Greedy{} }, Options{Shapes: []mb.Shape{{LogN: 2, R: 1, Mode: mb.Buffered}}, ReplayDir: "-", Checks: 5})
		if len(fs) == 0 || fs[0].Property != c.want {
			t.Errorf("%s: failures %v, want the first of property %s", c.name, fs, c.want)
		}
	}
}
