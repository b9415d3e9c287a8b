package mesh

import (
	"errors"
	"testing"
)

// StepLinear refuses each illegal action on its own, with index 0 (the
// first packet of a queue) wherever an index is involved: PU 1 of 3 sending
// packet 0 both ways, the rightmost PU sending packet 0 right, PU 0 sending
// packet 0 left, and an index equal to the queue length; every other PU is
// idle. The same actions one PU over are legal.
func TestStepLinearRejectsIndexZero(t *testing.T) {
	s, err := NewLinear(3, []int32{0, 1, 2}, []int32{1, 0, 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		pu    int
		a     Send
		legal bool
	}{
		{"packet 0 both ways", 1, Send{Right: 0, Left: 0}, false},
		{"rightmost sends packet 0 right", 2, Send{Right: 0, Left: -1}, false},
		{"PU 0 sends packet 0 left", 0, Send{Right: -1, Left: 0}, false},
		{"index = queue length", 1, Send{Right: 1, Left: -1}, false},
		{"index −2", 1, Send{Right: -1, Left: -2}, false},
		{"packet 0 right from PU 1", 1, Send{Right: 0, Left: -1}, true},
		{"packet 0 left from PU 2", 2, Send{Right: -1, Left: 0}, true},
		{"packet 0 right from PU 0", 0, Send{Right: 0, Left: -1}, true},
	} {
		a := []Send{Idle, Idle, Idle}
		a[c.pu] = c.a
		_, _, err := StepLinear(s, a)
		if c.legal != (err == nil) || (err != nil && !errors.Is(err, ErrAction)) {
			t.Errorf("%s: legal %v, error %v", c.name, c.legal, err)
		}
	}
}
