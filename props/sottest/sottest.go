// Package sottest is the conformance suite for routers of the sparse
// optical torus SOT(n) (Honkanen, Leppänen & Penttonen, seed
// 002_59e118519f43b14a.txt): hand it a constructor of your hot-potato
// router and one call runs it on the model the way routecheck runs the
// paper's Greedy-a/b/c and Algorithm 2 — the way testing/fstest.TestFS
// checks a file system.
//
//	type myRouter struct{}
//
//	func (myRouter) Node(v msot.View, rng *rand.Rand) msot.Action { … }
//
//	func TestMyRouter(t *testing.T) {
//		sottest.Run(t, func() msot.Router { return myRouter{} }, sottest.Options{
//			MaxSteps:       func(n int, rel []perm.Pair) int { return 8 * n * (len(rel)/n + 1) },
//			MaxDeflections: func(n int) int { return n },
//		})
//	}
//
// The router implements routecheck/models/sot.Router: it sees one node's
// local view (its two inputs, the step counter, a processor's own unsent
// packets) and returns what leaves on the node's two outputs; randomness
// comes only from the *rand.Rand argument. The interface lives in
// models/sot, beside the step model, because it is the contract between
// the model and every algorithm (algos/sot.Local adapts the paper's seven
// readings to it).
//
// Each run steps the model to completion or to the declared bound and
// checks, after every step (one subtest per instance family and property):
//
//   - runs: the router answers without panicking;
//   - legal: the model accepts every step — hot potato (no node keeps a
//     packet), no packet duplicated or invented, only processors inject and
//     only their own unsent packets onto free outputs (models/sot.Step);
//   - invariants: models/sot.CheckInvariants after every step —
//     conservation (every packet exactly one of pending, on one link,
//     delivered), no packet waiting at its target, the torus hop invariants;
//   - delivery: every delivery event is at the packet's target, happens
//     once, after exactly n·(1 + deflections) hops, and the final state
//     agrees with the events;
//   - deflections: no packet is deflected more often than
//     Options.MaxDeflections (SOT nodes cannot buffer — the model rejects
//     a kept packet — so deflection is the resource a hot-potato router
//     spends instead of buffer space, and this is its declared bound);
//   - completes: every packet is delivered within Options.MaxSteps steps
//     (skipped when no bound is declared: the literal readings of the paper
//     livelock by design);
//   - locality: the instance run again with one Router shared by every
//     node and with a fresh Router per node (newRouter() once per node)
//     gives the same actions at every step from the same random stream — a
//     node decides from its own view and (a processor) its own memory. A
//     router the paper lets use shared or offline knowledge declares it
//     (Options.SharedKnowledge) and the subtest logs that instead. Checked
//     on the listed families and on replays, not on rapid's random draws.
//
// Instance families: permutations from models/perm.Families where they
// apply to n (uniform, bit-reversal, bit-complement, transpose, shuffle,
// tornado, neighbour) and the identity (every packet self-addressed, which
// must circle the torus); random h-relations (algos/sot.RandomRelation)
// and hot-spot h-relations (perm.HotSpot) for h in Options.H; the paper's
// fresh traffic of §3.3 (2n packets per processor, targets uniform over the
// others); every relation of a small scope exhaustively; and random
// relations under rapid, shrunk to a minimal failing instance.
//
// A failure names the property, the family, the instance (shrunk when
// rapid found it), the step where it broke, and writes a replay file: a
// routecheck case (kind sot-suite) recording the instance, the declared
// bounds, the router's name (Options.Router) and what it broke.
// `routecheck replay FILE` runs it with routecheck's router of that name
// (an algos/sot algorithm, e.g. "greedy-a"), or, for a router the CLI does
// not have (yours), with the paper's Greedy-a, saying so; CheckFile re-runs
// it against yours, and setting SOTTEST_REPLAY=<file> (or Options.Replay)
// makes Run and Check run that instance alone (both still read the
// "sottest" files of earlier versions). A fuzz target is three lines with
// Fuzz.
package sottest

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"strings"
	"testing"

	"pgregory.net/rapid"

	asot "routecheck/algos/sot"
	"routecheck/internal/falsify"
	"routecheck/internal/hunt"
	"routecheck/internal/seeds"
	"routecheck/models/perm"
	msot "routecheck/models/sot"
	"routecheck/props/internal/suite"
)

// NewRouter returns a fresh router for one run.
type NewRouter = func() msot.Router

// Options tune the suite; the zero value is ready to use (see fill).
type Options struct {
	// Sizes are the torus sides n of the family instances; nil means
	// 2…8, 16, 32 (without 32 under -short).
	Sizes []int
	// H are the h of the h-relations and hot spots (a hot spot needs
	// h ≤ n); nil means 1, 2, 4, 8.
	H []int
	// MaxSteps, when set, is the declared completion bound: every packet
	// of relation rel on SOT(n) must be delivered within MaxSteps(n, rel)
	// steps (a value ≤ 0 means no bound for that instance). Without a
	// bound a run stops after 8n + 4K steps (K packets) and need not
	// complete.
	MaxSteps func(n int, rel []perm.Pair) int
	// MaxDeflections, when set, bounds the deflections of any one packet
	// on SOT(n) (a value < 0 means no bound at that n).
	MaxDeflections func(n int) int
	// Scope is the exhaustive small scope: for each {n, per}, every
	// relation on SOT(n) in which each processor sends at most per packets
	// (ordered, self-addressed included). nil means {2, 3}, {3, 2} and
	// {4, 1} ({2, 2} and {3, 1} under -short).
	Scope [][2]int
	// Checks is the number of rapid cases; 0 means 200 (50 under -short).
	Checks int
	// Seed makes every random choice reproducible; 0 means 1.
	Seed uint64
	// ReplayDir receives the replay file of a failing instance; "" means
	// os.TempDir(). Set it to "-" to write none.
	ReplayDir string
	// Replay, when set, is a replay file: Run and Check run that instance
	// alone. "" means the environment variable SOTTEST_REPLAY.
	Replay string
	// Router is the router's name in replay files: `routecheck replay`
	// runs routecheck's router of that name (an algos/sot algorithm) and,
	// for any other name, the paper's Greedy-a instead. "" means the
	// router's Go type (fmt's %T).
	Router string
	// SharedKnowledge, when set, declares (with the reason) that the
	// router legitimately uses knowledge beyond one node's (e.g. an offline
	// schedule the paper says every node knows): the locality property is
	// then not checked, and Run's locality subtests say so. "" means the
	// router must be local.
	SharedKnowledge string
}

func (o Options) fill() Options {
	if o.Sizes == nil {
		o.Sizes = []int{2, 3, 4, 5, 6, 7, 8, 16}
		if !suite.Short() {
			o.Sizes = append(o.Sizes, 32)
		}
	}
	if o.H == nil {
		o.H = []int{1, 2, 4, 8}
	}
	if o.Scope == nil {
		o.Scope = [][2]int{{2, 3}, {3, 2}, {4, 1}}
		if suite.Short() {
			o.Scope = [][2]int{{2, 2}, {3, 1}}
		}
	}
	suite.Fill(&o.Checks, suite.Pick(200, 50), &o.Seed, &o.ReplayDir)
	if o.Replay == "" {
		o.Replay = os.Getenv("SOTTEST_REPLAY")
	}
	return o
}

// Instance is one run: SOT(N), the relation (packet k goes from Rel[k][0]
// to Rel[k][1]) and the seed of the router's generator
// (internal/seeds.Rand(Seed)). Its JSON is the replay file's instance (the
// fields of props/sot.SotInstance).
type Instance struct {
	Family string     `json:"family"`
	N      int        `json:"n"`
	Seed   uint64     `json:"seed"`
	Rel    [][2]int32 `json:"rel"`
}

// Pairs returns the relation.
func (in Instance) Pairs() []perm.Pair {
	p := make([]perm.Pair, len(in.Rel))
	for k, r := range in.Rel {
		p[k] = perm.Pair{Src: r[0], Dst: r[1]}
	}
	return p
}

func instance(family string, n int, seed uint64, rel []perm.Pair) Instance {
	in := Instance{Family: family, N: n, Seed: seed, Rel: make([][2]int32, len(rel))}
	for k, p := range rel {
		in.Rel[k] = [2]int32{p.Src, p.Dst}
	}
	return in
}

// Failure is one property a router broke on one instance.
type Failure struct {
	Property string // runs, legal, invariants, delivery, deflections, completes, locality; setup for the suite's own inputs
	Family   string
	// Step is the step in which it broke (the model's T before the step),
	// or −1 when the failure is not tied to a step.
	Step     int
	Message  string
	Instance Instance
	Replay   string // the file that replays the instance, when written
}

func (f Failure) String() string {
	s := fmt.Sprintf("%s on %s, SOT(%d), %d packets", f.Property, f.Family, f.Instance.N, len(f.Instance.Rel))
	if f.Step >= 0 {
		s += fmt.Sprintf(", step %d", f.Step)
	}
	s += ": " + f.Message
	if len(f.Instance.Rel) <= 32 {
		s += fmt.Sprintf("; relation %v, seed %d", f.Instance.Rel, f.Instance.Seed)
	}
	if f.Replay != "" {
		s += "; replay: " + f.Replay
	}
	return s
}

// The properties, in the order a run checks them.
var properties = []string{"runs", "legal", "invariants", "delivery", "deflections", "completes", "locality"}

// family is an instance family: its instances for one option set.
type family struct {
	name string
	// gen returns the instances; rapid families return nil and check
	// themselves (see random).
	gen func(o Options) ([]Instance, error)
	// all: report every failing size (true) or stop at the first failing
	// instance (exhaustive scope).
	all bool
}

func tag(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

var families = []family{
	{name: "permutations", all: true, gen: func(o Options) ([]Instance, error) {
		var out []Instance
		for _, n := range o.Sizes {
			for _, f := range perm.FamiliesFor(n) {
				seed := seeds.Derive(o.Seed, tag(f.Name), uint64(n))
				p := f.Perm(n, seeds.Rand(seed, 1))
				rel := make([]perm.Pair, n)
				for s, d := range p {
					rel[s] = perm.Pair{Src: int32(s), Dst: d}
				}
				out = append(out, instance("permutation/"+f.Name, n, seed, rel))
			}
			rel := make([]perm.Pair, n)
			for s := range rel {
				rel[s] = perm.Pair{Src: int32(s), Dst: int32(s)}
			}
			out = append(out, instance("permutation/identity", n, seeds.Derive(o.Seed, tag("identity"), uint64(n)), rel))
		}
		return out, nil
	}},
	{name: "h-relations", all: true, gen: func(o Options) ([]Instance, error) {
		var out []Instance
		for _, n := range o.Sizes {
			for _, h := range o.H {
				seed := seeds.Derive(o.Seed, tag("h-relation"), uint64(n), uint64(h))
				rel := asot.RandomRelation(n, h, seeds.Rand(seed, 1))
				out = append(out, instance(fmt.Sprintf("h-relation/h=%d", h), n, seed, rel))
			}
		}
		return out, nil
	}},
	{name: "hot-spot", all: true, gen: func(o Options) ([]Instance, error) {
		var out []Instance
		for _, n := range o.Sizes {
			for _, h := range o.H {
				if h > n {
					continue
				}
				seed := seeds.Derive(o.Seed, tag("hot-spot"), uint64(n), uint64(h))
				rng := seeds.Rand(seed, 1)
				rel, err := perm.HotSpot(n, h, rng.IntN(n), rng)
				if err != nil {
					return nil, err
				}
				out = append(out, instance(fmt.Sprintf("hot-spot/h=%d", h), n, seed, rel))
			}
		}
		return out, nil
	}},
	{name: "fresh", all: true, gen: func(o Options) ([]Instance, error) {
		var out []Instance
		for _, n := range o.Sizes {
			seed := seeds.Derive(o.Seed, tag("fresh"), uint64(n))
			rel := asot.RandomTargets(n, 2*n, true, seeds.Rand(seed, 1))
			out = append(out, instance("fresh", n, seed, rel))
		}
		return out, nil
	}},
	{name: "exhaustive", gen: func(o Options) ([]Instance, error) {
		var out []Instance
		for _, sc := range o.Scope {
			n, per := sc[0], sc[1]
			if n < 2 || per < 0 {
				return nil, fmt.Errorf("scope {%d, %d}: need n ≥ 2 and per ≥ 0", n, per)
			}
			eachRelation(n, per, func(rel []perm.Pair) {
				out = append(out, instance(fmt.Sprintf("exhaustive/n=%d,per=%d", n, per), n, seeds.Derive(o.Seed, tag("exhaustive"), uint64(len(out))), rel))
			})
		}
		return out, nil
	}},
	{name: "random"},
}

// eachRelation calls f for every relation on SOT(n) in which each
// processor sends a sequence of at most per packets (targets any of the n
// processors): (Σ_{k≤per} n^k)^n relations.
func eachRelation(n, per int, f func([]perm.Pair)) {
	var seqs [][]int32
	var gen func(cur []int32)
	gen = func(cur []int32) {
		seqs = append(seqs, append([]int32(nil), cur...))
		if len(cur) == per {
			return
		}
		for d := range n {
			gen(append(cur, int32(d)))
		}
	}
	gen(nil)
	choice := make([]int, n)
	for {
		var rel []perm.Pair
		for src, c := range choice {
			for _, d := range seqs[c] {
				rel = append(rel, perm.Pair{Src: int32(src), Dst: d})
			}
		}
		f(rel)
		k := 0
		for k < n && choice[k] == len(seqs)-1 {
			choice[k] = 0
			k++
		}
		if k == n {
			return
		}
		choice[k]++
	}
}

// Check runs the suite on newRouter and returns the failures (nil when the
// router passes everything): a run stops at its first failure, and each
// family reports at most one failing instance per pattern and size (the
// exhaustive scope and rapid: one in all, rapid's shrunk).
func Check(newRouter NewRouter, o Options) []Failure {
	o = o.fill()
	if o.Replay != "" {
		return replayFile(newRouter, o)
	}
	var out []Failure
	for _, f := range families {
		out = append(out, checkFamily(f, newRouter, o)...)
	}
	return out
}

// Run runs the suite as subtests of t, one per family and property, and
// reports each failure with its replay file. t may be a *testing.T or
// *testing.B; other testing.TB values get the failures without subtests.
func Run(t testing.TB, newRouter NewRouter, o Options) {
	t.Helper()
	o = o.fill()
	report := func(name string, fs []Failure) {
		for _, p := range properties {
			var mine []Failure
			for _, f := range fs {
				if f.Property == p || (p == "runs" && f.Property == "setup") {
					mine = append(mine, f)
				}
			}
			suite.Sub(t, name+"/"+p, func(t testing.TB, sub bool) {
				t.Helper()
				switch {
				case len(mine) > 0 || !sub:
				case p == "completes" && o.MaxSteps == nil:
					t.Skip("no completion bound declared (Options.MaxSteps)")
				case p == "deflections" && o.MaxDeflections == nil:
					t.Skip("no deflection bound declared (Options.MaxDeflections)")
				case p == "locality" && o.SharedKnowledge != "":
					t.Log(suite.NotChecked(o.SharedKnowledge))
				}
				for _, f := range mine {
					t.Error(strings.Replace(f.String(), "go test", "go test -run '^"+topName(t)+"$'", 1))
				}
			})
		}
	}
	if o.Replay != "" {
		report("replay", replayFile(newRouter, o))
		return
	}
	for _, f := range families {
		report(f.name, checkFamily(f, newRouter, o))
	}
}

func topName(t testing.TB) string {
	name, _, _ := strings.Cut(t.Name(), "/")
	return name
}

// Fuzz adds a fuzz target over small instances: f.Fuzz(n, seed, data)
// runs SOT(2 + n mod 7) on the relation whose packet k goes from
// data[2k] mod n to data[2k+1] mod n (at most 64 packets), with every
// check of the suite under o's bounds. A user's fuzz test is
//
//	func FuzzMyRouter(f *testing.F) {
//		sottest.Fuzz(f, func() msot.Router { return myRouter{} }, sottest.Options{})
//	}
func Fuzz(f *testing.F, newRouter NewRouter, o Options) {
	o = o.fill()
	f.Add(uint8(1), uint64(1), []byte{0, 1, 1, 2, 2, 0})
	f.Add(uint8(2), uint64(2), []byte{0, 0, 1, 1, 2, 2, 3, 3})
	f.Add(uint8(0), uint64(3), []byte{0, 1, 0, 1, 1, 0, 1, 1})
	f.Fuzz(func(t *testing.T, n uint8, seed uint64, data []byte) {
		size := 2 + int(n)%7
		var rel []perm.Pair
		for k := 0; k+1 < len(data) && len(rel) < 64; k += 2 {
			rel = append(rel, perm.Pair{Src: int32(int(data[k]) % size), Dst: int32(int(data[k+1]) % size)})
		}
		if fl := runLocal(newRouter, instance("fuzz", size, seed, rel), o); fl != nil {
			fl.Replay = writeReplay(*fl, o, newRouter)
			t.Fatal(fl.String())
		}
	})
}

// checkFamily runs one family and returns its failures, replay files
// written.
func checkFamily(f family, newRouter NewRouter, o Options) []Failure {
	var out []Failure
	if f.gen == nil {
		out = checkRandom(newRouter, o)
	} else {
		ins, err := f.gen(o)
		if err != nil {
			return []Failure{{Property: "setup", Family: f.name, Step: -1, Message: err.Error()}}
		}
		seen := map[string]bool{}
		for _, in := range ins {
			key := fmt.Sprintf("%s/%d", in.Family, in.N)
			if !f.all {
				key = f.name
			}
			if seen[key] {
				continue
			}
			if fl := runLocal(newRouter, in, o); fl != nil {
				seen[key] = true
				out = append(out, *fl)
			}
		}
	}
	for k := range out {
		out[k].Replay = writeReplay(out[k], o, newRouter)
	}
	return out
}

// checkRandom draws relations under rapid — SOT(n) with 2 ≤ n ≤
// min(6, max size), 0…4 packets per processor, any targets, the router's
// seed — and returns the shrunk failing instance, if any.
func checkRandom(newRouter NewRouter, o Options) (out []Failure) {
	maxN := 2
	for _, n := range o.Sizes {
		maxN = max(maxN, min(n, 6))
	}
	defer func() {
		if r := recover(); r != nil {
			var fe *falsify.Error
			msg := fmt.Sprint(r)
			if e, ok := r.(error); ok && errors.As(e, &fe) {
				msg = fe.Error()
			}
			out = []Failure{{Property: "runs", Family: "random", Step: -1, Message: "rapid could not run the check (never a pass): " + msg}}
		}
	}()
	cex, _ := falsify.Falsify(o.Seed, o.Checks, func(t *rapid.T) any {
		n := rapid.IntRange(2, maxN).Draw(t, "n")
		var rel []perm.Pair
		for src := range n {
			for range rapid.IntRange(0, 4).Draw(t, "packets") {
				rel = append(rel, perm.Pair{Src: int32(src), Dst: int32(rapid.IntRange(0, n-1).Draw(t, "dst"))})
			}
		}
		seed := rapid.Uint64().Draw(t, "seed")
		if fl := runInstance(newRouter, instance("random", n, seed, rel), o); fl != nil {
			return *fl
		}
		return nil
	})
	if fl, ok := cex.(Failure); ok {
		fl.Message += " (shrunk by rapid)"
		return []Failure{fl}
	}
	return nil
}

// runInstance runs one instance with every check and returns the first
// failure, or nil.
func runInstance(newRouter NewRouter, in Instance, o Options) (fail *Failure) {
	n, rel := in.N, in.Pairs()
	step := -1
	failf := func(p, format string, args ...any) *Failure {
		return &Failure{Property: p, Family: in.Family, Step: step, Message: fmt.Sprintf(format, args...), Instance: in}
	}
	s, err := msot.NewState(n, rel)
	if err != nil {
		return failf("setup", "%v", err)
	}
	defer func() {
		if r := recover(); r != nil {
			fail = failf("runs", "the router panicked: %v", r)
		}
	}()
	r := newRouter()
	if r == nil {
		return failf("runs", "newRouter returned nil")
	}
	rng := seeds.Rand(in.Seed)
	bound, mustComplete := 8*n+4*len(rel), false
	if o.MaxSteps != nil {
		if b := o.MaxSteps(n, rel); b > 0 {
			bound, mustComplete = b, true
		}
	}
	maxDefl := -1
	if o.MaxDeflections != nil {
		maxDefl = o.MaxDeflections(n)
	}
	deliveries := NewDeliveries(n, rel)
	defl := make([]int, len(rel))
	cur, next := s.Clone(), msot.State{}
	a := make([]msot.Action, n*n)
	var ev msot.Events
	for !cur.Done() && cur.T < bound {
		step = cur.T
		msot.Decide(&cur, r, rng, a)
		if err := msot.StepInto(&next, &cur, a, &ev); err != nil {
			return failf("legal", "%v", err)
		}
		if err := msot.CheckInvariants(next); err != nil {
			return failf("invariants", "%v", err)
		}
		if err := deliveries.Observe(ev.Delivered); err != nil {
			return failf("delivery", "%v", err)
		}
		for _, df := range ev.Deflected {
			if defl[df.ID]++; maxDefl >= 0 && defl[df.ID] > maxDefl {
				i, j := cur.Pos(int(df.Node))
				return failf("deflections", "packet %d (P%d → P%d) deflected at (%d,%d), its deflection number %d; declared bound %d", df.ID, rel[df.ID].Src, rel[df.ID].Dst, i, j, defl[df.ID], maxDefl)
			}
		}
		cur, next = next, cur
	}
	step = -1
	if err := deliveries.Final(&cur); err != nil {
		return failf("delivery", "%v", err)
	}
	if mustComplete && !cur.Done() {
		step = cur.T
		return failf("completes", "%d of %d packets delivered after the declared bound of %d steps (%d injected)", cur.NDelivered, len(rel), bound, cur.NInjected)
	}
	return nil
}

// replayCase is the replay file of earlier versions: the instance and
// what broke (kind "sottest").
type replayCase struct {
	Kind     string   `json:"kind"` // "sottest"
	Property string   `json:"property"`
	Step     int      `json:"step"`
	Message  string   `json:"message"`
	Instance Instance `json:"instance"`
}

// caseInstance is the instance of a sot-suite case file: the instance and
// the bounds declared for it (max_steps 0: none; max_deflections absent:
// none).
type caseInstance struct {
	Instance
	MaxSteps       int  `json:"max_steps,omitempty"`
	MaxDeflections *int `json:"max_deflections,omitempty"`
}

// writeReplay writes the failure as a routecheck case (kind sot-suite)
// under o.ReplayDir and returns how to re-run it.
func writeReplay(f Failure, o Options, newRouter NewRouter) string {
	if o.ReplayDir == "-" || f.Instance.N == 0 {
		return ""
	}
	ci := caseInstance{Instance: f.Instance}
	if o.MaxSteps != nil {
		ci.MaxSteps = max(0, o.MaxSteps(f.Instance.N, f.Instance.Pairs()))
	}
	if o.MaxDeflections != nil {
		if d := o.MaxDeflections(f.Instance.N); d >= 0 {
			ci.MaxDeflections = &d
		}
	}
	router := suite.RouterName(o.Router, newRouter)
	return suite.WriteReplay(o.ReplayDir, "sottest", "sot-suite", router, "sottest, family "+f.Family, ci,
		[]hunt.Broken{{Property: f.Property, Step: f.Step, Message: f.Message}}, "sottest.CheckFile(newRouter, %q, opts)")
}

// CheckFile re-runs the instance of a replay file with every property: a
// sot-suite case (what failures write; its declared bounds apply where o
// declares none) or a "sottest" file of earlier versions. It returns the
// failure (at most one), or an error when the file is not a replay file.
func CheckFile(newRouter NewRouter, path string, o Options) ([]Failure, error) {
	data, c, err := hunt.ReadSuiteFile(path, "sot-suite")
	if err != nil {
		return nil, err
	}
	var in caseInstance
	if c != nil {
		err = json.Unmarshal(data, &in)
	} else {
		var old replayCase
		if err = json.Unmarshal(data, &old); err == nil && old.Kind != "sottest" {
			err = fmt.Errorf("kind %q, want sot-suite (or sottest)", old.Kind)
		}
		in.Instance = old.Instance
	}
	if err != nil {
		return nil, fmt.Errorf("%s: not a sottest replay file: %v", path, err)
	}
	if o.MaxSteps == nil && in.MaxSteps > 0 {
		o.MaxSteps = func(int, []perm.Pair) int { return in.MaxSteps }
	}
	if o.MaxDeflections == nil && in.MaxDeflections != nil {
		o.MaxDeflections = func(int) int { return *in.MaxDeflections }
	}
	o.ReplayDir, o.Replay = "-", "-"
	fs, err := CheckInstance(newRouter, in.Instance, o)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return fs, nil
}

// CheckInstance runs one instance with every property (for a user's
// instance file: routecheck check's sot-suite kind).
func CheckInstance(newRouter NewRouter, in Instance, o Options) ([]Failure, error) {
	if in.N < 2 {
		return nil, fmt.Errorf("n = %d: SOT(n) needs n ≥ 2", in.N)
	}
	for k, r := range in.Rel {
		if r[0] < 0 || int(r[0]) >= in.N || r[1] < 0 || int(r[1]) >= in.N {
			return nil, fmt.Errorf("rel[%d] = %v: processors are 0…%d", k, r, in.N-1)
		}
	}
	if in.Family == "" {
		in.Family = "instance"
	}
	if fl := runLocal(newRouter, in, o.fill()); fl != nil {
		return []Failure{*fl}, nil
	}
	return nil, nil
}

// runLocal is runInstance followed, when it passes and the router declares
// no shared knowledge, by the locality check.
func runLocal(newRouter NewRouter, in Instance, o Options) *Failure {
	if fl := runInstance(newRouter, in, o); fl != nil || o.SharedKnowledge != "" {
		return fl
	}
	return checkLocality(newRouter, in, o)
}

// replayFile runs the instance of o.Replay alone.
func replayFile(newRouter NewRouter, o Options) []Failure {
	fs, err := CheckFile(newRouter, o.Replay, o)
	if err != nil {
		return []Failure{{Property: "setup", Family: "replay", Step: -1, Message: fmt.Sprintf("replay %s: %v", o.Replay, err)}}
	}
	return fs
}
