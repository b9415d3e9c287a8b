package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"routecheck/algos/aks"
	msn "routecheck/models/sortnet"
	"routecheck/props"
)

// aksRecordedCrossoverK is the crossover k recorded by the claim
// sortnet/aks/depth/crossover (props/sortnet.AKSCrossoverK, which that claim
// checks by its own evaluation of Seiferas's §4 and §7, independent of
// algos/aks). Written out here so that the CLI's tests import no props
// package (issue 10 §3).
const aksRecordedCrossoverK = 1028489

// Bad input to sortnet: one line naming the parameter, exit status 2.
func TestSortnetBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"sortnet"}, "need a kind"},
		{[]string{"sortnet", "--n", "8"}, "need a kind"},
		{[]string{"sortnet", "quicksort", "--n", "8"}, "unknown kind"},
		{[]string{"sortnet", "oddeven"}, "--n is required"},
		{[]string{"sortnet", "oddeven", "--n", "-3"}, "--n = -3"},
		{[]string{"sortnet", "aks", "--n", "-1"}, "--n = -1"},
		{[]string{"sortnet", "oddeven", "--n", "x"}, "-n"},
		{[]string{"sortnet", "bitonic", "--n", "5000000"}, "GiB"},
		{[]string{"sortnet", "aks", "--n", "16777216"}, "GiB"},
		{[]string{"sortnet", "aks", "--n", "1024", "--mem-limit", "0.0001"}, "GiB"},
		{[]string{"sortnet", "oddeven", "--n", "1024", "--mem-limit", "0.000001"}, "GiB"},
		{[]string{"sortnet", "aks", "--n", "8", "--halver", "magic"}, "--halver"},
		{[]string{"sortnet", "oddeven", "--n", "8", "--halver", "exact"}, "--halver"},
		{[]string{"sortnet", "aks", "--n", "8", "--d", "4"}, "--d applies"},
		{[]string{"sortnet", "aks", "--n", "8", "--halver", "expander", "--d", "0"}, "--d = 0"},
		{[]string{"sortnet", "aks", "--n", "8", "extra"}, "unexpected argument"},
		{[]string{"sortnet", "depths", "--max-k", "0"}, "--max-k"},
		{[]string{"sortnet", "depths", "--max-k", "63"}, "--max-k"},
		{[]string{"sortnet", "depths", "--build-k", "30"}, "--build-k"},
		{[]string{"sortnet", "depths", "--d", "-2"}, "--d"},
		{[]string{"sortnet", "depths", "--build-k", "16", "--mem-limit", "0.01"}, "GiB"},
	} {
		out, errOut, st := runCLI(c.args...)
		if st != 2 {
			t.Errorf("%v: status %d, want 2 (stderr %q)", c.args, st, errOut)
			continue
		}
		if strings.Count(strings.TrimSpace(errOut), "\n") != 0 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: stderr %q, want one line mentioning %q", c.args, errOut, c.want)
		}
		if out != "" {
			t.Errorf("%v: printed %q on stdout", c.args, out)
		}
	}
}

func jsonKeys(m map[string]any) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// The JSON report is an interface: these keys, and values that agree with
// an independent look at the network (Batcher's depth formula; the
// counterexample replayed on a network rebuilt from the printed seed).
func TestSortnetJSONShape(t *testing.T) {
	want := []string{"batcher_depth", "counterexample", "coverage", "depth", "exhaustive", "inputs", "kind", "n", "seed", "size", "sorts", "verdict"}
	out, errOut, st := runCLI("sortnet", "oddeven", "--n", "10", "--json")
	if st != 0 {
		t.Fatalf("status %d: %s", st, errOut)
	}
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if got := jsonKeys(r); !slices.Equal(got, want) {
		t.Errorf("keys %v, want %v", got, want)
	}
	// n = 10: ⌈lg n⌉ = 4, depth 4·5/2 = 10; all 2^10 0-1 inputs run.
	if r["verdict"] != "sorts" || r["sorts"] != true || r["exhaustive"] != true || r["inputs"] != 1024.0 || r["depth"] != 10.0 || r["counterexample"] != nil {
		t.Errorf("odd-even n = 10: %v", r)
	}

	// The expander-halver network on 8 wires does not sort (exit 1) and
	// says why; its counterexample replays on the network rebuilt from the
	// same seed.
	out, errOut, st = runCLI("sortnet", "aks", "--n", "8", "--halver", "expander", "--seed", "3", "--json")
	if st != 1 || !strings.Contains(errOut, "does not sort") {
		t.Fatalf("status %d, stderr %q", st, errOut)
	}
	r = nil
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	want = append(want, "d", "halver", "padded_n", "params", "stages")
	sort.Strings(want)
	if got := jsonKeys(r); !slices.Equal(got, want) {
		t.Errorf("keys %v, want %v", got, want)
	}
	cx, ok := r["counterexample"].(map[string]any)
	if r["verdict"] != "does not sort" || r["sorts"] != false || !ok {
		t.Fatalf("verdict %v, counterexample %v", r["verdict"], r["counterexample"])
	}
	res, err := aks.ExpanderNet(8, 8, 3)
	if err != nil {
		t.Fatal(err)
	}
	in, outBits := cx["input"].(string), cx["output"].(string)
	xs := make([]int, len(in))
	for i, ch := range in {
		xs[i] = int(ch - '0')
	}
	msn.Apply(res.Net, xs)
	var got strings.Builder
	for _, x := range xs {
		got.WriteByte(byte('0' + x))
	}
	if len(in) != 8 || got.String() != outBits || msn.Sorted(xs) {
		t.Errorf("input %s replays to %s, reported %s", in, got.String(), outBits)
	}
	if r["depth"] != float64(res.Net.Depth()) || r["size"] != float64(res.Net.Size()) || r["stages"] != float64(res.Stages) {
		t.Errorf("depth/size/stages %v/%v/%v, rebuilt %d/%d/%d", r["depth"], r["size"], r["stages"], res.Net.Depth(), res.Net.Size(), res.Stages)
	}
}

// The text report prints a verdict with its coverage: exhaustive up to 24
// wires, random/structured inputs above.
func TestSortnetVerdictPrinted(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"sortnet", "bitonic", "--n", "16"}, []string{"depth 10,", "size 80 ", "verdict: sorts", "all 2^16 inputs"}},
		{[]string{"sortnet", "aks", "--n", "100"}, []string{"AKS family", "exact separator", "verdict: sorts", "not exhaustive (n = 100 > 24)", "random permutations"}},
		{[]string{"sortnet", "oddeven", "--n", "0"}, []string{"depth 0, size 0", "verdict: sorts"}},
	} {
		out, errOut, st := runCLI(c.args...)
		if st != 0 {
			t.Fatalf("%v: status %d: %s", c.args, st, errOut)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: output lacks %q:\n%s", c.args, w, out)
			}
		}
	}
	out, _, st := runCLI("sortnet", "aks", "--n", "6", "--halver", "expander", "--d", "1")
	if st != 1 || !strings.Contains(out, "verdict: DOES NOT SORT") || !strings.Contains(out, "input  (wire 0 … n−1): ") {
		t.Errorf("expander d = 1, n = 6: status %d\n%s", st, out)
	}
}

// sortnet depths: the rows, Batcher's k(k+1)/2, the built exact-separator
// depth equal to a direct construction, the analytic depth equal to
// PaperDepth, and the crossover the ledger records.
func TestSortnetDepths(t *testing.T) {
	out, errOut, st := runCLI("sortnet", "depths", "--max-k", "7", "--build-k", "5", "--json")
	if st != 0 {
		t.Fatalf("status %d: %s", st, errOut)
	}
	var r struct {
		D    int `json:"d"`
		Rows []struct {
			K             int    `json:"k"`
			N             uint64 `json:"n"`
			ExactDepth    *int   `json:"exact_depth"`
			ExpanderDepth *int   `json:"expander_depth"`
			Sorted        *int   `json:"expander_sorted"`
			PaperDepth    int64  `json:"paper_depth"`
			BatcherDepth  int64  `json:"batcher_depth"`
		} `json:"rows"`
		Crossover *struct {
			K int `json:"k"`
		} `json:"crossover"`
		CrossoverD *struct {
			K int `json:"k"`
		} `json:"crossover_d_halvers"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Rows) != 7 || r.D != 8 {
		t.Fatalf("%d rows, d = %d", len(r.Rows), r.D)
	}
	for i, row := range r.Rows {
		k := i + 1
		if row.K != k || row.N != 1<<k || row.BatcherDepth != int64(k*(k+1)/2) {
			t.Errorf("row %d: %+v", i, row)
		}
		if built := k <= 5; (row.ExactDepth != nil) != built || (row.ExpanderDepth != nil) != built || (row.Sorted != nil) != built {
			t.Errorf("k = %d: built columns %v %v %v", k, row.ExactDepth, row.ExpanderDepth, row.Sorted)
		}
		if row.ExactDepth != nil {
			res, err := aks.Construct(1<<k, aks.SeiferasParams(), aks.Exact())
			if err != nil || *row.ExactDepth != res.Net.Depth() {
				t.Errorf("k = %d: exact depth %d, direct construction %d (%v)", k, *row.ExactDepth, res.Net.Depth(), err)
			}
		}
		if pd, err := aks.PaperDepth(k, aks.SeiferasParams(), 1); err != nil || row.PaperDepth != pd.Total {
			t.Errorf("k = %d: paper depth %d, PaperDepth %d", k, row.PaperDepth, pd.Total)
		}
	}
	if cs, err := props.Claims("^sortnet/aks/depth/crossover$"); err != nil || len(cs) != 1 || !strings.Contains(cs[0].Statement, fmt.Sprintf("exactly when k ≥ %d ", aksRecordedCrossoverK)) {
		t.Errorf("the registered crossover claim does not state k ≥ %d (%v, %d claims)", aksRecordedCrossoverK, err, len(cs))
	}
	if r.Crossover == nil || r.Crossover.K != aksRecordedCrossoverK || r.CrossoverD == nil || r.CrossoverD.K < 2 {
		t.Errorf("crossover %+v, d-halver crossover %+v", r.Crossover, r.CrossoverD)
	}
	out, _, st = runCLI("sortnet", "depths", "--max-k", "3", "--build-k", "3")
	if st != 0 || !strings.Contains(out, "Batcher") || !strings.Contains(out, fmt.Sprintf("crossover: (c) < Batcher first at k = %d", aksRecordedCrossoverK)) {
		t.Errorf("text table: status %d\n%s", st, out)
	}
}

// --climb: on a network that sorts the climb can find nothing misplaced; on
// the AKS network with one random matching per halver (far from a halver)
// the climb's worst input is misplaced and the verdict says so. The climb's
// input is a permutation and the network's output on it is checked here by
// applying the network independently of the climb's own bookkeeping.
func TestSortnetClimb(t *testing.T) {
	out, e, st := runCLI("sortnet", "oddeven", "--n", "64", "--climb", "50", "--json")
	if st != 0 {
		t.Fatalf("status %d: %s", st, e)
	}
	var r sortnetReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Climb == nil || r.Climb.Evals != 50 || r.Climb.Misplaced != 0 || !r.Sorts {
		t.Errorf("oddeven n = 64: climb %+v, sorts %v", r.Climb, r.Sorts)
	}
	out, e, st = runCLI("sortnet", "aks", "--n", "256", "--halver", "expander", "--d", "1", "--perms", "0", "--climb", "100", "--json")
	if st != 1 {
		t.Fatalf("aks d = 1: status %d, want 1: %s", st, e)
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Climb == nil || r.Climb.Misplaced == 0 || r.Sorts {
		t.Fatalf("aks d = 1: climb %+v, sorts %v", r.Climb, r.Sorts)
	}
	in := r.Climb.Input
	seen := make([]bool, len(in))
	for _, v := range in {
		if v < 0 || int(v) >= len(in) || seen[v] {
			t.Fatalf("climb input is not a permutation: %v", in)
		}
		seen[v] = true
	}
	res, err := aks.ExpanderNet(256, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	keys := make([]int, len(in))
	for i, v := range in {
		keys[i] = int(v)
	}
	msn.Apply(res.Net, keys)
	mis := 0
	for p, v := range keys {
		if v != p {
			mis++
		}
	}
	if mis != r.Climb.Misplaced {
		t.Errorf("network leaves %d misplaced on the climb's input, report says %d", mis, r.Climb.Misplaced)
	}
	if _, e, st := runCLI("sortnet", "oddeven", "--n", "8", "--climb", "-1"); st != 2 || !strings.Contains(e, "--climb") {
		t.Errorf("--climb -1: status %d, %q", st, e)
	}
}
