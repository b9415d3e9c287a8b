package multibutterfly

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"routecheck/models/perm"
)

// stepIntoMaps is StepInto as it was before the epoch-stamped scratch
// arrays: the per-step sets are maps. It is the plain version the fast one
// is held to. plant (tests only) plants a difference: the "two active
// lines" error names the later move twice instead of the earlier one.
func stepIntoMaps(dst *State, s State, a []Move, plant bool) (Events, error) {
	dst.Net, dst.L = s.Net, s.L
	dst.Source = append(dst.Source[:0], s.Source...)
	dst.Dest = append(dst.Dest[:0], s.Dest...)
	dst.Pos = append(dst.Pos[:0], s.Pos...)
	dst.Count = append(dst.Count[:0], s.Count...)
	var ev Events
	busy := make(map[int32]int, 2*len(a))
	usedEdge := make(map[int32]bool, len(a))
	moved := make(map[int32]bool, len(a))
	for i, m := range a {
		if m.Packet < 0 || int(m.Packet) >= len(s.Pos) || m.Edge < 0 || int(m.Edge) >= len(s.Net.Edges) {
			return ev, fmt.Errorf("multibutterfly: %w: move %d: packet %d or edge %d out of range", ErrIllegal, i, m.Packet, m.Edge)
		}
		e := s.Net.Edges[m.Edge]
		if s.Pos[m.Packet] != e.From {
			return ev, fmt.Errorf("multibutterfly: %w: move %d: packet %d is at node %d, not at the tail %d of edge %d", ErrIllegal, i, m.Packet, s.Pos[m.Packet], e.From, m.Edge)
		}
		if moved[m.Packet] {
			return ev, fmt.Errorf("multibutterfly: %w: move %d: packet %d moved twice in one step", ErrIllegal, i, m.Packet)
		}
		if usedEdge[m.Edge] {
			return ev, fmt.Errorf("multibutterfly: %w: move %d: two packets on edge %d in one step", ErrIllegal, i, m.Edge)
		}
		for _, v := range []int32{e.From, e.To} {
			if j, ok := busy[v]; ok {
				if plant {
					j = i
				}
				return ev, fmt.Errorf("multibutterfly: %w: moves %d and %d: node %d has two active lines in one step", ErrIllegal, j, i, v)
			}
			busy[v] = i
		}
		moved[m.Packet], usedEdge[m.Edge] = true, true
		dst.Pos[m.Packet] = e.To
		dst.Count[e.From]--
		dst.Count[e.To]++
		ev.Moves++
	}
	for _, m := range a {
		to := s.Net.Edges[m.Edge].To
		if int(dst.Count[to]) > s.L {
			return ev, fmt.Errorf("multibutterfly: %w: node %d holds %d packets, over the capacity L = %d", ErrCapacity, to, dst.Count[to], s.L)
		}
		if dst.Delivered(int(m.Packet)) {
			ev.Delivered = append(ev.Delivered, m.Packet)
		}
	}
	return ev, nil
}

// stepErrKinds are StepInto's errors, by a phrase of their text.
var stepErrKinds = []string{"out of range", "not at the tail", "moved twice", "two packets on edge", "two active lines", "over the capacity"}

type stepFunc func(dst *State, s State, a []Move) (Events, error)

// diffMoves draws a move list on s: mostly packets moved along an edge
// leaving their node, with repeats, foreign edges and out-of-range indices
// mixed in so that every error of StepInto comes up.
func diffMoves(s State, rng *rand.Rand) []Move {
	net := s.Net
	var a []Move
	for range 1 + rng.IntN(2*len(s.Pos)+1) {
		q := int32(rng.IntN(len(s.Pos) + 1))
		switch r := rng.IntN(40); {
		case r == 0:
			a = append(a, Move{Packet: -1, Edge: 0})
		case r == 1:
			a = append(a, Move{Packet: 0, Edge: int32(len(net.Edges))})
		case r < 5 || int(q) == len(s.Pos):
			a = append(a, Move{Packet: q % int32(len(s.Pos)), Edge: int32(rng.IntN(len(net.Edges)))})
		default:
			out := net.Out[s.Pos[q]]
			if len(out) == 0 {
				continue
			}
			a = append(a, Move{Packet: q, Edge: out[rng.IntN(len(out))]})
		}
	}
	return a
}

// stepDiff runs impl and stepIntoMaps (no plant) on random networks, states
// and move lists, each into a destination already holding another state,
// and returns the first difference in the next state, the events, the error
// text or its class ("" if none), with how often each outcome came up.
func stepDiff(impl stepFunc) (string, map[string]int) {
	seen := map[string]int{}
	rng := rand.New(rand.NewPCG(14, 2))
	for c := range 300 {
		n := []int{4, 8, 16}[c%3]
		net, err := Build(n, 1+c%3, rand.New(rand.NewPCG(uint64(c), 7)))
		if err != nil {
			return err.Error(), seen
		}
		p := perm.Random(n, rng)
		for i := range p {
			if rng.IntN(4) == 0 {
				p[i] = perm.None
			}
		}
		s, err := Init(net, 1+rng.IntN(3), p)
		if err != nil {
			return err.Error(), seen
		}
		if len(s.Pos) == 0 {
			continue
		}
		junk := s.Clone()
		for step := range 12 {
			a := diffMoves(s, rng)
			var want State
			wev, werr := stepIntoMaps(&want, s, a, false)
			got := junk.Clone()
			gev, gerr := impl(&got, s, a)
			where := fmt.Sprintf("case %d step %d moves %v", c, step, a)
			switch {
			case (werr == nil) != (gerr == nil):
				return fmt.Sprintf("%s: error %v, plain %v", where, gerr, werr), seen
			case werr != nil && (werr.Error() != gerr.Error() || errors.Is(werr, ErrIllegal) != errors.Is(gerr, ErrIllegal) || errors.Is(werr, ErrCapacity) != errors.Is(gerr, ErrCapacity)):
				return fmt.Sprintf("%s: error %q, plain %q", where, gerr, werr), seen
			case wev.Moves != gev.Moves || !slices.Equal(wev.Delivered, gev.Delivered):
				return fmt.Sprintf("%s: events %+v, plain %+v", where, gev, wev), seen
			}
			if werr != nil {
				for _, k := range stepErrKinds {
					if strings.Contains(werr.Error(), k) {
						seen[k]++
					}
				}
				continue
			}
			if got.Net != want.Net || got.L != want.L || !slices.Equal(got.Pos, want.Pos) || !slices.Equal(got.Count, want.Count) || !slices.Equal(got.Source, want.Source) || !slices.Equal(got.Dest, want.Dest) {
				return fmt.Sprintf("%s: state %+v, plain %+v", where, got, want), seen
			}
			seen["ok"]++
			if gev.Moves > 0 {
				s, junk = want, s
			}
		}
	}
	return "", seen
}

// TestStepIntoMatchesMaps holds StepInto (epoch-stamped scratch arrays) to
// the map version it replaced: the same next state, events and errors on
// every random case, with every kind of error and legal steps among them;
// and the comparison catches a planted difference in one error's text.
func TestStepIntoMatchesMaps(t *testing.T) {
	diff, seen := stepDiff(StepInto)
	if diff != "" {
		t.Fatal(diff)
	}
	for _, k := range append([]string{"ok"}, stepErrKinds...) {
		if seen[k] == 0 {
			t.Errorf("no case with outcome %q: %v", k, seen)
		}
	}
	t.Logf("outcomes: %v", seen)
	planted := func(dst *State, s State, a []Move) (Events, error) { return stepIntoMaps(dst, s, a, true) }
	if diff, _ := stepDiff(planted); diff == "" {
		t.Error("the comparison does not catch the planted difference (the earlier move misnamed)")
	}
}

// checkInvariantsPlain is CheckInvariants as it was before the pooled
// tally: a fresh slice per call.
func checkInvariantsPlain(s State) error {
	if len(s.Dest) != len(s.Pos) || len(s.Source) != len(s.Pos) || len(s.Count) != s.Net.Nodes() {
		return fmt.Errorf("multibutterfly: shape: %d sources, %d destinations, %d positions, %d counts", len(s.Source), len(s.Dest), len(s.Pos), len(s.Count))
	}
	tally := make([]int32, len(s.Count))
	for p, v := range s.Pos {
		if v < 0 || int(v) >= len(tally) {
			return fmt.Errorf("multibutterfly: packet %d at node %d out of range", p, v)
		}
		tally[v]++
		if !s.Net.OnRoute(v, s.Dest[p]) {
			st, k := s.Net.StageOf(v)
			return fmt.Errorf("multibutterfly: packet %d (destination %d) misrouted to ⟨%d, %d⟩", p, s.Dest[p], st, k)
		}
	}
	for v, c := range tally {
		if c != s.Count[v] {
			return fmt.Errorf("multibutterfly: node %d: count %d, but %d packets stand there", v, s.Count[v], c)
		}
		if int(c) > s.L {
			return fmt.Errorf("multibutterfly: node %d holds %d packets, over L = %d", v, c, s.L)
		}
	}
	return nil
}

// invariantsDiff compares check with checkInvariantsPlain on states reached
// by legal random steps on networks of several sizes (so the pooled tally
// is reused across sizes), each also corrupted in one way — a count
// changed, a packet moved to another node (same stage or anywhere, out of
// range included), L lowered, a slice shortened — and returns the first
// difference, with how often each outcome came up.
func invariantsDiff(check func(State) error) (string, map[string]int) {
	kinds := []string{"shape", "out of range", "misrouted", "count", "over L", "ok"}
	seen := map[string]int{}
	rng := rand.New(rand.NewPCG(14, 3))
	for c := range 300 {
		n := []int{4, 16, 8}[c%3]
		net, err := Build(n, 1+c%3, rand.New(rand.NewPCG(uint64(c), 9)))
		if err != nil {
			return err.Error(), seen
		}
		s, err := Init(net, 1+rng.IntN(3), perm.Random(n, rng))
		if err != nil {
			return err.Error(), seen
		}
		for step := range 8 {
			x := s.Clone()
			switch r := rng.IntN(9); r {
			case 1:
				x.Count[rng.IntN(len(x.Count))] += int32(1 - 2*rng.IntN(2))
			case 2, 3:
				q := rng.IntN(len(x.Pos))
				if r == 2 {
					x.Pos[q] = int32(rng.IntN(net.Nodes()+2) - 1)
				} else {
					st, _ := net.StageOf(x.Pos[q])
					x.Pos[q] = net.Node(st, rng.IntN(n))
				}
				if x.Pos[q] >= 0 && int(x.Pos[q]) < net.Nodes() && rng.IntN(2) == 0 {
					x.Count[s.Pos[q]]--
					x.Count[x.Pos[q]]++
				}
			case 4:
				x.L = rng.IntN(max(x.L, 1))
			case 5:
				x.Dest = x.Dest[:len(x.Dest)-1]
			}
			want, got := checkInvariantsPlain(x), check(x)
			if fmt.Sprint(want) != fmt.Sprint(got) {
				return fmt.Sprintf("case %d step %d: %v, plain %v", c, step, got, want), seen
			}
			for _, k := range kinds {
				if want == nil && k == "ok" || want != nil && strings.Contains(want.Error(), k) {
					seen[k]++
				}
			}
			var next State
			if _, err := StepInto(&next, s, diffMoves(s, rng)); err == nil {
				s = next
			}
		}
	}
	return "", seen
}

// TestCheckInvariantsMatchesPlain holds CheckInvariants (pooled tally) to
// the fresh-slice version on sound and corrupted states, every kind of
// error among them, and the comparison catches a planted difference (a
// check that lets a buffer over L through).
func TestCheckInvariantsMatchesPlain(t *testing.T) {
	diff, seen := invariantsDiff(CheckInvariants)
	if diff != "" {
		t.Fatal(diff)
	}
	for _, k := range []string{"shape", "out of range", "misrouted", "count", "over L", "ok"} {
		if seen[k] == 0 {
			t.Errorf("no case with outcome %q: %v", k, seen)
		}
	}
	t.Logf("outcomes: %v", seen)
	planted := func(s State) error {
		if err := CheckInvariants(s); err != nil && !strings.Contains(err.Error(), "over L") {
			return err
		}
		return nil
	}
	if diff, _ := invariantsDiff(planted); diff == "" {
		t.Error("the comparison does not catch a check that lets a buffer over L through")
	}
}
