package suite

import (
	"fmt"
	"strings"
	"testing"
)

func where(step, node int) string { return fmt.Sprintf("step %d, node %d", step, node) }

// TestTape: the same decisions and outcome give no difference; a changed
// decision, a missing or extra one, a decision asked of another node, or
// another outcome each give one that names it.
func TestTape(t *testing.T) {
	eq := func(a, b []int) bool { return fmt.Sprint(a) == fmt.Sprint(b) }
	clone := func(a []int) []int { return append([]int(nil), a...) }
	record := func() *Tape[[]int] {
		tp := NewTape(eq, clone, where)
		buf := []int{1}
		tp.Note(0, 0, buf)
		buf[0] = 2 // the router reuses its slice: the tape kept a copy
		tp.Note(0, 1, buf)
		tp.PerNode()
		return tp
	}
	tp := record()
	tp.Note(0, 0, []int{1})
	tp.Note(0, 1, []int{2})
	if d := tp.Diff("", ""); d != "" {
		t.Errorf("same runs: %q", d)
	}
	cases := []struct {
		name  string
		run   func(*Tape[[]int])
		local string
		want  string
	}{
		{"changed", func(tp *Tape[[]int]) { tp.Note(0, 0, []int{1}); tp.Note(0, 1, []int{3}) }, "", "step 0, node 1: with a router per node it decides [3], with one router shared by every node [2]"},
		{"missing", func(tp *Tape[[]int]) { tp.Note(0, 0, []int{1}) }, "panic: boom", "ended after 1 of the shared run's 2 decisions (panic: boom)"},
		{"extra", func(tp *Tape[[]int]) { tp.Note(0, 0, []int{1}); tp.Note(0, 1, []int{2}); tp.Note(1, 0, nil) }, "", "asks for decision 3, the shared router's run made only 2"},
		{"other node", func(tp *Tape[[]int]) { tp.Note(0, 0, []int{1}); tp.Note(0, 2, []int{2}) }, "", "decision 2: with a router per node it is asked at step 0, node 2, with the shared router at step 0, node 1"},
		{"outcome", func(tp *Tape[[]int]) { tp.Note(0, 0, []int{1}); tp.Note(0, 1, []int{2}) }, "legal: boom", `runs ended differently: shared router "clean", router per node "legal: boom"`},
	}
	for _, c := range cases {
		tp := record()
		c.run(tp)
		d := tp.Diff("", c.local)
		if !strings.Contains(d, c.want) || !strings.Contains(d, "SharedKnowledge") {
			t.Errorf("%s: %q, want it to contain %q and the reason", c.name, d, c.want)
		}
	}
	if got := NotChecked("offline schedule"); got != "locality not required (Options.SharedKnowledge): offline schedule" {
		t.Errorf("NotChecked: %q", got)
	}
	if got := Declared("offline schedule", "x; a router that decides …"); got != "locality not required (Options.SharedKnowledge: offline schedule); the runs differ: x" {
		t.Errorf("Declared: %q", got)
	}
}

// TestPool: one router per node, made and started on first use only.
func TestPool(t *testing.T) {
	made, started := 0, 0
	p := NewPool(func() *int { made++; v := made; return &v }, func(*int) { started++ })
	a, b, a2 := p.For(3), p.For(5), p.For(3)
	if a != a2 || a == b || made != 2 || started != 2 || p.Len() != 2 {
		t.Errorf("For(3), For(5), For(3): %p %p %p, made %d, started %d, Len %d; want two routers, the first returned twice", a, b, a2, made, started, p.Len())
	}
}
