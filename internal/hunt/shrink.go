package hunt

import (
	"context"
	"flag"
	"fmt"
	"slices"

	"routecheck/models/perm"
)

// Shrinking: after a search, a target makes its best instance simpler
// while the metric stays at least the value it hunted (so a case above a
// bound stays above it). Four instance shapes, each with the moves that
// keep it inside the shape (and so inside the target's scope):
//
//   - ShrinkPartial, partial permutations (perm.None marks a processor
//     without a packet): remove a packet; make a packet a fixed point.
//   - ShrinkPerm, full permutations: make a packet a fixed point by a swap
//     (the packet that went to i takes i's old destination), which keeps a
//     permutation.
//   - ShrinkLists, k-k distributions (list p holds the destinations of
//     processor p's packets, every processor sends and receives the same
//     number k): make packet (p, r) a fixed point by
//     swapping destinations with a packet of another processor that goes
//     to p, which keeps every processor's sending and receiving counts.
//   - ShrinkSublists, the same lists where the scope is "at most h" per
//     processor (the sparse optical torus's h-relations): remove a packet.
//
// Each runs greedy passes over its moves in a fixed order, keeping a move
// when the metric stays ≥ target, until a pass keeps none (the result is
// then locally minimal: no single move of the neighbourhood keeps the
// metric ≥ target) or the evaluation cap is reached or ctx is done (the
// result is then valid and ≥ target but may not be minimal). eval must be
// deterministic (common random numbers) and must not keep its argument;
// the start instance must itself have eval ≥ target (not re-checked). A
// pass costs one evaluation per move: O(packets).

// ShrinkStats says what a shrink did.
type ShrinkStats struct {
	// Evals is the number of metric evaluations made.
	Evals int
	// Passes counts the passes started.
	Passes int
	// Minimal: the last pass kept no move (false: stopped by the cap or ctx).
	Minimal bool
}

// String is "locally minimal after P passes, E evaluations" or "stopped
// after E evaluations in pass P (not shown minimal)".
func (s ShrinkStats) String() string {
	if s.Minimal {
		return fmt.Sprintf("locally minimal after %d passes, %d evaluations", s.Passes, s.Evals)
	}
	return fmt.Sprintf("stopped after %d evaluations in pass %d (not shown minimal)", s.Evals, s.Passes)
}

// shrinker is the greedy loop the shapes share.
type shrinker struct {
	ctx      context.Context
	target   float64
	maxEvals int
	st       ShrinkStats
	err      error
}

// stop reports whether no further evaluation may be made.
func (s *shrinker) stop() bool {
	return s.err != nil || s.ctx.Err() != nil || s.maxEvals > 0 && s.st.Evals >= s.maxEvals
}

// keeps evaluates the instance after a move: whether the move is kept.
func (s *shrinker) keeps(eval func() (float64, error)) bool {
	s.st.Evals++
	v, err := eval()
	if err != nil {
		s.err = err
		return false
	}
	return v >= s.target
}

// run calls pass until a pass keeps nothing or the loop must stop; pass
// returns whether it kept a move and returns false early when stop is
// true (the caller then clears Minimal: that pass did not try every move).
func (s *shrinker) run(pass func() bool) (ShrinkStats, error) {
	for !s.stop() {
		s.st.Passes++
		if !pass() {
			s.st.Minimal = s.err == nil
			break
		}
	}
	return s.st, s.err
}

// shrink is the body the four shapes share: greedy passes over the
// caller's working copy q (pass makes the moves of one pass on it, through
// ev, which evaluates q) until a pass keeps none or must stop. pass reports
// whether it kept a move and whether the cap or ctx stopped it (a stopped
// pass did not try every move, so the result is not shown minimal).
func shrink[T any](ctx context.Context, q T, eval func(T) (float64, error), target float64, maxEvals int, pass func(s *shrinker, ev func() (float64, error)) (changed, stopped bool)) (T, ShrinkStats, error) {
	s := &shrinker{ctx: ctx, target: target, maxEvals: maxEvals}
	ev := func() (float64, error) { return eval(q) }
	cut := false
	st, err := s.run(func() bool {
		changed, stopped := pass(s, ev)
		cut = stopped
		return changed && !stopped
	})
	st.Minimal = st.Minimal && !cut && err == nil
	return q, st, err
}

// CloneLists is a deep copy of lists (a k-k distribution, an h-relation).
func CloneLists[E any](d [][]E) [][]E {
	out := make([][]E, len(d))
	for i, x := range d {
		out[i] = slices.Clone(x)
	}
	return out
}

// Moved counts the packets of a partial permutation that are not fixed
// points (perm.None entries are not packets).
func Moved(p []int32) int {
	k := 0
	for i, x := range p {
		if x != perm.None && x != int32(i) {
			k++
		}
	}
	return k
}

// Packets counts the packets of a partial permutation.
func Packets(p []int32) int {
	k := 0
	for _, x := range p {
		if x != perm.None {
			k++
		}
	}
	return k
}

// MovedLists counts the packets of a k-k distribution or h-relation
// (d[p] lists processor p's destinations) that are not fixed points.
func MovedLists(d [][]int32) int {
	k := 0
	for p, ds := range d {
		for _, x := range ds {
			if x != int32(p) {
				k++
			}
		}
	}
	return k
}

// ShrinkPartial shrinks a partial permutation p of 0…len(p)−1 (perm.None:
// no packet): passes that remove each packet in turn (entry → perm.None),
// then passes that make each packet i a fixed point (i → i, and the packet
// that went to i, if any, takes i's old destination). maxEvals ≤ 0: no
// cap. p is not modified.
func ShrinkPartial(ctx context.Context, p []int32, eval func([]int32) (float64, error), target float64, maxEvals int) ([]int32, ShrinkStats, error) {
	q := slices.Clone(p)
	inv := inverse(q)
	return shrink(ctx, q, eval, target, maxEvals, func(s *shrinker, ev func() (float64, error)) (bool, bool) {
		changed := false
		for i := range q {
			if q[i] == perm.None {
				continue
			}
			if s.stop() {
				return changed, true
			}
			x := q[i]
			q[i], inv[x] = perm.None, -1
			if s.keeps(ev) {
				changed = true
				continue
			}
			q[i], inv[x] = x, int32(i)
		}
		fixed, stopped := fixPass(q, inv, s, ev)
		return changed || fixed, stopped
	})
}

// ShrinkPerm shrinks a full permutation p: passes that make each packet i
// with p[i] ≠ i a fixed point by a swap (p[i] = i, and the packet j that
// went to i goes to i's old destination). The result is a permutation.
// maxEvals ≤ 0: no cap. p is not modified.
func ShrinkPerm(ctx context.Context, p []int32, eval func([]int32) (float64, error), target float64, maxEvals int) ([]int32, ShrinkStats, error) {
	q := slices.Clone(p)
	inv := inverse(q)
	return shrink(ctx, q, eval, target, maxEvals, func(s *shrinker, ev func() (float64, error)) (bool, bool) {
		return fixPass(q, inv, s, ev)
	})
}

// fixPass is one pass of fixing moves: it tries fixAt for every packet
// that is present and not a fixed point, in index order. It reports
// whether a move was kept and whether the shrinker's cap or context
// stopped the pass.
func fixPass(q, inv []int32, s *shrinker, ev func() (float64, error)) (changed, stopped bool) {
	for i := range q {
		if q[i] == perm.None || q[i] == int32(i) {
			continue
		}
		if s.stop() {
			return changed, true
		}
		if fixAt(q, inv, i, s, ev) {
			changed = true
		}
	}
	return changed, false
}

// fixAt tries the move that makes packet i (q[i] ≠ perm.None, ≠ i) a fixed
// point, keeping inv the inverse of q; it undoes the move unless kept.
func fixAt(q, inv []int32, i int, s *shrinker, ev func() (float64, error)) bool {
	x, j := q[i], inv[i] // q[j] == i, or j == −1
	q[i], inv[i] = int32(i), int32(i)
	if j >= 0 {
		q[j], inv[x] = x, j
	} else {
		inv[x] = -1
	}
	if s.keeps(ev) {
		return true
	}
	q[i], inv[x] = x, int32(i)
	if j >= 0 {
		q[j], inv[i] = int32(i), j
	} else {
		inv[i] = -1
	}
	return false
}

// inverse of a partial permutation: inv[x] = i when p[i] = x, −1 when no
// packet goes to x.
func inverse(p []int32) []int32 {
	inv := make([]int32, len(p))
	for i := range inv {
		inv[i] = -1
	}
	for i, x := range p {
		if x != perm.None {
			inv[x] = int32(i)
		}
	}
	return inv
}

// ShrinkLists shrinks a k-k distribution d (d[p] lists the destinations
// of processor p's packets, each in 0…len(d)−1; every processor sends and
// receives the same number k): passes that make each
// packet (p, r) with d[p][r] = x ≠ p a fixed point by swapping
// destinations with one packet (q, s), q ≠ p, that goes to p — the first
// (q = x if x has one, then in processor order, then in list order), so
// that when x itself sends to p both packets become fixed points. Such a
// packet always exists (p receives as many packets as it sends, and sends
// one elsewhere). Every processor keeps its sending and receiving counts
// and the positions of its packets in its list. maxEvals ≤ 0: no cap. d is
// not modified. An unbalanced d (a processor sends a packet elsewhere and
// receives none from another processor) is an error, returned with d
// unchanged and before any evaluation.
func ShrinkLists(ctx context.Context, d [][]int32, eval func([][]int32) (float64, error), target float64, maxEvals int) ([][]int32, ShrinkStats, error) {
	if err := checkBalanced(d); err != nil {
		return d, ShrinkStats{}, err
	}
	q := CloneLists(d)
	return shrink(ctx, q, eval, target, maxEvals, func(s *shrinker, ev func() (float64, error)) (bool, bool) {
		changed := false
		for p := range q {
			for r := range q[p] {
				x := q[p][r]
				if x == int32(p) {
					continue
				}
				if s.stop() {
					return changed, true
				}
				pq, ps := ListPartner(q, p, int(x)) // exists: q stays balanced
				q[p][r], q[pq][ps] = int32(p), x
				if s.keeps(ev) {
					changed = true
					continue
				}
				q[p][r], q[pq][ps] = x, int32(p)
			}
		}
		return changed, false
	})
}

// checkBalanced reports an error unless every processor of d receives as
// many packets as it sends, each destination in 0…len(d)−1 (then every
// ShrinkLists move has a partner, and each move keeps d balanced).
func checkBalanced(d [][]int32) error {
	bal := make([]int, len(d))
	for p, ds := range d {
		bal[p] += len(ds)
		for r, x := range ds {
			if x < 0 || int(x) >= len(d) {
				return fmt.Errorf("hunt: ShrinkLists: packet (%d, %d) goes to %d, allowed [0, %d)", p, r, x, len(d))
			}
			bal[x]--
		}
	}
	for p, b := range bal {
		if b != 0 {
			return fmt.Errorf("hunt: ShrinkLists: processor %d sends %d more packets than it receives (need a k-k distribution: every processor sends and receives the same number)", p, b)
		}
	}
	return nil
}

// ListPartner is the packet ShrinkLists swaps with to make a packet of
// processor p going to x a fixed point: the first packet going to p from
// processor x, else from the other processors in order (never p itself);
// (−1, −1) if none.
func ListPartner(d [][]int32, p, x int) (int, int) {
	if x != p {
		if s := slices.Index(d[x], int32(p)); s >= 0 {
			return x, s
		}
	}
	for q := range d {
		if q == p {
			continue
		}
		if s := slices.Index(d[q], int32(p)); s >= 0 {
			return q, s
		}
	}
	return -1, -1
}

// ShrinkFlag is the --shrink-evals flag of the targets that shrink.
type ShrinkFlag struct{ intFlag }

// Define adds --shrink-evals to fs.
func (f *ShrinkFlag) Define(fs *flag.FlagSet) {
	f.n = fs.Int("shrink-evals", 0, "at most this many metric evaluations to shrink the best instance, keeping the metric ≥ the hunted value (0: as many as the search made, at least 2000; -1: do not shrink)")
}

// Check validates the flag's value.
func (f ShrinkFlag) Check() error {
	return f.check("shrink-evals", -1, 100_000_000, " (0: as many as the search made, at least 2000; -1: do not shrink)")
}

// DefaultShrinkFloor is the least evaluation cap of --shrink-evals 0, so
// that a search that ends early (a violation found at once) still shrinks.
const DefaultShrinkFloor = 2000

// Cap returns the evaluation cap for shrinking after a search that made
// searchEvals evaluations — the flag's value, or for 0 (the default)
// max(searchEvals, DefaultShrinkFloor) — and false when the flag is −1 (do
// not shrink). An undefined flag is its default.
func (f ShrinkFlag) Cap(searchEvals int) (int, bool) {
	n := f.value(0)
	switch {
	case n < 0:
		return 0, false
	case n == 0:
		return max(searchEvals, DefaultShrinkFloor), true
	}
	return n, true
}

// ShrinkSublists shrinks lists of destinations (d[p] lists processor p's
// packets in its sending order) by removing packets: passes that delete
// each entry in turn, keeping the deletion when the metric stays ≥ target.
// For instances whose scope is "at most h" per processor (the h-relations
// of the sparse optical torus paper: each node sends at most h packets and
// is the target of at most h), so removal stays in scope and the others
// keep their order; a fixed point is no simplification there (a
// self-addressed packet circles the torus). maxEvals ≤ 0: no cap. d is not
// modified.
func ShrinkSublists(ctx context.Context, d [][]int32, eval func([][]int32) (float64, error), target float64, maxEvals int) ([][]int32, ShrinkStats, error) {
	q := CloneLists(d)
	return shrink(ctx, q, eval, target, maxEvals, func(s *shrinker, ev func() (float64, error)) (bool, bool) {
		changed := false
		for p := range q {
			for r := 0; r < len(q[p]); {
				if s.stop() {
					return changed, true
				}
				x := q[p][r]
				q[p] = slices.Delete(q[p], r, r+1)
				if s.keeps(ev) {
					changed = true
					continue // the next packet is now at r
				}
				q[p] = slices.Insert(q[p], r, x)
				r++
			}
		}
		return changed, false
	})
}

// PacketsLists counts the packets of lists of destinations.
func PacketsLists(d [][]int32) int {
	k := 0
	for _, ds := range d {
		k += len(ds)
	}
	return k
}

// ShrinkNoter is implemented by every target: Shrinking says, in one
// sentence for its -h, whether and how the target shrinks its best
// instance (or why it does not).
type ShrinkNoter interface {
	Shrinking() string
}

// ShrinkHelp is the Shrinking sentence of a target that shrinks with the
// given moves.
func ShrinkHelp(moves string) string {
	return "shrinking: after the search the best instance is shrunk (" + moves + ") while the metric stays ≥ the hunted value, in at most --shrink-evals evaluations (default: as many as the search made, at least 2000; -1: none) and, with --time D, D/4; found_by says what changed and the case's shrink_floor the value kept"
}

// ShrinkContext is ctx for a target's shrink: with o.ShrinkTime it ends
// that long from now (the shrink then stops with a valid instance, not
// shown minimal). Call cancel when the shrink returns.
func (o Options) ShrinkContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if o.ShrinkTime > 0 {
		return context.WithTimeout(ctx, o.ShrinkTime)
	}
	return context.WithCancel(ctx)
}

// ShrinkStep is a target's shrink after its search and baseline: unless
// the flag is −1 it calls shrink with the evaluation cap
// f.Cap(searchEvals) and a context from o.ShrinkContext, then done with
// the result; done keeps it (the target's instance, value and floor),
// logs, and returns the clause found_by gets. An error from shrink or from
// done keeps the unshrunk best and returns ShrinkFailed's clause instead.
// It returns "" when the flag says not to shrink.
func ShrinkStep[T any](ctx context.Context, o Options, f ShrinkFlag, searchEvals int, shrink func(ctx context.Context, maxEvals int) (T, ShrinkStats, error), done func(q T, st ShrinkStats) (string, error)) string {
	cap, ok := f.Cap(searchEvals)
	if !ok {
		return ""
	}
	sctx, cancel := o.ShrinkContext(ctx)
	q, st, err := shrink(sctx, cap)
	cancel()
	by := ""
	if err == nil {
		by, err = done(q, st)
	}
	if err != nil {
		return ShrinkFailed(o, err)
	}
	return by
}

// ShrinkFailed is what a target does when an evaluation fails while it
// shrinks: it keeps the unshrunk best (which the search evaluated without
// error) and returns the clause found_by carries, after a progress line.
func ShrinkFailed(o Options, err error) string {
	o.Logf("  shrinking failed, keeping the unshrunk best: %v", err)
	return fmt.Sprintf(", not shrunk (an evaluation failed while shrinking: %v)", err)
}

// Floor returns a pointer to v for Case.ShrinkFloor.
func Floor(v float64) *float64 { return &v }
