package sot

import (
	"fmt"
	"strings"
	"testing"

	"routecheck/models/perm"
)

// mustStep performs one step with the given node → action map or fails.
func mustStep(t *testing.T, s State, acts map[int]Action) State {
	t.Helper()
	a := make([]Action, s.N*s.N)
	for v, x := range acts {
		a[v] = x
	}
	next, _, err := Step(s, a)
	if err != nil {
		t.Fatal(err)
	}
	return next
}

// checkNoPanic runs CheckInvariants, turning a panic into an error (a check
// that panics on a corrupt state is a failure, not a verdict).
func checkNoPanic(s State) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return CheckInvariants(s)
}

func fresh(t *testing.T, n int, rel []perm.Pair) State {
	t.Helper()
	s, err := NewState(n, rel)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// CheckInvariants rejects each corrupt state with the message naming what is
// wrong (and never panics). The states are built by hand on SOT(2) (P0 at
// (0,1), P1 at (1,0)) and SOT(3) (P0 at (0,2)).
func TestCheckInvariantsDiagnoses(t *testing.T) {
	two := []perm.Pair{{Src: 0, Dst: 1}, {Src: 0, Dst: 1}}
	cases := []struct {
		name string
		make func(t *testing.T) State
		msg  string
	}{
		// n = MaxN is in range; what is wrong is the missing buffers.
		{"n = MaxN, no buffers", func(t *testing.T) State { return State{N: MaxN} }, "state shapes do not match n = 4096"},
		{"Own names packet K", func(t *testing.T) State {
			s := fresh(t, 2, two)
			s.Own = [][]int32{{0, 2}, {}}
			return s
		}, "Own[0][1] = 2 is not the next packet of P0"},
		{"Own lists packet 0 twice", func(t *testing.T) State {
			s := fresh(t, 2, two)
			s.Own = [][]int32{{0, 0}, {}}
			return s
		}, "Own[0][1] = 0 is not the next packet of P0"},
		// Packet "5" of a 3-packet relation, injected and delivered, with
		// counts that agree with the bitsets: only the tail check sees it.
		{"bit beyond the last packet", func(t *testing.T) State {
			s := fresh(t, 2, []perm.Pair{{Src: 0, Dst: 1}, {Src: 0, Dst: 1}, {Src: 1, Dst: 0}})
			s.Injected[0] |= 1 << 5
			s.Delivered[0] |= 1 << 5
			s.NInjected, s.NDelivered = 1, 1
			return s
		}, "bits set beyond packet 2"},
		{"link holds packet K", func(t *testing.T) State {
			s := fresh(t, 2, nil)
			s.InH[0] = Flight{ID: 0}
			return s
		}, "holds packet id 0 of 0"},
		// SOT(3): P0 (0,2) sends packet 0 right to (0,0); moving it one
		// further to (0,1) puts it on anti-diagonal 1, not 2+1 ≡ 0 (mod 3).
		{"packet moved off its anti-diagonal", func(t *testing.T) State {
			s := fresh(t, 3, []perm.Pair{{Src: 0, Dst: 1}, {Src: 0, Dst: 2}})
			s = mustStep(t, s, map[int]Action{2: {Right: Inject(0), Down: Inject(1)}})
			s.InH[1], s.InH[0] = s.InH[0], Empty
			return s
		}, "packet 0 at (0,1) after 1 hops is off its anti-diagonal"},
		// SOT(2): P0 sends packet 0 right to (0,0) and 1 down to (1,1);
		// then 0 goes down into P1 (delivered) and 1 down into P0 (passes).
		// Removing packet 1 loses it: 2 injected − 1 delivered = 1 on links.
		{"packet lost after a delivery", func(t *testing.T) State {
			s := fresh(t, 2, two)
			s = mustStep(t, s, map[int]Action{1: {Right: Inject(0), Down: Inject(1)}})
			s = mustStep(t, s, map[int]Action{0: {Down: FromLeft}, 3: {Down: FromUp}})
			if s.NDelivered != 1 || s.InV[1].ID != 1 {
				t.Fatalf("setup: delivered %d, P0 from up %+v", s.NDelivered, s.InV[1])
			}
			if err := CheckInvariants(s); err != nil {
				t.Fatalf("setup: %v", err)
			}
			s.InV[1] = Empty
			return s
		}, "0 packets on links, but 2 injected − 1 delivered = 1 (lost)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := checkNoPanic(c.make(t))
			if err == nil || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("error %v, want one mentioning %q", err, c.msg)
			}
		})
	}
}
