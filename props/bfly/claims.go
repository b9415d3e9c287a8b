package bfly

import (
	"fmt"
	"math/big"
	"math/bits"
	"sync"
	"sync/atomic"

	ab "routecheck/algos/butterfly"
	"routecheck/internal/seeds"
	mb "routecheck/models/butterfly"
	"routecheck/models/perm"
	"routecheck/oracles/bflyforms"
	"routecheck/props"
	"routecheck/props/bflytest"
	"routecheck/props/internal/claimtab"

	"pgregory.net/rapid"
)

// The butterfly claims of 001_afbf5d537b48cc65.txt (Upfal, Felperin & Snir,
// "Randomized Routing with Shorter Paths"): invariants and exact values
// here, the probabilistic theorems in stat_claims.go, the §4
// simulations in sim_claims.go.
//
// Readings shared by all of them (also in the package docs of
// models/butterfly and algos/butterfly):
//   - the network: stage s flips bit ((s−1) mod n) + 1 (a_1 most
//     significant), the extra stages n+1…n+r repeating stages 1…r, packets
//     following exactly §3's printed node sequence;
//   - the §2–3 node model ("each input and switch forward a packet at each
//     cycle"): one queue per node, one packet forwarded per node per step
//     (mb.NodeQueue); the §4.1 model: one-slot input buffers, a queue per
//     outgoing link (mb.Buffered), with or without StrictBuffers;
//   - priorities: §3's (⌈ℓ/log N⌉, R), R uniform in [0, c·log N·2^r] with
//     c = 7, smaller first, ties by source then ℓ; renaming σ^{-1}πσ sends
//     σ(x) to σ(π(x)).

const seed001 = "001_afbf5d537b48cc65.txt"

// BflyInstance is a routing instance, as a counterexample: the router's
// options, the permutation sequence, and the seed of the stream
// (seeds.Rand(Seed)) that ab.Packets draws X and R from.
type BflyInstance struct {
	LogN     int       `json:"log_n"`
	R        int       `json:"r"`
	Mode     string    `json:"mode"`
	Strict   bool      `json:"strict_buffers,omitempty"`
	Priority string    `json:"priority"`
	Perms    [][]int32 `json:"perms"`
	Seed     uint64    `json:"seed"`
}

// Options returns the router options of the instance.
func (in BflyInstance) Options() ab.Options {
	o := ab.Options{Shape: mb.Shape{LogN: in.LogN, R: in.R, StrictBuffers: in.Strict}}
	if in.Mode == mb.Buffered.String() {
		o.Shape.Mode = mb.Buffered
	}
	if in.Priority == ab.FIFO.String() {
		o.Priority = ab.FIFO
	}
	return o
}

// Packets builds the instance's packets.
func (in BflyInstance) Packets() ([]mb.Packet, error) {
	return ab.Packets(in.Options(), in.Perms, seeds.Rand(in.Seed))
}

// GenBflyInstance draws a network with n ≤ maxN, 0 ≤ r ≤ n, the given
// node model (nil: drawn), either discipline, and a sequence of 1…maxT
// permutations of one of props/bflytest's SequenceFamilies: copies of one
// permutation (random, transpose or bit reversal) or independent random
// ones.
func GenBflyInstance(t *rapid.T, maxN, maxT int, mode *mb.Mode, strict *bool) BflyInstance {
	n := rapid.IntRange(1, maxN).Draw(t, "n")
	in := BflyInstance{LogN: n, R: rapid.IntRange(0, n).Draw(t, "r"), Seed: rapid.Uint64().Draw(t, "seed")}
	m := mb.Mode(rapid.IntRange(0, 1).Draw(t, "mode"))
	if mode != nil {
		m = *mode
	}
	in.Mode = m.String()
	if m == mb.Buffered {
		in.Strict = rapid.Bool().Draw(t, "strict")
		if strict != nil {
			in.Strict = *strict
		}
	}
	in.Priority = ab.Priority(rapid.IntRange(0, 1).Draw(t, "priority")).String()
	tt := rapid.IntRange(1, maxT).Draw(t, "t")
	kind := rapid.IntRange(0, len(bflytest.SequenceFamilies)-1).Draw(t, "family")
	in.Perms = bflytest.Sequence(bflytest.SequenceFamilies[kind], n, tt, seeds.Rand(in.Seed, 0xbf))
	return in
}

// planted is one planted fault of withFaults: the claim's own check with
// its parameter set to arg, under name.
type planted[T any] struct {
	name string
	arg  T
}

// plant is a planted fault for withFaults.
func plant[T any](name string, arg T) planted[T] { return planted[T]{name, arg} }

// withFaults is claimtab.WithFault for a claim with several planted faults,
// each the claim's check with the same parameter changed: Check =
// check(real), and the faults appended in order.
func withFaults[T any](c props.Claim, check func(T) func(props.Env) props.Outcome, real T, faults ...planted[T]) props.Claim {
	for _, f := range faults {
		c = claimtab.WithFault(c, check, real, f.arg, f.name)
	}
	return c
}

// renameFaults are the planted faults of the renaming claims
// (bfly/thm-2/congestion-renamed, bfly/sec5/renaming-congestion).
var renameFaults = []planted[renameMode]{
	plant("a renaming that forgets to rename (σ = identity)", renameNone),
	plant("a partial renaming (σ permutes only the low ⌊n/2⌋ address bits; fixed before running)", renameLowHalf),
}

// thm1HalfBound is claimtab.WithFault for the Theorem 1 claims: Check =
// check(1), O(C) read as ≤ 3·C, and the planted fault check(0.5), the bound
// scaled by 0.5.
func thm1HalfBound(c props.Claim, check func(factor float64) func(props.Env) props.Outcome) props.Claim {
	return claimtab.WithFault(c, check, 1, 0.5, "the bound 3·C scaled by 0.5 (1.5·C; factor fixed before running)")
}

// thm1Attainable says whether the bound factor·3·C can be met by any
// schedule on a problem of node congestion C on the butterfly with log N =
// n: in §2's node model a node forwards one packet a step, so its C packets
// leave it by step s + C − 1 at the earliest (s its stage) and need n − s
// more hops — every routing takes at least C + n − 1 steps. A run where the
// bound is below that is left out of the cell (since 2026-11-25): an
// exceedance there says nothing of the router. For the claims' bound 3·C
// (factor 1) and C ≥ log N it always holds; it excludes runs only for the
// scaled-bound fault, which before was caught on exactly those runs (the
// transpose at N = 2^4, 2^6), whatever the router.
func thm1Attainable(factor float64, C, n int) bool {
	return factor*3*float64(C) >= float64(C+n-1)
}

// cache holds computed values by key, guarded by a mutex: the memos that
// let a claim, its planted faults and its siblings share runs. A miss is
// computed by the caller outside the lock and stored with put; the values
// are deterministic in the key, so two concurrent misses store the same.
type cache[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]V
	// computed counts getOr's computations: the tests read it to show that
	// a claim's planted faults judge its runs rather than simulating again.
	computed atomic.Int64
}

func (c *cache[K, V]) get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *cache[K, V]) put(k K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[K]V{}
	}
	c.m[k] = v
}

// getOr returns k's value, computing and keeping it first if there is none
// (two callers at once may both compute it; both get an equal value).
func (c *cache[K, V]) getOr(k K, compute func() V) V {
	if v, ok := c.get(k); ok {
		return v
	}
	c.computed.Add(1)
	v := compute()
	c.put(k, v)
	return v
}

// forget drops k (tests recompute a value).
func (c *cache[K, V]) forget(k K) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, k)
}

// logLog is ⌈log₂ n⌉, the paper's "log log N" number of extra stages.
func logLog(n int) int { return bits.Len(uint(n - 1)) }

func init() {
	claimtab.Register(
		claimtab.WithFault(ledger.Text(props.Claim{ID: "bfly/sec3/paths-and-delivery"}), bflyPathsCheck, ab.NoFault, ab.FaultIgnoreStrict, "a router that sends into a strict buffer still full at the start of the step (ab.FaultIgnoreStrict)"),
		claimtab.WithFault(ledger.Text(props.Claim{ID: "bfly/engine/equals-model"}), bflyEngineCheck, ab.NoFault, ab.FaultIgnoreStrict, "a fast engine that lets a strict buffer accept a packet in the step it was drained (ab.FaultIgnoreStrict on the engine only)"),
	)
}

// genBflyRun draws an instance (GenBflyInstance, any node model) and
// builds its packets and its router options with fault planted; a failure
// to build the packets is returned as the counterexample (bad).
func genBflyRun(t *rapid.T, maxN, maxT int, fault ab.Fault) (in BflyInstance, ps []mb.Packet, o ab.Options, bad map[string]any) {
	in = GenBflyInstance(t, maxN, maxT, nil, nil)
	ps, err := in.Packets()
	if err != nil {
		return in, nil, o, map[string]any{"instance": in, "error": err.Error()}
	}
	o = in.Options()
	o.Fault = fault
	return in, ps, o, nil
}

// bflyPathsCheck is bfly/sec3/paths-and-delivery's check of the router
// with fault (ab.NoFault: the real one).
func bflyPathsCheck(fault ab.Fault) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		checks := env.Budget.Pick(150, 1000, 5000)
		cex, rep := props.Falsify(env, checks, func(t *rapid.T) any {
			in, ps, o, bad := genBflyRun(t, 5, 4, fault)
			if bad != nil {
				return bad
			}
			for _, p := range ps {
				for s := 0; s <= o.Shape.Stages(); s++ {
					if got, want := o.Shape.RowAt(p, s), bflyforms.ExtRow(in.LogN, in.R, p.Src, p.Dst, p.X, s); got != want {
						return map[string]any{"instance": in, "packet": p.ID, "stage": s, "row": got, "printed": want}
					}
				}
			}
			res, err := ab.RunOnModel(o, ps, 100000)
			if err != nil {
				return map[string]any{"instance": in, "error": err.Error()}
			}
			for k, l := range res.Latency {
				if l == 0 {
					return map[string]any{"instance": in, "undelivered": k}
				}
			}
			return nil
		})
		if cex != nil {
			return props.Outcome{Verdict: props.Violated, Evidence: "a run broke an invariant: " + rep, Counterexample: cex}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("%d random instances (rapid), invariants checked after every step", checks)}
	}
}

// bflyEngineCheck is bfly/engine/equals-model's check of the engine with
// fault against the step model with the real router.
func bflyEngineCheck(fault ab.Fault) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		checks := env.Budget.Pick(150, 1000, 5000)
		var e ab.Engine
		cex, rep := props.Falsify(env, checks, func(t *rapid.T) any {
			in, ps, eo, bad := genBflyRun(t, 5, 6, fault)
			if bad != nil {
				return bad
			}
			a, err1 := ab.RunOnModel(in.Options(), ps, 100000)
			b, err2 := e.Run(eo, ps, 100000)
			if err1 != nil || err2 != nil {
				return map[string]any{"instance": in, "error": fmt.Sprint(err1, err2)}
			}
			for k := range a.Latency {
				if a.Latency[k] != b.Latency[k] {
					return map[string]any{"instance": in, "packet": k, "model": a.Latency[k], "engine": b.Latency[k]}
				}
			}
			if a.MaxQueue != b.MaxQueue {
				return map[string]any{"instance": in, "model_max_queue": a.MaxQueue, "engine_max_queue": b.MaxQueue}
			}
			return nil
		})
		if cex != nil {
			return props.Outcome{Verdict: props.Violated, Evidence: "engine and model differ: " + rep, Counterexample: cex}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("identical delivery steps on %d random instances (rapid)", checks)}
	}
}

func init() {

	lowerT := func(id, stmt string, mode mb.Mode, strict bool, recorded props.Verdict, notes string, faults ...props.Fault) {
		props.Register(props.Claim{ID: id, Faults: faults, Source: seed001 + " §2 (\"C(π) is a lower bound on the time needed to route π, for any routing algorithm\") and Corollary 5", Kind: props.Invariant, Recorded: recorded,
			Statement: stmt,
			Scope:     "n ≤ 4, 0 ≤ r ≤ n, t ≤ 6 copies of one permutation, C = max node congestion of one copy on the network with r extra stages (X drawn per packet)",
			Notes:     notes,
			Check:     bflyLowerCheck(mode, strict, ab.NoFault)})
	}
	lowerT("bfly/sec2/congestion-lower-bound/node-queue",
		"In the §2 node model, routing time ≥ the node congestion of the routing problem (so t copies of π take ≥ t·C(π) steps: Corollary 5's lower bound).",
		mb.NodeQueue, false, props.Holds, "A node forwards one packet per step, so a node crossed by C packets needs C steps. [2026-11-23] Power: an engine whose nodes forward their two best packets in one step (ab.FaultNodeSendsTwo) is caught.",
		props.Fault{Name: "an engine whose nodes forward their two best packets in one step (ab.FaultNodeSendsTwo)", Check: bflyLowerCheck(mb.NodeQueue, false, ab.FaultNodeSendsTwo)})
	lowerT("bfly/sec2/congestion-lower-bound/buffered",
		"In the §4.1 node model (pipelined buffers), routing time ≥ the node congestion of the routing problem.",
		mb.Buffered, false, props.Violated,
		"Outside the paper's §2 model: with a queue per outgoing link a node forwards two packets per step, so the remark 'C(π) is a lower bound … for any routing algorithm' (and the t·C(π) reading of Corollary 5) needs the §2 node model; for links the bound is C/2. The shrunk counterexample: a few copies of a permutation on a 4-input network.")
	lowerT("bfly/sec2/congestion-lower-bound/strict-buffers",
		"In the §4.1 node model with strict buffers, routing time ≥ the node congestion of the routing problem.",
		mb.Buffered, true, props.Holds,
		"Outside the paper's §2 model. With strict buffers every incoming link delivers at most one packet per two steps, so a node (after stage 0) receives at most one packet per step on average and the remark survives on every instance tried; contrast bfly/sec2/congestion-lower-bound/buffered. [2026-11-23] Power: an engine that lets a strict buffer accept a packet in the step it was drained (ab.FaultIgnoreStrict) is checked as the planted fault.",
		props.Fault{Name: "an engine that lets a strict buffer accept a packet in the step it was drained (ab.FaultIgnoreStrict)", Check: bflyLowerCheck(mb.Buffered, true, ab.FaultIgnoreStrict)})
}

// bflyLowerCheck is the congestion-lower-bound check (time ≥ node
// congestion) in one node model, with the engine's fault.
func bflyLowerCheck(mode mb.Mode, strict bool, fault ab.Fault) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		checks := env.Budget.Pick(300, 2000, 10000)
		var e ab.Engine
		cex, rep := props.Falsify(env, checks, func(t *rapid.T) any {
			in := GenBflyInstance(t, 4, 6, &mode, &strict)
			in.Perms = in.Perms[:1]
			for range rapid.IntRange(0, 5).Draw(t, "copies") {
				in.Perms = append(in.Perms, in.Perms[0])
			}
			ps, err := in.Packets()
			if err != nil {
				return map[string]any{"instance": in, "error": err.Error()}
			}
			o := in.Options()
			o.Fault = fault
			res, err := e.Run(o, ps, 100000)
			if err != nil {
				return map[string]any{"instance": in, "error": err.Error()}
			}
			// Node congestion of the whole run ≥ t·C(π) on the plain
			// butterfly when r = 0; with r > 0 the run's own node
			// congestion (every copy's packets, random X).
			c := ab.MaxCongestion(in.Options().Shape, ps)
			if res.Steps < c {
				return map[string]any{"instance": in, "steps": res.Steps, "congestion": c}
			}
			return nil
		})
		if cex != nil {
			return props.Outcome{Verdict: props.Violated, Evidence: "routing time below the node congestion (shrunk by rapid): " + rep, Counterexample: cex}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("time ≥ node congestion on %d random instances (rapid)", checks)}
	}
}

func init() {
	claimtab.Register(
		claimtab.WithFault(ledger.Text(props.Claim{ID: "bfly/thm-6/m-bounds"}), bflyMBoundsCheck, 0, -1, "the bound read one unit lower (MBound(n, r, s) − 1)"),
		claimtab.WithFault(ledger.Text(props.Claim{ID: "bfly/thm-6/union-bound"}), bflyUnionCheck, 0, 1, "the sum evaluated at τ + 1 (the formula's input perturbed by one unit)"),

		withFaults(ledger.Text(props.Claim{ID: "bfly/lemma-9/node-bound"}), bflyLemma9Check, 0,
			plant("a router whose packets take r + 1 random transitions (the analysis assumes r)", 1),
			plant("a router that injects a copy of packet 0 at its source", 2)),
	)
}

// bflyLemma9Check is bfly/lemma-9/node-bound's check; mutant 0 is the
// router, 1 routes with r + 1 random transitions (when r < n), 2 adds a
// copy of packet 0.
func bflyLemma9Check(mutant int) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		checks := env.Budget.Pick(200, 2000, 10000)
		cex, rep := props.Falsify(env, checks, func(t *rapid.T) any {
			in := GenBflyInstance(t, 6, 6, nil, nil)
			routed := in
			if mutant == 1 && in.R < in.LogN {
				routed.R++
			}
			ps, err := routed.Packets()
			if err != nil {
				return map[string]any{"instance": in, "error": err.Error()}
			}
			if mutant == 2 {
				ps = append(ps, ps[0])
			}
			n, r := in.LogN, in.R
			var ms [][][]int
			for _, p := range in.Perms {
				ms = append(ms, bflyforms.M(p, n, r))
			}
			sh := routed.Options().Shape
			N := sh.N()
			for v, c := range ab.Congestion(sh, ps) {
				s, row := v/N, int32(v%N)
				if routed.R != in.R && s > n {
					continue
				}
				if b := bflyforms.Lemma9Bound(n, r, s, row, ms); int(c) > b {
					return map[string]any{"instance": in, "stage": s, "row": row, "congestion": c, "bound": b}
				}
			}
			return nil
		})
		if cex != nil {
			return props.Outcome{Verdict: props.Violated, Evidence: "a node carries more than Lemma 9's proof allows: " + rep, Counterexample: cex}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("%d random instances (rapid), every node of every stage", checks)}
	}
}

// setsIndependent is the proof of Theorem 11's premise: routing only the
// packets of the first i priority sets (⌈ℓ/log N⌉ ≤ i) gives them the same
// delivery steps as routing everything. It returns nil or a counterexample.
//
// noBlock plants a fault: the priorities without their first component
// ⌈ℓ/log N⌉ (only (R, source) decide).
func setsIndependent(e *ab.Engine, in BflyInstance, i int, noBlock bool) any {
	ps, err := in.Packets()
	if err != nil {
		return map[string]any{"instance": in, "error": err.Error()}
	}
	if noBlock {
		for k := range ps {
			ps[k].Key &= 1<<56 - 1
		}
	}
	all, err := e.Run(in.Options(), ps, 1<<20)
	if err != nil {
		return map[string]any{"instance": in, "error": err.Error()}
	}
	var sub []mb.Packet
	var orig []int
	for k, p := range ps {
		if ab.Block(int(p.Perm), in.LogN) <= i {
			q := p
			q.ID = int32(len(sub))
			sub = append(sub, q)
			orig = append(orig, k)
		}
	}
	part, err := e.Run(in.Options(), sub, 1<<20)
	if err != nil {
		return map[string]any{"instance": in, "error": err.Error()}
	}
	for j, k := range orig {
		if part.Latency[j] != all.Latency[k] {
			return map[string]any{"instance": in, "sets": i, "packet": k, "alone": part.Latency[j], "with_later_sets": all.Latency[k]}
		}
	}
	return nil
}

func init() {
	sets := func(id string, mode mb.Mode, strict bool, recorded props.Verdict, notes string) {
		notes += " [2026-11-23] Power: the same check with §3's priorities stripped of their first component ⌈ℓ/log N⌉ (only R and the source decide) is the planted fault."
		props.Register(props.Claim{ID: id, Faults: []props.Fault{{Name: "priorities without ⌈ℓ/log N⌉ (R and source only)", Check: bflySetsCheck(mode, strict, true)}}, Source: seed001 + " Theorem 11 (proof: \"the routing of packets in the i-th set is only affected by packets in the first i sets\")", Kind: props.Invariant, Recorded: recorded,
			Statement: "With §3's priorities, the packets of the first i sets (⌈ℓ/log N⌉ ≤ i) are delivered in the same steps whether or not later sets are routed.",
			Scope:     fmt.Sprintf("%s node model; n ≤ 4, 0 ≤ r ≤ n, 2–12 permutations (so up to 12 sets at log N = 1), i drawn", mode) + map[bool]string{true: ", strict buffers", false: ""}[strict],
			Notes:     notes,
			Check:     bflySetsCheck(mode, strict, false)})
	}
	sets("bfly/thm-11/sets-independent/node-queue", mb.NodeQueue, false, props.Holds, "In the §2 node model a node forwards its best packet, so a later set never takes a step from an earlier one.")
	sets("bfly/thm-11/sets-independent/pipelined", mb.Buffered, false, props.Holds, "Outside the analysis' node model; a link sends its best queued packet and buffers never block, so the premise carries over.")
	sets("bfly/thm-11/sets-independent/strict-buffers", mb.Buffered, true, props.Holds,
		"Outside the analysis' node model, and yet exact: with strict buffers every link into a buffer sends only at odd steps (inputs start busy and never receive; a packet sent at an odd step is eligible again at the next odd one), so at the steps links send every buffer is empty and a lower-priority packet never holds up a higher-priority one (algos/butterfly TestStrictSendsAtOddSteps checks the parity).")
}

// bflySetsCheck is the Theorem 11 premise check in one node model; noBlock
// plants the fault (priorities without ⌈ℓ/log N⌉).
func bflySetsCheck(mode mb.Mode, strict, noBlock bool) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		checks := env.Budget.Pick(300, 2000, 10000)
		var e ab.Engine
		cex, rep := props.Falsify(env, checks, func(t *rapid.T) any {
			in := GenBflyInstance(t, 4, 12, &mode, &strict)
			in.Priority = ab.PaperPriority.String()
			return setsIndependent(&e, in, rapid.IntRange(1, ab.Block(len(in.Perms), in.LogN)).Draw(t, "i"), noBlock)
		})
		if cex != nil {
			return props.Outcome{Verdict: props.Violated, Evidence: "later sets delay an earlier one (shrunk by rapid): " + rep, Counterexample: cex}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("%d random instances (rapid)", checks)}
	}
}

// bflyMBoundsCheck is bfly/thm-6/m-bounds' check against MBound + delta
// (0: the proof's bound).
func bflyMBoundsCheck(delta int) func(props.Env) props.Outcome {
	mb1 := func(n, r, s int) int { return bflyforms.MBound(n, r, s) + delta }
	return func(env props.Env) props.Outcome {
		for n := 2; n <= 3; n++ {
			for r := 0; r <= n; r++ {
				best := make([]int, n+1)
				var bad any
				perm.Each(1<<n, func(p []int32) bool {
					for s, row := range bflyforms.M(p, n, r) {
						for _, x := range row {
							if x > mb1(n, r, s) {
								bad = map[string]any{"n": n, "r": r, "s": s, "perm": append([]int32(nil), p...), "m": x}
								return false
							}
							best[s] = max(best[s], x)
						}
					}
					return true
				})
				if bad != nil {
					return props.Outcome{Verdict: props.Violated, Evidence: "a set exceeds the proof's bound", Counterexample: bad}
				}
				for s := range best {
					if best[s] != mb1(n, r, s) {
						return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n=%d r=%d s=%d: bound %d not attained (max %d)", n, r, s, mb1(n, r, s), best[s]), Counterexample: map[string]int{"n": n, "r": r, "s": s}}
					}
				}
			}
		}
		rng := seeds.Rand(env.Seed, 0xbf6)
		samples := env.Budget.Pick(2000, 20000, 100000)
		for k := range samples {
			p := perm.Random(16, rng)
			if k == 0 {
				p = bflyforms.Transpose(4)
			}
			if k == 1 {
				p = bflyforms.BitReversal(4)
			}
			for r := 0; r <= 4; r++ {
				for s, row := range bflyforms.M(p, 4, r) {
					for _, x := range row {
						if x > mb1(4, r, s) {
							return props.Outcome{Verdict: props.Violated, Evidence: "a set exceeds the proof's bound", Counterexample: map[string]any{"n": 4, "r": r, "s": s, "perm": p}}
						}
					}
				}
			}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("exhaustive for N = 4, 8 (bounds attained at every r, s); %d permutations of 16 (transpose, bit reversal and %d random)", samples, samples-2)}
	}
}

// bflyUnionCheck is bfly/thm-6/union-bound's check with the sum evaluated
// at τ + shift (0: the proof's).
func bflyUnionCheck(shift int) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		var ev []string
		for n := 2; n <= 3; n++ {
			for r := 0; r <= n; r++ {
				hist := map[int]int64{} // max|M| → count
				perm.Each(1<<n, func(p []int32) bool {
					hist[bflyforms.MaxM(p, n, r)]++
					return true
				})
				top := 0
				for m := range hist {
					top = max(top, m)
				}
				for tau := 1<<r + 1; tau <= top+1; tau++ {
					var outside int64
					for m, c := range hist {
						if m >= tau {
							outside += c
						}
					}
					u := bflyforms.Thm6UnionBound(n, r, tau+shift)
					if u.Cmp(big.NewInt(outside)) < 0 {
						return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("n=%d r=%d τ=%d: %d permutations outside Ψ, bound %v", n, r, tau, outside, u), Counterexample: map[string]any{"n": n, "r": r, "tau": tau, "outside": outside, "bound": u.String()}}
					}
					ev = append(ev, fmt.Sprintf("n=%d r=%d τ=%d: %d ≤ %v", n, r, tau, outside, u))
				}
			}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("exact counts (exhaustive) ≤ the union bound in every case: %v", ev)}
	}
}
