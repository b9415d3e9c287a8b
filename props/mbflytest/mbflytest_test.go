package mbflytest_test

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"

	amb "routecheck/algos/multibutterfly"
	mb "routecheck/models/multibutterfly"
	"routecheck/props/internal/suite"
	"routecheck/props/mbflytest"
)

func priority(f amb.Fault) mbflytest.NewRouter {
	return func() mb.Router { return &amb.Priority{Fault: f} }
}

// Our own router goes through the same door: §3.2's batched priority
// routing (algos/multibutterfly.Priority, L batches), with buffers ≤ L and
// within the step cap Run uses, for several (d, L).
func TestPriority(t *testing.T) {
	for _, c := range []struct{ d, L int }{{2, 2}, {1, 1}, {3, 4}} {
		o := mbflytest.Options{D: c.d, L: c.L, MaxSteps: func(n, d, L int) int { return amb.PriorityMaxSteps(bits.Len(uint(n))-1, d, L) }}
		if testing.Short() || c.d != 2 {
			o.Sizes = []int{2, 4, 8, 16}
		}
		t.Run(fmt.Sprintf("d=%d,L=%d", c.d, c.L), func(t *testing.T) { mbflytest.Run(t, priority(amb.NoFault), o) })
	}
}

// Routers that break each property the suite claims to check.

// stranger is §3.2's router, except that a node with nothing to send
// moves, along its own out edge, the first packet it sees at that edge's
// head — a packet it does not hold.
type stranger struct{ amb.Priority }

func (s *stranger) Route(v *mb.View, rng *rand.Rand, m []mb.Move) []mb.Move {
	n0 := len(m)
	if m = s.Priority.Route(v, rng, m); len(m) > n0 {
		return m
	}
	for _, e := range v.Out {
		if len(e.Head) > 0 {
			return append(m, mb.Move{Packet: e.Head[0].Packet, Edge: e.Edge})
		}
	}
	return m
}

// doubler sends its first packet along two edges at once (a duplicate).
type doubler struct{}

func (doubler) Init(*mb.Network, int) {}
func (doubler) Route(v *mb.View, _ *rand.Rand, m []mb.Move) []mb.Move {
	return append(m, mb.Move{Packet: v.Buffer[0].Packet, Edge: v.Out[0].Edge}, mb.Move{Packet: v.Buffer[0].Packet, Edge: v.Out[1].Edge})
}

// idle never sends.
type idle struct{}

func (idle) Init(*mb.Network, int)                                 {}
func (idle) Route(_ *mb.View, _ *rand.Rand, m []mb.Move) []mb.Move { return m }

// crasher panics on its first call.
type crasher struct{}

func (crasher) Init(*mb.Network, int)                           {}
func (crasher) Route(*mb.View, *rand.Rand, []mb.Move) []mb.Move { panic("crasher") }

func TestSuiteCatches(t *testing.T) {
	small := []int{4, 8}
	cases := []struct {
		name   string
		router mbflytest.NewRouter
		o      mbflytest.Options
		want   string
		msg    string
	}{
		{"moves a packet it does not hold", func() mb.Router { return &stranger{} }, mbflytest.Options{}, "legal", "does not hold"},
		{"duplicates a packet", func() mb.Router { return doubler{} }, mbflytest.Options{}, "legal", "moved twice"},
		{"loses a packet to the wrong output set", priority(amb.FaultIgnoreBit), mbflytest.Options{}, "invariants", "misrouted"},
		{"overfills a buffer", priority(amb.FaultIgnoreBatch), mbflytest.Options{L: 1}, "buffer", "over the capacity L = 1"},
		{"never delivers", func() mb.Router { return idle{} }, mbflytest.Options{}, "termination", "not at their outputs"},
		{"slower than declared", priority(amb.NoFault), mbflytest.Options{MaxSteps: func(n, d, L int) int { return 2 * d * bits.Len(uint(n)) }}, "termination", "after the declared"},
		{"panics", func() mb.Router { return crasher{} }, mbflytest.Options{}, "panic", "crasher"},
	}
	for _, c := range cases {
		c.o.Sizes, c.o.ReplayDir = small, t.TempDir()
		fs := mbflytest.Check(c.router, c.o)
		if len(fs) == 0 {
			t.Errorf("%s: not caught", c.name)
			continue
		}
		for _, f := range fs {
			if f.Property != c.want || !strings.Contains(f.Message, c.msg) {
				t.Errorf("%s: failure %v, want property %s mentioning %q", c.name, f, c.want, c.msg)
				break
			}
		}
		// The rapid family reports a shrunk instance, and every failure
		// names a replay file that CheckFile re-runs to the same verdict.
		last := fs[len(fs)-1]
		if last.Family != "random" || !strings.Contains(last.Message, "shrunk") {
			t.Errorf("%s: the rapid family did not report a shrunk instance: %v", c.name, last)
		}
		path, ok := strings.CutPrefix(last.Replay, "routecheck replay "+c.o.ReplayDir)
		if !ok {
			t.Errorf("%s: replay %q, want a file in %s", c.name, last.Replay, c.o.ReplayDir)
			continue
		}
		path = c.o.ReplayDir + strings.Fields(path)[0]
		again, err := mbflytest.CheckFile(path, c.router)
		if err != nil || again == nil || again.Property != last.Property || again.Step != last.Step {
			t.Errorf("%s: CheckFile(%s) = %v, %v; want %s at step %d", c.name, path, again, err, last.Property, last.Step)
		}
	}
}

func FuzzPriority(f *testing.F) { mbflytest.Fuzz(f, priority(amb.NoFault)) }

// TestLocality: the yielding cheat fails locality alone, on every size
// where a node has a neighbour with two packets (N ≥ 4 here), and the
// replay file reproduces it; declared as shared knowledge, it passes.
func TestLocality(t *testing.T) {
	o := mbflytest.Options{Sizes: []int{4, 8, 16}, ReplayDir: t.TempDir()}
	path := suite.Only(t, mbflytest.Check(newYielding, o), "locality", "with a router per node it decides", func(f mbflytest.Failure) (string, string, string) {
		return f.Property, f.Message, f.Replay
	})
	if again, err := mbflytest.CheckFile(path, newYielding); err != nil || again == nil || again.Property != "locality" {
		t.Errorf("replay %s: %v, %v; want the locality failure", path, again, err)
	}
	o.SharedKnowledge = "the toy knows its row neighbour's buffer"
	if fs := mbflytest.Check(newYielding, o); len(fs) != 0 {
		t.Errorf("declared: %v, want no failure", fs)
	}
}
