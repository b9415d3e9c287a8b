package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"text/tabwriter"

	"routecheck/algos/aks"
	asn "routecheck/algos/sortnet"
	"routecheck/internal/sortnethunt"
	msn "routecheck/models/sortnet"
	"routecheck/oracles/sortnetforms"
)

// routecheck sortnet KIND --n N: build a comparator network, print its depth
// and size, and verify that it sorts (exhaustive 0-1 check for n ≤ 24,
// random and structured inputs above). routecheck sortnet depths: the depth
// of the AKS-family networks against n = 2^k beside Batcher's.

const (
	sortnetKinds   = "oddeven, bitonic, aks, depths, verify"
	sortnetMaxExh  = 24      // exhaustive 0-1 check up to this n
	sortnetWork    = 1 << 30 // comparator evaluations for the random 0-1 inputs
	aksMaxN        = 1 << 22 // aks networks above this are refused outright
	aksMaxBuildK   = 20      // sortnet depths: largest k built
	aksParamsShort = "Seiferas §5 parameters A = 10, λ = ε = 1/100, ν = 13/20"
)

// sortnetReport is the JSON form of `routecheck sortnet KIND` (an interface:
// keep the keys).
type sortnetReport struct {
	Kind           string          `json:"kind"`
	N              int             `json:"n"`
	Halver         string          `json:"halver,omitempty"` // aks only: exact or expander
	D              int             `json:"d,omitempty"`      // aks expander only
	Seed           uint64          `json:"seed"`
	Params         string          `json:"params,omitempty"`
	PaddedN        int             `json:"padded_n,omitempty"`
	Stages         int             `json:"stages,omitempty"` // aks: separation–rebagging stages
	Depth          int             `json:"depth"`
	Size           int             `json:"size"`
	BatcherDepth   int64           `json:"batcher_depth"`
	Verdict        string          `json:"verdict"` // "sorts" or "does not sort"
	Sorts          bool            `json:"sorts"`
	Exhaustive     bool            `json:"exhaustive"`
	Inputs         int64           `json:"inputs"`
	Coverage       string          `json:"coverage"`
	Counterexample *sortnetCounter `json:"counterexample"`
	// Climb is the hill climb's result when --climb > 0.
	Climb *sortnetClimb `json:"climb,omitempty"`
}

// sortnetClimb is the outcome of --climb: the worst input permutation the
// hill climb found (algos/sortnet/hillclimb) and how many output positions
// the network leaves out of place on it.
type sortnetClimb struct {
	Evals          int     `json:"evals"`
	Misplaced      int     `json:"misplaced"`
	StartMisplaced int     `json:"start_misplaced"` // best of the climbs' random starting points
	Input          []int32 `json:"input,omitempty"` // only when Misplaced > 0
	Output         []int32 `json:"output,omitempty"`
}

// sortnetCounter is a 0-1 input the network leaves unsorted, as strings of
// 0s and 1s, wire 0 first.
type sortnetCounter struct {
	Input  string `json:"input"`
	Output string `json:"output"` // what the network leaves on the wires
	Ones   int    `json:"ones"`
	How    string `json:"how"`
}

const sortnetUsage = `usage: routecheck sortnet oddeven|bitonic|aks --n N [--halver exact|expander] [--d D] [--seed S] [--perms P] [--json]
       routecheck sortnet depths [--max-k K] [--build-k B] [--d D] [--seed S] [--trials T] [--json]
       routecheck sortnet verify FILE [--json] [--seed S] [--workers W]   (SorterHunter JSON or [(0,1),(2,3)],… layers)
run 'routecheck sortnet KIND -h' for the flags`

func runSortnet(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
		fmt.Fprintln(stderr, sortnetUsage)
		return flag.ErrHelp
	}
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return usagef("need a kind first; allowed: %s", sortnetKinds)
	}
	kind := args[0]
	switch kind {
	case "depths":
		return runSortnetDepths(args[1:], stdout, stderr)
	case "verify":
		return runSortnetVerify(args[1:], stdout, stderr)
	case "oddeven", "bitonic", "aks":
	default:
		return usagef("unknown kind %q; allowed: %s", kind, sortnetKinds)
	}
	fs := newFlags("sortnet "+kind, stderr)
	n := fs.Int("n", 0, "number of wires (required), n ≥ 0")
	halver := fs.String("halver", "exact", "aks only: exact (every bag sorted: a sorting network for every n) or expander (§6 Lemma 2 separators from halvers of --d random perfect matchings)")
	d := fs.Int("d", 8, "aks --halver expander only: random perfect matchings per halver, 1..64")
	seed := fs.Uint64("seed", 1, "seed of the expander matchings (PCG(seed, n)) and of the random test inputs")
	perms := fs.Int("perms", 16, "random permutations to run when n > 24")
	climb := fs.Int("climb", 0, "also hill-climb over input permutations for this many network evaluations, maximizing the positions left out of place (0: no climb)")
	memGiB := fs.Float64("mem-limit", 0, "refuse networks needing more memory than this many GiB (default: available memory)")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	pos, err := parse(fs, args[1:])
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("unexpected argument %q", pos[0])
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	switch {
	case !set["n"]:
		return usagef("--n is required: the number of wires, n ≥ 0")
	case *n < 0:
		return usagef("--n = %d: must be ≥ 0", *n)
	case kind != "aks" && (set["halver"] || set["d"]):
		return usagef("--halver and --d apply only to kind aks")
	case *halver != "exact" && *halver != "expander":
		return usagef("--halver = %q: allowed exact, expander", *halver)
	case set["d"] && *halver != "expander":
		return usagef("--d applies only to --halver expander")
	case *d < 1 || *d > 64:
		return usagef("--d = %d: must be in [1, 64]", *d)
	case *perms < 0 || *perms > 1_000_000:
		return usagef("--perms = %d: must be in [0, 1000000]", *perms)
	case *climb < 0 || *climb > 100_000_000:
		return usagef("--climb = %d: must be in [0, 100000000]", *climb)
	case *climb > 0 && *n < 2:
		return usagef("--climb needs n ≥ 2 (n = %d)", *n)
	case *memGiB < 0:
		return usagef("--mem-limit = %g: must be ≥ 0", *memGiB)
	}
	limit := int64(*memGiB * (1 << 30))
	if limit == 0 {
		limit = availableMemory()
	}
	rep := sortnetReport{Kind: kind, N: *n, Seed: *seed, BatcherDepth: sortnetforms.Depth(*n)}
	var nw msn.Network
	switch kind {
	case "oddeven", "bitonic":
		if *n > asn.MaxN {
			return usagef("--n = %d: Batcher's %s network would need ≈ %.0f GiB, allowed 0 ≤ n ≤ %d", *n, kind, float64(batcherBytes(kind, *n))/(1<<30), asn.MaxN)
		}
		if need := batcherBytes(kind, *n); need > limit {
			return usagef("--n = %d: Batcher's %s network needs ≈ %.2f GiB, more than the %.2f GiB allowed; lower --n (or raise --mem-limit)", *n, kind, float64(need)/(1<<30), float64(limit)/(1<<30))
		}
		build := asn.OddEvenMergeSort
		if kind == "bitonic" {
			build = asn.BitonicSort
		}
		if nw, err = build(*n); err != nil {
			return usagef("--n = %d: %v", *n, err)
		}
	case "aks":
		rep.Halver, rep.Params = *halver, aksParamsShort
		dd := 0
		if *halver == "expander" {
			rep.D, dd = *d, *d
		}
		need, comps := aksBytes(*n, dd)
		if *n > aksMaxN || need > limit {
			return usagef("--n = %d: the aks network (%s halver) may need up to ≈ %.3g comparators, ≈ %.2f GiB, allowed at most %.2f GiB and n ≤ %d; lower --n (or raise --mem-limit)",
				*n, *halver, comps, float64(need)/(1<<30), float64(limit)/(1<<30), aksMaxN)
		}
		var res *aks.Result
		if dd == 0 {
			res, err = aks.Construct(*n, aks.SeiferasParams(), aks.Exact())
		} else {
			res, err = aks.ExpanderNet(*n, dd, *seed)
		}
		if err != nil {
			return err
		}
		nw, rep.PaddedN, rep.Stages = res.Net, res.N, res.Stages
	}
	rep.Depth, rep.Size = nw.Depth(), nw.Size()
	v := asn.Verify(nw, *seed, sortnetMaxExh, *perms, sortnetWork)
	rep.Sorts, rep.Exhaustive, rep.Inputs, rep.Coverage = v.Sorts, v.Exhaustive, v.Inputs, v.Coverage
	rep.Verdict = "sorts"
	if v.Failure != nil {
		rep.Verdict = "does not sort"
		out := slices.Clone(v.Failure.Input)
		msn.Apply(nw, out)
		ones := 0
		for _, x := range v.Failure.Input {
			ones += x
		}
		rep.Counterexample = &sortnetCounter{Input: bitString(v.Failure.Input), Output: bitString(out), Ones: ones, How: v.Failure.How}
	}
	if *climb > 0 {
		// The climb's stream is derived from --seed apart from the one the
		// verification's random inputs use; `routecheck hunt
		// sortnet-unsorted` runs the same climb (with --net-seed = --seed)
		// and saves the input as a replayable case.
		cr := sortnethunt.Climb(nw, *seed, *climb)
		rep.Climb = &sortnetClimb{Evals: cr.Evals, Misplaced: cr.Misplaced, StartMisplaced: cr.StartMisplaced}
		if cr.Misplaced > 0 {
			rep.Climb.Input, rep.Climb.Output = cr.Input, cr.Output
			rep.Sorts, rep.Verdict = false, "does not sort"
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else {
		printSortnet(stdout, rep)
	}
	if !rep.Sorts {
		return failure{fmt.Sprintf("the %s network on n = %d wires does not sort (verdict above)", kind, *n)}
	}
	return nil
}

func printSortnet(w io.Writer, r sortnetReport) {
	name := map[string]string{"oddeven": "Batcher's odd-even merge sort", "bitonic": "Batcher's bitonic sort", "aks": "AKS family (Seiferas 2009)"}[r.Kind]
	fmt.Fprintf(w, "%s on n = %d wires\n", name, r.N)
	if r.Kind == "aks" {
		sep := "exact separator (every bag sorted by Batcher's network)"
		if r.Halver == "expander" {
			sep = fmt.Sprintf("§6 Lemma 2 separators from halvers of d = %d random perfect matchings, PCG(%d, %d)", r.D, r.Seed, r.N)
		}
		fmt.Fprintf(w, "  %s; %s\n  padded to N = %d, %d separation–rebagging stages\n", aksParamsShort, sep, r.PaddedN, r.Stages)
	}
	fmt.Fprintf(w, "  depth %d, size %d comparators (Batcher's depth on %d wires: %d)\n", r.Depth, r.Size, r.N, r.BatcherDepth)
	if cl := r.Climb; cl != nil {
		fmt.Fprintf(w, "  hill climb: %d evaluations, worst input leaves %d positions out of place (best random start: %d)\n", cl.Evals, cl.Misplaced, cl.StartMisplaced)
		if cl.Misplaced > 0 && r.N <= 64 {
			fmt.Fprintf(w, "    input  %v\n    output %v\n", cl.Input, cl.Output)
		}
	}
	if r.Sorts {
		fmt.Fprintf(w, "  verdict: sorts — %s\n", r.Coverage)
		return
	}
	c := r.Counterexample
	if c == nil {
		fmt.Fprintf(w, "  verdict: DOES NOT SORT — the hill climb's input above (the %s passed)\n", r.Coverage)
		return
	}
	fmt.Fprintf(w, "  verdict: DOES NOT SORT — %s\n", c.How)
	if r.N <= 64 {
		fmt.Fprintf(w, "  input  (wire 0 … n−1): %s\n  output (wire 0 … n−1): %s\n", c.Input, c.Output)
	} else {
		fmt.Fprintf(w, "  a 0-1 input with %d ones (printed in full by --json)\n", c.Ones)
	}
}

func bitString(xs []int) string {
	var b strings.Builder
	for _, x := range xs {
		fmt.Fprint(&b, x)
	}
	return b.String()
}

// batcherBytes estimates the memory of Batcher's network on n wires: 8
// bytes per comparator of the 2^⌈lg n⌉-wire network, doubled for slice
// growth.
func batcherBytes(kind string, n int) int64 {
	if n <= 1 {
		return 0
	}
	k := bits.Len(uint(n - 1))
	size := sortnetforms.OddEvenSizePow2(k)
	if kind == "bitonic" {
		size = sortnetforms.BitonicSizePow2(k)
	}
	return 16 * size
}

// aksBytes bounds the comparators of the aks network on n wires and the
// memory to build it: per stage at most (N/2)·L(L+1)/2 comparators with the
// exact separator (every bag of m ≤ N items sorted by Batcher) or 7·d·N/2
// with expander halvers (the §5 parameters need at most 7 halvers per
// separator), T = aks.Iterations stages, plus the finishing sorters; 8
// bytes per bounded comparator (the bound is about 4.6 times the real size
// for n = 2^10..2^16, and the peak memory about 16 bytes per real
// comparator).
func aksBytes(n, d int) (bytes int64, comparators float64) {
	if n <= 1 {
		return 0, 0
	}
	L := bits.Len(uint(n - 1))
	N := math.Ldexp(1, L)
	T := float64(aks.Iterations(L, aks.SeiferasParams()))
	perStage := N / 2 * float64(L*(L+1)/2)
	if d > 0 {
		perStage = 7 * float64(d) * N / 2
	}
	comparators = T*perStage + N/2*6
	return int64(math.Min(8*comparators, math.MaxInt64/2)), comparators
}

// aksDepthRow is one row of `routecheck sortnet depths` (JSON keys are an
// interface). Built columns are null when k > --build-k.
type aksDepthRow struct {
	K              int    `json:"k"`
	N              uint64 `json:"n"`
	Stages         int64  `json:"stages"`
	ExactDepth     *int   `json:"exact_depth"`
	ExpanderDepth  *int   `json:"expander_depth"`
	ExpanderSorted *int   `json:"expander_sorted"` // of `trials` random permutations
	PaperDepth     int64  `json:"paper_depth"`
	BatcherDepth   int64  `json:"batcher_depth"`
}

type aksCrossoverJSON struct {
	K            int     `json:"k"`
	Log10N       float64 `json:"log10_n"`
	Depth        int64   `json:"depth"`
	BatcherDepth int64   `json:"batcher_depth"`
}

type aksDepthsReport struct {
	Params         string            `json:"params"`
	D              int               `json:"d"`
	Seed           uint64            `json:"seed"`
	Trials         int               `json:"trials"`
	Rows           []aksDepthRow     `json:"rows"`
	Crossover      *aksCrossoverJSON `json:"crossover"`           // (c) against Batcher
	CrossoverDHalv *aksCrossoverJSON `json:"crossover_d_halvers"` // (c) with d-layer halvers in place of Paterson's
}

func runSortnetDepths(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("sortnet depths", stderr)
	maxK := fs.Int("max-k", 16, "rows k = 1..K, n = 2^k (1 ≤ K ≤ 62)")
	buildK := fs.Int("build-k", 12, "build the networks (a) and (b) for k ≤ this (0 ≤ B ≤ 20; the analytic columns need no building)")
	d := fs.Int("d", 8, "random perfect matchings per halver in (b), 1..64")
	seed := fs.Uint64("seed", 1, "seed of (b)'s matchings (PCG(seed, n)) and of the random test permutations")
	trials := fs.Int("trials", 4, "random permutations run through each (b) network, 0..1000")
	memGiB := fs.Float64("mem-limit", 0, "refuse builds needing more memory than this many GiB (default: available memory)")
	asJSON := fs.Bool("json", false, "print the table as JSON")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("unexpected argument %q", pos[0])
	}
	switch {
	case *maxK < 1 || *maxK > 62:
		return usagef("--max-k = %d: must be in [1, 62]", *maxK)
	case *buildK < 0 || *buildK > aksMaxBuildK:
		return usagef("--build-k = %d: must be in [0, %d]", *buildK, aksMaxBuildK)
	case *d < 1 || *d > 64:
		return usagef("--d = %d: must be in [1, 64]", *d)
	case *trials < 0 || *trials > 1000:
		return usagef("--trials = %d: must be in [0, 1000]", *trials)
	case *memGiB < 0:
		return usagef("--mem-limit = %g: must be ≥ 0", *memGiB)
	}
	bk := min(*buildK, *maxK)
	limit := int64(*memGiB * (1 << 30))
	if limit == 0 {
		limit = availableMemory()
	}
	if bk >= 1 {
		for _, dd := range []int{0, *d} {
			if need, comps := aksBytes(1<<bk, dd); need > limit {
				return usagef("--build-k = %d: building n = 2^%d may need up to ≈ %.3g comparators, ≈ %.2f GiB, more than the %.2f GiB allowed; lower --build-k (or raise --mem-limit)",
					bk, bk, comps, float64(need)/(1<<30), float64(limit)/(1<<30))
			}
		}
	}
	p := aks.SeiferasParams()
	rep := aksDepthsReport{Params: aksParamsShort, D: *d, Seed: *seed, Trials: *trials}
	for k := 1; k <= *maxK; k++ {
		c, err := aks.PaperDepth(k, p, 1)
		if err != nil {
			return err
		}
		row := aksDepthRow{K: k, N: 1 << k, Stages: c.Iterations, PaperDepth: c.Total, BatcherDepth: aks.BatcherDepth(k)}
		if k <= bk {
			n := 1 << k
			a, err := aks.Construct(n, p, aks.Exact())
			if err != nil {
				return err
			}
			ad := a.Net.Depth()
			row.ExactDepth = &ad
			b, err := aks.ExpanderNet(n, *d, *seed)
			if err != nil {
				return err
			}
			bd := b.Net.Depth()
			row.ExpanderDepth = &bd
			r := rand.New(rand.NewPCG(*seed, uint64(n)^0x7472))
			sorted := 0
			xs := make([]int32, n)
			for range *trials {
				for i, x := range r.Perm(n) {
					xs[i] = int32(x)
				}
				msn.Apply(b.Net, xs)
				if msn.Sorted(xs) {
					sorted++
				}
			}
			row.ExpanderSorted = &sorted
		}
		rep.Rows = append(rep.Rows, row)
	}
	cross := func(halverDepth int64) (*aksCrossoverJSON, error) {
		k, a, b, ok, err := aks.Crossover(p, 1, halverDepth, 1<<22)
		if err != nil || !ok {
			return nil, err
		}
		return &aksCrossoverJSON{K: k, Log10N: float64(k) * math.Log10(2), Depth: a, BatcherDepth: b}, nil
	}
	if rep.Crossover, err = cross(0); err != nil {
		return err
	}
	if rep.CrossoverDHalv, err = cross(int64(*d)); err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(rep)
	}
	fmt.Fprintf(stdout, "AKS-family sorting networks (%s) against Batcher, n = 2^k\n", aksParamsShort)
	fmt.Fprintf(stdout, "  (a) built, exact separator (every bag sorted): a sorting network for every n (claim sortnet/aks/exact-halver/sorts)\n")
	fmt.Fprintf(stdout, "  (b) built, §6 Lemma 2 separators from halvers of d = %d random matchings, PCG(%d, n); sorted: of %d random permutations\n", *d, *seed, *trials)
	fmt.Fprintf(stdout, "  (c) §7's analytic depth: stages × 7 halvers × Paterson depth 10564 + final sorters (the paper-faithful network)\n\n")
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "k\tn\tstages\t(a) depth\t(b) depth\t(b) sorted\t(c) depth\tBatcher\t")
	opt := func(x *int) string {
		if x == nil {
			return "-"
		}
		return fmt.Sprint(*x)
	}
	for _, r := range rep.Rows {
		sorted := "-"
		if r.ExpanderSorted != nil {
			sorted = fmt.Sprintf("%d/%d", *r.ExpanderSorted, *trials)
		}
		fmt.Fprintf(tw, "%d\t%d\t%d\t%s\t%s\t%s\t%d\t%d\t\n", r.K, r.N, r.Stages, opt(r.ExactDepth), opt(r.ExpanderDepth), sorted, r.PaperDepth, r.BatcherDepth)
	}
	tw.Flush()
	if c := rep.Crossover; c != nil {
		fmt.Fprintf(stdout, "\ncrossover: (c) < Batcher first at k = %d (n = 2^%d ≈ 10^%.0f): %d < %d; Batcher is shallower for every smaller n\n", c.K, c.K, c.Log10N, c.Depth, c.BatcherDepth)
	}
	if c := rep.CrossoverDHalv; c != nil {
		fmt.Fprintf(stdout, "with d = %d-layer halvers in place of Paterson's (stages × 7 × %d): first at k = %d (n ≈ 10^%.0f): %d < %d\n", *d, *d, c.K, c.Log10N, c.Depth, c.BatcherDepth)
	}
	return nil
}
