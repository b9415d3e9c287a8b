package sot

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"routecheck/models/perm"
)

// genRel draws a small torus and an arbitrary relation (self-addressed
// packets included).
func genRel(t *rapid.T) (int, []perm.Pair) {
	n := rapid.IntRange(2, 5).Draw(t, "n")
	k := rapid.IntRange(0, 3*n).Draw(t, "packets")
	rel := make([]perm.Pair, k)
	for i := range rel {
		rel[i] = perm.Pair{Src: int32(rapid.IntRange(0, n-1).Draw(t, "src")), Dst: int32(rapid.IntRange(0, n-1).Draw(t, "dst"))}
	}
	return n, rel
}

// legalActions draws a legal action vector: every passing packet on a random
// output, processors inject random pending own packets into free outputs.
func legalActions(t *rapid.T, s *State) []Action {
	a := make([]Action, s.N*s.N)
	used := map[int32]bool{}
	for v := range a {
		var in []Slot
		if s.InH[v].ID >= 0 {
			in = append(in, FromLeft)
		}
		if s.InV[v].ID >= 0 {
			in = append(in, FromUp)
		}
		if p := s.Proc(v); p >= 0 {
			for _, id := range s.Own[p] {
				if len(in) < 2 && !s.IsInjected(id) && !used[id] && rapid.Bool().Draw(t, "inject") {
					in = append(in, Inject(id))
					used[id] = true
				}
			}
		}
		if len(in) == 2 && rapid.Bool().Draw(t, "swap") {
			in[0], in[1] = in[1], in[0]
		}
		switch len(in) {
		case 1:
			if rapid.Bool().Draw(t, "dir") {
				a[v].Right = in[0]
			} else {
				a[v].Down = in[0]
			}
		case 2:
			a[v].Right, a[v].Down = in[0], in[1]
		}
	}
	return a
}

// anyActions draws actions that may be illegal: every output gets a random
// slot (none, either input, or an injection of any packet id or one past).
func anyActions(t *rapid.T, s *State) []Action {
	a := legalActions(t, s)
	for range rapid.IntRange(0, 3).Draw(t, "mutations") {
		v := rapid.IntRange(0, len(a)-1).Draw(t, "node")
		x := Slot(rapid.IntRange(0, 3+len(s.Rel)).Draw(t, "slot"))
		if rapid.Bool().Draw(t, "out") {
			a[v].Right = x
		} else {
			a[v].Down = x
		}
	}
	return a
}

// isLegal is an independent statement of the physics: every packet at a node
// leaves on exactly one output, outputs name only packets that are there or
// (at a processor) own packets never injected, and no packet is sent twice.
func isLegal(s *State, a []Action) bool {
	n := s.N
	seen := map[int32]int{}
	for v := range a {
		i, j := v/n, v%n
		isProc := i+j == n-1
		count := map[Slot]int{}
		for _, x := range []Slot{a[v].Right, a[v].Down} {
			if x == None {
				continue
			}
			count[x]++
			switch x {
			case FromLeft:
				if s.InH[v].ID < 0 {
					return false
				}
			case FromUp:
				if s.InV[v].ID < 0 {
					return false
				}
			default:
				id := int32(x) - 3
				if !isProc || int(id) >= len(s.Rel) || int(s.Rel[id].Src) != i || s.IsInjected(id) {
					return false
				}
				seen[id]++
			}
		}
		for _, c := range count {
			if c > 1 {
				return false
			}
		}
		if s.InH[v].ID >= 0 && count[FromLeft] != 1 || s.InV[v].ID >= 0 && count[FromUp] != 1 {
			return false
		}
	}
	for _, c := range seen {
		if c > 1 {
			return false
		}
	}
	return true
}

// reach runs a few random legal steps from a fresh state.
func reach(t *rapid.T) State {
	n, rel := genRel(t)
	s, err := NewState(n, rel)
	if err != nil {
		t.Fatal(err)
	}
	for range rapid.IntRange(0, 3*n).Draw(t, "warmup") {
		next, _, err := Step(s, legalActions(t, &s))
		if err != nil {
			t.Fatalf("legal actions rejected: %v", err)
		}
		s = next
	}
	return s
}

// Step is pure (input untouched, stepping twice gives equal results), accepts
// exactly the legal actions, rejects the others with ErrAction, keeps the
// invariants, and moves every sent packet to the right neighbour's input or
// delivers it exactly when that neighbour is its target processor.
func TestStepProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := reach(t)
		if err := CheckInvariants(s); err != nil {
			t.Fatalf("reachable state: %v", err)
		}
		a := anyActions(t, &s)
		before := s.Clone()
		next, ev, err := Step(s, a)
		if !s.Equal(before) || !reflect.DeepEqual(s, before) {
			t.Fatal("Step modified its input")
		}
		if legal := isLegal(&s, a); legal != (err == nil) {
			t.Fatalf("legal = %v but error %v", legal, err)
		}
		if err != nil {
			if !errors.Is(err, ErrAction) {
				t.Fatalf("error %v does not wrap ErrAction", err)
			}
			return
		}
		again, ev2, err2 := Step(s, a)
		if err2 != nil || !next.Equal(again) || !reflect.DeepEqual(ev, ev2) {
			t.Fatal("two steps from the same state and actions differ")
		}
		if err := CheckInvariants(next); err != nil {
			t.Fatalf("after a legal step: %v", err)
		}
		// Every packet sent is at the neighbour's input, or delivered there.
		delivered := map[int32]Delivery{}
		for _, d := range ev.Delivered {
			delivered[d.ID] = d
		}
		n := s.N
		moves := 0
		for v, act := range a {
			i, j := v/n, v%n
			for d, x := range []Slot{act.Right, act.Down} {
				var id int32 = -1
				switch x {
				case None:
					continue
				case FromLeft:
					id = s.InH[v].ID
				case FromUp:
					id = s.InV[v].ID
				default:
					id = int32(x) - 3
				}
				moves++
				ni, nj := i, (j+1)%n
				in := next.InH
				if d == 1 {
					ni, nj = (i+1)%n, j
					in = next.InV
				}
				w := ni*n + nj
				target := s.Rel[id].Dst
				if ni+nj == n-1 && ni == int(target) {
					if dl, ok := delivered[id]; !ok || dl.Proc != target {
						t.Fatalf("packet %d reached its target P%d but was not delivered there (%+v)", id, target, dl)
					}
				} else if in[w].ID != id {
					t.Fatalf("packet %d sent %v from (%d,%d) is not at (%d,%d): %+v", id, Dir(d), i, j, ni, nj, in[w])
				}
			}
		}
		if moves != ev.Moves {
			t.Fatalf("%d packets sent, %d moves reported", moves, ev.Moves)
		}
		if next.NDelivered != s.NDelivered+len(ev.Delivered) || next.NInjected != s.NInjected+len(ev.Injected) {
			t.Fatal("counts do not add up with the events")
		}
	})
}

// StepInto with a reused destination gives exactly what Step gives.
func TestStepIntoReuse(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := reach(t)
		var dst State
		var ev Events
		for range rapid.IntRange(1, 6).Draw(t, "steps") {
			a := legalActions(t, &s)
			want, wantEv, err := Step(s, a)
			if err != nil {
				t.Fatal(err)
			}
			if err := StepInto(&dst, &s, a, &ev); err != nil {
				t.Fatal(err)
			}
			if !dst.Equal(want) || len(ev.Delivered) != len(wantEv.Delivered) || len(ev.Deflected) != len(wantEv.Deflected) || ev.Moves != wantEv.Moves {
				t.Fatal("StepInto differs from Step")
			}
			s, dst = dst, s
		}
	})
}

// A table of illegal actions on SOT(3), each rejected with a message naming
// the offence.
func TestIllegalActions(t *testing.T) {
	rel := []perm.Pair{{Src: 0, Dst: 1}, {Src: 0, Dst: 2}, {Src: 0, Dst: 2}, {Src: 1, Dst: 0}}
	s0, err := NewState(3, rel)
	if err != nil {
		t.Fatal(err)
	}
	// After one step P0 (node 2) has injected packet 0 to the right: it
	// waits at (0,0) from the left.
	a := make([]Action, 9)
	a[s0.ProcNode(0)] = Action{Right: Inject(0)}
	s1, _, err := Step(s0, a)
	if err != nil {
		t.Fatal(err)
	}
	if s1.InH[0].ID != 0 {
		t.Fatalf("packet 0 not at (0,0): %+v", s1.InH[0])
	}
	// Let it go on to P1? It is at (0,0); make it reach P0's row... keep
	// it simple: a second state where the packet passes through P0.
	cases := []struct {
		name string
		s    State
		v    int
		act  Action
		msg  string
	}{
		{"deflection node injects", s0, 0, Action{Right: Inject(0)}, "deflection node cannot inject"},
		{"not own packet", s0, s0.ProcNode(0), Action{Right: Inject(3)}, "starts at P1"},
		{"out of range", s0, s0.ProcNode(0), Action{Down: Inject(9)}, "there are 4 packets"},
		{"same packet twice", s0, s0.ProcNode(0), Action{Right: Inject(1), Down: Inject(1)}, "on both outputs"},
		{"already injected", s1, s1.ProcNode(0), Action{Right: Inject(0)}, "injected before"},
		{"keeps a packet", s1, 0, Action{}, "hot potato"},
		{"duplicates", s1, 0, Action{Right: FromLeft, Down: FromLeft}, "duplicates"},
		{"no such input", s1, 0, Action{Right: FromLeft, Down: FromUp}, "none arrived"},
		{"empty node sends", s0, 4, Action{Down: FromLeft}, "none arrived"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := make([]Action, 9)
			a[c.v] = c.act
			if c.s.T == 1 && c.v != 0 {
				a[0] = Action{Right: FromLeft}
			}
			_, _, err := Step(c.s, a)
			if err == nil || !errors.Is(err, ErrAction) || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("error %v, want ErrAction mentioning %q", err, c.msg)
			}
		})
	}
	if _, _, err := Step(s0, make([]Action, 8)); err == nil {
		t.Fatal("a wrong number of actions was accepted")
	}
}

// A processor with two packets passing through cannot inject; with one it
// can inject one (§1: "own packets can be sent only when there are less than
// two incoming packets").
func TestInjectOnlyWithFreeOutput(t *testing.T) {
	// SOT(2): P0 at (0,1), P1 at (1,0); deflection nodes (0,0) and (1,1).
	rel := []perm.Pair{{Src: 0, Dst: 0}, {Src: 0, Dst: 0}, {Src: 1, Dst: 1}, {Src: 1, Dst: 1}, {Src: 0, Dst: 1}}
	s, _ := NewState(2, rel)
	// Step 0: P0 sends its self packets 0 (right → (0,0)) and 1 (down → (1,1));
	// P1 sends 2 (right → (1,1)) and 3 (down → (0,0)).
	a := make([]Action, 4)
	a[s.ProcNode(0)] = Action{Right: Inject(0), Down: Inject(1)}
	a[s.ProcNode(1)] = Action{Right: Inject(2), Down: Inject(3)}
	s, _, err := Step(s, a)
	if err != nil {
		t.Fatal(err)
	}
	// Step 1: (0,0) holds 0 (left) and 3 (up); (1,1) holds 1 (up) and 2 (left).
	// Route 0 right → P0 (its target: delivered) and 3 down → P1 (delivered);
	// at (1,1) send 2 down → (0,1) = P0 (passes) and 1 right → (1,0) = P1 (passes).
	a = make([]Action, 4)
	a[0] = Action{Right: FromLeft, Down: FromUp}
	a[3] = Action{Right: FromUp, Down: FromLeft}
	s, ev, err := Step(s, a)
	if err != nil {
		t.Fatal(err)
	}
	if len(ev.Delivered) != 2 || s.InV[s.ProcNode(0)].ID != 2 || s.InH[s.ProcNode(1)].ID != 1 {
		t.Fatalf("unexpected state: delivered %+v, P0 from up %+v, P1 from left %+v", ev.Delivered, s.InV[s.ProcNode(0)], s.InH[s.ProcNode(1)])
	}
	// Step 2: P0 has one passing packet (2, from up): it may inject packet 4
	// on the other output, but not two packets.
	a = make([]Action, 4)
	a[s.ProcNode(1)] = Action{Right: FromLeft}
	a[s.ProcNode(0)] = Action{Down: FromUp, Right: Inject(4)}
	if _, _, err := Step(s, a); err != nil {
		t.Fatalf("one passing packet + one injection rejected: %v", err)
	}
	a[s.ProcNode(0)] = Action{Down: Inject(4), Right: FromUp}
	if _, _, err := Step(s, a); err != nil {
		t.Fatalf("one passing packet + one injection (other way) rejected: %v", err)
	}
	a[s.ProcNode(0)] = Action{Down: Inject(4)}
	if _, _, err := Step(s, a); err == nil || !strings.Contains(err.Error(), "hot potato") {
		t.Fatalf("processor keeping a passing packet to inject: error %v", err)
	}
}

// NewState rejects bad parameters with an error naming the range.
func TestNewStateErrors(t *testing.T) {
	for _, c := range []struct {
		n   int
		rel []perm.Pair
	}{{1, nil}, {MaxN + 1, nil}, {3, []perm.Pair{{Src: 3, Dst: 0}}}, {3, []perm.Pair{{Src: 0, Dst: -1}}}} {
		if _, err := NewState(c.n, c.rel); err == nil {
			t.Errorf("NewState(%d, %v) accepted", c.n, c.rel)
		}
	}
}

// CheckInvariants catches a lost, a duplicated and a misplaced packet.
func TestCheckInvariantsCatches(t *testing.T) {
	s, _ := NewState(3, []perm.Pair{{Src: 0, Dst: 1}, {Src: 0, Dst: 2}})
	a := make([]Action, 9)
	a[s.ProcNode(0)] = Action{Right: Inject(0), Down: Inject(1)}
	s, _, err := Step(s, a)
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckInvariants(s); err != nil {
		t.Fatal(err)
	}
	lost := s.Clone()
	lost.InH[0] = Empty
	dup := s.Clone()
	dup.InH[4] = dup.InH[0]
	moved := s.Clone()
	moved.InH[1], moved.InH[0] = moved.InH[0], Empty
	for name, bad := range map[string]State{"lost": lost, "duplicated": dup, "moved": moved} {
		if err := CheckInvariants(bad); err == nil {
			t.Errorf("%s packet not caught", name)
		}
	}
}
