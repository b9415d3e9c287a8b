package bflyexp

import (
	"fmt"
	"math"

	ab "routecheck/algos/butterfly"
	"routecheck/internal/experiment"
	"routecheck/internal/plotting"
	"routecheck/internal/seeds"
	"routecheck/internal/stats"
	mb "routecheck/models/butterfly"
	"routecheck/oracles/bflyforms"
)

// Readings are the node models a cell's reading parameter indexes.
var Readings = []struct {
	Name  string
	Shape mb.Shape
}{
	{"strict buffers (§4.1)", mb.Shape{Mode: mb.Buffered, StrictBuffers: true}},
	{"pipelined buffers (§4.1)", mb.Shape{Mode: mb.Buffered}},
	{"node queue (§2)", mb.Shape{Mode: mb.NodeQueue}},
}

// Priorities are the disciplines a cell's prio parameter indexes.
var Priorities = []ab.Priority{ab.PaperPriority, ab.FIFO}

// Ps are the pipeline lengths of Figs. 1–2.
var Ps = []int{1, 10, 20, 50, 100, 200}

const streamTag = 0xbf5ec4

// Cell is a decoded cell.
type Cell struct{ N, R, P, Reading, Prio int }

// Decode reads a cell's parameters; it panics on a cell this package did
// not make (a programmer error).
func Decode(c experiment.Cell) Cell {
	var d Cell
	d.Reading, d.Prio = -1, -1
	for _, p := range c.Params {
		switch p.Name {
		case "n":
			d.N = p.Value
		case "r":
			d.R = p.Value
		case "p":
			d.P = p.Value
		case "reading":
			d.Reading = p.Value
		case "prio":
			d.Prio = p.Value
		}
	}
	if d.N < 1 || d.R < 0 || d.R > d.N || d.P < 1 || d.Reading < 0 || d.Reading >= len(Readings) || d.Prio < 0 || d.Prio >= len(Priorities) {
		panic(fmt.Sprintf("bflyexp: malformed cell %s", c.Key()))
	}
	return d
}

func (c Cell) cell() experiment.Cell {
	return experiment.Cell{Params: []experiment.Param{{Name: "n", Value: c.N}, {Name: "r", Value: c.R}, {Name: "p", Value: c.P}, {Name: "reading", Value: c.Reading}, {Name: "prio", Value: c.Prio}},
		Size: 1 << c.N, Note: fmt.Sprintf("%s, %s", Readings[c.Reading].Name, Priorities[c.Prio])}
}

// Options are the router options of a cell.
func (c Cell) Options() ab.Options {
	sh := Readings[c.Reading].Shape
	sh.LogN, sh.R = c.N, c.R
	return ab.Options{Shape: sh, Priority: Priorities[c.Prio]}
}

// Run does run `run` of a cell: mean and maximum latency.
func Run(e *ab.Engine, c Cell, seed uint64, run int) (float64, int, error) {
	return ab.Sec4Run(e, c.Options(), c.P, seeds.Rand(seed, streamTag, uint64(c.N), uint64(c.R), uint64(c.P), uint64(run)))
}

type sweep struct {
	name, title string
	cells       func() []Cell
	// refit: Analysis refits §4.3's formulas on the rows (RefitLines).
	refit bool
}

// fitGrid is §4.3's grid in one node-model reading: N = 1K…8K, every p of
// Ps, r = 0…min(12, n).
func fitGrid(reading int) []Cell {
	var cs []Cell
	for n := 10; n <= 13; n++ {
		for _, p := range Ps {
			for r := 0; r <= min(12, n); r++ {
				cs = append(cs, Cell{N: n, R: r, P: p, Reading: reading})
			}
		}
	}
	return cs
}

var sweeps = []sweep{
	{"bfly-figs", "001 Figs. 1–2: latency vs extra stages r, N = 4K, p pipelined copies of a random permutation (strict buffers, §3 priorities); ours = mean of per-run average latency, paper = §4.3's fitted L_avg; extras: per-run maximum latency (mean, sd) and the fitted L_max (figures not in the extracted text)",
		func() []Cell {
			var cs []Cell
			for _, p := range Ps {
				for r := 0; r <= 12; r++ {
					cs = append(cs, Cell{N: 12, R: r, P: p})
				}
			}
			return cs
		}, false},
	{"bfly-fit", "001 §4.3 data: latency vs r at N = 1K, 2K, 4K, 8K (strict buffers, §3 priorities); ours = mean of per-run average latency, paper = fitted L_avg; extras: maximum latency and fitted L_max; after the table, §4.3's two formulas refitted on all cells",
		func() []Cell { return fitGrid(0) }, true},
	{"bfly-fit-pipelined", "001 §4.3 data in the other node-model reading: latency vs r at N = 1K, 2K, 4K, 8K (pipelined buffers, §3 priorities); ours = mean of per-run average latency, paper = fitted L_avg; extras: maximum latency and fitted L_max; after the table, §4.3's two formulas refitted on all cells",
		func() []Cell { return fitGrid(1) }, true},
	{"bfly-readings", "001 §4.1 readings at N = 4K: reading 0 strict buffers, 1 pipelined buffers, 2 §2 node queue; prio 0 §3 priorities, 1 FIFO; ours = mean average latency, paper = fitted L_avg",
		func() []Cell {
			var cs []Cell
			for _, p := range []int{1, 20, 100} {
				for _, r := range []int{0, 3, 6, 12} {
					for rd := range Readings {
						for pr := range Priorities {
							cs = append(cs, Cell{N: 12, R: r, P: p, Reading: rd, Prio: pr})
						}
					}
				}
			}
			return cs
		}, false},
}

func init() {
	for _, s := range sweeps {
		experiment.Register(s)
	}
}

func (s sweep) Name() string  { return s.name }
func (s sweep) Title() string { return s.title }

func (s sweep) Cells(maxN int) ([]experiment.Cell, []string) {
	var out []experiment.Cell
	var skipped []string
	seen := map[int]bool{}
	for _, c := range s.cells() {
		if 1<<c.N > maxN {
			if !seen[c.N] {
				skipped = append(skipped, fmt.Sprintf("N=2^%d > --max-n %d", c.N, maxN))
				seen[c.N] = true
			}
			continue
		}
		out = append(out, c.cell())
	}
	return out, skipped
}

// BytesPerWorker: 150 bytes a packet plus 24 per queue (two per node), an
// estimate made for an older engine and kept as an upper bound: a run
// holds the 32-byte packet list, the Engine 60 bytes per packet (record,
// latencies, rank order, sort buffers; the Result included) and 8 per
// queue, 4 per buffer (ab.Engine's comment; BenchmarkEngineMemory).
func (s sweep) BytesPerWorker(ec experiment.Cell) int64 {
	c := Decode(ec)
	N := int64(1) << c.N
	return 150*N*int64(c.P) + 24*2*N*int64(c.N+c.R) + 1<<20
}

func (s sweep) NewWorker() func(experiment.Cell, uint64, int) (experiment.Sample, error) {
	var e ab.Engine
	return func(ec experiment.Cell, seed uint64, run int) (experiment.Sample, error) {
		c := Decode(ec)
		avg, mx, err := Run(&e, c, seed, run)
		if err != nil {
			return experiment.Sample{}, err
		}
		return experiment.Sample{Run: run, Values: map[string]float64{"avg": avg, "max": float64(mx)}}, nil
	}
}

func (s sweep) Summarize(ec experiment.Cell, samples []experiment.Sample) experiment.Row {
	c := Decode(ec)
	col := func(k string) stats.Summary {
		xs := make([]float64, len(samples))
		for i, sm := range samples {
			xs[i] = sm.Values[k]
		}
		return stats.Summarize(xs)
	}
	a, m := col("avg"), col("max")
	fa, fm := bflyforms.FitAvg(c.N, c.R, c.P), bflyforms.FitMax(c.N, c.R, c.P)
	row := experiment.Row{Cell: ec, Runs: len(samples),
		Ours:  experiment.Stat{Mean: experiment.F(a.Mean), SD: experiment.F(a.SD), Max: experiment.F(a.Max)},
		Paper: &experiment.Stat{Mean: experiment.F(fa)},
		Extra: map[string]float64{"max_mean": m.Mean, "max_sd": m.SD, "fit_max": fm, "rel_dev": (a.Mean - fa) / fa},
	}
	if a.N > 1 && a.SD > 0 {
		row.DevSE = experiment.F((a.Mean - fa) / (a.SD / math.Sqrt(float64(a.N))))
	}
	return row
}

// Charts: per n and reading/prio present, average (Fig. 1) and maximum
// (Fig. 2) latency against r, one series per p, and the ratio of ours to
// §4.3's fitted formula against r (1 = the fit), one series per p.
func (s sweep) Charts(rows []experiment.Row) []experiment.NamedChart {
	type key struct{ n, reading, prio int }
	groups := map[key][]experiment.Row{}
	var order []key
	for _, r := range rows {
		c := Decode(r.Cell)
		k := key{c.N, c.Reading, c.Prio}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], r)
	}
	var out []experiment.NamedChart
	for _, k := range order {
		for _, metric := range []string{"avg", "max"} {
			var series, ratios []plotting.Series
			var allR []float64
			for _, p := range Ps {
				var xs, ys, rs []float64
				for _, r := range groups[k] {
					c := Decode(r.Cell)
					if c.P != p {
						continue
					}
					xs = append(xs, float64(c.R))
					y, f := *r.Ours.Mean, bflyforms.FitAvg(c.N, c.R, c.P)
					if metric == "max" {
						y, f = r.Extra["max_mean"], bflyforms.FitMax(c.N, c.R, c.P)
					}
					ys, rs = append(ys, y), append(rs, y/f)
				}
				if len(xs) == 0 {
					continue
				}
				if len(xs) > len(allR) {
					allR = xs
				}
				series = append(series, plotting.Series{Name: fmt.Sprintf("p = %d", p), X: xs, Y: ys, Points: true})
				ratios = append(ratios, plotting.Series{Name: fmt.Sprintf("p = %d", p), X: xs, Y: rs, Points: true})
			}
			if len(series) == 0 {
				continue
			}
			one := make([]float64, len(allR))
			for i := range one {
				one[i] = 1
			}
			ratios = append(ratios, plotting.Series{Name: "fit", X: allR, Y: one, Dashed: true})
			fig, what, sym := "1", "Average", "L_avg"
			if metric == "max" {
				fig, what, sym = "2", "Maximum", "L_max"
			}
			base := fmt.Sprintf("%s-n%d-reading%d-prio%d-%s", s.name, k.n, k.reading, k.prio, metric)
			out = append(out, experiment.NamedChart{File: base,
				Chart: plotting.Chart{Title: fmt.Sprintf("Fig. %s: %s latency vs extra stages, N = 2^%d, %s, %s", fig, what, k.n, Readings[k.reading].Name, Priorities[k.prio]),
					XLabel: "extra stages r", YLabel: what + " latency (steps, mean of runs)", LogY: true, Series: series}},
				experiment.NamedChart{File: base + "-vs-fit",
					Chart: plotting.Chart{Title: fmt.Sprintf("%s latency / §4.3's fitted %s, N = 2^%d, %s, %s", what, sym, k.n, Readings[k.reading].Name, Priorities[k.prio]),
						XLabel: "extra stages r", YLabel: "ours / fitted formula", Series: ratios}})
		}
	}
	return out
}
