// Package popstest is the conformance suite for routers on the POPS(d,g)
// slot model: hand it a constructor of your pops.Router and one call checks
// it the way routecheck checks the randomized router of Mei & Rizzi's §III.
//
//	func TestMyRouter(t *testing.T) {
//		popstest.Run(t, func() pops.Router { return myrouter.New() }, popstest.Options{
//			MaxBuffer: 3,                                                  // packets per processor
//			MaxSlots:  func(sh pops.Shape, _ []int32) int { return 200 * (sh.D/sh.G + 1) },
//		})
//	}
//	func FuzzMyRouter(f *testing.F) { popstest.Fuzz(f, func() pops.Router { return myrouter.New() }) }
//
// The router is driven by pops.Drive — the same driver routecheck's own
// routers run under (algos/pops.LocalRouter) — on every shape in
// Options.Shapes and every instance family: every permutation and partial
// permutation of tiny shapes (exhaustive), the standard traffic patterns of
// models/perm (uniform, bit-reversal, bit-complement, transpose, shuffle,
// tornado, neighbour, where they apply), random partial permutations, and
// random instances from rapid, shrunk to a minimal failure. After every slot
// it checks, one property each: the model accepts the actions (legal), the
// model's invariants hold (invariants), no packet is lost or delivered twice
// (conservation), no processor holds more than MaxBuffer packets (buffer,
// counted as Options.Memory says), no coupler has two senders in a slot
// declared conflict-free (conflicts, when Options.ConflictFree is set) —
// these four are SlotCheck's, which other drivers of the slot model use too;
// at the end, that the run finished within MaxSlots (terminates) and that
// the same seed gives the same run (reproducible). A panic in the router is a
// failure (runs), never a pass. Per shape, one more subtest (locality) runs
// every listed instance twice more — with one Router shared by every
// processor, and with a fresh Router per processor (newRouter() once per
// processor; each one's Start called as the shared one's is, seeing the
// same random bits, so the stream Act draws from is not shifted) — and
// requires the same actions in every slot: what a processor decides may
// depend only on what it may know. A router the paper lets use shared or
// offline knowledge declares it (Options.SharedKnowledge) and the
// difference is logged, not failed.
//
// A failure names the property, shape, family, instance and slot, and
// writes a replay file: a routecheck case (kind pops-suite) recording the
// instance, the declared bounds, the router's name (Options.Router) and
// every property it broke with its slot. `routecheck replay FILE` runs it
// with routecheck's router of that name, or, for a router the CLI does not
// have (yours), with the paper's router, saying so; CheckFile re-runs it
// against yours (and still reads the bare instance files of earlier
// versions).
package popstest

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"routecheck/internal/falsify"
	"routecheck/internal/hunt"
	"routecheck/models/perm"
	"routecheck/models/pops"
	"routecheck/props/internal/suite"
)

// Options tune the suite; the zero value is ready to use (see fill).
type Options struct {
	// Shapes are the networks run; nil means POPS(1,1), (2,1), (2,2),
	// (3,3), (4,2), (4,4), (6,3), (8,2), (8,8).
	Shapes []pops.Shape
	// MaxSlots is the declared time bound for an instance (packets dst on
	// sh); nil means 64·(⌈d/g⌉ + 1)·(log₂ n + 4)·8 slots, generous for any
	// router that makes progress.
	MaxSlots func(sh pops.Shape, dst []int32) int
	// MaxBuffer is the declared bound on the packets a processor holds
	// after any slot, counted as Memory says; 0: none.
	MaxBuffer int
	// Memory is which packets count against MaxBuffer; the zero value,
	// MemoryAll, counts every item held (originals, copies, delivered).
	Memory Memory
	// ConflictFree, when set, declares the slots (1-based, counted from
	// the start of the run) in which no coupler may have two senders
	// (property conflicts); nil declares none — a conflict is legal in the
	// model (the coupler delivers nothing). A replay file does not record
	// it: pass it again to CheckFile.
	ConflictFree func(slot int) bool
	// Exhaustive is the largest n for which every permutation and partial
	// permutation is run; 0 means 4 (-1: none).
	Exhaustive int
	// Checks is the number of rapid cases per shape; 0 means 50.
	Checks int
	// Seed makes every random choice reproducible; 0 means 1.
	Seed uint64
	// ReplayDir receives the replay file of a failing instance; "" means
	// os.TempDir(), "-" none.
	ReplayDir string
	// Router is the router's name in replay files: `routecheck replay`
	// runs routecheck's router of that name (internal/suitecheck: e.g.
	// "pops-rand-5slot") and, for any other name, the paper's router
	// instead. "" means the router's Go type (fmt's %T).
	Router string
	// SharedKnowledge, when set, declares (with the reason: e.g. "an
	// offline schedule every processor knows, as the paper assumes") that
	// the router legitimately uses knowledge beyond one processor's. The
	// locality property then reports a difference with t.Log instead of
	// failing (Check leaves it out). "" means the router must be local.
	SharedKnowledge string
}

func (o Options) fill() Options {
	if o.Shapes == nil {
		o.Shapes = []pops.Shape{{D: 1, G: 1}, {D: 2, G: 1}, {D: 2, G: 2}, {D: 3, G: 3}, {D: 4, G: 2}, {D: 4, G: 4}, {D: 6, G: 3}, {D: 8, G: 2}, {D: 8, G: 8}}
	}
	if o.MaxSlots == nil {
		o.MaxSlots = func(sh pops.Shape, _ []int32) int {
			lg := 0
			for 1<<lg < sh.N() {
				lg++
			}
			return 64 * ((sh.D+sh.G-1)/sh.G + 1) * (lg + 4) * 8
		}
	}
	if o.Exhaustive == 0 {
		o.Exhaustive = 4
	}
	suite.Fill(&o.Checks, 50, &o.Seed, &o.ReplayDir)
	return o
}

// Instance is one run: a shape, the packets (Perm[i] is the destination of
// the packet starting at processor i, or −1 for none) and the seed of the
// router's random choices. It is also the replay file's content.
type Instance struct {
	Kind string  `json:"kind"` // "popstest"
	D    int     `json:"d"`
	G    int     `json:"g"`
	Perm []int32 `json:"perm"`
	Seed uint64  `json:"seed"`
}

// Failure is one property a router broke.
type Failure struct {
	Property string // runs, legal, invariants, conservation, buffer, conflicts, terminates, reproducible, locality
	Family   string
	Instance Instance
	Slot     int // the slot at which it broke (0: before or after the run)
	Message  string
	Replay   string // where the instance was written and how to re-run it
}

func (f Failure) String() string {
	s := fmt.Sprintf("%s: POPS(%d,%d) %s, perm %s, seed %d", f.Property, f.Instance.D, f.Instance.G, f.Family, suite.ShortPerm(f.Instance.Perm), f.Instance.Seed)
	if f.Slot > 0 {
		s += fmt.Sprintf(", slot %d", f.Slot)
	}
	s += ": " + f.Message
	if f.Replay != "" {
		s += "; " + f.Replay
	}
	return s
}

// family is a named set of instances on one shape.
type family struct {
	name      string
	instances func(sh pops.Shape, o Options) [][]int32
}

func families() []family {
	return []family{
		{"exhaustive", func(sh pops.Shape, o Options) [][]int32 {
			n := sh.N()
			if n > o.Exhaustive {
				return nil
			}
			var out [][]int32
			// Every permutation, and every partial permutation obtained by
			// removing packets (every subset of sources).
			perm.Each(n, func(p []int32) bool {
				for mask := 0; mask < 1<<n; mask++ {
					q := slices.Clone(p)
					for i := range n {
						if mask>>i&1 == 1 {
							q[i] = perm.None
						}
					}
					out = append(out, q)
				}
				return true
			})
			return out
		}},
		{"traffic", func(sh pops.Shape, o Options) [][]int32 {
			r := rand.New(rand.NewPCG(o.Seed, uint64(sh.N())))
			var out [][]int32
			for _, f := range perm.FamiliesFor(sh.N()) {
				out = append(out, f.Perm(sh.N(), r))
			}
			return out
		}},
		{"partial", func(sh pops.Shape, o Options) [][]int32 {
			r := rand.New(rand.NewPCG(o.Seed, uint64(sh.N())+1))
			var out [][]int32
			for range 8 {
				p := perm.Random(sh.N(), r)
				for i := range p {
					if r.IntN(3) == 0 {
						p[i] = perm.None
					}
				}
				out = append(out, p)
			}
			return out
		}},
	}
}

// Check runs the whole suite and returns the failures (nil when the router
// passes everything). At most one failure is reported per shape, family and
// property.
func Check(newRouter func() pops.Router, o Options) []Failure {
	o = o.fill()
	var out []Failure
	for _, sh := range o.Shapes {
		for _, f := range families() {
			out = append(out, checkFamily(newRouter, sh, f, o)...)
		}
		out = append(out, checkRandom(newRouter, sh, o)...)
		if o.SharedKnowledge == "" {
			out = append(out, localityFamily(newRouter, sh, o)...)
		}
	}
	return out
}

// Run runs the suite as subtests of t (one per shape and family, and one
// per shape for locality) and reports each failure. t may be a *testing.T or *testing.B.
func Run(t testing.TB, newRouter func() pops.Router, o Options) {
	t.Helper()
	o = o.fill()
	sub := func(name string, f func() []Failure) {
		suite.Sub(t, name, func(t testing.TB, _ bool) {
			for _, x := range f() {
				t.Error(x.String())
			}
		})
	}
	for _, sh := range o.Shapes {
		for _, f := range families() {
			sub(fmt.Sprintf("%v/%s", sh, f.name), func() []Failure { return checkFamily(newRouter, sh, f, o) })
		}
		sub(fmt.Sprintf("%v/random", sh), func() []Failure { return checkRandom(newRouter, sh, o) })
		suite.Sub(t, fmt.Sprintf("%v/locality", sh), func(t testing.TB, _ bool) {
			for _, x := range localityFamily(newRouter, sh, o) {
				if o.SharedKnowledge != "" {
					t.Log(suite.Declared(o.SharedKnowledge, x.String()))
				} else {
					t.Error(x.String())
				}
			}
		})
	}
}

// Fuzz adds a fuzz target: the fuzzer picks a shape (d, g ≤ 8), a
// permutation and a seed; every property is checked.
func Fuzz(f *testing.F, newRouter func() pops.Router) {
	f.Add(uint8(2), uint8(2), uint64(1), []byte{3, 1, 0, 2})
	f.Add(uint8(4), uint8(2), uint64(7), []byte{})
	f.Fuzz(func(t *testing.T, d, g uint8, seed uint64, order []byte) {
		sh := pops.Shape{D: int(d)%8 + 1, G: int(g)%8 + 1}
		n := sh.N()
		p := perm.Identity(n)
		for k, b := range order {
			i, j := k%n, int(b)%n
			p[i], p[j] = p[j], p[i]
		}
		o := Options{ReplayDir: "-"}.fill()
		in := Instance{Kind: "popstest", D: sh.D, G: sh.G, Perm: p, Seed: seed}
		for _, x := range checkInstance(newRouter, in, "fuzz", o) {
			t.Error(x.String())
		}
	})
}

// CheckInstance runs one instance with every property (family "instance").
func CheckInstance(newRouter func() pops.Router, in Instance, o Options) ([]Failure, error) {
	if _, err := pops.NewShape(in.D, in.G); err != nil {
		return nil, err
	}
	if err := perm.Validate(in.Perm, false); err != nil || len(in.Perm) != in.D*in.G {
		return nil, fmt.Errorf("perm: must be a partial permutation of n = d·g = %d processors (−1: no packet): %v", in.D*in.G, err)
	}
	in.Kind = "popstest"
	return withLocality(newRouter, in, "instance", o.fill()), nil
}

// withLocality is checkInstance followed, for a router that declares no
// shared knowledge, by the locality check of the same instance.
func withLocality(newRouter func() pops.Router, in Instance, fam string, o Options) []Failure {
	out := checkInstance(newRouter, in, fam, o)
	if o.SharedKnowledge != "" {
		return out
	}
	if x := checkLocality(newRouter, in, fam, o); x != nil {
		out = append(out, *x)
		r := writeReplay(in, out, routerName(o, newRouter), o)
		for i := range out {
			out[i].Replay = r
		}
	}
	return out
}

// CheckFile re-runs the instance of a replay file with every property: a
// pops-suite case (what failures write; its declared max_buffer and
// max_slots apply where o declares none) or a bare instance.
func CheckFile(newRouter func() pops.Router, path string, o Options) ([]Failure, error) {
	data, c, err := hunt.ReadSuiteFile(path, "pops-suite")
	if err != nil {
		return nil, err
	}
	if c == nil {
		// An earlier version's case, or a bare instance.
		var old struct {
			Instance json.RawMessage `json:"instance"`
		}
		if err := json.Unmarshal(data, &old); err == nil && len(old.Instance) > 0 {
			data = old.Instance
		}
	}
	var in caseInstance
	if err := json.Unmarshal(data, &in); err != nil {
		return nil, fmt.Errorf("%s: not a popstest instance: %v", path, err)
	}
	if _, err := pops.NewShape(in.D, in.G); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if o.MaxBuffer == 0 {
		o.MaxBuffer, o.Memory = in.MaxBuffer, in.Memory
	}
	if o.MaxSlots == nil && in.MaxSlots > 0 {
		o.MaxSlots = func(pops.Shape, []int32) int { return in.MaxSlots }
	}
	o.ReplayDir = "-"
	return withLocality(newRouter, in.Instance, "replay", o.fill()), nil
}

func checkFamily(newRouter func() pops.Router, sh pops.Shape, f family, o Options) []Failure {
	seen := map[string]bool{}
	var out []Failure
	for k, p := range f.instances(sh, o) {
		in := Instance{Kind: "popstest", D: sh.D, G: sh.G, Perm: p, Seed: o.Seed + uint64(k)}
		for _, x := range checkInstance(newRouter, in, f.name, o) {
			if !seen[x.Property] {
				seen[x.Property] = true
				out = append(out, x)
			}
		}
	}
	return out
}

// checkRandom draws instances with rapid (shrinking towards few packets and
// the identity) and reports the minimal failing one.
func checkRandom(newRouter func() pops.Router, sh pops.Shape, o Options) []Failure {
	var first []Failure
	cex, err := func() (c any, err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("the random family could not run: %v", r)
			}
		}()
		c, _ = falsify.Falsify(o.Seed, o.Checks, func(t *rapid.T) any {
			n := sh.N()
			p := rapid.Permutation(perm.Identity(n)).Draw(t, "perm")
			keep := rapid.SliceOfN(rapid.Bool(), n, n).Draw(t, "keep")
			q := slices.Clone(p)
			for i := range q {
				if !keep[i] {
					q[i] = perm.None
				}
			}
			in := Instance{Kind: "popstest", D: sh.D, G: sh.G, Perm: q, Seed: rapid.Uint64Range(1, 1<<20).Draw(t, "seed")}
			if fs := checkInstance(newRouter, in, "random", Options{ReplayDir: "-", MaxBuffer: o.MaxBuffer, Memory: o.Memory, ConflictFree: o.ConflictFree, MaxSlots: o.MaxSlots}.fill()); len(fs) > 0 {
				return fs
			}
			return nil
		})
		return c, nil
	}()
	switch {
	case err != nil:
		return []Failure{{Property: "runs", Family: "random", Instance: Instance{Kind: "popstest", D: sh.D, G: sh.G}, Message: err.Error()}}
	case cex != nil:
		fs := cex.([]Failure)
		f := fs[0]
		f.Message += " (shrunk by rapid)"
		f.Replay = writeReplay(f.Instance, fs, routerName(o, newRouter), o)
		first = append(first, f)
	}
	return first
}

// checkInstance runs one instance twice (the second run only compares) and
// returns every property it breaks.
func checkInstance(newRouter func() pops.Router, in Instance, fam string, o Options) (out []Failure) {
	sh := pops.Shape{D: in.D, G: in.G}
	fail := func(prop string, slot int, format string, a ...any) {
		out = append(out, Failure{Property: prop, Family: fam, Instance: in, Slot: slot, Message: fmt.Sprintf(format, a...)})
	}
	defer func() {
		if len(out) > 0 {
			r := writeReplay(in, out, routerName(o, newRouter), o)
			for i := range out {
				out[i].Replay = r
			}
		}
	}()
	run := func(report bool) (st pops.State, trace uint64, err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("%w: %v", errPanic, r)
			}
		}()
		h := fnv.New64a()
		chk := NewSlotCheck(o)
		defer func() {
			if report {
				for _, f := range chk.Report().Failures {
					fail(f.Property, f.Slot, "%s", f.Message)
				}
			}
		}()
		st, err = pops.Drive(sh, in.Perm, newRouter(), rand.New(rand.NewPCG(in.Seed, 0x9095)), pops.DriveOptions{
			MaxSlots: o.MaxSlots(sh, in.Perm),
			Observe: func(slot int, acts []pops.Action, _, after pops.State, ev pops.Events) error {
				fmt.Fprintf(h, "%d %v %v %v|", slot, ev.Received, ev.Delivered, ev.Conflicts)
				if report {
					chk.Observe(after, ev)
				}
				return nil
			},
		})
		return st, h.Sum64(), err
	}
	st, trace, err := run(true)
	switch {
	case errors.Is(err, errPanic):
		fail("runs", 0, "%v", err)
		return out
	case errors.Is(err, pops.ErrActions):
		fail("legal", st.Slot+1, "%v", err)
		return out
	case err != nil:
		fail("runs", 0, "%v", err)
		return out
	}
	if !pops.Quiescent(st) {
		left := 0
		for p, d := range st.Dst {
			if d != perm.None && !st.Delivered[p] && !st.Lost[p] {
				left++
			}
		}
		fail("terminates", 0, "not finished after the declared %d slots: %d packets undelivered, memories not empty", o.MaxSlots(sh, in.Perm), left)
	}
	if _, trace2, err2 := run(false); err2 != nil || trace2 != trace {
		fail("reproducible", 0, "a second run with the same seed differs (error %v)", err2)
	}
	return out
}

var errPanic = errors.New("the router panicked")

// caseInstance is the instance of a pops-suite case file: the instance
// and the bounds declared for it (0: none).
type caseInstance struct {
	Instance
	MaxBuffer int    `json:"max_buffer,omitempty"`
	Memory    Memory `json:"memory,omitempty"`
	MaxSlots  int    `json:"max_slots,omitempty"`
}

// routerName is the router's name in replay files (Options.Router).
func routerName(o Options, newRouter func() pops.Router) string {
	return suite.RouterName(o.Router, newRouter)
}

// writeReplay writes the failures of one instance as a routecheck case
// (kind pops-suite) and says how to re-run it.
func writeReplay(in Instance, fs []Failure, router string, o Options) string {
	if o.ReplayDir == "-" {
		return ""
	}
	broke := make([]hunt.Broken, len(fs))
	for i, f := range fs {
		broke[i] = hunt.Broken{Property: f.Property, Step: f.Slot, Message: f.Message}
	}
	ci := caseInstance{in, o.MaxBuffer, o.Memory, o.MaxSlots(pops.Shape{D: in.D, G: in.G}, in.Perm)}
	return suite.WriteReplay(o.ReplayDir, "popstest", "pops-suite", router, "popstest, family "+fs[0].Family, ci, broke, "popstest.CheckFile(newRouter, %q, opts)")
}
