// Package mbflytest is the conformance suite for multi-butterfly routers:
// hand it a constructor of your models/multibutterfly.Router and one call
// runs it the way routecheck runs Upfal's batched priority routing (§3.2 of
// seed 004) — the way testing/fstest.TestFS checks a file system.
//
//	func TestMyRouter(t *testing.T) {
//		mbflytest.Run(t, func() mb.Router { return &myrouter.R{} }, mbflytest.Options{
//			D: 2, // splitters with d edges into each output set
//			L: 2, // the buffer bound: no node ever holds more than L packets
//			MaxSteps: func(n, d, L int) int { // the time you claim
//				return 2 * d * 8 * (bits.Len(uint(n)) + L)
//			},
//		})
//	}
//	func FuzzMyRouter(f *testing.F) { mbflytest.Fuzz(f, func() mb.Router { return &myrouter.R{} }) }
//
// The Router interface lives in models/multibutterfly, beside the step
// model it drives (mb.RunRouter): it is the contract of what a node may know
// (its own buffer, the buffers at the heads of its out edges, the clock)
// and do (send packets it holds along its own edges), and the model is what
// enforces it; algos/multibutterfly.Priority is §3.2's router in that form.
//
// For every size N in Options.Sizes the suite builds Options.Nets random
// multi-butterflies (mb.Build with d = Options.D) and routes, one subtest
// per instance family: every partial permutation when N ≤ 4 (exhaustive),
// the standard traffic patterns of models/perm that apply to N (uniform,
// bit-reversal, bit-complement, transpose, shuffle, tornado, neighbour), a
// random partial permutation (partial), and rapid-generated instances over
// all sizes, shrunk to a minimal one (random). Every run is checked after
// every step, and a failure names the property it broke:
//
//   - legal: every move is one the hardware can make (mb.StepInto's
//     physics, wrapped in mb.ErrIllegal) and a node moves only packets it
//     holds along its own edges (mb.RunRouter);
//   - buffer: no node holds more than the declared L (mb.ErrCapacity);
//   - invariants: mb.CheckInvariants after every step — the tally of
//     positions (conservation), no packet off its route (misrouted: in this
//     model a packet sent to the wrong output set is lost to its
//     destination), buffers ≤ L;
//   - conservation: the packets after every step are the instance's, by
//     name, source and destination (none created, dropped or renamed);
//   - termination: every packet is at its output within the declared
//     MaxSteps(N, d, L) steps;
//   - panic: the router panicked (a crash is never a pass);
//   - locality: the instance run again with one Router shared by every
//     node and with a fresh Router per node (newRouter() once per node,
//     each Init'ed as the shared one is) makes the same moves from the same
//     random stream — a node decides from its own view and memory only
//     (the network itself is public). A subtest per size (N=…/locality)
//     checks every listed instance; CheckInstance and CheckFile check it
//     too, not rapid's random draws. A router
//     the paper lets use shared or offline knowledge declares it
//     (Options.SharedKnowledge): Check and Run then skip the property (the
//     subtests say so), and a locality failure from CheckInstance means
//     every other property passed.
//
// A failure prints the instance (N, d, L, the network's and the router's
// seeds, the permutation), the step where it broke, and writes a replay
// file to Options.ReplayDir: a routecheck case (kind mbfly-suite) recording
// the instance, the router's name (Options.Router) and what it broke.
// `routecheck replay FILE` runs it with routecheck's router of that name
// ("priority"), or, for a router the CLI does not have (yours), with §3.2's
// priority routing, saying so; CheckFile re-runs it against yours (and
// still reads the "multi-butterfly" files of earlier versions).
package mbflytest

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math/bits"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"routecheck/internal/falsify"
	"routecheck/internal/hunt"
	"routecheck/internal/seeds"
	mb "routecheck/models/multibutterfly"
	"routecheck/models/perm"
	"routecheck/props/internal/suite"
)

// NewRouter returns a fresh router; the suite calls it once per run.
type NewRouter func() mb.Router

// Options tune the suite; the zero value is ready to use (see fill).
type Options struct {
	// Sizes are the input counts N (powers of two in [2, 1024]); nil means
	// 2, 4, 8, 16, 32, 64 (2 … 32 with -short).
	Sizes []int
	// D is the splitter degree d (d edges into each output set); 0 means 2.
	D int
	// L is the buffer bound the router is told (Init) and the model
	// enforces; 0 means 2.
	L int
	// MaxSteps is the declared time bound: every packet must be at its
	// output within MaxSteps(N, d, L) steps. nil means 2d·64(log N + L + 4),
	// the cap algos/multibutterfly.Run uses — termination, not speed.
	MaxSteps func(n, d, L int) int
	// Nets is the number of random networks per size; 0 means 2.
	Nets int
	// Checks is the number of rapid cases; 0 means 100 (30 with -short).
	Checks int
	// Seed makes every random choice reproducible; 0 means 1.
	Seed uint64
	// ReplayDir receives the instance file of a failure; "" means
	// os.TempDir(). Set it to "-" to write none.
	ReplayDir string
	// Router is the router's name in replay files: `routecheck replay`
	// runs routecheck's router of that name ("priority") and, for any
	// other name, §3.2's priority routing instead. "" means the router's Go
	// type (fmt's %T).
	Router string
	// SharedKnowledge, when set, declares (with the reason) that the
	// router legitimately uses knowledge beyond one node's (e.g. an offline
	// schedule the paper says every node knows): the locality property is
	// then not checked by Check and Run, whose locality subtests say so.
	// "" means the router must be local.
	SharedKnowledge string
}

func (o Options) fill() Options {
	if o.Sizes == nil {
		o.Sizes = []int{2, 4, 8, 16, 32, 64}
		if suite.Short() {
			o.Sizes = o.Sizes[:5]
		}
	}
	if o.D == 0 {
		o.D = 2
	}
	if o.L == 0 {
		o.L = 2
	}
	if o.MaxSteps == nil {
		o.MaxSteps = func(n, d, L int) int { return 2 * d * 64 * (bits.Len(uint(n)) - 1 + L + 4) }
	}
	if o.Nets == 0 {
		o.Nets = 2
	}
	suite.Fill(&o.Checks, suite.Pick(100, 30), &o.Seed, &o.ReplayDir)
	return o
}

// Instance is one run: the network mb.Build(N, D, NetRand(NetSeed)), the
// (partial) permutation Perm (perm.None: no packet at that input), buffer
// bound L, the router's random stream RouterRand(RouterSeed), and the
// declared step bound MaxSteps.
type Instance struct {
	N          int     `json:"N"`
	D          int     `json:"d"`
	L          int     `json:"L"`
	NetSeed    uint64  `json:"net_seed"`
	RouterSeed uint64  `json:"router_seed"`
	Perm       []int32 `json:"perm"`
	MaxSteps   int     `json:"max_steps"`
}

// NetRand is the random stream an instance's network is built from.
func NetRand(seed uint64) *rand.Rand { return seeds.Rand(seed, 0x6d62) }

// RouterRand is the random stream an instance's router is handed.
func RouterRand(seed uint64) *rand.Rand { return seeds.Rand(seed, 0x7274) }

// Failure is one property a router broke on one instance.
type Failure struct {
	// Property is legal, buffer, invariants, conservation, termination,
	// panic, locality, or setup (the instance could not be built) or rapid (rapid
	// could not decide).
	Property string
	Family   string // the instance family: exhaustive, a traffic pattern, partial, random
	Instance Instance
	// Step is the step (0-based) at which it broke; for termination, the
	// declared bound.
	Step    int
	Message string
	Replay  string // where the instance was written and how to re-run it
}

func (f Failure) String() string {
	in := f.Instance
	s := fmt.Sprintf("%s (%s) at N = %d, d = %d, L = %d, step %d: %s; net seed %d, router seed %d, permutation %s",
		f.Property, f.Family, in.N, in.D, in.L, f.Step, f.Message, in.NetSeed, in.RouterSeed, suite.ShortPerm(in.Perm))
	if f.Replay != "" {
		s += "; replay: " + f.Replay
	}
	return s
}

// CheckInstance runs a fresh router on one instance and returns the first
// property it breaks, or nil; locality is checked last, when every other
// property passed.
func CheckInstance(newRouter NewRouter, in Instance) *Failure {
	net, err := mb.Build(in.N, in.D, NetRand(in.NetSeed))
	if err != nil {
		return &Failure{Property: "setup", Instance: in, Message: err.Error()}
	}
	if f := runOn(net, newRouter, in); f != nil {
		return f
	}
	return checkLocality(net, newRouter, in)
}

type stepCheckError struct {
	property string
	err      error
}

func (e *stepCheckError) Error() string { return e.err.Error() }

func runOn(net *mb.Network, newRouter NewRouter, in Instance) (fail *Failure) {
	f := func(prop string, step int, msg string) *Failure {
		return &Failure{Property: prop, Instance: in, Step: step, Message: msg}
	}
	s, err := mb.Init(net, in.L, in.Perm)
	if err != nil {
		return f("setup", 0, err.Error())
	}
	if err := mb.CheckInvariants(s); err != nil {
		return f("setup", 0, err.Error())
	}
	src, dst := slices.Clone(s.Source), slices.Clone(s.Dest)
	done := 0 // steps completed
	defer func() {
		if r := recover(); r != nil {
			fail = f("panic", done, fmt.Sprint(r))
		}
	}()
	r := newRouter()
	if r == nil {
		return f("setup", 0, "newRouter returned nil")
	}
	res, fin, err := mb.RunRouter(s, r, RouterRand(in.RouterSeed), mb.RouterOptions{
		MaxSteps: in.MaxSteps,
		AfterStep: func(t int, x *mb.State, _ mb.Events) error {
			done = t
			if err := mb.CheckInvariants(*x); err != nil {
				return &stepCheckError{"invariants", err}
			}
			if !slices.Equal(x.Source, src) || !slices.Equal(x.Dest, dst) {
				return &stepCheckError{"conservation", fmt.Errorf("the packets are not the instance's: %d packets, sources %v, destinations %v", len(x.Pos), x.Source, x.Dest)}
			}
			return nil
		},
	})
	if err != nil {
		step := done
		var se *mb.StepError
		if errors.As(err, &se) {
			step = se.Step
		}
		var ce *stepCheckError
		switch {
		case errors.As(err, &ce):
			return f(ce.property, step, ce.err.Error())
		case errors.Is(err, mb.ErrCapacity):
			return f("buffer", step, errors.Unwrap(err).Error())
		case errors.Is(err, mb.ErrIllegal):
			return f("legal", step, errors.Unwrap(err).Error())
		default:
			return f("legal", step, err.Error())
		}
	}
	if !res.Complete {
		left := 0
		for p := range fin.Pos {
			if !fin.Delivered(p) {
				left++
			}
		}
		return f("termination", in.MaxSteps, fmt.Sprintf("%d of %d packets not at their outputs after the declared %d steps", left, len(fin.Pos), in.MaxSteps))
	}
	return nil
}

// family is a named source of instances at one size.
type family struct {
	name  string
	n     int
	perms func(r *rand.Rand) [][]int32 // the permutations, per network
}

func families(n int) []family {
	var out []family
	if n <= 4 {
		out = append(out, family{"exhaustive", n, func(*rand.Rand) [][]int32 { return partialPerms(n) }})
	} else {
		for _, fam := range perm.FamiliesFor(n) {
			out = append(out, family{fam.Name, n, func(r *rand.Rand) [][]int32 { return [][]int32{fam.Perm(n, r)} }})
		}
	}
	out = append(out, family{"partial", n, func(r *rand.Rand) [][]int32 {
		p := perm.Random(n, r)
		for i := range p {
			if r.IntN(2) == 0 {
				p[i] = perm.None
			}
		}
		return [][]int32{p}
	}})
	return out
}

// partialPerms lists every partial permutation of n (every injective map
// from a subset of the inputs).
func partialPerms(n int) [][]int32 {
	var out [][]int32
	p := make([]int32, n)
	used := make([]bool, n)
	var rec func(i int)
	rec = func(i int) {
		if i == n {
			out = append(out, slices.Clone(p))
			return
		}
		p[i] = perm.None
		rec(i + 1)
		for d := range n {
			if !used[d] {
				used[d], p[i] = true, int32(d)
				rec(i + 1)
				used[d] = false
			}
		}
	}
	rec(0)
	return out
}

func (o Options) netSeed(n, i int) uint64 {
	return seeds.Derive(o.Seed, 0x6e6574, uint64(n), uint64(i))
}

// checkFamily runs fam on every network of its size and returns the first
// failure (the suite stops a family at its first failure); with locality,
// it runs the locality check on the family's instances instead (which
// fails only when the two runs differ: the family's own subtest reports
// the other properties).
func checkFamily(newRouter NewRouter, fam family, o Options, locality bool) []Failure {
	h := fnv.New64a()
	h.Write([]byte(fam.name))
	r := seeds.Rand(o.Seed, 0x66616d, uint64(fam.n), h.Sum64())
	for i := range o.Nets {
		in := Instance{N: fam.n, D: o.D, L: o.L, NetSeed: o.netSeed(fam.n, i), MaxSteps: o.MaxSteps(fam.n, o.D, o.L)}
		net, err := mb.Build(in.N, in.D, NetRand(in.NetSeed))
		if err != nil {
			return o.report(Failure{Property: "setup", Family: fam.name, Instance: in, Message: err.Error()}, newRouter)
		}
		for j, p := range fam.perms(r) {
			in.Perm, in.RouterSeed = p, seeds.Derive(o.Seed, uint64(fam.n), uint64(i), uint64(j))
			var f *Failure
			if locality {
				f = checkLocality(net, newRouter, in)
			} else {
				f = runOn(net, newRouter, in)
			}
			if f != nil {
				f.Family = fam.name
				return o.report(*f, newRouter)
			}
		}
	}
	return nil
}

// checkRandom runs rapid over all sizes and returns the shrunk failure.
func checkRandom(newRouter NewRouter, o Options) (out []Failure) {
	defer func() {
		if r := recover(); r != nil {
			out = []Failure{{Property: "rapid", Family: "random", Message: fmt.Sprint(r)}}
		}
	}()
	cex, _ := falsify.Falsify(o.Seed, o.Checks, func(t *rapid.T) any {
		n := rapid.SampledFrom(o.Sizes).Draw(t, "N")
		net := rapid.IntRange(0, o.Nets-1).Draw(t, "net")
		p := rapid.Permutation(perm.Identity(n)).Draw(t, "perm")
		holes := rapid.SliceOfN(rapid.Bool(), n, n).Draw(t, "holes")
		for i, h := range holes {
			if h {
				p[i] = perm.None
			}
		}
		in := Instance{N: n, D: o.D, L: o.L, NetSeed: o.netSeed(n, net), RouterSeed: rapid.Uint64().Draw(t, "router seed"),
			Perm: p, MaxSteps: o.MaxSteps(n, o.D, o.L)}
		nw, err := mb.Build(in.N, in.D, NetRand(in.NetSeed))
		if err != nil {
			return Failure{Property: "setup", Family: "random", Instance: in, Message: err.Error()}
		}
		if f := runOn(nw, newRouter, in); f != nil {
			f.Family = "random"
			return *f
		}
		return nil
	})
	if cex == nil {
		return nil
	}
	f := cex.(Failure)
	f.Message += " (shrunk by rapid)"
	return o.report(f, newRouter)
}

// group is one subtest: a family at one size, or the rapid instances.
type group struct {
	name string
	run  func() []Failure
}

func groups(newRouter NewRouter, o Options) []group {
	var gs []group
	for _, n := range o.Sizes {
		for _, fam := range families(n) {
			gs = append(gs, group{fmt.Sprintf("N=%d/%s", n, fam.name), func() []Failure { return checkFamily(newRouter, fam, o, false) }})
		}
		gs = append(gs, group{fmt.Sprintf("N=%d/locality", n), func() []Failure {
			if o.SharedKnowledge != "" {
				return nil
			}
			for _, fam := range families(n) {
				if fs := checkFamily(newRouter, fam, o, true); len(fs) > 0 {
					return fs // the first: one per size
				}
			}
			return nil
		}})
	}
	gs = append(gs, group{"random", func() []Failure { return checkRandom(newRouter, o) }})
	return gs
}

// Check runs the suite on newRouter and returns the failures, at most one
// per family and size (nil when the router passes everything).
func Check(newRouter NewRouter, o Options) []Failure {
	o = o.fill()
	var out []Failure
	for _, g := range groups(newRouter, o) {
		out = append(out, g.run()...)
	}
	return out
}

// Run runs the suite as subtests of t, one per instance family and size,
// one per size for locality, and one for the rapid instances, and reports each failure with its
// replay file. t may be a *testing.T or *testing.B; other testing.TB values
// get the failures without subtests.
func Run(t testing.TB, newRouter NewRouter, o Options) {
	t.Helper()
	o = o.fill()
	for _, g := range groups(newRouter, o) {
		suite.Sub(t, g.name, func(t testing.TB, _ bool) {
			if o.SharedKnowledge != "" && strings.HasSuffix(g.name, "/locality") {
				t.Log(suite.NotChecked(o.SharedKnowledge))
			}
			for _, f := range g.run() {
				t.Error(f.String())
			}
		})
	}
}

// Fuzz adds a fuzz target over instances with the default options (d = 2,
// L = 2, the default step bound): f.Fuzz(log N, network seed, permutation
// seed, holes) routes a (partial) permutation of N = 2^(1 + log N mod 5)
// and fails on the first property broken. A user's fuzz test is
//
//	func FuzzMyRouter(f *testing.F) { mbflytest.Fuzz(f, newMyRouter) }
func Fuzz(f *testing.F, newRouter NewRouter) {
	o := Options{Sizes: []int{2}}.fill()
	for _, k := range []uint8{0, 1, 2, 3} {
		f.Add(k, uint64(1), uint64(2), uint64(0))
	}
	f.Fuzz(func(t *testing.T, logN uint8, netSeed, permSeed, holes uint64) {
		n := 2 << (logN % 5)
		p := perm.Random(n, seeds.Rand(permSeed))
		for i := range p {
			if holes>>(i%64)&1 == 1 {
				p[i] = perm.None
			}
		}
		in := Instance{N: n, D: o.D, L: o.L, NetSeed: netSeed, RouterSeed: permSeed, Perm: p, MaxSteps: o.MaxSteps(n, o.D, o.L)}
		if fl := CheckInstance(newRouter, in); fl != nil {
			fl.Family = "fuzz"
			o.ReplayDir = os.TempDir()
			t.Fatal(o.report(*fl, newRouter)[0].String())
		}
	})
}

// report writes the failure as a routecheck case (kind mbfly-suite) to
// o.ReplayDir (unless "-").
func (o Options) report(f Failure, newRouter NewRouter) []Failure {
	if o.ReplayDir == "-" {
		return []Failure{f}
	}
	router := suite.RouterName(o.Router, newRouter)
	f.Replay = suite.WriteReplay(o.ReplayDir, "mbflytest", "mbfly-suite", router, "mbflytest, family "+f.Family, f.Instance,
		[]hunt.Broken{{Property: f.Property, Step: f.Step, Message: f.Message}}, "mbflytest.CheckFile(%q, newRouter)")
	return []Failure{f}
}

// CheckFile re-runs a replay file written by the suite against a fresh
// router from newRouter: the failure it finds (nil if none), or an error
// when the file cannot be read. It reads mbfly-suite cases (what failures
// write) and the "multi-butterfly" files of earlier versions.
func CheckFile(path string, newRouter NewRouter) (*Failure, error) {
	data, c, err := hunt.ReadSuiteFile(path, "mbfly-suite")
	if err != nil {
		return nil, err
	}
	var in Instance
	family := "replay"
	if c != nil {
		err = json.Unmarshal(data, &in)
	} else {
		var old struct {
			Network  string   `json:"network"`
			Family   string   `json:"family"`
			Instance Instance `json:"instance"`
		}
		if err = json.Unmarshal(data, &old); err == nil && old.Network != "multi-butterfly" {
			err = fmt.Errorf("network %q", old.Network)
		}
		in, family = old.Instance, old.Family
	}
	if err != nil || in.N == 0 {
		return nil, fmt.Errorf("%s: not an mbflytest replay file (a case of kind mbfly-suite): %v", path, err)
	}
	f := CheckInstance(newRouter, in)
	if f != nil {
		f.Family = family
	}
	return f, nil
}
