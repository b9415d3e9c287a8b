package sot

import (
	"errors"
	"strings"
	"testing"

	"routecheck/models/perm"
)

// These tests pin the edges the property tests rarely reach: packet id 0
// and processor P0 (the first of their ranges), the last legal processor
// index and n = MaxN, and the wording of the errors (each must name the
// offence and the allowed range). Expected values are worked out by hand on
// SOT(2) and SOT(3): P_x sits at (x, n−1−x), Right is (i, j) → (i, j+1 mod n),
// Down is (i, j) → (i+1 mod n, j) (doc.go; seed 002, §2.1).

func TestDirString(t *testing.T) {
	if Right.String() != "right" || Down.String() != "down" {
		t.Fatalf("Right = %q, Down = %q", Right.String(), Down.String())
	}
}

// NewState accepts the last processor index n−1 and n = MaxN, rejects index
// n, and its error names the allowed processors.
func TestNewStateEdges(t *testing.T) {
	if _, err := NewState(3, []perm.Pair{{Src: 2, Dst: 2}}); err != nil {
		t.Fatalf("P2 → P2 on SOT(3) rejected: %v", err)
	}
	for _, p := range []perm.Pair{{Src: 3, Dst: 0}, {Src: 0, Dst: 3}} {
		_, err := NewState(3, []perm.Pair{p})
		if err == nil || !strings.Contains(err.Error(), "processors are 0…2") {
			t.Errorf("NewState(3, %v): error %v, want one naming processors 0…2", p, err)
		}
	}
	// n = MaxN is allowed: with a bad first packet the error must be about
	// the packet, not about n (the per-packet check comes before the n²
	// buffers are allocated, so this costs O(n)).
	_, err := NewState(MaxN, []perm.Pair{{Src: -1, Dst: 0}})
	if err == nil || !strings.Contains(err.Error(), "packet 0 goes -1") {
		t.Fatalf("NewState(MaxN, bad packet): error %v, want the packet's error", err)
	}
}

// The bitsets have one 64-bit word per 64 packets (Step costs O(n² + K/64)).
func TestBitsetWords(t *testing.T) {
	for _, c := range []struct{ k, words int }{{0, 0}, {1, 1}, {64, 1}, {65, 2}, {128, 2}} {
		s, err := NewState(2, make([]perm.Pair, c.k))
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Injected) != c.words || len(s.Delivered) != c.words {
			t.Errorf("%d packets: %d and %d words, want %d", c.k, len(s.Injected), len(s.Delivered), c.words)
		}
	}
}

// twoPassing is SOT(2) after two steps with two packets passing through
// each processor: P0 (0,1) holds packet 0 from the left and 1 from up, P1
// (1,0) holds 2 from the left and 3 from up; packet 4 is P0's, not sent.
//
//	step 0: P0 injects 0 right → (0,0), 1 down → (1,1);
//	        P1 injects 2 right → (1,1), 3 down → (0,0).
//	step 1: (0,0) sends 0 right → P0 (target P1: passes), 3 down → P1 (target P0: passes);
//	        (1,1) sends 1 down → P0 (passes), 2 right → P1 (passes).
func twoPassing(t *testing.T) State {
	t.Helper()
	rel := []perm.Pair{{Src: 0, Dst: 1}, {Src: 0, Dst: 1}, {Src: 1, Dst: 0}, {Src: 1, Dst: 0}, {Src: 0, Dst: 1}}
	s, err := NewState(2, rel)
	if err != nil {
		t.Fatal(err)
	}
	a := make([]Action, 4)
	a[1] = Action{Right: Inject(0), Down: Inject(1)}
	a[2] = Action{Right: Inject(2), Down: Inject(3)}
	if s, _, err = Step(s, a); err != nil {
		t.Fatal(err)
	}
	a = make([]Action, 4)
	a[0] = Action{Right: FromLeft, Down: FromUp}
	a[3] = Action{Right: FromLeft, Down: FromUp}
	if s, _, err = Step(s, a); err != nil {
		t.Fatal(err)
	}
	if s.InH[1].ID != 0 || s.InV[1].ID != 1 || s.InH[2].ID != 2 || s.InV[2].ID != 3 {
		t.Fatalf("unexpected state: InH %v, InV %v", s.InH, s.InV)
	}
	return s
}

// Illegal actions at the edges, each with the offence in its message: P0 is
// named as a processor; a packet from up sent on both outputs is a
// duplicate; a processor with two passing packets that injects is told so
// (§1: "own packets can be sent only when there are less than two incoming
// packets"); a wrong-length action vector names both counts.
func TestIllegalActionEdges(t *testing.T) {
	s := twoPassing(t)
	legalP1 := Action{Right: FromLeft, Down: FromUp}
	cases := []struct {
		name   string
		p0, p1 Action
		msg    string
	}{
		{"P0 named", Action{Right: FromLeft, Down: FromLeft}, legalP1, "processor P0 at (0,1)"},
		{"duplicate from up", Action{Right: FromUp, Down: FromUp}, legalP1, "duplicates the packet from up"},
		{"inject with two passing", Action{Right: FromLeft, Down: Inject(4)}, legalP1, "injects 1 packets while 2 pass through"},
		{"P1 duplicates from up", Action{Right: FromLeft, Down: FromUp}, Action{Right: FromUp, Down: FromUp}, "processor P1 at (1,0): duplicates the packet from up"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := make([]Action, 4)
			a[1], a[2] = c.p0, c.p1
			_, _, err := Step(s, a)
			if err == nil || !errors.Is(err, ErrAction) || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("error %v, want ErrAction mentioning %q", err, c.msg)
			}
		})
	}
	a := make([]Action, 4)
	a[1], a[2] = Action{Right: FromUp, Down: FromLeft}, legalP1
	if _, _, err := Step(s, a); err != nil {
		t.Fatalf("both passing packets sent, nothing injected: %v", err)
	}
	s3, err := NewState(3, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := Step(s3, make([]Action, 8)); err == nil || !strings.Contains(err.Error(), "8 actions for 9 nodes") {
		t.Fatalf("8 actions on SOT(3): error %v", err)
	}
}

// A packet injected at step 1 (not 0) from P0 (0,2) to P1 (1,1) on SOT(3),
// steered right, right, down: 3 hops = the distance, no deflection, so its
// latency is 3 (Delivery: "n when undeflected"), counted from its birth.
func TestLatencyFromBirth(t *testing.T) {
	s, err := NewState(3, []perm.Pair{{Src: 0, Dst: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if s, _, err = Step(s, make([]Action, 9)); err != nil { // step 0: nothing
		t.Fatal(err)
	}
	route := []struct {
		i, j int
		act  Action
	}{
		{0, 2, Action{Right: Inject(0)}}, // step 1: P0 → (0,0)
		{0, 0, Action{Right: FromLeft}},  // step 2: (0,0) → (0,1)
		{0, 1, Action{Down: FromLeft}},   // step 3: (0,1) → (1,1) = P1
	}
	var ev Events
	for _, r := range route {
		a := make([]Action, 9)
		a[s.Node(r.i, r.j)] = r.act
		if s, ev, err = Step(s, a); err != nil {
			t.Fatal(err)
		}
	}
	want := []Delivery{{ID: 0, Proc: 1, Latency: 3, Defl: 0}}
	if len(ev.Delivered) != 1 || ev.Delivered[0] != want[0] || len(ev.Deflected) != 0 || !s.Done() || s.T != 4 {
		t.Fatalf("delivered %+v, deflected %+v, T = %d; want %+v at T = 4", ev.Delivered, ev.Deflected, s.T, want)
	}
}
