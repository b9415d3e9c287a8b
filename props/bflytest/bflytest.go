// Package bflytest is the conformance suite for routers on the butterfly
// with r extra randomizing stages (001_afbf5d537b48cc65.txt, Upfal,
// Felperin & Snir; the step model routecheck/models/butterfly): hand it a
// constructor of your router and one call checks it the way routecheck
// checks the paper's greedy priority router — the way
// testing/fstest.TestFS checks a file system.
//
//	func TestMyRouter(t *testing.T) {
//		bflytest.Run(t, func() butterfly.Router { return myrouter.New() }, bflytest.Options{
//			// the bounds your analysis promises, for t packets per input
//			// (nil: DefaultMaxSteps, and no queue bound)
//			MaxSteps: func(sh butterfly.Shape, t int) int { return myrouter.TimeBound(sh, t) },
//			MaxQueue: func(sh butterfly.Shape, t int) int { return myrouter.QueueBound(sh, t) },
//		})
//	}
//
//	func FuzzMyRouter(f *testing.F) {
//		bflytest.Fuzz(f, func() butterfly.Router { return myrouter.New() })
//	}
//
// A router implements models/butterfly.Router: it chooses each packet's r
// random transitions and header when the packet enters (Launch), and in
// every step each node with queued packets chooses, from its own view
// (its queues, its input buffers, the packet headers, and under strict
// buffers the flow control of its two outgoing links), which packet to
// forward on which link (Route). Randomness comes only from the *rand.Rand
// argument. The interface lives in the model package because it is the
// model's contract (see its package comment).
//
// For every shape in Options.Shapes (both node models of the paper, the
// buffered one with and without strict buffers) the suite routes the
// standard traffic families of models/perm that apply to N = 2^n (uniform,
// bit-reversal, bit-complement, transpose, shuffle, tornado, neighbour),
// the paper's worst case for the plain butterfly — the transpose (§1: it
// "requires Ω(√N) steps"; for odd n the halves of ⌈n/2⌉ and ⌊n/2⌋ bits),
// also repeated t times (§1: "t successive executions of that same worst
// case permutation"), t independent random permutations pipelined (§3), a
// hot-spot t-relation, and rapid-generated partial permutation sequences
// shrunk to a minimal failing one. On every run, after every step, it
// checks (the property names of Failure):
//
//   - launch: Launch returns X ∈ [0, 2^r);
//   - legal: every Forward is one the hardware can perform (the model's
//     ErrAction: a wrong link, an index outside the queue, two packets
//     from one node in the node-queue model or on one link, a send into an
//     occupied buffer under strict buffers);
//   - invariants: butterfly.CheckInvariants — every packet on its §3 path,
//     no packet created, duplicated or lost (the model allows no drop);
//   - delivery: every packet delivered once, at its destination;
//   - terminates: every packet delivered within the declared MaxSteps;
//   - queue-bound: no queue longer than the declared MaxQueue (the input
//     buffers hold one packet by the model);
//   - reproducible: the same instance and seed give the same delivery steps
//     (a replay file means something only then);
//   - crash: the router panicked;
//   - locality (a subtest per shape; also on CheckInstance, replays and
//     fuzzing): every listed family's instance routed again with one Router
//     shared by every node and with a fresh Router per node (newRouter()
//     once per node; a packet's Launch goes to its input node's) makes the
//     same decisions from the same random stream — a node decides from its
//     own view and state only. A router the paper lets use shared or
//     offline knowledge declares it (Options.SharedKnowledge) and the
//     subtest logs that instead.
//
// A failure names the property, the shape, the family, the step, and the
// (shrunk) instance, and writes a replay file: a routecheck case (kind
// bfly-suite) recording the instance, the declared bounds, the router's
// name (Options.Router) and what it broke. `routecheck replay FILE` runs it
// with routecheck's router of that name ("greedy"), or, for a router the
// CLI does not have (yours), with the paper's greedy priority router,
// saying so; ReplayFile re-runs it against yours (and still reads the bare
// instance files of earlier versions).
package bflytest

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"routecheck/internal/falsify"
	"routecheck/internal/hunt"
	mb "routecheck/models/butterfly"
	"routecheck/models/perm"
	"routecheck/oracles/bflyforms"
	"routecheck/props/internal/suite"
)

// NewRouter returns a fresh router for one run.
type NewRouter func() mb.Router

// Options tune the suite; the zero value is ready to use (see fill).
type Options struct {
	// Shapes are the networks routed; nil means every n in 1…4 with
	// r ∈ {0, 1, ⌈n/2⌉, n}, each in the node-queue model, the buffered
	// model and the buffered model with strict buffers.
	Shapes []mb.Shape
	// Perms is t, the number of packets per input in the pipelined families
	// (t permutations, or a hot-spot t-relation) and the most the random
	// family draws; 0 means 2.
	Perms int
	// MaxSteps is the declared bound on the routing time of an instance
	// with at most t packets per input; nil means DefaultMaxSteps.
	MaxSteps func(sh mb.Shape, t int) int
	// MaxQueue is the declared bound on every queue (a node's queue, or a
	// link's queue in the buffered model), checked before the first step
	// and after every step; nil (or a value ≤ 0) means no bound.
	MaxQueue func(sh mb.Shape, t int) int
	// Checks is the number of rapid cases per shape; 0 means 30.
	Checks int
	// Seed makes every random choice reproducible; 0 means 1.
	Seed uint64
	// ReplayDir receives the replay file of a failing instance; "" means
	// os.TempDir(). "-" writes none.
	ReplayDir string
	// Router is the router's name in replay files: `routecheck replay`
	// runs routecheck's router of that name ("greedy") and, for any other
	// name, the paper's greedy priority router instead. "" means the
	// router's Go type (fmt's %T).
	Router string
	// SharedKnowledge, when set, declares (with the reason) that the
	// router legitimately uses knowledge beyond one node's (e.g. an offline
	// schedule the paper says every node knows): the locality property is
	// then not checked, and Run's locality subtests say so. "" means the
	// router must be local.
	SharedKnowledge string
}

// DefaultMaxSteps is 2·t·N·(n + r) + 2: every packet crosses n + r links,
// and a router that forwards a packet whenever one can legally go makes a
// traversal in at least every other step (in the node-queue model every
// step; under strict buffers a step with every head blocked empties the
// buffers for the next). It catches a router that stalls, not a slow one:
// declare your own bound for that.
func DefaultMaxSteps(sh mb.Shape, t int) int { return 2*t*sh.N()*sh.Stages() + 2 }

// CongestionBound is t·2^min(s, n+r−s, n) maximized over the stages
// 0 ≤ s < n + r that have queues: at most t packets leave each input and
// enter each output, a node of stage s is reached from 2^min(s, n) inputs
// and reaches 2^min(n+r−s, n) outputs, so no queue ever holds more — for
// every legal router. It is a sanity bound, not a performance one.
func CongestionBound(sh mb.Shape, t int) int {
	n, m := sh.LogN, 0
	for s := range sh.Stages() {
		m = max(m, min(s, sh.Stages()-s, n))
	}
	return t << m
}

func (o Options) fill() Options {
	if o.Shapes == nil {
		for n := 1; n <= 4; n++ {
			var rs []int
			for _, r := range []int{0, 1, (n + 1) / 2, n} {
				if !slices.Contains(rs, r) {
					rs = append(rs, r)
				}
			}
			for _, r := range rs {
				o.Shapes = append(o.Shapes,
					mb.Shape{LogN: n, R: r, Mode: mb.NodeQueue},
					mb.Shape{LogN: n, R: r, Mode: mb.Buffered},
					mb.Shape{LogN: n, R: r, Mode: mb.Buffered, StrictBuffers: true})
			}
		}
	}
	if o.Perms == 0 {
		o.Perms = 2
	}
	if o.MaxSteps == nil {
		o.MaxSteps = DefaultMaxSteps
	}
	suite.Fill(&o.Checks, 30, &o.Seed, &o.ReplayDir)
	return o
}

// Spec is one packet of an instance: source input, destination output, and
// ℓ, its index among its source's packets (1, 2, …; the permutation it
// belongs to in a pipelined sequence).
type Spec struct {
	Src  int32 `json:"src"`
	Dst  int32 `json:"dst"`
	Perm int32 `json:"perm"`
}

// Instance is a routing problem: the network, the packets (packet k has
// ID k; they are launched in this order), and the seed of the run's
// *rand.Rand (PCG(Seed, 0xbf17)), from which Launch and Route draw.
type Instance struct {
	Kind    string `json:"kind"` // always "bflytest-instance"
	LogN    int    `json:"log_n"`
	R       int    `json:"r"`
	Mode    string `json:"mode"` // node-queue or buffered
	Strict  bool   `json:"strict_buffers,omitempty"`
	Family  string `json:"family"`
	Seed    uint64 `json:"seed"`
	Packets []Spec `json:"packets"`
}

// Shape is the instance's network.
func (in Instance) Shape() mb.Shape {
	sh := mb.Shape{LogN: in.LogN, R: in.R, StrictBuffers: in.Strict}
	if in.Mode == mb.Buffered.String() {
		sh.Mode = mb.Buffered
	}
	return sh
}

// load is the most packets any input sends (t).
func (in Instance) load() int {
	t := 0
	for _, p := range in.Packets {
		t = max(t, int(p.Perm))
	}
	return t
}

func newInstance(sh mb.Shape, family string, seed uint64, ps []Spec) Instance {
	return Instance{Kind: "bflytest-instance", LogN: sh.LogN, R: sh.R, Mode: sh.Mode.String(), Strict: sh.StrictBuffers, Family: family, Seed: seed, Packets: ps}
}

// Failure is one property a router broke on one instance.
type Failure struct {
	Property string // launch, legal, invariants, delivery, terminates, queue-bound, reproducible, crash, suite
	Family   string
	Shape    mb.Shape
	Step     int // the step in which it broke (0: at launch)
	Message  string
	Instance *Instance // the (shrunk) instance, when there is one
	Replay   string    // how to re-run it, when the file was written
}

func shapeName(sh mb.Shape) string {
	m := sh.Mode.String()
	if sh.StrictBuffers {
		m += "-strict"
	}
	return fmt.Sprintf("n=%d,r=%d,%s", sh.LogN, sh.R, m)
}

func (f Failure) String() string {
	s := fmt.Sprintf("%s on %s, %s, step %d: %s", f.Property, shapeName(f.Shape), f.Family, f.Step, f.Message)
	if f.Instance != nil {
		b, _ := json.Marshal(f.Instance.Packets)
		if len(b) > 400 {
			b = append(b[:400], "…"...)
		}
		s += fmt.Sprintf("; %d packets (seed %d) %s", len(f.Instance.Packets), f.Instance.Seed, b)
	}
	if f.Replay != "" {
		s += "; replay: " + f.Replay
	}
	return s
}

// family is a named instance generator for one shape.
type family struct {
	name string
	gen  func(sh mb.Shape, t int, rng *rand.Rand) []Spec
}

// permsSpec lays out a sequence of permutations input by input, each
// input's packets in order ℓ = 1, 2, … (the order of §3's pipelining).
func permsSpec(perms ...[]int32) []Spec {
	var out []Spec
	for i := range perms[0] {
		for l, p := range perms {
			out = append(out, Spec{Src: int32(i), Dst: p[i], Perm: int32(l + 1)})
		}
	}
	return out
}

// families are the instance families for shape sh (N = 2^n).
func families(sh mb.Shape) []family {
	N, n := sh.N(), sh.LogN
	var out []family
	hasT := false
	for _, f := range perm.FamiliesFor(N) {
		hasT = hasT || f.Name == "transpose"
		out = append(out, family{f.Name, func(_ mb.Shape, _ int, rng *rand.Rand) []Spec { return permsSpec(f.Perm(N, rng)) }})
	}
	if !hasT {
		out = append(out, family{"transpose", func(mb.Shape, int, *rand.Rand) []Spec { return permsSpec(bflyforms.Transpose(n)) }})
	}
	out = append(out,
		family{"transpose×t", func(_ mb.Shape, t int, rng *rand.Rand) []Spec {
			return permsSpec(Sequence("transpose×t", n, t, rng)...)
		}},
		family{"pipelined-random", func(_ mb.Shape, t int, rng *rand.Rand) []Spec {
			return permsSpec(Sequence("pipelined-random", n, t, rng)...)
		}},
		family{"hot-spot", func(_ mb.Shape, t int, rng *rand.Rand) []Spec {
			h := min(t, N)
			pairs, err := perm.HotSpot(N, h, 0, rng)
			if err != nil {
				panic("bflytest: " + err.Error())
			}
			slices.SortStableFunc(pairs, func(a, b perm.Pair) int { return int(a.Src - b.Src) })
			out := make([]Spec, len(pairs))
			for k, p := range pairs {
				l := int32(1)
				if k > 0 && pairs[k-1].Src == p.Src {
					l = out[k-1].Perm + 1
				}
				out[k] = Spec{Src: p.Src, Dst: p.Dst, Perm: l}
			}
			return out
		}},
	)
	return out
}

// familyNames are the subtests per shape, in the order Run runs them:
// the families, then random (rapid), reproducible and locality.
func familyNames(sh mb.Shape) []string {
	var out []string
	for _, f := range families(sh) {
		out = append(out, f.name)
	}
	return append(out, "random", "reproducible", "locality")
}

// Check runs the suite on newRouter and returns the failures (nil when the
// router passes everything).
func Check(newRouter NewRouter, o Options) []Failure {
	o = o.fill()
	var out []Failure
	for _, sh := range o.Shapes {
		for _, name := range familyNames(sh) {
			out = append(out, checkFamily(newRouter, sh, name, o)...)
		}
	}
	return out
}

// Run runs the suite as subtests of t, one per shape and family (random,
// reproducible and locality included), and reports each failure with its replay line. t may be a *testing.T or
// *testing.B; other testing.TB values get the failures without subtests.
func Run(t testing.TB, newRouter NewRouter, o Options) {
	t.Helper()
	o = o.fill()
	for _, sh := range o.Shapes {
		if err := sh.Validate(); err != nil {
			t.Errorf("shape %+v: %v", sh, err)
			continue
		}
		for _, name := range familyNames(sh) {
			suite.Sub(t, shapeName(sh)+"/"+name, func(t testing.TB, _ bool) {
				if name == "locality" && o.SharedKnowledge != "" {
					t.Log(suite.NotChecked(o.SharedKnowledge))
				}
				for _, f := range checkFamily(newRouter, sh, name, o) {
					t.Error(f.String())
				}
			})
		}
	}
}

// CheckInstance routes one instance and returns what it broke.
func CheckInstance(newRouter NewRouter, in Instance, o Options) []Failure {
	o = o.fill()
	if f := routeLocal(newRouter, in, o); f != nil {
		return []Failure{withReplay(*f, o, newRouter)}
	}
	return nil
}

// routeLocal is route followed, when it passes and the router declares no
// shared knowledge, by the locality check.
func routeLocal(newRouter NewRouter, in Instance, o Options) *Failure {
	if f := route(newRouter, in, o, nil); f != nil || o.SharedKnowledge != "" {
		return f
	}
	return checkLocality(newRouter, in, o)
}

// ReplayFile re-runs the instance of a replay file: a bfly-suite case
// (what failures write; its declared max_steps and max_queue apply where o
// declares none) or a bare instance (what earlier versions wrote).
func ReplayFile(newRouter NewRouter, path string, o Options) ([]Failure, error) {
	in, err := loadCase(path)
	if err != nil {
		return nil, err
	}
	if o.MaxSteps == nil && in.MaxSteps > 0 {
		o.MaxSteps = func(mb.Shape, int) int { return in.MaxSteps }
	}
	if o.MaxQueue == nil && in.MaxQueue > 0 {
		o.MaxQueue = func(mb.Shape, int) int { return in.MaxQueue }
	}
	o.ReplayDir = "-"
	return CheckInstance(newRouter, in.Instance, o), nil
}

// LoadInstance reads the instance of a replay file (a bfly-suite case or a
// bare instance), validating the network and packets.
func LoadInstance(path string) (Instance, error) {
	in, err := loadCase(path)
	return in.Instance, err
}

func loadCase(path string) (caseInstance, error) {
	var in caseInstance
	b, _, err := hunt.ReadSuiteFile(path, "bfly-suite")
	if err != nil {
		return in, err
	}
	if err := json.Unmarshal(b, &in); err != nil {
		return in, fmt.Errorf("bflytest: %s: %w", path, err)
	}
	if err := in.Validate(); err != nil {
		return in, fmt.Errorf("bflytest: %s: %w", path, err)
	}
	return in, nil
}

// Validate reports whether the instance is well formed: its kind, mode,
// packets and network.
func (in Instance) Validate() error {
	if in.Kind != "bflytest-instance" {
		return fmt.Errorf("kind %q, want \"bflytest-instance\"", in.Kind)
	}
	if in.Mode != mb.NodeQueue.String() && in.Mode != mb.Buffered.String() {
		return fmt.Errorf("mode %q, allowed node-queue or buffered", in.Mode)
	}
	ps := make([]mb.Packet, len(in.Packets))
	for k, p := range in.Packets {
		if p.Perm < 1 {
			return fmt.Errorf("packet %d has perm %d, allowed ≥ 1", k, p.Perm)
		}
		ps[k] = mb.Packet{ID: int32(k), Src: p.Src, Dst: p.Dst, Perm: p.Perm}
	}
	_, err := mb.New(in.Shape(), ps)
	return err
}

// Fuzz adds a fuzz target: from the fuzzer's bytes it picks a shape
// (n ≤ 4, any r, either node model), a permutation (uniform, from the
// seed) and a run seed, and checks every property but reproducible with
// the default bounds. A user's fuzz test is
//
//	func FuzzMyRouter(f *testing.F) { bflytest.Fuzz(f, myrouter.New) }
func Fuzz(f *testing.F, newRouter NewRouter) {
	for _, c := range [][3]uint8{{1, 0, 0}, {3, 1, 1}, {4, 2, 2}, {2, 2, 1}} {
		f.Add(c[0], c[1], c[2], uint64(c[0])*7+1)
	}
	f.Fuzz(func(t *testing.T, n, r, mode uint8, seed uint64) {
		sh := mb.Shape{LogN: int(n)%4 + 1}
		sh.R = int(r) % (sh.LogN + 1)
		switch mode % 3 {
		case 1:
			sh.Mode = mb.Buffered
		case 2:
			sh.Mode, sh.StrictBuffers = mb.Buffered, true
		}
		rng := rand.New(rand.NewPCG(seed, 0xf022))
		in := newInstance(sh, "fuzz", seed, permsSpec(perm.Random(sh.N(), rng)))
		o := Options{}.fill()
		if fl := routeLocal(newRouter, in, o); fl != nil {
			t.Fatal(withReplay(*fl, o, newRouter).String())
		}
	})
}

// checkFamily runs one family on one shape.
func checkFamily(newRouter NewRouter, sh mb.Shape, name string, o Options) (out []Failure) {
	defer func() {
		if r := recover(); r != nil {
			out = append(out, Failure{Property: "suite", Family: name, Shape: sh, Message: fmt.Sprintf("the check could not run: %v", r)})
		}
	}()
	seed := o.Seed ^ uint64(sh.LogN)<<8 ^ uint64(sh.R)<<16 ^ uint64(sh.Mode)<<24
	if sh.StrictBuffers {
		seed ^= 1 << 28
	}
	fail := func(f *Failure) []Failure {
		if f == nil {
			return nil
		}
		return []Failure{withReplay(*f, o, newRouter)}
	}
	switch name {
	case "random":
		return checkRandom(newRouter, sh, seed, o)
	case "reproducible":
		in := newInstance(sh, "uniform", seed, permsSpec(perm.Random(sh.N(), rand.New(rand.NewPCG(seed, 7)))))
		var a, b []int32
		if f := route(newRouter, in, o, &a); f != nil {
			return fail(f)
		}
		if f := route(newRouter, in, o, &b); f != nil {
			return fail(f)
		}
		if k := slices.Compare(a, b); k != 0 {
			i := 0
			for a[i] == b[i] {
				i++
			}
			return fail(&Failure{Property: "reproducible", Family: in.Family, Shape: sh, Instance: &in,
				Message: fmt.Sprintf("two runs with seed %d deliver packet %d at steps %d and %d (a router must draw only from its rng)", in.Seed, i, a[i], b[i])})
		}
		return nil
	case "locality":
		if o.SharedKnowledge != "" {
			return nil
		}
		for _, f := range families(sh) {
			in := newInstance(sh, f.name, seed, f.gen(sh, o.Perms, rand.New(rand.NewPCG(seed, 0xfa))))
			if fl := checkLocality(newRouter, in, o); fl != nil {
				return fail(fl)
			}
		}
		return nil
	}
	for _, f := range families(sh) {
		if f.name != name {
			continue
		}
		rng := rand.New(rand.NewPCG(seed, 0xfa))
		in := newInstance(sh, name, seed, f.gen(sh, o.Perms, rng))
		return fail(route(newRouter, in, o, nil))
	}
	panic("bflytest: unknown family " + name)
}

// checkRandom draws sequences of 1…t partial permutations with rapid and
// shrinks a failing one (fewer packets, destinations closer to the
// identity, seed towards 0).
func checkRandom(newRouter NewRouter, sh mb.Shape, seed uint64, o Options) []Failure {
	N := sh.N()
	ids := make([]int32, N)
	for i := range ids {
		ids[i] = int32(i)
	}
	cex, _ := falsify.Falsify(seed, o.Checks, func(t *rapid.T) any {
		tt := rapid.IntRange(1, o.Perms).Draw(t, "t")
		var ps []Spec
		perms := make([][]int32, tt)
		for l := range perms {
			perms[l] = rapid.Permutation(ids).Draw(t, "perm")
		}
		keep := rapid.SliceOfN(rapid.Bool(), tt*N, tt*N).Draw(t, "keep")
		for k, p := range permsSpec(perms...) {
			if keep[k] {
				ps = append(ps, p)
			}
		}
		// Renumber ℓ per source so it counts the packets a source sends.
		for k := range ps {
			ps[k].Perm = 1
			if k > 0 && ps[k-1].Src == ps[k].Src {
				ps[k].Perm = ps[k-1].Perm + 1
			}
		}
		in := newInstance(sh, "random", rapid.Uint64().Draw(t, "seed"), ps)
		if f := route(newRouter, in, o, nil); f != nil {
			return in
		}
		return nil
	})
	in, ok := cex.(Instance)
	if !ok {
		return nil
	}
	f := route(newRouter, in, o, nil)
	if f == nil {
		return []Failure{withReplay(Failure{Property: "reproducible", Family: "random", Shape: sh, Instance: &in,
			Message: "rapid's shrunk counterexample passes when re-run"}, o, newRouter)}
	}
	f.Message += " (shrunk by rapid)"
	return []Failure{withReplay(*f, o, newRouter)}
}

// step is the model's step; a test of the suite plants a faulty one to
// show that the conservation checks catch it.
var step = mb.Step

// route runs one instance with a fresh router, checking every property
// after every step; it returns the first failure, or nil. When lat is not
// nil it receives the delivery step of every packet.
func route(newRouter NewRouter, in Instance, o Options, lat *[]int32) (fl *Failure) {
	sh := in.Shape()
	t := in.load()
	at := 0
	fail := func(prop, format string, a ...any) *Failure {
		return &Failure{Property: prop, Family: in.Family, Shape: sh, Step: at, Message: fmt.Sprintf(format, a...), Instance: &in}
	}
	defer func() {
		if r := recover(); r != nil {
			fl = fail("crash", "the router panicked: %v", r)
		}
	}()
	rng := rand.New(rand.NewPCG(in.Seed, 0xbf17))
	r := newRouter()
	ps := make([]mb.Packet, len(in.Packets))
	for k, p := range in.Packets {
		ps[k] = mb.Packet{ID: int32(k), Src: p.Src, Dst: p.Dst, Perm: p.Perm}
		x, key := r.Launch(sh, ps[k], rng)
		if x < 0 || x >= 1<<sh.R {
			return fail("launch", "packet %d gets X = %d, allowed [0, 2^r = %d)", k, x, 1<<sh.R)
		}
		ps[k].X, ps[k].Key = x, key
	}
	st, err := mb.New(sh, ps)
	if err != nil {
		return fail("suite", "the instance is malformed: %v", err)
	}
	maxSteps, maxQ := o.MaxSteps(sh, t), 0
	if o.MaxQueue != nil {
		maxQ = o.MaxQueue(sh, t)
	}
	longest := func(st mb.State) (int, int) {
		m, at := 0, 0
		for i, q := range st.Queues {
			if len(q) > m {
				m, at = len(q), i
			}
		}
		return m, at
	}
	if m, i := longest(st); maxQ > 0 && m > maxQ {
		s, row, _ := st.Node(i)
		return fail("queue-bound", "a queue of node (%d, %d) holds %d packets at the start, the declared bound is %d", s, row, m, maxQ)
	}
	delivered := make([]int32, len(ps))
	for st.InFlight() > 0 {
		at = st.Step + 1
		if st.Step >= maxSteps {
			return fail("terminates", "%d of %d packets undelivered after the declared %d steps", st.InFlight(), len(ps), maxSteps)
		}
		a, err := mb.Actions(st, r, rng)
		if err == nil {
			var next mb.State
			var ev mb.Events
			next, ev, err = step(st, a)
			if err == nil {
				if err := mb.CheckInvariants(next, len(ps)); err != nil {
					return fail("invariants", "%v", err)
				}
				for _, d := range ev.Delivered {
					switch {
					case d.ID < 0 || int(d.ID) >= len(ps):
						return fail("delivery", "a packet with unknown id %d delivered", d.ID)
					case delivered[d.ID] != 0:
						return fail("delivery", "packet %d delivered twice (steps %d and %d)", d.ID, delivered[d.ID], next.Step)
					case d.Row != ps[d.ID].Dst:
						return fail("delivery", "packet %d delivered at output %d, its destination is %d", d.ID, d.Row, ps[d.ID].Dst)
					}
					delivered[d.ID] = int32(next.Step)
				}
				if m, i := longest(next); maxQ > 0 && m > maxQ {
					s, row, _ := next.Node(i)
					return fail("queue-bound", "a queue of node (%d, %d) holds %d packets, the declared bound is %d", s, row, m, maxQ)
				}
				st = next
				continue
			}
		}
		if errors.Is(err, mb.ErrAction) {
			return fail("legal", "%v", err)
		}
		return fail("suite", "the model refused the step: %v", err)
	}
	for k, d := range delivered {
		if d == 0 {
			return fail("delivery", "packet %d never delivered (the network is empty)", k)
		}
	}
	if lat != nil {
		*lat = delivered
	}
	return nil
}

// caseInstance is the instance of a bfly-suite case file: the instance
// and the bounds declared for it (0: none).
type caseInstance struct {
	Instance
	MaxSteps int `json:"max_steps,omitempty"`
	MaxQueue int `json:"max_queue,omitempty"`
}

// withReplay writes the failure as a routecheck case (kind bfly-suite)
// under o.ReplayDir and records how to re-run it.
func withReplay(f Failure, o Options, newRouter NewRouter) Failure {
	if f.Instance == nil || o.ReplayDir == "-" {
		return f
	}
	o = o.fill()
	sh, t := f.Instance.Shape(), f.Instance.load()
	ci := caseInstance{Instance: *f.Instance, MaxSteps: o.MaxSteps(sh, t)}
	if o.MaxQueue != nil {
		ci.MaxQueue = max(0, o.MaxQueue(sh, t))
	}
	router := suite.RouterName(o.Router, newRouter)
	f.Replay = suite.WriteReplay(o.ReplayDir, "bflytest", "bfly-suite", router, "bflytest, "+shapeName(f.Shape)+", family "+f.Family, ci,
		[]hunt.Broken{{Property: f.Property, Step: f.Step, Message: f.Message}}, "bflytest.ReplayFile(newRouter, %q, opts)")
	return f
}
