// Package meshtest is the conformance suite for routers on the n×n mesh
// and torus of 003_8774480fe7c747cc.txt (store-and-forward, one packet per
// link and direction per step): hand it a constructor of your
// models/mesh.Router and one call runs it the way routecheck runs the
// paper's farthest-first routing — the way testing/fstest.TestFS checks a
// file system.
//
//	func TestMyRouter(t *testing.T) {
//		meshtest.Run(t, func() mesh.Router { return myrouter.New() }, meshtest.Options{
//			Torus: true, // also on the torus
//			// Declared bounds, as functions of the instance:
//			MaxSteps: func(in meshtest.Instance) int { return 2*in.N - 2 + 4*in.H()*in.N },
//			MaxQueue: func(in meshtest.Instance) int { return 4 * in.H() },
//		})
//	}
//
//	func FuzzMyRouter(f *testing.F) { meshtest.Fuzz(f, myrouter.New) }
//
// An instance places packets on an n×n mesh (or torus): packet q starts at
// PU Src[q] and must reach PU Dst[q] (row-major, row i column j is i·n+j;
// the header's Row, Col and Target are Dst's). For every instance the suite
// runs the router on the step model (models/mesh.Decide, StepGrid) and
// checks after every step, one property each:
//
//   - model: every move is one the hardware can make (StepGrid accepts it:
//     an index inside the queue, one packet per link, not one packet over
//     two links, no send over a missing border link), and the router left
//     the queues it was shown unmodified;
//   - conservation: the same packets with the same headers, each once
//     (models/mesh.CheckConservation; the mesh model never drops or copies
//     a packet, so a router that tries to copy one is a model failure);
//   - termination: every packet is at its target within the steps the
//     caller declares (Options.MaxSteps);
//   - queue: no PU holds more packets than the caller declares
//     (Options.MaxQueue), the initial placement included;
//   - crash: the router panicked (never a pass);
//   - locality: the instance run again with one Router shared by every PU
//     and with a fresh Router per PU (newRouter() once per PU) makes the
//     same moves at every step from the same random stream — a PU decides
//     from its own view and memory only (models/mesh.Router's contract).
//     A router the paper lets use shared or offline knowledge declares it
//     (Options.SharedKnowledge) and the subtest logs that instead. Checked
//     on the listed families and on replays, not on rapid's random draws.
//
// The instance families, for each side in Options.Sizes (and on the torus
// with Options.Torus): every permutation and every single packet on the
// smallest meshes (exhaustive); the standard traffic patterns of
// models/perm on the n² PUs (perm/uniform, perm/bit-reversal, …, one
// packet per PU); k-k relations for each k in Options.Ks (every PU sends
// and receives k): uniformly random (kk/uniform), models/perm's hot spot
// (kk/hot-spot), and the adversaries of routecheck's ledger for the
// paper's k-k algorithms — all k packets of (i, j) to (j, i)
// (kk/transpose) or to (n−1−i, n−1−j) (kk/reflect), and k/n packets to
// each PU of row j (kk/row-to-col, when n divides k); then rapid random
// instances of any shape (random), shrunk to a minimal failing one.
//
// A failure names the property, the family, the instance (shrunk for
// random), the step at which it broke, and writes a replay file: a
// routecheck case (kind mesh-suite) recording the instance, the seed, the
// declared bounds, the router's name (Options.Router) and what it broke.
// `routecheck replay FILE` runs it with routecheck's router of that name
// ("farthest-first"), or, for a router the CLI does not have (yours), with
// the paper's farthest-first routing, saying so; CheckFile re-runs it
// against yours (and still reads the bare instance files of earlier
// versions).
//
// The Router interface lives in models/mesh beside StepGrid: it is the
// contract between the model and any algorithm, and algos/mesh (the
// paper's algorithms: GridFarthestFirst, which RouteKK's step-model phases
// run through) implements it from there.
package meshtest

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"routecheck/internal/falsify"
	"routecheck/internal/hunt"
	"routecheck/models/mesh"
	"routecheck/models/perm"
	"routecheck/props/internal/suite"
)

// Instance is one routing problem: packet q goes from PU Src[q] to PU
// Dst[q] (row-major) on an n×n mesh, or torus.
type Instance struct {
	Family string  `json:"family"`
	N      int     `json:"n"`
	Torus  bool    `json:"torus"`
	Src    []int32 `json:"src"`
	Dst    []int32 `json:"dst"`
}

// Validate reports whether the instance is well formed.
func (in Instance) Validate() error {
	if in.N < 1 {
		return fmt.Errorf("meshtest: n = %d, allowed n ≥ 1", in.N)
	}
	if len(in.Src) != len(in.Dst) {
		return fmt.Errorf("meshtest: %d sources for %d destinations", len(in.Src), len(in.Dst))
	}
	for q := range in.Src {
		if s, d := in.Src[q], in.Dst[q]; s < 0 || int(s) >= in.N*in.N || d < 0 || int(d) >= in.N*in.N {
			return fmt.Errorf("meshtest: packet %d goes %d → %d, allowed PUs are [0, %d)", q, s, d, in.N*in.N)
		}
	}
	return nil
}

// H is the largest number of packets one PU sends or receives (the h of
// an h-relation; k for a k-k relation).
func (in Instance) H() int {
	cnt := make([]int, 2*in.N*in.N)
	h := 0
	for q := range in.Src {
		cnt[in.Src[q]]++
		cnt[in.N*in.N+int(in.Dst[q])]++
		h = max(h, cnt[in.Src[q]], cnt[in.N*in.N+int(in.Dst[q])])
	}
	return h
}

// Grid is the instance's initial state: packet q is Item{ID: q, Row, Col:
// its destination, Target: Dst[q]} in the queue of Src[q], in order of q.
func (in Instance) Grid() mesh.Grid {
	g, err := mesh.NewGrid(in.N, in.Torus)
	if err != nil {
		panic("meshtest: " + err.Error())
	}
	for q := range in.Src {
		d := in.Dst[q]
		g.Queues[in.Src[q]] = append(g.Queues[in.Src[q]], mesh.Item{ID: int32(q), Row: d / int32(in.N), Col: d % int32(in.N), Target: d})
	}
	return g
}

func (in Instance) shape() string {
	if in.Torus {
		return fmt.Sprintf("%d×%d torus", in.N, in.N)
	}
	return fmt.Sprintf("%d×%d mesh", in.N, in.N)
}

// String is the shape and the packets as src→dst (at most 24 of them).
func (in Instance) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s, %d packets", in.shape(), len(in.Src))
	if len(in.Src) > 0 {
		b.WriteString(":")
	}
	for q := range in.Src {
		if q == 24 {
			b.WriteString(" …")
			break
		}
		fmt.Fprintf(&b, " %d→%d", in.Src[q], in.Dst[q])
	}
	return b.String()
}

// Options tune the suite; the zero value is ready to use (see fill).
type Options struct {
	// Sizes are the mesh sides; nil means 1, 2, 3, 4, 5, 8.
	Sizes []int
	// Torus also runs every instance on the torus (wrap-around links).
	Torus bool
	// Ks are the k of the k-k families; nil means 2 and 4.
	Ks []int
	// MaxSteps is the declared time bound of an instance; nil (or a value
	// ≤ 0) means 2(n−1)·P + 1 for P packets, which any router meets that
	// moves some packet closer to its target in every step.
	MaxSteps func(in Instance) int
	// MaxQueue is the declared bound on the packets one PU holds; nil (or
	// a value ≤ 0) means no bound.
	MaxQueue func(in Instance) int
	// Checks is the number of rapid cases of the random family per size;
	// 0 means 100 (rapid runs a fifth of them under go test -short).
	Checks int
	// Seed makes every random choice reproducible (instances and the
	// router's rng); 0 means 1.
	Seed uint64
	// ReplayDir receives the replay file of a failing instance; "" means
	// os.TempDir(). Set it to "-" to write none.
	ReplayDir string
	// Router is the router's name in replay files: `routecheck replay`
	// runs routecheck's router of that name ("farthest-first") and, for any
	// other name, the paper's farthest-first routing instead. "" means the
	// router's Go type (fmt's %T).
	Router string
	// SharedKnowledge, when set, declares (with the reason) that the
	// router legitimately uses knowledge beyond one PU's (e.g. an offline
	// schedule the paper says every PU knows): the locality property is
	// then not checked, and Run's locality subtests say so. "" means the
	// router must be local.
	SharedKnowledge string
}

func (o Options) fill() Options {
	if o.Sizes == nil {
		o.Sizes = []int{1, 2, 3, 4, 5, 8}
	}
	if o.Ks == nil {
		o.Ks = []int{2, 4}
	}
	suite.Fill(&o.Checks, 100, &o.Seed, &o.ReplayDir)
	return o
}

func (o Options) maxSteps(in Instance) int {
	if o.MaxSteps != nil {
		if b := o.MaxSteps(in); b > 0 {
			return b
		}
	}
	return 2*(in.N-1)*len(in.Src) + 1
}

func (o Options) maxQueue(in Instance) int {
	if o.MaxQueue != nil {
		if b := o.MaxQueue(in); b > 0 {
			return b
		}
	}
	return 0
}

// The properties a failure can name.
const (
	Model        = "model"
	Conservation = "conservation"
	Termination  = "termination"
	Queue        = "queue"
	Crash        = "crash"
)

var properties = []string{Model, Conservation, Termination, Queue, Crash, Locality}

// Failure is one property a router broke on one instance.
type Failure struct {
	Property string
	Instance Instance
	// Step is the step at which the property broke: the step whose moves
	// were illegal or lost a packet, the first step after which a queue
	// was over the bound (0: the initial placement), the declared bound for
	// termination.
	Step    int
	Message string
	Replay  string // how to re-run the instance, when the file was written
}

func (f Failure) String() string {
	s := fmt.Sprintf("%s, %s: %s at step %d: %s", f.Property, f.Instance.Family, f.Instance, f.Step, f.Message)
	if f.Replay != "" {
		s += "; replay: " + f.Replay
	}
	return s
}

// Result is what one run of a router on an instance measured.
type Result struct {
	Steps    int // steps until every packet was at its target
	MaxQueue int // the largest queue at any step, initial included
}

// stepGrid is the model step; a white-box test plants a faulty model here
// to show that the conservation check can fail.
var stepGrid = mesh.StepGrid

// Simulate runs a fresh router on the instance until every packet is at its
// target, checking every property after every step; it returns what it
// measured and the first failure (nil when none). The router's rng is
// seeded from seed and the instance's family.
func Simulate(r mesh.Router, in Instance, seed uint64, o Options) (res Result, fail *Failure) {
	o = o.fill()
	if err := in.Validate(); err != nil {
		return res, &Failure{Property: Model, Instance: in, Message: "invalid instance: " + err.Error()}
	}
	h := fnv.New64a()
	h.Write([]byte(in.Family))
	rng := rand.New(rand.NewPCG(seed, h.Sum64()))
	g := in.Grid()
	bound, qbound := o.maxSteps(in), o.maxQueue(in)
	failAt := func(p string, step int, format string, a ...any) (Result, *Failure) {
		return res, &Failure{Property: p, Instance: in, Step: step, Message: fmt.Sprintf(format, a...)}
	}
	queues := func() (int, int) {
		m, at := 0, 0
		for p, q := range g.Queues {
			if len(q) > m {
				m, at = len(q), p
			}
		}
		return m, at
	}
	res.MaxQueue, _ = queues()
	if m, at := queues(); qbound > 0 && m > qbound {
		return failAt(Queue, 0, "PU %d starts with %d packets, the declared bound is %d", at, m, qbound)
	}
	var moves []mesh.Moves
	for {
		away := 0
		for p, q := range g.Queues {
			for _, it := range q {
				if it.Target != int32(p) {
					away++
				}
			}
		}
		if away == 0 {
			res.Steps = g.Step
			return res, nil
		}
		if g.Step >= bound {
			return failAt(Termination, bound, "%d packets are not at their targets after the declared %d steps", away, bound)
		}
		shown := g.Clone()
		var panicked any
		func() {
			defer func() { panicked = recover() }()
			moves, _ = mesh.Decide(g, r, rng, moves)
		}()
		if panicked != nil {
			return failAt(Crash, g.Step+1, "the router panicked: %v", panicked)
		}
		if !reflect.DeepEqual(shown.Queues, g.Queues) {
			for p := range g.Queues {
				if !reflect.DeepEqual(shown.Queues[p], g.Queues[p]) {
					return failAt(Model, g.Step+1, "the router modified the queue of PU %d it was shown", p)
				}
			}
		}
		next, _, err := stepGrid(shown, moves)
		if err != nil {
			return failAt(Model, g.Step+1, "%v", err)
		}
		if err := mesh.CheckConservation(shown, next); err != nil {
			return failAt(Conservation, g.Step+1, "%v", err)
		}
		g = next
		m, at := queues()
		res.MaxQueue = max(res.MaxQueue, m)
		if qbound > 0 && m > qbound {
			return failAt(Queue, g.Step, "PU %d holds %d packets, the declared bound is %d", at, m, qbound)
		}
	}
}

// NewRouter returns a fresh router (with fresh per-PU memory) for one run.
type NewRouter func() mesh.Router

// Check runs the suite and returns the failures (nil when the router
// passes everything): at most one per family and shape.
func Check(newRouter NewRouter, o Options) []Failure {
	o = o.fill()
	var out []Failure
	for _, fam := range Families(o) {
		out = append(out, checkFamily(newRouter, fam, o)...)
	}
	return out
}

// CheckInstances runs the router on the given instances (e.g. the phases
// of your own algorithm) with every check of the suite, and returns the
// failures, at most one per Family name.
func CheckInstances(newRouter NewRouter, ins []Instance, o Options) []Failure {
	o = o.fill()
	var out []Failure
	bad := map[string]bool{}
	for _, in := range ins {
		if bad[in.Family] {
			continue
		}
		_, f := Simulate(newRouter(), in, o.Seed, o)
		if f == nil && o.SharedKnowledge == "" {
			f = checkLocality(newRouter, in, o)
		}
		if f != nil {
			bad[in.Family] = true
			out = append(out, withReplay(*f, o, newRouter))
		}
	}
	return out
}

// CheckFile re-runs the instance of a replay file: a mesh-suite case (what
// failures write; its seed and declared max_steps and max_queue apply where
// o declares none) or a bare instance (what earlier versions wrote).
func CheckFile(newRouter NewRouter, path string, o Options) ([]Failure, error) {
	data, _, err := hunt.ReadSuiteFile(path, "mesh-suite")
	if err != nil {
		return nil, err
	}
	var in caseInstance
	if err := json.Unmarshal(data, &in); err != nil {
		return nil, fmt.Errorf("%s: not a meshtest instance: %v", path, err)
	}
	if err := in.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if o.Seed == 0 {
		o.Seed = in.Seed
	}
	if o.MaxSteps == nil && in.MaxSteps > 0 {
		o.MaxSteps = func(Instance) int { return in.MaxSteps }
	}
	if o.MaxQueue == nil && in.MaxQueue > 0 {
		o.MaxQueue = func(Instance) int { return in.MaxQueue }
	}
	o.ReplayDir = "-"
	return CheckInstances(newRouter, []Instance{in.Instance}, o), nil
}

// Run runs the suite as subtests of t, one per family and shape and, in
// each, one per property, and reports each failure with its replay. t may
// be a *testing.T or *testing.B; other testing.TB values get the failures
// without subtests.
func Run(t testing.TB, newRouter NewRouter, o Options) {
	t.Helper()
	o = o.fill()
	for _, fam := range Families(o) {
		fs := checkFamily(newRouter, fam, o)
		suite.Sub(t, fam.Name, func(t testing.TB, sub bool) {
			if !sub {
				for _, f := range fs {
					t.Error(f.String())
				}
				return
			}
			for _, p := range properties {
				suite.Sub(t, p, func(t testing.TB, _ bool) {
					if p == Locality && o.SharedKnowledge != "" {
						t.Log(suite.NotChecked(o.SharedKnowledge))
					}
					for _, f := range fs {
						if f.Property == p {
							t.Error(f.String())
						}
					}
				})
			}
		})
	}
}

// Fuzz adds a fuzz target: the bytes are decoded into an instance (side
// 1 + b[0] mod 6, the torus when b[1] is odd, then one packet per pair of
// bytes) and the router is run on it with the default bounds. A user's
// fuzz test is
//
//	func FuzzMyRouter(f *testing.F) { meshtest.Fuzz(f, myrouter.New) }
func Fuzz(f *testing.F, newRouter NewRouter) {
	f.Add([]byte{3, 0, 0, 15, 15, 0, 5, 10})
	f.Add([]byte{2, 1, 0, 8, 8, 0, 1, 7, 7, 1})
	f.Fuzz(func(t *testing.T, b []byte) {
		in := decode(b)
		if _, fl := Simulate(newRouter(), in, 1, Options{ReplayDir: "-"}); fl != nil {
			t.Fatal(withReplay(*fl, Options{ReplayDir: os.TempDir()}, newRouter).String())
		}
	})
}

func decode(b []byte) Instance {
	in := Instance{Family: "fuzz", N: 1}
	if len(b) > 0 {
		in.N = 1 + int(b[0])%6
	}
	if len(b) > 1 {
		in.Torus = b[1]%2 == 1
	}
	P := in.N * in.N
	for i := 2; i+1 < len(b) && len(in.Src) < 4*P; i += 2 {
		in.Src = append(in.Src, int32(int(b[i])%P))
		in.Dst = append(in.Dst, int32(int(b[i+1])%P))
	}
	return in
}

// Family is a named set of instances of one shape.
type Family struct {
	Name      string // e.g. "n=4/mesh/kk/transpose/k=2"
	Instances []Instance
	// Random, when set, is the rapid family: instances are drawn (and
	// shrunk) instead of listed.
	Random bool
	N      int
	Torus  bool
}

// Families lists the instance families the options select, in the order
// Check runs them (see the package doc).
func Families(o Options) []Family {
	o = o.fill()
	var out []Family
	shapes := []bool{false}
	if o.Torus {
		shapes = append(shapes, true)
	}
	for _, n := range o.Sizes {
		if n < 1 {
			continue
		}
		P := n * n
		for _, torus := range shapes {
			shape := "mesh"
			if torus {
				shape = "torus"
			}
			prefix := fmt.Sprintf("n=%d/%s/", n, shape)
			rng := rand.New(rand.NewPCG(o.Seed, uint64(n)))
			add := func(name string, ins ...Instance) {
				for i := range ins {
					ins[i].Family, ins[i].N, ins[i].Torus = prefix+name, n, torus
				}
				out = append(out, Family{Name: prefix + name, Instances: ins, N: n, Torus: torus})
			}
			if n <= 3 {
				var singles []Instance
				for s := range P {
					for d := range P {
						singles = append(singles, Instance{Src: []int32{int32(s)}, Dst: []int32{int32(d)}})
					}
				}
				add("exhaustive/single", singles...)
			}
			if n <= 2 {
				var all []Instance
				perm.Each(P, func(p []int32) bool {
					all = append(all, Instance{Src: perm.Identity(P), Dst: append([]int32(nil), p...)})
					return true
				})
				add("exhaustive/perm", all...)
			}
			for _, f := range perm.FamiliesFor(P) {
				add("perm/"+f.Name, Instance{Src: perm.Identity(P), Dst: f.Perm(P, rng)})
			}
			for _, k := range o.Ks {
				if k < 1 {
					continue
				}
				ks := fmt.Sprintf("/k=%d", k)
				kk := func(family string) {
					if in, err := KK(family, n, k, rng); err == nil {
						add("kk/"+family+ks, in)
					}
				}
				kk("uniform")
				if k <= P {
					pairs, err := perm.HotSpot(P, k, rng.IntN(P), rng)
					if err == nil {
						var in Instance
						for _, pr := range pairs {
							in.Src, in.Dst = append(in.Src, pr.Src), append(in.Dst, pr.Dst)
						}
						add("kk/hot-spot"+ks, in)
					}
				}
				for _, family := range KKFamilies[1:] {
					kk(family) // row-to-col only when n | k
				}
			}
			out = append(out, Family{Name: prefix + "random", Random: true, N: n, Torus: torus})
		}
	}
	return out
}

// kkUniform is a uniformly random k-k relation: the n²·k destination slots
// shuffled.
func kkUniform(n, k int, rng *rand.Rand) Instance {
	in := Instance{Src: make([]int32, 0, n*n*k), Dst: make([]int32, 0, n*n*k)}
	for p := range n * n {
		for range k {
			in.Src = append(in.Src, int32(p))
			in.Dst = append(in.Dst, int32(p))
		}
	}
	rng.Shuffle(len(in.Dst), func(i, j int) { in.Dst[i], in.Dst[j] = in.Dst[j], in.Dst[i] })
	return in
}

// kkMap sends packet t of PU (i, j) to f(i, j, t).
func kkMap(n, k int, f func(i, j, t int) (int, int)) Instance {
	in := Instance{Src: make([]int32, 0, n*n*k), Dst: make([]int32, 0, n*n*k)}
	for p := range n * n {
		for t := range k {
			r, c := f(p/n, p%n, t)
			in.Src = append(in.Src, int32(p))
			in.Dst = append(in.Dst, int32(r*n+c))
		}
	}
	return in
}

func checkFamily(newRouter NewRouter, fam Family, o Options) []Failure {
	if !fam.Random {
		return CheckInstances(newRouter, fam.Instances, o)
	}
	// The random family: any placement of up to 2n² packets on a side up
	// to fam.N, shrunk by rapid to a minimal failing instance.
	var cex any
	func() {
		defer func() {
			if r := recover(); r != nil {
				cex = fmt.Sprintf("the check could not run: %v", r)
			}
		}()
		cex, _ = falsify.Falsify(o.Seed, o.Checks, func(t *rapid.T) any {
			n := rapid.IntRange(1, fam.N).Draw(t, "n")
			P := n * n
			in := Instance{Family: fam.Name, N: n, Torus: fam.Torus}
			pu := rapid.Int32Range(0, int32(P-1))
			pairs := rapid.SliceOfN(rapid.SliceOfN(pu, 2, 2), 0, 2*P).Draw(t, "packets")
			for _, sd := range pairs {
				in.Src, in.Dst = append(in.Src, sd[0]), append(in.Dst, sd[1])
			}
			if _, f := Simulate(newRouter(), in, o.Seed, o); f != nil {
				return in
			}
			return nil
		})
	}()
	switch c := cex.(type) {
	case nil:
		return nil
	case Instance:
		_, f := Simulate(newRouter(), c, o.Seed, o)
		if f == nil {
			return []Failure{{Property: Crash, Instance: c, Message: "rapid's shrunk instance no longer fails: the router is not deterministic for a given seed"}}
		}
		f.Message += " (shrunk by rapid)"
		return []Failure{withReplay(*f, o, newRouter)}
	default:
		return []Failure{{Property: Crash, Instance: Instance{Family: fam.Name, N: fam.N, Torus: fam.Torus}, Message: fmt.Sprint(c)}}
	}
}

// caseInstance is the instance of a mesh-suite case file: the instance,
// the router's seed and the bounds declared for it (0: none).
type caseInstance struct {
	Instance
	Seed     uint64 `json:"seed,omitempty"`
	MaxSteps int    `json:"max_steps,omitempty"`
	MaxQueue int    `json:"max_queue,omitempty"`
}

// withReplay writes the failure as a routecheck case (kind mesh-suite)
// under o.ReplayDir and records how to re-run it.
func withReplay(f Failure, o Options, newRouter NewRouter) Failure {
	if o.ReplayDir == "-" {
		return f
	}
	o = o.fill()
	router := suite.RouterName(o.Router, newRouter)
	ci := caseInstance{f.Instance, o.Seed, o.maxSteps(f.Instance), o.maxQueue(f.Instance)}
	f.Replay = suite.WriteReplay(o.ReplayDir, "meshtest", "mesh-suite", router, "meshtest, family "+f.Instance.Family, ci,
		[]hunt.Broken{{Property: f.Property, Step: f.Step, Message: f.Message}}, "meshtest.CheckFile(newRouter, %q, opts)")
	return f
}
