// Package suitecheck registers, for `routecheck check FILE` (and replay),
// one case kind per network that runs a user's instance through that
// network's conformance suite (props/<net>test) with one of the papers'
// algorithms, and a kind for a comparator network given as data:
//
//	pops-suite       {"d", "g", "perm", "seed", "algorithm", "max_buffer"}
//	mesh-suite       {"n", "torus", "src", "dst"}                       (farthest-first)
//	sot-suite        {"n", "seed", "rel": [[src, dst], …], "algorithm"}
//	bfly-suite       {"log_n", "r", "mode", "strict_buffers", "seed", "packets": [{"src","dst","perm"}]}  (greedy priority)
//	mbfly-suite      {"N", "d", "L", "net_seed", "router_seed", "perm", "max_steps"}  (§3.2 priority routing)
//	sortnet-network  {"N", "nw": [[i, j], …]}                            (SorterHunter's JSON)
//
// The case's metric is "property failures" (for sortnet-network "sorts":
// 1 or 0) and its value the number recorded; check exits 1 when the run
// does not reproduce it. Examples: testdata/check/*.json.
package suitecheck

import (
	"encoding/json"
	"fmt"
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
	"routecheck/models/pops"
	"routecheck/models/sortnet"
	msot "routecheck/models/sot"
	"routecheck/props/bflytest"
	"routecheck/props/mbflytest"
	"routecheck/props/meshtest"
	"routecheck/props/popstest"
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

// report words failures and compares their count with the recorded value.
func report(c hunt.Case, what string, fails []string) (string, bool, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s — %d property failure(s) (recorded %g)\n", c.Kind, what, len(fails), c.Value)
	for _, f := range fails {
		fmt.Fprintf(&b, "  %s\n", f)
	}
	return b.String(), float64(len(fails)) == c.Value, nil
}

func popsSuite(c hunt.Case) (string, bool, error) {
	var in struct {
		popstest.Instance
		Algorithm string `json:"algorithm"`
		MaxBuffer int    `json:"max_buffer"`
		MaxSlots  int    `json:"max_slots"`
	}
	if err := strict(c, &in); err != nil {
		return "", false, err
	}
	if in.Algorithm == "" {
		in.Algorithm = ap.Faithful.String()
	}
	v, err := ap.ParseVariant(in.Algorithm)
	if err != nil {
		return "", false, err
	}
	o := popstest.Options{MaxBuffer: in.MaxBuffer, ReplayDir: "-"}
	if in.MaxSlots > 0 {
		o.MaxSlots = func(pops.Shape, []int32) int { return in.MaxSlots }
	}
	fs, err := popstest.CheckInstance(func() pops.Router { return ap.NewLocalRouter(ap.Options{Variant: v}) }, in.Instance, o)
	if err != nil {
		return "", false, err
	}
	var ss []string
	for _, f := range fs {
		ss = append(ss, f.String())
	}
	return report(c, fmt.Sprintf("POPS(%d,%d), %s (per-processor router), seed %d", in.D, in.G, v, in.Seed), ss)
}

func meshSuite(c hunt.Case) (string, bool, error) {
	var in meshtest.Instance
	if err := strict(c, &in); err != nil {
		return "", false, err
	}
	if err := in.Validate(); err != nil {
		return "", false, err
	}
	fs := meshtest.CheckInstances(func() mesh.Router { return am.GridFarthestFirst }, []meshtest.Instance{in}, meshtest.Options{ReplayDir: "-"})
	var ss []string
	for _, f := range fs {
		ss = append(ss, f.String())
	}
	return report(c, fmt.Sprintf("%s, farthest-first", in), ss)
}

func sotSuite(c hunt.Case) (string, bool, error) {
	var in struct {
		sottest.Instance
		Algorithm string `json:"algorithm"`
	}
	if err := strict(c, &in); err != nil {
		return "", false, err
	}
	alg, err := asot.ParseAlgorithm(in.Algorithm)
	if err != nil {
		return "", false, err
	}
	r, err := asot.Local(alg)
	if err != nil {
		return "", false, err
	}
	fs, err := sottest.CheckInstance(func() msot.Router { return r }, in.Instance, sottest.Options{ReplayDir: "-"})
	if err != nil {
		return "", false, err
	}
	var ss []string
	for _, f := range fs {
		ss = append(ss, f.String())
	}
	return report(c, fmt.Sprintf("SOT(%d), %d packets, %s, seed %d", in.N, len(in.Rel), alg, in.Seed), ss)
}

func bflySuite(c hunt.Case) (string, bool, error) {
	var in bflytest.Instance
	if err := strict(c, &in); err != nil {
		return "", false, err
	}
	in.Kind = "bflytest-instance"
	fs := bflytest.CheckInstance(func() mbf.Router { return ab.Greedy{} }, in, bflytest.Options{ReplayDir: "-"})
	var ss []string
	for _, f := range fs {
		ss = append(ss, f.String())
	}
	return report(c, fmt.Sprintf("butterfly 2^%d, r = %d, %s, %d packets, greedy priority", in.LogN, in.R, in.Mode, len(in.Packets)), ss)
}

func mbflySuite(c hunt.Case) (string, bool, error) {
	var in mbflytest.Instance
	if err := strict(c, &in); err != nil {
		return "", false, err
	}
	var ss []string
	if f := mbflytest.CheckInstance(func() mmb.Router { return &amb.Priority{} }, in); f != nil {
		ss = append(ss, f.String())
	}
	return report(c, fmt.Sprintf("multi-butterfly N = %d, d = %d, L = %d, §3.2 priority routing", in.N, in.D, in.L), ss)
}

func sortnetNetwork(c hunt.Case) (string, bool, error) {
	nw, dec, err := sortnet.ParseNetwork(c.Instance)
	if err != nil {
		return "", false, fmt.Errorf("sortnet-network instance: %v", err)
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
