package sotexp

import (
	"fmt"
	"math"
	"math/bits"

	asot "routecheck/algos/sot"
	"routecheck/internal/experiment"
	"routecheck/internal/plotting"
	"routecheck/internal/seeds"
	"routecheck/internal/stats"
	"routecheck/oracles/sotforms"
)

// Fig3Algorithms are sot-fig3's algorithms (a cell's alg indexes this list).
var Fig3Algorithms = []asot.Algorithm{asot.GreedyA, asot.GreedyB, asot.GreedyBEdgeFirst, asot.GreedyC}

// CostAlgorithms are sot-fig4's and sot-fig5's algorithms.
var CostAlgorithms = []asot.Algorithm{asot.GreedyA, asot.GreedyB, asot.GreedyBEdgeFirst, asot.GreedyC, asot.Scheduled}

// Stream tags separate the experiments' random streams.
const (
	tagFig3 = 0x50f3
	tagCost = 0x50fc
)

func log2(n int) int { return bits.Len(uint(n)) - 1 }

type fig3 struct{}
type cost struct {
	name  string
	fig   int
	title string
}

func init() {
	experiment.Register(fig3{})
	experiment.Register(cost{name: "sot-fig4", fig: 4, title: "routing cost T/h against the slackness h on SOT(n) (002 Figure 4)"})
	experiment.Register(cost{name: "sot-fig5", fig: 5, title: "routing cost T/h at h = n·log₂ n against n (002 Figure 5)"})
}

func param(c experiment.Cell, name string) int {
	for _, p := range c.Params {
		if p.Name == name {
			return p.Value
		}
	}
	panic(fmt.Sprintf("sotexp: cell %s has no %s", c.Key(), name))
}

func algOf(c experiment.Cell, list []asot.Algorithm) asot.Algorithm {
	a := param(c, "alg")
	if a < 0 || a >= len(list) {
		panic(fmt.Sprintf("sotexp: malformed cell %s", c.Key()))
	}
	return list[a]
}

// ---------------------------------------------------------------------------
// sot-fig3

// Fig3Ns are sot-fig3's torus sides.
var Fig3Ns = []int{4, 8, 16, 32, 64, 128, 256}

func (fig3) Name() string { return "sot-fig3" }

func (fig3) Title() string {
	return "throughput with fresh packets on SOT(n) (002 Figure 3, §4.2): ours = packets delivered undeflected per processor and time unit in the first round; paper = 1 − 1/e (a), 2(1 − 1/e) (b), 2/3 (c); extras: finite-n analysis; alg: 0 greedy-a, 1 greedy-b (pseudo-code), 2 greedy-b-edge-first (text), 3 greedy-c"
}

func (fig3) Cells(maxN int) ([]experiment.Cell, []string) {
	var cells []experiment.Cell
	var skipped []string
	for _, n := range Fig3Ns {
		if n > maxN {
			skipped = append(skipped, fmt.Sprintf("n=%d > --max-n %d", n, maxN))
			continue
		}
		for ai, alg := range Fig3Algorithms {
			cells = append(cells, experiment.Cell{Params: []experiment.Param{{Name: "n", Value: n}, {Name: "alg", Value: ai}}, Size: n, Note: string(alg)})
		}
	}
	return cells, skipped
}

// BytesPerWorker: the state (2n² links × 12 bytes, actions 8 bytes a node)
// and 2n² packets, with room for the collector.
func (fig3) BytesPerWorker(c experiment.Cell) int64 {
	n := int64(param(c, "n"))
	return 4*(32*n*n+2*n*n*8) + 1<<20
}

func (fig3) NewWorker() func(experiment.Cell, uint64, int) (experiment.Sample, error) {
	return func(c experiment.Cell, seed uint64, run int) (experiment.Sample, error) {
		n, alg := param(c, "n"), algOf(c, Fig3Algorithms)
		w, err := asot.FreshWaves(alg, n, seeds.Rand(seed, tagFig3, uint64(n), uint64(run), uint64(param(c, "alg"))))
		if err != nil {
			return experiment.Sample{}, err
		}
		sum := 0
		for _, x := range w {
			sum += x
		}
		return experiment.Sample{Run: run, Values: map[string]float64{"throughput": float64(sum) / float64(n*n)}}, nil
	}
}

// PaperFig3 is the throughput the paper states for alg (§3.3, §4.2).
func PaperFig3(alg asot.Algorithm) float64 {
	switch alg {
	case asot.GreedyA:
		return sotforms.OneMinusInvE
	case asot.GreedyC:
		return 2.0 / 3
	}
	return 2 * sotforms.OneMinusInvE
}

// AnalysisFig3 is the finite-n value of the paper's analysis for alg:
// 1 − (1 − 1/(n−1))^{n−1} (a, for this traffic), 2(1 − (1 − 1/(2n))^{2n})
// (b), 2·avg P(k, n−k) with p = 3/4 (c).
func AnalysisFig3(alg asot.Algorithm, n int) float64 {
	switch alg {
	case asot.GreedyA:
		return sotforms.Float(sotforms.GreedyAFreshOthers(n))
	case asot.GreedyC:
		return sotforms.Float(sotforms.GreedyCAnalysis(n))
	}
	return sotforms.Float(sotforms.GreedyBHeuristic(n))
}

func summary(samples []experiment.Sample, key string) stats.Summary {
	xs := make([]float64, len(samples))
	for i, s := range samples {
		xs[i] = s.Values[key]
	}
	return stats.Summarize(xs)
}

func devSE(s stats.Summary, paper float64) *float64 {
	if s.N < 2 || s.SD == 0 {
		return nil
	}
	return experiment.F((s.Mean - paper) / (s.SD / math.Sqrt(float64(s.N))))
}

func (fig3) Summarize(c experiment.Cell, samples []experiment.Sample) experiment.Row {
	n, alg := param(c, "n"), algOf(c, Fig3Algorithms)
	s := summary(samples, "throughput")
	p := PaperFig3(alg)
	return experiment.Row{Cell: c, Runs: len(samples),
		Ours:  experiment.Stat{Mean: experiment.F(s.Mean), SD: experiment.F(s.SD), Max: experiment.F(s.Max)},
		Paper: &experiment.Stat{Mean: experiment.F(p)}, DevSE: devSE(s, p),
		Extra: map[string]float64{"analysis_n": AnalysisFig3(alg, n), "ratio_to_analysis": s.Mean / AnalysisFig3(alg, n)}}
}

func (fig3) Charts(rows []experiment.Row) []experiment.NamedChart {
	var series []plotting.Series
	for ai, alg := range Fig3Algorithms {
		var xs, ys, ps []float64
		for _, r := range rows {
			if param(r.Cell, "alg") != ai {
				continue
			}
			n := param(r.Cell, "n")
			xs = append(xs, float64(n))
			ys = append(ys, *r.Ours.Mean)
			ps = append(ps, AnalysisFig3(alg, n))
		}
		if len(xs) == 0 {
			continue
		}
		series = append(series, plotting.Series{Name: string(alg), X: xs, Y: ys, Points: true})
		if alg != asot.GreedyBEdgeFirst {
			series = append(series, plotting.Series{Name: "analysis, " + string(alg), X: xs, Y: ps, Dashed: true})
		}
	}
	if len(series) == 0 {
		return nil
	}
	return []experiment.NamedChart{{File: "sot-fig3", Chart: plotting.Chart{
		Title: "Throughput with fresh packets (SOT, Figure 3)", XLabel: "n (processors)",
		YLabel: "packets per processor and time unit", LogX: true, Series: series}}}
}

// ---------------------------------------------------------------------------
// sot-fig4, sot-fig5

// Fig4Ns and Fig5Ns are the torus sides of the cost experiments.
var (
	Fig4Ns = []int{16, 32, 64}
	Fig5Ns = []int{4, 8, 16, 32, 64, 128, 256}
)

func (e cost) Name() string { return e.name }

func (e cost) Title() string {
	return e.title + ": ours = T/h over runs; paper = e/(e−1) for greedy-a (§4.2), otherwise only plotted; extras: steps, deflections per packet, mean latency, runs over the step cap, the same router's fresh-packet efficiency and efficiency_over_fresh = mean(h/T)/fresh (§3.3: efficiency 'approaches' the fresh one as h grows, and 'h = n log n gives quite good efficiency'; the ledger reads that as ≥ 0.9, sot/fig5/…/quite-good); alg: 0 greedy-a, 1 greedy-b (pseudo-code), 2 greedy-b-edge-first (text), 3 greedy-c, 4 scheduled (Algorithm 2)"
}

func (e cost) Cells(maxN int) ([]experiment.Cell, []string) {
	var cells []experiment.Cell
	var skipped []string
	add := func(n, h int) {
		for ai, alg := range CostAlgorithms {
			if e.fig == 5 && n > 128 && alg == asot.GreedyB {
				skipped = append(skipped, fmt.Sprintf("n=%d greedy-b: cost grows like n/5 (≈ 10^10 node-steps a run)", n))
				continue
			}
			cells = append(cells, experiment.Cell{Params: []experiment.Param{{Name: "n", Value: n}, {Name: "h", Value: h}, {Name: "alg", Value: ai}}, Size: n, Note: string(alg)})
		}
	}
	ns := Fig4Ns
	if e.fig == 5 {
		ns = Fig5Ns
	}
	for _, n := range ns {
		if n > maxN {
			skipped = append(skipped, fmt.Sprintf("n=%d > --max-n %d", n, maxN))
			continue
		}
		if e.fig == 5 {
			add(n, n*log2(n))
			continue
		}
		for h := 1; h <= 16*n; h *= 2 {
			add(n, h)
		}
	}
	return cells, skipped
}

// BytesPerWorker: K = n·h packets (relation 8 bytes, Own lists 4, Algorithm
// 2's lists 4 + n² slice headers), the state and actions (32 bytes a node),
// and garbage.
func (cost) BytesPerWorker(c experiment.Cell) int64 {
	n, h := int64(param(c, "n")), int64(param(c, "h"))
	return 3*(16*n*h+56*n*n) + 1<<20
}

func (cost) NewWorker() func(experiment.Cell, uint64, int) (experiment.Sample, error) {
	return func(c experiment.Cell, seed uint64, run int) (experiment.Sample, error) {
		n, h, ai := param(c, "n"), param(c, "h"), param(c, "alg")
		rel := asot.RandomRelation(n, h, seeds.Rand(seed, tagCost, uint64(n), uint64(h), uint64(run)))
		res, _, err := asot.Route(CostAlgorithms[ai], n, rel, seeds.Rand(seed, tagCost, uint64(n), uint64(h), uint64(run), 1+uint64(ai)), asot.Options{})
		if err != nil {
			return experiment.Sample{}, err
		}
		// The fresh-packet efficiency of the same router at the same n
		// (what Figure 4's "approaches the efficiency of routing fresh
		// packets" compares with): one FreshWaves run on its own stream,
		// so the routing values above are unchanged by it; 1 for
		// Algorithm 2, whose every injection arrives undeflected.
		fresh := 1.0
		if alg := CostAlgorithms[ai]; alg != asot.Scheduled {
			w, err := asot.FreshWaves(alg, n, seeds.Rand(seed, tagCost, uint64(n), uint64(h), uint64(run), 100+uint64(ai)))
			if err != nil {
				return experiment.Sample{}, err
			}
			sum := 0
			for _, x := range w {
				sum += x
			}
			fresh = float64(sum) / float64(n*n)
		}
		v := map[string]float64{
			"efficiency":  float64(h) / float64(res.Steps),
			"fresh":       fresh,
			"cost":        float64(res.Steps) / float64(h),
			"steps":       float64(res.Steps),
			"deflections": float64(res.Deflections) / float64(n*h),
			"latency":     float64(res.SumLatency) / math.Max(1, float64(res.Delivered)),
			"incomplete":  0,
		}
		if !res.Complete {
			v["incomplete"] = 1
		}
		return experiment.Sample{Run: run, Values: v}, nil
	}
}

// PaperCost is e/(e − 1) for Greedy-a (§4.2), −1 when the paper gives no
// number.
func PaperCost(alg asot.Algorithm) float64 {
	if alg == asot.GreedyA {
		return math.E / (math.E - 1)
	}
	return -1
}

func (cost) Summarize(c experiment.Cell, samples []experiment.Sample) experiment.Row {
	alg := algOf(c, CostAlgorithms)
	s := summary(samples, "cost")
	row := experiment.Row{Cell: c, Runs: len(samples),
		Ours: experiment.Stat{Mean: experiment.F(s.Mean), SD: experiment.F(s.SD), Max: experiment.F(s.Max)},
		Extra: map[string]float64{
			"steps_mean":          summary(samples, "steps").Mean,
			"deflections_per_pkt": summary(samples, "deflections").Mean,
			"latency_mean":        summary(samples, "latency").Mean,
			"incomplete_runs":     summary(samples, "incomplete").Mean * float64(len(samples)),
			"cost_minus_n_over_h": s.Mean - float64(param(c, "n"))/float64(param(c, "h")),
			"fresh_efficiency":    summary(samples, "fresh").Mean,
			// Figures 4–5's comparison: mean h/T over the mean fresh
			// efficiency (props/sot reads "quite good" as ≥ 0.9).
			"efficiency_over_fresh": summary(samples, "efficiency").Mean / summary(samples, "fresh").Mean,
		}}
	if p := PaperCost(alg); p > 0 {
		row.Paper = &experiment.Stat{Mean: experiment.F(p)}
		row.DevSE = devSE(s, p)
	}
	return row
}

func (e cost) Charts(rows []experiment.Row) []experiment.NamedChart {
	type key struct{ n, alg int }
	pts := map[key][][2]float64{}
	for _, r := range rows {
		n, h, a := param(r.Cell, "n"), param(r.Cell, "h"), param(r.Cell, "alg")
		x := float64(h)
		k := key{n, a}
		if e.fig == 5 {
			x, k = float64(n), key{0, a}
		}
		pts[k] = append(pts[k], [2]float64{x, *r.Ours.Mean})
	}
	chart := func(n int, title, xlabel string) (plotting.Chart, bool) {
		var series []plotting.Series
		var allX []float64
		for ai, alg := range CostAlgorithms {
			p := pts[key{n, ai}]
			if len(p) == 0 {
				continue
			}
			var xs, ys []float64
			for _, q := range p {
				xs, ys = append(xs, q[0]), append(ys, q[1])
			}
			if len(xs) > len(allX) {
				allX = xs
			}
			series = append(series, plotting.Series{Name: string(alg), X: xs, Y: ys, Points: true})
		}
		if len(series) == 0 {
			return plotting.Chart{}, false
		}
		ref := make([]float64, len(allX))
		for i := range ref {
			ref[i] = math.E / (math.E - 1)
		}
		series = append(series, plotting.Series{Name: "e/(e−1) (§4.2, Greedy-a)", X: allX, Y: ref, Dashed: true})
		return plotting.Chart{Title: title, XLabel: xlabel, YLabel: "routing cost T/h (mean over runs)", LogX: true, LogY: true, Series: series}, true
	}
	var out []experiment.NamedChart
	if e.fig == 5 {
		if c, ok := chart(0, "Routing cost at h = n log₂ n (SOT, Figure 5)", "n (processors)"); ok {
			out = append(out, experiment.NamedChart{File: "sot-fig5", Chart: c})
		}
		return out
	}
	for _, n := range Fig4Ns {
		if c, ok := chart(n, fmt.Sprintf("Routing cost against slackness, SOT(%d) (Figure 4)", n), "h (packets per processor)"); ok {
			out = append(out, experiment.NamedChart{File: fmt.Sprintf("sot-fig4-n%d", n), Chart: c})
		}
	}
	return out
}
