package mbflyexp

import (
	"fmt"
	"math/bits"

	amb "routecheck/algos/multibutterfly"
	"routecheck/internal/experiment"
	"routecheck/internal/plotting"
	"routecheck/internal/seeds"
	"routecheck/internal/stats"
	mb "routecheck/models/multibutterfly"
	"routecheck/models/perm"
	"routecheck/oracles/mbflyforms"
)

const tagTime = 0xb0fe

// Ns, Ds and L are mbfly-time's sizes, degrees and number of batches.
var (
	Ns = []int{16, 64, 256, 1024}
	Ds = []int{2, 8, 32}
)

// L is the number of batches (β = 7, α = 1/32: 1/(α(β+1)) = 4).
const L = 4

// Explicit networks (issue 13): the Margulis–Gabber–Galil multi-butterfly
// of models/multibutterfly.BuildMGG (d = 8, nothing random), routed with
// LExplicit = ⌈1/(α(β+1))⌉ = 11 batches for α = 1/64, β = 5 (the expansion
// verified exactly for N ≤ 64 by props' mbfly/sec3.1/mgg-expands-1-64; β = 4
// at N = 128 and no β > 3 from N = 256: mbfly/sec3.1/mgg-tanner-certificate,
// see the package doc).
const (
	DExplicit     = 8
	LExplicit     = 11
	BetaExplicit  = 5.0
	AlphaExplicit = 1.0 / 64
)

type timeExp struct{}

func init() { experiment.Register(timeExp{}) }

func param(c experiment.Cell, name string) int {
	for _, p := range c.Params {
		if p.Name == name {
			return p.Value
		}
	}
	panic(fmt.Sprintf("mbflyexp: cell %s has no %s", c.Key(), name))
}

// explicit reports whether cell c is an explicit-network cell (parameter
// "explicit" = 1; random networks have 0).
func explicit(c experiment.Cell) bool {
	for _, p := range c.Params {
		if p.Name == "explicit" {
			return p.Value == 1
		}
	}
	return false
}

func log2(n int) int { return bits.Len(uint(n)) - 1 }

func (timeExp) Name() string { return "mbfly-time" }

func (timeExp) Title() string {
	return "routing time of a random permutation on a random (N, d)-multi-butterfly, L = 4 batches, and on the explicit Margulis–Gabber–Galil multi-butterfly (d = 8, L = 11; explicit = 1) (004 §3.2, Theorem 3.1): ours = steps / log₂ N; paper = Theorem 3.1's proof bound 2d·T0 / log₂ N (β = 7 at d = 32; β = 5 for the explicit network, which expands that much only at N ≤ 64: β = 4 at 128, no β > 3 from 256); extras: iterations, iterations − log₂ N, largest buffer"
}

func (timeExp) Cells(maxN int) ([]experiment.Cell, []string) {
	var cells []experiment.Cell
	var skipped []string
	for _, n := range Ns {
		if n > maxN {
			skipped = append(skipped, fmt.Sprintf("N=%d > --max-n %d", n, maxN))
			continue
		}
		for _, d := range Ds {
			cells = append(cells, experiment.Cell{Params: []experiment.Param{{Name: "n", Value: n}, {Name: "d", Value: d}, {Name: "explicit", Value: 0}}, Size: n})
		}
		cells = append(cells, experiment.Cell{Params: []experiment.Param{{Name: "n", Value: n}, {Name: "d", Value: DExplicit}, {Name: "explicit", Value: 1}}, Size: n})
	}
	return cells, skipped
}

// BytesPerWorker: about 160 bytes per edge (the edge, its splitter copy and
// colouring work space), 2d·N·log N edges.
func (timeExp) BytesPerWorker(c experiment.Cell) int64 {
	n, d := int64(param(c, "n")), int64(param(c, "d"))
	return 160*2*d*n*int64(log2(int(n))) + 1<<20
}

func (timeExp) NewWorker() func(experiment.Cell, uint64, int) (experiment.Sample, error) {
	return func(c experiment.Cell, seed uint64, run int) (experiment.Sample, error) {
		n, d := param(c, "n"), param(c, "d")
		rng := seeds.Rand(seed, tagTime, uint64(n), uint64(d), uint64(run))
		lb := L
		var net *mb.Network
		var err error
		if explicit(c) {
			lb = LExplicit
			net, err = mb.BuildMGG(n)
		} else {
			net, err = mb.Build(n, d, rng)
		}
		if err != nil {
			return experiment.Sample{}, err
		}
		s, err := mb.Init(net, lb, perm.Random(n, rng))
		if err != nil {
			return experiment.Sample{}, err
		}
		res, _, err := amb.Run(s, amb.Options{})
		if err != nil {
			return experiment.Sample{}, err
		}
		if !res.Complete {
			return experiment.Sample{}, fmt.Errorf("mbfly-time: N=%d d=%d run %d incomplete after %d iterations", n, d, run, res.Iterations)
		}
		lg := float64(log2(n))
		return experiment.Sample{Run: run, Values: map[string]float64{
			"steps_per_logn": float64(res.Steps) / lg, "iterations": float64(res.Iterations),
			"iter_minus_logn": float64(res.Iterations) - lg, "max_buffer": float64(res.MaxBuffer)}}, nil
	}
}

// Bound is Theorem 3.1's proof bound 2d·T0 / log₂ N for β = 7, L = 4.
func Bound(n, d int) float64 { return bound(n, d, L, 7) }

// BoundExplicit is the same bound for the explicit network: d = 8, β = 5,
// L = 11.
func BoundExplicit(n int) float64 { return bound(n, DExplicit, LExplicit, BetaExplicit) }

func bound(n, d, l int, beta float64) float64 {
	t0, _, _, ok := mbflyforms.BestT0(log2(n), l, beta)
	if !ok {
		panic(fmt.Sprintf("mbflyexp: condition (1) infeasible for β = %g", beta))
	}
	return float64(2*d*t0) / float64(log2(n))
}

func summary(samples []experiment.Sample, key string) stats.Summary {
	xs := make([]float64, len(samples))
	for i, s := range samples {
		xs[i] = s.Values[key]
	}
	return stats.Summarize(xs)
}

func (timeExp) Summarize(c experiment.Cell, samples []experiment.Sample) experiment.Row {
	n, d := param(c, "n"), param(c, "d")
	s := summary(samples, "steps_per_logn")
	row := experiment.Row{Cell: c, Runs: len(samples),
		Ours: experiment.Stat{Mean: experiment.F(s.Mean), SD: experiment.F(s.SD), Max: experiment.F(s.Max)},
		Extra: map[string]float64{"iterations": summary(samples, "iterations").Mean, "iter_minus_logn": summary(samples, "iter_minus_logn").Mean,
			"iter_minus_logn_max": summary(samples, "iter_minus_logn").Max, "max_buffer": summary(samples, "max_buffer").Max}}
	switch {
	case explicit(c):
		row.Paper = &experiment.Stat{Max: experiment.F(BoundExplicit(n))}
	case d == 32:
		row.Paper = &experiment.Stat{Max: experiment.F(Bound(n, d))}
	}
	return row
}

func (timeExp) Charts(rows []experiment.Row) []experiment.NamedChart {
	var series []plotting.Series
	for _, d := range append(append([]int{}, Ds...), -1) { // -1: the explicit network
		var xs, ys []float64
		for _, r := range rows {
			if d == -1 && explicit(r.Cell) || d >= 0 && !explicit(r.Cell) && param(r.Cell, "d") == d {
				xs = append(xs, float64(param(r.Cell, "n")))
				ys = append(ys, r.Extra["iter_minus_logn"])
			}
		}
		if len(xs) > 0 {
			name := fmt.Sprintf("d = %d", d)
			if d == -1 {
				name = "explicit MGG, d = 8"
			}
			series = append(series, plotting.Series{Name: name, X: xs, Y: ys, Points: true})
		}
	}
	if len(series) == 0 {
		return nil
	}
	return []experiment.NamedChart{{File: "mbfly-time", Chart: plotting.Chart{
		Title: "Multi-butterfly priority routing: iterations beyond log₂ N", XLabel: "N (inputs)",
		YLabel: "mean iterations − log₂ N", LogX: true, Series: series}}}
}
