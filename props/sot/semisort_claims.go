package sot

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"pgregory.net/rapid"

	asot "routecheck/algos/sot"
	"routecheck/internal/seeds"
	"routecheck/models/perm"
	msot "routecheck/models/sot"
	"routecheck/props"
	"routecheck/props/internal/claimtab"
)

// Issue 13, step 3: Algorithm 2's semisort modelled rather than assumed.
// algos/sot.Semisort is the sequential n-way radix sort of §3.2/§4.3 as
// explicit operations (list heads and one insertion per packet, counted),
// and the scheduled router takes its lists from it. The claims check what
// the paper relies on: the lists are right, the local time is O(h), and
// the routing cost stays bounded with that time charged.

// sotSemisorter is a semisort under test: the real one, or a planted
// mutant.
type sotSemisorter func(n int, own []int32, rel []perm.Pair) asot.Semisorted

// sotSemisortBySource is a planted mutant: the radix pass keyed on the
// wrong field (the packet's source instead of its target), so a processor
// puts all its packets in its own list.
func sotSemisortBySource(n int, own []int32, rel []perm.Pair) asot.Semisorted {
	fake := make([]perm.Pair, len(rel))
	for k, p := range rel {
		fake[k] = perm.Pair{Src: p.Src, Dst: p.Src}
	}
	return asot.Semisort(n, own, fake)
}

// sotSemisortForward is a planted mutant: the radix pass scans the packets
// forwards while inserting at the front, so every list comes out reversed
// (not stable).
func sotSemisortForward(n int, own []int32, rel []perm.Pair) asot.Semisorted {
	rev := slices.Clone(own)
	slices.Reverse(rev)
	s := asot.Semisort(n, rev, rel)
	return s
}

// sotSortFn is a semisort under the time claims: it works only through
// mem (asot.SemisortInto, or a planted mutant), so sotCountMem counts its
// local time from outside.
type sotSortFn func(n, h int, mem asot.SortMem)

// sotSemisortNaive is a planted mutant for the time claims: the lists are
// right, but built by n passes over the packets (one per target, the
// obvious filtering): n·h target reads, Θ(n·h) accesses, not O(h).
func sotSemisortNaive(n, h int, mem asot.SortMem) {
	for y := range n {
		mem.SetHead(y, -1)
		for k := h - 1; k >= 0; k-- {
			if int(mem.Target(k)) == y {
				mem.SetNext(k, mem.Head(y))
				mem.SetHead(y, int32(k))
			}
		}
	}
}

// sotCountMem counts every access (read or write) of a sort to its memory.
type sotCountMem struct {
	*asot.ArrayMem
	ops int
}

func (c *sotCountMem) Target(k int) int32     { c.ops++; return c.ArrayMem.Target(k) }
func (c *sotCountMem) Head(y int) int32       { c.ops++; return c.ArrayMem.Head(y) }
func (c *sotCountMem) SetHead(y int, v int32) { c.ops++; c.ArrayMem.SetHead(y, v) }
func (c *sotCountMem) SetNext(k int, v int32) { c.ops++; c.ArrayMem.SetNext(k, v) }

// sotSortCostPerPacket is c of the semisort's reading of "O(h)": at most
// c·h memory accesses at a processor with h ≥ n packets. Fixed from the
// arithmetic of a one-digit radix sort into lists, before running: per
// packet one target read and one list insertion (head read, link write,
// head write), plus n head initializations (≤ h), at most 5 per packet;
// c = 8 leaves room for another implementation's constant, and a sort
// doing n passes (≥ n·h target reads) exceeds it for n ≥ 8.
const sotSortCostPerPacket = 8

// sotSemisortListsCheck is sot/alg-2/semisort-lists' check of sorter: for
// every processor, list y holds exactly its packets for P_y, in its order.
func sotSemisortListsCheck(sorter sotSemisorter) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		check := func(n int, rel []perm.Pair) string {
			s, err := msot.NewState(n, rel)
			if err != nil {
				return err.Error()
			}
			for x, own := range s.Own {
				ss := sorter(n, own, rel)
				if len(ss.Head) != n {
					return fmt.Sprintf("P%d: %d lists, want %d", x, len(ss.Head), n)
				}
				for y := range n {
					var want []int32
					for _, id := range own {
						if int(rel[id].Dst) == y {
							want = append(want, id)
						}
					}
					if got := ss.List(y); !slices.Equal(got, want) {
						return fmt.Sprintf("P%d: list for P%d is %v, want %v", x, y, got, want)
					}
				}
			}
			return ""
		}
		checks := env.Budget.Pick(200, 1000, 5000)
		cex, rep := props.Falsify(env, checks, func(t *rapid.T) any {
			n, rel := GenSotRelation(t, 8, 8, true)
			if p := check(n, rel); p != "" {
				return map[string]any{"instance": sotInstance(n, asot.Scheduled, 0, rel), "problem": p}
			}
			return nil
		})
		if cex != nil {
			return props.Outcome{Verdict: props.Violated, Evidence: "wrong lists (shrunk by rapid): " + firstLine(rep), Counterexample: cex}
		}
		for _, n := range []int{16, 64} {
			rel := asot.RandomRelation(n, n*sotLog2(n), seeds.Rand(env.Seed, 0x5e5, uint64(n)))
			if p := check(n, rel); p != "" {
				return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("random h-relation on SOT(%d): %s", n, p), Counterexample: map[string]any{"n": n, "problem": p}}
			}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("%d random relations (n ≤ 8, ≤ 8 packets per processor) and random n·log₂ n-relations on SOT(16), SOT(64): every list is the processor's packets for that target, in its order", checks)}
	}
}

// sotSemisortTime is the local time of the semisort phase under sort: the
// largest number of memory accesses over processors, counted by
// sotCountMem. It also checks that sort left the right lists (the
// processor's packets filtered by target), returning a problem otherwise.
func sotSemisortTime(sort sotSortFn, s *msot.State) (int, string) {
	t := 0
	for x, own := range s.Own {
		c := &sotCountMem{ArrayMem: asot.NewArrayMem(s.N, own, s.Rel)}
		sort(s.N, len(own), c)
		t = max(t, c.ops)
		ss := c.Lists()
		for y := range s.N {
			var want []int32
			for _, id := range own {
				if int(s.Rel[id].Dst) == y {
					want = append(want, id)
				}
			}
			if got := ss.List(y); !slices.Equal(got, want) {
				return t, fmt.Sprintf("P%d: list for P%d is %v, want %v", x, y, got, want)
			}
		}
	}
	return t, ""
}

// sotSemisortTimeCheck is sot/sec4.3/semisort-linear-time's check of
// sort: on h-relations with h ≥ n, the semisort's memory accesses at every
// processor (counted from outside) are at most sotSortCostPerPacket·h.
func sotSemisortTimeCheck(sort sotSortFn) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		worst := 0.0
		var ev []string
		for _, n := range []int{8, 32, 128, 512} {
			for _, h := range []int{n, n * sotLog2(n)} {
				if n*h > env.Budget.Pick(1<<17, 1<<19, 1<<21) {
					continue
				}
				s, err := msot.NewState(n, asot.RandomRelation(n, h, seeds.Rand(env.Seed, 0x5e6, uint64(n), uint64(h))))
				if err != nil {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
				}
				ops, p := sotSemisortTime(sort, &s)
				if p != "" {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("n=%d h=%d: wrong lists: %s", n, h, p)}
				}
				bound := sotSortCostPerPacket * h
				worst = math.Max(worst, float64(ops)/float64(bound))
				ev = append(ev, fmt.Sprintf("n=%d h=%d: %d memory accesses (%.2f·h)", n, h, ops, float64(ops)/float64(h)))
				if ops > bound {
					return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n=%d h=%d: %d memory accesses > %d·h = %d", n, h, ops, sotSortCostPerPacket, bound), Counterexample: map[string]any{"n": n, "h": h, "ops": ops}}
				}
			}
		}
		return props.Outcome{Verdict: props.Holds, Slack: props.SlackOf(worst, 1), Evidence: strings.Join(ev, "; ")}
	}
}

// sotSemisortTotalCheck is sot/sec4.3/total-with-semisort's check of
// sort: at h = n·log₂ n, the semisort's local time (one memory access a
// step, counted from outside) plus Algorithm 2's routing steps is at most
// n + (4 + sotSortCostPerPacket)·h.
func sotSemisortTotalCheck(sort sotSortFn) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		ns := []int{8, 16, 32}
		if env.Budget >= props.Default {
			ns = append(ns, 64)
		}
		runs := env.Budget.Pick(2, 3, 8)
		worst := 0.0
		var ev []string
		for _, n := range ns {
			h := n * sotLog2(n)
			maxCost, maxSort := 0.0, 0
			for r := range runs {
				rel := asot.RandomRelation(n, h, seeds.Rand(env.Seed, 0x5e7, uint64(n), uint64(r)))
				res, final, out, ok := sotRunScheduled(n, rel, nil, fmt.Sprintf("n=%d run %d", n, r))
				if !ok {
					return out
				}
				sortT, p := sotSemisortTime(sort, &final)
				if p != "" {
					return props.Outcome{Verdict: props.Inconclusive, Evidence: fmt.Sprintf("n=%d h=%d run %d: wrong lists: %s", n, h, r, p)}
				}
				total, bound := sortT+res.Steps, n+(4+sotSortCostPerPacket)*h
				if total > bound {
					return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n=%d h=%d run %d: semisort %d + routing %d = %d > n + %dh = %d", n, h, r, sortT, res.Steps, total, 4+sotSortCostPerPacket, bound),
						Counterexample: map[string]any{"n": n, "h": h, "run": r, "semisort": sortT, "routing": res.Steps}}
				}
				worst = math.Max(worst, float64(total)/float64(bound))
				maxCost = math.Max(maxCost, float64(total)/float64(h))
				maxSort = max(maxSort, sortT)
			}
			ev = append(ev, fmt.Sprintf("n=%d h=%d: semisort ≤ %d memory accesses, largest total cost (semisort + routing)/h = %.3f", n, h, maxSort, maxCost))
		}
		return props.Outcome{Verdict: props.Holds, Slack: props.SlackOf(worst, 1), Evidence: fmt.Sprintf("%d runs per n, every total within n + %dh: %s", runs, 4+sotSortCostPerPacket, strings.Join(ev, "; "))}
	}
}

func init() { sotSemisortClaims() }

func sotSemisortClaims() {
	claimtab.Register(
		ledger.Text(props.Claim{ID: "sot/alg-2/semisort-lists",
			Check: sotSemisortListsCheck(asot.Semisort),
			Faults: []props.Fault{
				{Name: "the radix pass keyed on the source instead of the target", Check: sotSemisortListsCheck(sotSemisortBySource)},
				{Name: "a forward scan with front insertion (lists reversed)", Check: sotSemisortListsCheck(sotSemisortForward)},
			}}),
		claimtab.WithFault(ledger.Text(props.Claim{ID: "sot/sec4.3/semisort-linear-time"}), sotSemisortTimeCheck, asot.SemisortInto, sotSemisortNaive, "one pass over the packets per target (n·h target reads)"),
		claimtab.WithFault(ledger.Text(props.Claim{ID: "sot/sec4.3/total-with-semisort"}), sotSemisortTotalCheck, asot.SemisortInto, sotSemisortNaive, "one pass over the packets per target (n·h target reads)"),
	)
}
