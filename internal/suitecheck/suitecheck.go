// Package suitecheck registers, for `routecheck check FILE` and
// `routecheck replay FILE`, one case kind per network that runs an instance
// through that network's conformance suite (props/<net>test), and a kind
// for a comparator network given as data:
//
//	pops-suite       {"d", "g", "perm", "seed", "algorithm", "max_buffer", "memory", "max_slots"}
//	mesh-suite       {"n", "torus", "src", "dst", "family", "seed", "max_steps", "max_queue"}
//	sot-suite        {"n", "seed", "rel": [[src, dst], …], "algorithm", "family", "max_steps", "max_deflections"}
//	bfly-suite       {"log_n", "r", "mode", "strict_buffers", "seed", "packets": [{"src","dst","perm"}], "family", "max_steps", "max_queue"}
//	mbfly-suite      {"N", "d", "L", "net_seed", "router_seed", "perm", "max_steps"}
//	sortnet-network  {"N", "nw": [[i, j], …]}                            (SorterHunter's JSON)
//
// The case's metric is "property failures" and its value the number
// recorded (for a hand-written sortnet-network case the metric may be
// "sorts": 1 or 0); check exits 1 when the run does not reproduce it.
// Examples: testdata/check/*.json.
//
// The suites write these cases when a router fails (Options.ReplayDir),
// naming the router ("router") and what it broke ("broke": property, step,
// message). The CLI runs the router the case names when it is one of
// routecheck's (the papers' algorithms and their planted faults, listed by
// Routers); a case written by hand names none and runs the instance's
// "algorithm" (or the paper's). For any other router — yours — the CLI
// cannot run it: it says so, runs the paper's algorithm on the instance
// instead, prints the two lines of Go that re-run yours
// (<net>test.CheckFile), and succeeds when the paper's algorithm passes the
// instance under the recorded bounds (the failure is then your router's),
// fails when it does not. A sortnet-network case is the network itself, so
// the CLI always re-runs it: with metric "property failures" through
// sortnettest with the recorded bounds, with "sorts" through
// sortnet.Verify.
package suitecheck

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	ab "routecheck/algos/butterfly"
	am "routecheck/algos/mesh"
	amb "routecheck/algos/multibutterfly"
	ap "routecheck/algos/pops"
	asot "routecheck/algos/sot"
	"routecheck/internal/hunt"
	mbf "routecheck/models/butterfly"
	"routecheck/models/mesh"
	mmb "routecheck/models/multibutterfly"
	"routecheck/models/perm"
	"routecheck/models/pops"
	"routecheck/models/sortnet"
	msot "routecheck/models/sot"
	"routecheck/props/bflytest"
	"routecheck/props/mbflytest"
	"routecheck/props/meshtest"
	"routecheck/props/popstest"
	"routecheck/props/sortnettest"
	"routecheck/props/sottest"
)

func init() {
	hunt.RegisterKind("pops-suite", popsSuite)
	hunt.RegisterKind("mesh-suite", meshSuite)
	hunt.RegisterKind("sot-suite", sotSuite)
	hunt.RegisterKind("bfly-suite", bflySuite)
	hunt.RegisterKind("mbfly-suite", mbflySuite)
	hunt.RegisterKind("sortnet-network", sortnetNetwork)
}

// popsRouters are routecheck's POPS routers by name: the §III router's
// variants and, after a slash, its planted faults.
var popsRouters = func() map[string]func() pops.Router {
	m := map[string]func() pops.Router{}
	for _, v := range []ap.Variant{ap.Faithful, ap.SplitDelivery} {
		for mut, name := range map[ap.Mutant]string{ap.NoMutant: "", ap.MutantTempByGroup: "/mutant-temp-by-group", ap.MutantNoAckWait: "/mutant-no-ack-wait", ap.MutantRelayKeeps: "/mutant-relay-keeps"} {
			m[v.String()+name] = func() pops.Router { return ap.NewLocalRouter(ap.Options{Variant: v, Mutant: mut}) }
		}
	}
	return m
}()

var meshRouters = map[string]func() mesh.Router{
	"farthest-first": func() mesh.Router { return am.GridFarthestFirst },
}

var sotRouters = func() map[string]func() msot.Router {
	m := map[string]func() msot.Router{}
	for _, a := range asot.Algorithms {
		if _, err := asot.Local(a); err == nil {
			m[string(a)] = func() msot.Router { r, _ := asot.Local(a); return r }
		}
	}
	return m
}()

var bflyRouters = map[string]func() mbf.Router{
	"greedy":                     func() mbf.Router { return ab.Greedy{} },
	"greedy/fault-ignore-strict": func() mbf.Router { return ab.Greedy{Options: ab.Options{Fault: ab.FaultIgnoreStrict}} },
}

var mbflyRouters = map[string]func() mmb.Router{
	"priority":                       func() mmb.Router { return &amb.Priority{} },
	"priority/fault-ignore-batch":    func() mmb.Router { return &amb.Priority{Fault: amb.FaultIgnoreBatch} },
	"priority/fault-ignore-bit":      func() mmb.Router { return &amb.Priority{Fault: amb.FaultIgnoreBit} },
	"priority/fault-lowest-priority": func() mmb.Router { return &amb.Priority{Fault: amb.FaultLowestPriority} },
}

// Routers lists, per case kind, the names of the routers the CLI can run
// (a suite's Options.Router set to one of them makes its replay files run
// that router).
func Routers() map[string][]string {
	return map[string][]string{
		"pops-suite":  names(popsRouters),
		"mesh-suite":  names(meshRouters),
		"sot-suite":   names(sotRouters),
		"bfly-suite":  names(bflyRouters),
		"mbfly-suite": names(mbflyRouters),
	}
}

func names[R any](m map[string]func() R) []string {
	var ns []string
	for n := range m {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

// pick chooses the router to run: the case's router when it is one of
// ours, else def (the instance's algorithm or the paper's); foreign says
// the case named a router the CLI does not have.
func pick[R any](c hunt.Case, ours map[string]func() R, def string) (name string, newRouter func() R, foreign bool, err error) {
	if nr, ok := ours[c.Router]; ok {
		return c.Router, nr, false, nil
	}
	nr, ok := ours[def]
	if !ok {
		return "", nil, false, fmt.Errorf("%s instance: algorithm %q: allowed: %s", c.Kind, def, strings.Join(names(ours), ", "))
	}
	return def, nr, c.Router != "", nil
}

// strict decodes the case's instance, refusing unknown fields (a typo must
// not silently become a default).
func strict(c hunt.Case, v any) error {
	dec := json.NewDecoder(strings.NewReader(string(c.Instance)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%s instance: %v", c.Kind, err)
	}
	return nil
}

// failure is one property a replay found broken.
type failure struct {
	property string
	text     string
}

// run is what a replayer ran: the instance in words, the router's name,
// whether the case named a router the CLI does not have, the failures, and
// the Go call (with %q for the path) that re-runs a user's router.
type run struct {
	what, router string
	foreign      bool
	fails        []failure
	goImport     string
	goCall       string
}

// report words a replay and decides whether it reproduced the case: for
// one of our routers, the recorded number of failures (and, when the case
// lists them, the same properties); for a router the CLI does not have,
// the paper's algorithm passing the instance.
func report(c hunt.Case, r run) (string, bool, error) {
	var b strings.Builder
	got := make([]string, len(r.fails))
	for i, f := range r.fails {
		got[i] = f.property
	}
	var ok bool
	if r.foreign {
		fmt.Fprintf(&b, "%s: router %q is not one of routecheck's (%s), so the CLI cannot run it: it ran the paper's algorithm (%s) on the same instance instead.\n",
			c.Kind, c.Router, strings.Join(Routers()[c.Kind], ", "), r.router)
		fmt.Fprintf(&b, "  recorded for %s: %g property failure(s)\n", c.Router, c.Value)
		for _, x := range c.Broke {
			fmt.Fprintf(&b, "    %s at step %d: %s\n", x.Property, x.Step, x.Message)
		}
		fmt.Fprintf(&b, "  %s, %s (the paper's algorithm) — %d property failure(s)\n", r.what, r.router, len(r.fails))
		ok = len(r.fails) == 0
	} else {
		fmt.Fprintf(&b, "%s: %s, %s — %d property failure(s) (recorded %g)\n", c.Kind, r.what, r.router, len(r.fails), c.Value)
		ok = float64(len(r.fails)) == c.Value
		if len(c.Broke) > 0 {
			want := make([]string, len(c.Broke))
			for i, x := range c.Broke {
				want[i] = x.Property
			}
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(want, got) {
				ok = false
				fmt.Fprintf(&b, "  recorded properties %v, found %v\n", want, got)
			}
		}
	}
	for _, f := range r.fails {
		fmt.Fprintf(&b, "  %s\n", f.text)
	}
	if r.foreign {
		if ok {
			b.WriteString("  the paper's algorithm passes this instance under the recorded bounds: the failure is your router's.\n")
		} else {
			b.WriteString("  the paper's algorithm fails this instance too (under the recorded bounds).\n")
		}
		path := c.Path
		if path == "" {
			path = "FILE"
		}
		b.WriteString("  to re-run your router on it, in a test of its package:\n")
		fmt.Fprintf(&b, "      import %q\n", r.goImport)
		fmt.Fprintf(&b, "      "+r.goCall+"\n", path)
	}
	return b.String(), ok, nil
}

func popsSuite(c hunt.Case) (string, bool, error) {
	var in struct {
		popstest.Instance
		Algorithm string          `json:"algorithm"`
		MaxBuffer int             `json:"max_buffer"`
		Memory    popstest.Memory `json:"memory"`
		MaxSlots  int             `json:"max_slots"`
	}
	if err := strict(c, &in); err != nil {
		return "", false, err
	}
	if in.Algorithm == "" {
		in.Algorithm = ap.Faithful.String()
	}
	name, nr, foreign, err := pick(c, popsRouters, in.Algorithm)
	if err != nil {
		return "", false, err
	}
	o := popstest.Options{MaxBuffer: in.MaxBuffer, Memory: in.Memory, ReplayDir: "-"}
	if in.MaxSlots > 0 {
		o.MaxSlots = func(pops.Shape, []int32) int { return in.MaxSlots }
	}
	fs, err := popstest.CheckInstance(nr, in.Instance, o)
	if err != nil {
		return "", false, err
	}
	r := run{what: fmt.Sprintf("POPS(%d,%d) per-processor router, seed %d", in.D, in.G, in.Seed), router: name, foreign: foreign,
		goImport: "routecheck/props/popstest", goCall: "fs, err := popstest.CheckFile(newRouter, %q, popstest.Options{})"}
	for _, f := range fs {
		r.fails = append(r.fails, failure{f.Property, f.String()})
	}
	return report(c, r)
}

func meshSuite(c hunt.Case) (string, bool, error) {
	var in struct {
		meshtest.Instance
		Seed     uint64 `json:"seed"`
		MaxSteps int    `json:"max_steps"`
		MaxQueue int    `json:"max_queue"`
	}
	if err := strict(c, &in); err != nil {
		return "", false, err
	}
	if err := in.Validate(); err != nil {
		return "", false, err
	}
	name, nr, foreign, err := pick(c, meshRouters, "farthest-first")
	if err != nil {
		return "", false, err
	}
	o := meshtest.Options{ReplayDir: "-", Seed: in.Seed}
	if in.MaxSteps > 0 {
		o.MaxSteps = func(meshtest.Instance) int { return in.MaxSteps }
	}
	if in.MaxQueue > 0 {
		o.MaxQueue = func(meshtest.Instance) int { return in.MaxQueue }
	}
	fs := meshtest.CheckInstances(nr, []meshtest.Instance{in.Instance}, o)
	r := run{what: in.Instance.String(), router: name, foreign: foreign,
		goImport: "routecheck/props/meshtest", goCall: "fs, err := meshtest.CheckFile(newRouter, %q, meshtest.Options{})"}
	for _, f := range fs {
		r.fails = append(r.fails, failure{f.Property, f.String()})
	}
	return report(c, r)
}

func sotSuite(c hunt.Case) (string, bool, error) {
	var in struct {
		sottest.Instance
		Algorithm      string `json:"algorithm"`
		MaxSteps       int    `json:"max_steps"`
		MaxDeflections *int   `json:"max_deflections"`
	}
	if err := strict(c, &in); err != nil {
		return "", false, err
	}
	if in.Algorithm == "" && c.Router != "" {
		in.Algorithm = string(asot.GreedyA)
	}
	name, nr, foreign, err := pick(c, sotRouters, in.Algorithm)
	if err != nil {
		return "", false, err
	}
	o := sottest.Options{ReplayDir: "-", Replay: "-"}
	if in.MaxSteps > 0 {
		o.MaxSteps = func(int, []perm.Pair) int { return in.MaxSteps }
	}
	if in.MaxDeflections != nil {
		o.MaxDeflections = func(int) int { return *in.MaxDeflections }
	}
	fs, err := sottest.CheckInstance(nr, in.Instance, o)
	if err != nil {
		return "", false, err
	}
	r := run{what: fmt.Sprintf("SOT(%d), %d packets, seed %d", in.N, len(in.Rel), in.Seed), router: name, foreign: foreign,
		goImport: "routecheck/props/sottest", goCall: "fs, err := sottest.CheckFile(newRouter, %q, sottest.Options{})"}
	for _, f := range fs {
		r.fails = append(r.fails, failure{f.Property, f.String()})
	}
	return report(c, r)
}

func bflySuite(c hunt.Case) (string, bool, error) {
	var in struct {
		bflytest.Instance
		MaxSteps int `json:"max_steps"`
		MaxQueue int `json:"max_queue"`
	}
	if err := strict(c, &in); err != nil {
		return "", false, err
	}
	in.Kind = "bflytest-instance"
	if err := in.Validate(); err != nil {
		return "", false, fmt.Errorf("bfly-suite instance: %v", err)
	}
	name, nr, foreign, err := pick(c, bflyRouters, "greedy")
	if err != nil {
		return "", false, err
	}
	o := bflytest.Options{ReplayDir: "-"}
	if in.MaxSteps > 0 {
		o.MaxSteps = func(mbf.Shape, int) int { return in.MaxSteps }
	}
	if in.MaxQueue > 0 {
		o.MaxQueue = func(mbf.Shape, int) int { return in.MaxQueue }
	}
	fs := bflytest.CheckInstance(nr, in.Instance, o)
	r := run{what: fmt.Sprintf("butterfly 2^%d, r = %d, %s, %d packets", in.LogN, in.R, in.Mode, len(in.Packets)), router: name, foreign: foreign,
		goImport: "routecheck/props/bflytest", goCall: "fs, err := bflytest.ReplayFile(newRouter, %q, bflytest.Options{})"}
	for _, f := range fs {
		r.fails = append(r.fails, failure{f.Property, f.String()})
	}
	return report(c, r)
}

func mbflySuite(c hunt.Case) (string, bool, error) {
	var in mbflytest.Instance
	if err := strict(c, &in); err != nil {
		return "", false, err
	}
	name, nr, foreign, err := pick(c, mbflyRouters, "priority")
	if err != nil {
		return "", false, err
	}
	r := run{what: fmt.Sprintf("multi-butterfly N = %d, d = %d, L = %d", in.N, in.D, in.L), router: name, foreign: foreign,
		goImport: "routecheck/props/mbflytest", goCall: "f, err := mbflytest.CheckFile(%q, newRouter)"}
	if f := mbflytest.CheckInstance(nr, in); f != nil {
		if f.Property == "setup" {
			return "", false, fmt.Errorf("mbfly-suite instance: %s", f.Message)
		}
		r.fails = append(r.fails, failure{f.Property, f.String()})
	}
	return report(c, r)
}

func sortnetNetwork(c hunt.Case) (string, bool, error) {
	nw, dec, err := sortnet.ParseNetwork(c.Instance)
	if err != nil {
		return "", false, fmt.Errorf("sortnet-network instance: %v", err)
	}
	if c.Metric == "property failures" {
		// A network a conformance suite wrote (sortnettest): re-run the
		// suite on it with the recorded options.
		var cn sortnettest.CaseNetwork
		if err := json.Unmarshal(c.Instance, &cn); err != nil {
			return "", false, fmt.Errorf("sortnet-network instance: %v", err)
		}
		r := run{what: fmt.Sprintf("comparator network (%s): n = %d, size %d, depth %d", dec.Format, nw.N, nw.Size(), nw.Depth()), router: "the network itself"}
		for _, f := range sortnettest.CheckNetwork(nw, cn.Options()) {
			r.fails = append(r.fails, failure{f.Property, f.String()})
		}
		return report(c, r)
	}
	v := sortnet.Verify(nw, sortnet.VerifyOptions{})
	sorts := 0.0
	what := "does not sort: input " + fmt.Sprint(v.Counterexample)
	if v.Sorts {
		sorts, what = 1, "sorts"
	}
	rep := fmt.Sprintf("sortnet-network (%s): n = %d, size %d, depth %d: %s (%s); recorded sorts = %g\n", dec.Format, nw.N, nw.Size(), nw.Depth(), what, v.Covered, c.Value)
	return rep, sorts == c.Value, nil
}
