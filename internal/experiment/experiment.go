// Package experiment is the network-agnostic driver behind `routecheck
// reproduce` and `routecheck merge`: an Experiment is a list of cells
// (parameter settings) and a way to do one run of a cell; this package
// splits cells × runs across workers and shards, merges shard files, and
// writes the result as a text table, JSON and CSV. Network packages register
// their experiments (see internal/popsexp).
package experiment

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"runtime"
	"sort"
	"strings"
	"sync"

	"routecheck/internal/plotting"
)

// Param is one named integer parameter of a cell (n, d, g, k, …).
type Param struct {
	Name  string
	Value int
}

// Cell is one setting of an experiment.
type Cell struct {
	Params []Param
	// Size is what --max-n compares against (usually the number of nodes).
	Size int
	// Note explains a cell that is run but has no published value.
	Note string
}

// Key is a canonical text form of the cell's parameters.
func (c Cell) Key() string {
	var b strings.Builder
	for i, p := range c.Params {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s=%d", p.Name, p.Value)
	}
	return b.String()
}

// Sample is the outcome of one run: named numbers.
type Sample struct {
	Run    int                `json:"run"`
	Values map[string]float64 `json:"values"`
}

// Stat is a mean, standard deviation and maximum; nil fields are unknown.
type Stat struct {
	Mean *float64 `json:"mean,omitempty"`
	SD   *float64 `json:"sd,omitempty"`
	Max  *float64 `json:"max,omitempty"`
}

// F returns a pointer to x (for Stat literals).
func F(x float64) *float64 { return &x }

// Row is one cell of the output. Its JSON form is an object with the cell's
// parameters as keys (n, d, g, …), then runs, ours, paper (null when the
// paper prints nothing), deviation_se, and the extra values.
type Row struct {
	Cell  Cell
	Runs  int
	Ours  Stat
	Paper *Stat
	// DevSE is (ours − paper)/SE of the difference, for the mean.
	DevSE *float64
	// Extra are further per-cell numbers (e.g. lost packets per run).
	Extra map[string]float64
}

// MarshalJSON writes the documented flat shape.
func (r Row) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteByte('{')
	for _, p := range r.Cell.Params {
		fmt.Fprintf(&b, "%q:%d,", p.Name, p.Value)
	}
	put := func(k string, v any) {
		j, _ := json.Marshal(v)
		fmt.Fprintf(&b, "%q:%s,", k, j)
	}
	put("runs", r.Runs)
	put("ours", r.Ours)
	put("paper", r.Paper)
	put("deviation_se", r.DevSE)
	keys := make([]string, 0, len(r.Extra))
	for k := range r.Extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		put(k, r.Extra[k])
	}
	if r.Cell.Note != "" {
		put("note", r.Cell.Note)
	}
	s := strings.TrimSuffix(b.String(), ",") + "}"
	return []byte(s), nil
}

// Experiment is a reproducible table or figure.
type Experiment interface {
	Name() string
	// Title describes the output (one line).
	Title() string
	// Cells lists the cells with Size ≤ maxN, and a reason for each cell of
	// the paper that cannot be run at all.
	Cells(maxN int) (cells []Cell, skipped []string)
	// BytesPerWorker estimates the memory one worker needs for a cell.
	BytesPerWorker(c Cell) int64
	// NewWorker returns a function doing run r of a cell with the given seed;
	// each worker goroutine gets its own (so it may keep buffers).
	NewWorker() func(c Cell, seed uint64, run int) (Sample, error)
	// Summarize turns a cell's samples into its output row.
	Summarize(c Cell, samples []Sample) Row
	// Charts draws the rows (may return none).
	Charts(rows []Row) []NamedChart
}

// Analyst is an Experiment whose rows have a result across cells (e.g. a
// refit of a paper's fitted formula on all of them): `reproduce` and
// `merge` print its lines after the table (on stderr with --json, whose
// stdout is the rows alone).
type Analyst interface {
	Analysis(rows []Row) []string
}

// NamedChart is a chart and the file base name to write it to.
type NamedChart struct {
	File  string
	Chart plotting.Chart
}

var (
	regMu sync.Mutex
	reg   = map[string]Experiment{}
)

// Register adds an experiment; it panics on a duplicate name.
func Register(e Experiment) {
	regMu.Lock()
	defer regMu.Unlock()
	if _, dup := reg[e.Name()]; dup {
		panic("experiment: " + e.Name() + " registered twice")
	}
	reg[e.Name()] = e
}

// Names lists the registered experiments, sorted.
func Names() []string {
	regMu.Lock()
	defer regMu.Unlock()
	var ns []string
	for n := range reg {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

// Lookup finds an experiment by name.
func Lookup(name string) (Experiment, error) {
	regMu.Lock()
	defer regMu.Unlock()
	if e, ok := reg[name]; ok {
		return e, nil
	}
	return nil, fmt.Errorf("unknown experiment %q; allowed: %s", name, strings.Join(namesLocked(), ", "))
}

func namesLocked() []string {
	var ns []string
	for n := range reg {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

// Shard is the part i (1-based) of k of the cells × runs job list.
type Shard struct{ I, K int }

// ParseShard parses "i/k" with 1 ≤ i ≤ k.
func ParseShard(s string) (Shard, error) {
	var sh Shard
	var rest string
	if n, _ := fmt.Sscanf(s, "%d/%d%s", &sh.I, &sh.K, &rest); n < 2 || rest != "" || sh.K < 1 || sh.I < 1 || sh.I > sh.K {
		return Shard{}, fmt.Errorf("shard %q: must be i/k with 1 ≤ i ≤ k (e.g. 2/4)", s)
	}
	return sh, nil
}

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.I, s.K) }

// owns reports whether job j belongs to the shard (the zero Shard owns
// every job).
func (s Shard) owns(j int) bool { return s.K <= 1 || j%s.K == s.I-1 }

// Plan is what to run.
type Plan struct {
	Exp     Experiment
	Cells   []Cell
	Runs    int
	Seed    uint64
	Workers int
	Shard   Shard
	// MaxN is recorded in the output (the cells are those with size ≤ MaxN).
	MaxN int
	// Options are recorded in the output (see Output.Options).
	Options map[string]string
	// MemLimit bounds the sum of Exp.BytesPerWorker over the runs in flight
	// (0: no bound). A run whose cell alone needs more still runs, alone; the
	// CLI refuses such plans up front.
	MemLimit int64
	// Progress receives (cells finished, cells, jobs done, jobs) after every run.
	Progress func(cellsDone, cells, done, total int)
}

// Output is the full result of a plan or of merged shards.
type Output struct {
	Experiment string `json:"experiment"`
	Seed       uint64 `json:"seed"`
	Runs       int    `json:"runs"`
	Shard      string `json:"shard"`
	// MaxN is the plan's --max-n (0 in files written before it was recorded);
	// merge uses it to rebuild the cell list.
	MaxN int `json:"max_n,omitempty"`
	// Options are the experiment's non-default settings (CLI flag name →
	// value, e.g. "c-eps": "2.5"); shards of one plan must agree on them.
	Options map[string]string `json:"options,omitempty"`
	Cells   []Cell            `json:"-"`
	Samples []CellSamples     `json:"samples"`
}

// CellSamples are the runs done for one cell.
type CellSamples struct {
	Params  map[string]int `json:"params"`
	Samples []Sample       `json:"runs"`
}

// Execute runs the plan's jobs (the shard's share of cells × runs) on
// Workers goroutines. Results do not depend on Workers or the shard split.
func Execute(ctx context.Context, p Plan) (Output, error) {
	out := Output{Experiment: p.Exp.Name(), Seed: p.Seed, Runs: p.Runs, Shard: p.Shard.String(), MaxN: p.MaxN, Options: p.Options, Cells: p.Cells}
	type job struct{ cell, run int }
	var jobs []job
	for c := range p.Cells {
		for r := range p.Runs {
			if p.Shard.owns(c*p.Runs + r) {
				jobs = append(jobs, job{c, r})
			}
		}
	}
	results := make([][]Sample, len(p.Cells))
	remaining := make([]int, len(p.Cells))
	for _, j := range jobs {
		remaining[j.cell]++
	}
	// The scheduler (Pool, with Keep: a worker keeps its buffers between
	// runs, so the budget is charged with the largest estimate among the
	// cells it has run since it last dropped them). Results are keyed by
	// (cell, run) and every run has its own random stream, so the order
	// does not change them.
	cost := make([]int64, len(p.Cells))
	for c, cell := range p.Cells {
		cost[c] = p.Exp.BytesPerWorker(cell)
	}
	// Largest cells first (stable: runs of a cell stay in order). When the
	// budget lets only one large run go at a time, the large runs form a
	// chain on one worker while the others work through the small cells
	// beside it, instead of the chain running alone at the end.
	if p.MemLimit > 0 {
		sort.SliceStable(jobs, func(a, b int) bool { return cost[jobs[a].cell] > cost[jobs[b].cell] })
	}
	order := make([]int, len(jobs))
	for i := range order {
		order[i] = i
	}
	workers := max(1, min(p.Workers, len(jobs)))
	work := make([]func(Cell, uint64, int) (Sample, error), workers)
	for w := range work {
		work[w] = p.Exp.NewWorker()
	}
	var (
		mu             sync.Mutex
		done, cellDone int
	)
	pool := Pool{Workers: workers, MemLimit: p.MemLimit, Keep: true}
	err := pool.Run(ctx, order, func(i int) int64 { return cost[jobs[i].cell] }, func(w, i int) error {
		j := jobs[i]
		s, err := work[w](p.Cells[j.cell], p.Seed, j.run)
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			err = fmt.Errorf("cell %s run %d: %w", p.Cells[j.cell].Key(), j.run, err)
		}
		s.Run = j.run
		results[j.cell] = append(results[j.cell], s)
		done++
		remaining[j.cell]--
		if remaining[j.cell] == 0 {
			cellDone++
		}
		if p.Progress != nil {
			p.Progress(cellDone, len(p.Cells), done, len(jobs))
		}
		return err
	}, func(w int) {
		// Let the collector have the old buffers before another worker's
		// large run grows the heap.
		work[w] = nil
		runtime.GC()
		work[w] = p.Exp.NewWorker()
	})
	if err != nil {
		return out, err
	}
	for c, cell := range p.Cells {
		rs := results[c]
		sort.Slice(rs, func(a, b int) bool { return rs[a].Run < rs[b].Run })
		out.Samples = append(out.Samples, CellSamples{Params: paramMap(cell), Samples: rs})
	}
	return out, nil
}

func paramMap(c Cell) map[string]int {
	m := map[string]int{}
	for _, p := range c.Params {
		m[p.Name] = p.Value
	}
	return m
}

// Rows summarizes a complete output (every run of every cell present).
func Rows(e Experiment, o Output) []Row {
	var rows []Row
	for i, c := range o.Cells {
		rows = append(rows, e.Summarize(c, o.Samples[i].Samples))
	}
	return rows
}

// Merge combines shard outputs of one plan. It checks that they belong
// together (experiment, seed, runs, cells) and that every run of every cell
// appears exactly once.
func Merge(e Experiment, parts []Output, maxN int) (Output, error) {
	if len(parts) == 0 {
		return Output{}, fmt.Errorf("no shard files given")
	}
	first := parts[0]
	cells, _ := e.Cells(maxN)
	out := Output{Experiment: first.Experiment, Seed: first.Seed, Runs: first.Runs, Shard: "merged", MaxN: maxN, Options: first.Options, Cells: cells}
	byKey := map[string]int{}
	for i, c := range cells {
		byKey[Cell{Params: c.Params}.Key()] = i
		out.Samples = append(out.Samples, CellSamples{Params: paramMap(c)})
	}
	seen := map[[2]int]bool{}
	for _, p := range parts {
		if !maps.Equal(p.Options, first.Options) {
			return Output{}, fmt.Errorf("shards disagree on the experiment's options: %v vs %v", p.Options, first.Options)
		}
		if p.Experiment != first.Experiment || p.Seed != first.Seed || p.Runs != first.Runs {
			return Output{}, fmt.Errorf("shards disagree: %s/seed %d/%d runs vs %s/seed %d/%d runs", p.Experiment, p.Seed, p.Runs, first.Experiment, first.Seed, first.Runs)
		}
		for _, cs := range p.Samples {
			i, ok := byKey[keyOf(cells, cs.Params)]
			if !ok {
				return Output{}, fmt.Errorf("shard has a cell %v that is not in the experiment (was --max-n different?)", cs.Params)
			}
			for _, s := range cs.Samples {
				if seen[[2]int{i, s.Run}] {
					return Output{}, fmt.Errorf("cell %s run %d appears twice", cells[i].Key(), s.Run)
				}
				seen[[2]int{i, s.Run}] = true
				out.Samples[i].Samples = append(out.Samples[i].Samples, s)
			}
		}
	}
	for i, c := range cells {
		if got := len(out.Samples[i].Samples); got != first.Runs {
			return Output{}, fmt.Errorf("cell %s has %d of %d runs: a shard is missing", c.Key(), got, first.Runs)
		}
		rs := out.Samples[i].Samples
		sort.Slice(rs, func(a, b int) bool { return rs[a].Run < rs[b].Run })
	}
	return out, nil
}

func keyOf(cells []Cell, m map[string]int) string {
	if len(cells) == 0 {
		return ""
	}
	var ps []Param
	for _, p := range cells[0].Params {
		ps = append(ps, Param{p.Name, m[p.Name]})
	}
	return Cell{Params: ps}.Key()
}

// WriteJSON writes the rows as a JSON array.
func WriteJSON(w io.Writer, rows []Row) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rows)
}

// fmtMax prints a maximum without decimals when it is a whole number (step
// counts) and with two otherwise (ratios such as time/(kn/2)).
func fmtMax(x *float64) string {
	if x != nil && *x != math.Trunc(*x) {
		return fmtp(x, 2)
	}
	return fmtp(x, 0)
}

func fmtp(x *float64, prec int) string {
	if x == nil {
		return "-"
	}
	return fmt.Sprintf("%.*f", prec, *x)
}

func extraKeys(rows []Row) []string {
	set := map[string]bool{}
	for _, r := range rows {
		for k := range r.Extra {
			set[k] = true
		}
	}
	var ks []string
	for k := range set {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// WriteCSV writes one line per row: parameters, runs, ours, paper, deviation, extras.
func WriteCSV(w io.Writer, rows []Row) error {
	if len(rows) == 0 {
		return nil
	}
	var head []string
	for _, p := range rows[0].Cell.Params {
		head = append(head, p.Name)
	}
	extras := extraKeys(rows)
	head = append(head, "runs", "ours_mean", "ours_sd", "ours_max", "paper_mean", "paper_sd", "paper_max", "deviation_se")
	head = append(head, extras...)
	if _, err := fmt.Fprintln(w, strings.Join(head, ",")); err != nil {
		return err
	}
	csv := func(x *float64) string {
		if x == nil {
			return ""
		}
		return fmt.Sprintf("%g", *x)
	}
	for _, r := range rows {
		var f []string
		for _, p := range r.Cell.Params {
			f = append(f, fmt.Sprint(p.Value))
		}
		var pm, ps, px *float64
		if r.Paper != nil {
			pm, ps, px = r.Paper.Mean, r.Paper.SD, r.Paper.Max
		}
		f = append(f, fmt.Sprint(r.Runs), csv(r.Ours.Mean), csv(r.Ours.SD), csv(r.Ours.Max), csv(pm), csv(ps), csv(px), csv(r.DevSE))
		for _, k := range extras {
			if v, ok := r.Extra[k]; ok {
				f = append(f, fmt.Sprintf("%g", v))
			} else {
				f = append(f, "")
			}
		}
		if _, err := fmt.Fprintln(w, strings.Join(f, ",")); err != nil {
			return err
		}
	}
	return nil
}

// WriteTable writes the rows as an aligned text table, ours beside the paper.
func WriteTable(w io.Writer, title string, rows []Row) {
	fmt.Fprintln(w, title)
	if len(rows) == 0 {
		return
	}
	extras := extraKeys(rows)
	var b strings.Builder
	for _, p := range rows[0].Cell.Params {
		fmt.Fprintf(&b, "%9s ", p.Name)
	}
	fmt.Fprintf(&b, "%5s | %9s %7s %7s | %9s %7s %7s | %8s", "runs", "ours μ", "σ", "max", "paper μ", "σ", "max", "dev(SE)")
	for _, k := range extras {
		fmt.Fprintf(&b, " %14s", k)
	}
	fmt.Fprintln(w, b.String())
	for _, r := range rows {
		b.Reset()
		for _, p := range r.Cell.Params {
			fmt.Fprintf(&b, "%9d ", p.Value)
		}
		var pm, ps, px *float64
		if r.Paper != nil {
			pm, ps, px = r.Paper.Mean, r.Paper.SD, r.Paper.Max
		}
		fmt.Fprintf(&b, "%5d | %9s %7s %7s | %9s %7s %7s | %8s", r.Runs, fmtp(r.Ours.Mean, 2), fmtp(r.Ours.SD, 2), fmtMax(r.Ours.Max), fmtp(pm, 2), fmtp(ps, 2), fmtMax(px), fmtp(r.DevSE, 2))
		for _, k := range extras {
			if v, ok := r.Extra[k]; ok {
				fmt.Fprintf(&b, " %14.4g", v)
			} else {
				fmt.Fprintf(&b, " %14s", "-")
			}
		}
		if r.Cell.Note != "" {
			fmt.Fprintf(&b, "  (%s)", r.Cell.Note)
		}
		fmt.Fprintln(w, b.String())
	}
}
