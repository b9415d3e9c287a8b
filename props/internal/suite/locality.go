package suite

import (
	"fmt"
	"strings"
)

// Locality is the machinery of the suites' locality property: a router run
// twice on one instance with one random stream — once with one Router value
// shared by every node (as the suites run it everywhere else), once with a
// fresh Router per node (newRouter() once for each node, the node's calls
// going to its own value) — must make the same decisions in the same order.
// A router whose decision at a node depends on what it learned at another
// node (a cache filled in another node's call, a global table built from
// every node's view) decides differently, or panics, in the second run;
// a router that keeps only per-node memory cannot tell the runs apart.
// The check sees only state held in the Router values: package variables,
// or a value newRouter captures and hands to every router it makes, are
// shared by both runs and escape it (say so to users; it is not a sandbox).
//
// Tape records the shared run's decisions (Note, before PerNode) and
// compares the per-node run's against them (Note, after PerNode); Diff
// words the first difference. A is a decision (a node's action in a step);
// eq compares two, clone copies one the router may reuse (nil: A is a
// value), where names a node at a step in messages ("slot 3, processor 1").
type Tape[A any] struct {
	eq      func(a, b A) bool
	clone   func(A) A
	where   func(step, node int) string
	want    []decision[A]
	compare bool
	at      int
	diff    string
	step    int
}

type decision[A any] struct {
	step, node int
	act        A
}

// NewTape returns an empty tape in recording mode.
func NewTape[A any](eq func(a, b A) bool, clone func(A) A, where func(step, node int) string) *Tape[A] {
	return &Tape[A]{eq: eq, clone: clone, where: where}
}

// Note records (shared run) or checks (per-node run) the decision act of
// node at step.
func (t *Tape[A]) Note(step, node int, act A) {
	if !t.compare {
		if t.clone != nil {
			act = t.clone(act)
		}
		t.want = append(t.want, decision[A]{step, node, act})
		return
	}
	if t.diff != "" {
		return
	}
	t.step = step
	k := t.at
	t.at++
	if k >= len(t.want) {
		t.diff = fmt.Sprintf("%s: with a router per node the run asks for decision %d, the shared router's run made only %d", t.where(step, node), k+1, len(t.want))
		return
	}
	w := t.want[k]
	switch {
	case w.step != step || w.node != node:
		t.diff = fmt.Sprintf("decision %d: with a router per node it is asked at %s, with the shared router at %s", k+1, t.where(step, node), t.where(w.step, w.node))
	case !t.eq(w.act, act):
		t.diff = fmt.Sprintf("%s: with a router per node it decides %+v, with one router shared by every node %+v", t.where(step, node), act, w.act)
	}
}

// Step is the step of the per-node run's last compared decision (the first
// difference's, when Diff reports one at a decision).
func (t *Tape[A]) Step() int { return t.step }

// PerNode switches the tape from recording to comparing.
func (t *Tape[A]) PerNode() { t.compare, t.at = true, 0 }

// Diff returns "" when the per-node run made the shared run's decisions
// and ended the same way, else the first difference in words followed by
// the reason a local router cannot differ. shared and perNode are the two
// runs' outcomes ("" for a clean run, else the failure or panic).
func (t *Tape[A]) Diff(shared, perNode string) string {
	d := t.diff
	switch {
	case d != "":
	case t.at < len(t.want):
		d = fmt.Sprintf("with a router per node the run ended after %d of the shared run's %d decisions", t.at, len(t.want))
		if perNode != "" {
			d += " (" + perNode + ")"
		}
	case shared != perNode:
		d = fmt.Sprintf("the same decisions, but the runs ended differently: shared router %q, router per node %q", or(shared, "clean"), or(perNode, "clean"))
	default:
		return ""
	}
	return d + "; a router that decides from each node's own view and memory cannot tell the two runs apart, so it carries knowledge between nodes (declare it in Options.SharedKnowledge if your model allows that)"
}

// Outcome is a run's outcome for Diff: "" for a clean run (f nil), else
// the failure in words.
func Outcome[F fmt.Stringer](f *F) string {
	if f == nil {
		return ""
	}
	return (*f).String()
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// Pool holds the routers of the per-node run: one per node, made by
// newRouter and set up by start on the node's first call.
type Pool[R any] struct {
	newRouter func() R
	start     func(R)
	rs        map[int]R
}

// NewPool returns an empty pool; start (may be nil) is called on each new
// router, as the driver calls it on the shared one.
func NewPool[R any](newRouter func() R, start func(R)) *Pool[R] {
	return &Pool[R]{newRouter: newRouter, start: start, rs: map[int]R{}}
}

// For returns node's router, making it on first use.
func (p *Pool[R]) For(node int) R {
	r, ok := p.rs[node]
	if !ok {
		r = p.newRouter()
		if p.start != nil {
			p.start(r)
		}
		p.rs[node] = r
	}
	return r
}

// Len is the number of routers made.
func (p *Pool[R]) Len() int { return len(p.rs) }

// NotChecked words the log line of a locality subtest whose check is left
// out because the router's Options.SharedKnowledge declares (with reason)
// that it uses knowledge beyond one node's.
func NotChecked(reason string) string {
	return "locality not required (Options.SharedKnowledge): " + reason
}

// Declared words the report of a locality difference for a router whose
// Options.SharedKnowledge declares (with reason) that it uses knowledge
// beyond one node's: logged, not failed.
func Declared(reason, diff string) string {
	d, _, _ := strings.Cut(diff, "; a router that decides")
	return fmt.Sprintf("locality not required (Options.SharedKnowledge: %s); the runs differ: %s", reason, d)
}
