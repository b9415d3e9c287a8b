package meshexp

import (
	"fmt"
	"math"
	"math/bits"
	"strings"

	am "routecheck/algos/mesh"
	"routecheck/internal/experiment"
	"routecheck/internal/plotting"
	"routecheck/internal/seeds"
	"routecheck/internal/stats"
	pmesh "routecheck/props/mesh"
)

// Det3Torus names DET_3_PHASE_ROUTE on the n×n torus (algos/mesh
// Options.Torus: the step model with the shorter-way stand-in for the
// one-dimensional algorithm of the paper's [4]).
const Det3Torus am.Algorithm = "det-3-phase-torus"

// Det3TorusSplit is DET_3_PHASE_ROUTE on the torus with the second
// stand-in, whose distance-n/2 packets leave both ways
// (algos/mesh.RouteKKTorusSplit, step model).
const Det3TorusSplit am.Algorithm = "det-3-phase-torus-split"

// isTorus reports whether alg runs on the torus.
func isTorus(alg am.Algorithm) bool { return alg == Det3Torus || alg == Det3TorusSplit }

// TorusMaxN is the largest mesh side the torus cells run at (they run on
// the step model).
const TorusMaxN = 8

// Algorithms are the routers the experiment runs, all with coloring; a
// cell's alg parameter indexes this list (new entries go at the end, so
// the indices of earlier ones stay stable).
var Algorithms = []am.Algorithm{am.Rand3, am.Rand4, am.Det3, am.Det4, Det3Torus, Det3TorusSplit}

// Ns are the mesh sides.
var Ns = []int{4, 8, 16, 32}

// streamTag separates this experiment's random streams from others'.
const streamTag = 0x6d6b6b // "mkk"

func log2(n int) int { return bits.Len(uint(n)) - 1 }

// N4MaxN is the largest mesh side with k = n⁴ cells (n = 8: 2^18
// packets; n = 16 would route 2^24 per run).
const N4MaxN = 8

// KindN4 is the kind of k = n⁴ (K), the regime of Lemma 3 in which
// DET_4_PHASE_ROUTE's subsets are single PUs and ours is the cited
// algorithm.
const KindN4 = 3

// kinds names the kinds of k (K), in order.
var kinds = []string{"k = n", "k = n²", "k = n²·log n", "k = n⁴"}

// K returns the k of nominal kind for side n: kind 0 is k = n, 1 is n², 2 is
// n²·log n, 3 (KindN4) is n⁴. Every algorithm runs the same k
// (DET_3_PHASE_ROUTE at k = n: see the package comment).
func K(n, kind int) int {
	switch kind {
	case 0:
		return n
	case 1:
		return n * n
	case KindN4:
		return n * n * n * n
	}
	return n * n * log2(n)
}

// Cell is a decoded cell.
type Cell struct {
	N, K   int
	Family pmesh.KKFamily
	Alg    am.Algorithm
	dist   int
	alg    int
}

// Decode reads a cell's parameters; it panics on a cell this package did not
// make (a programmer error).
func Decode(c experiment.Cell) Cell {
	var d Cell
	for _, p := range c.Params {
		switch p.Name {
		case "n":
			d.N = p.Value
		case "k":
			d.K = p.Value
		case "dist":
			d.dist = p.Value
		case "alg":
			d.alg = p.Value
		}
	}
	if d.N < 1 || d.K < 1 || d.dist < 0 || d.dist >= len(pmesh.KKFamilies) || d.alg < 0 || d.alg >= len(Algorithms) {
		panic(fmt.Sprintf("meshexp: malformed cell %s", c.Key()))
	}
	d.Family, d.Alg = pmesh.KKFamilies[d.dist], Algorithms[d.alg]
	return d
}

// Run does run r of a cell: the distribution from (seed, n, k, dist, r), the
// algorithm's coins from that path plus the algorithm, with coloring, on the
// fast engine.
func Run(c Cell, seed uint64, run int) (am.KKResult, error) {
	dst := pmesh.GenKK(c.Family, c.N, c.K, seeds.Rand(seed, streamTag, uint64(c.N), uint64(c.K), uint64(c.dist), uint64(run)))
	rng := seeds.Rand(seed, streamTag, uint64(c.N), uint64(c.K), uint64(c.dist), uint64(run), 1+uint64(c.alg))
	var pl am.Plan
	var err error
	switch c.Alg {
	case am.Det4:
		pl, err = am.NewPlanDet4(c.N, dst, am.Det4Options{Coloring: true})
	case Det3Torus, Det3TorusSplit:
		pl, err = am.NewPlan(am.Det3, c.N, dst, nil, am.Options{Coloring: true})
	default:
		pl, err = am.NewPlan(c.Alg, c.N, dst, rng, am.Options{Coloring: true})
	}
	if err != nil {
		return am.KKResult{}, err
	}
	switch c.Alg {
	case Det3Torus:
		return am.RouteKK(pl, am.Options{Model: true, Torus: true})
	case Det3TorusSplit:
		return am.RouteKKTorusSplit(pl)
	}
	return am.RouteKK(pl, am.Options{})
}

// Deterministic reports whether every run of the cell gives the same result
// (the deterministic algorithms on a structured family).
func (c Cell) Deterministic() bool {
	return (c.Alg == am.Det3 || c.Alg == am.Det4 || isTorus(c.Alg)) && c.Family != pmesh.KKUniform
}

type kk struct{}

func init() { experiment.Register(kk{}) }

func (kk) Name() string { return "mesh-kk" }

func (kk) Title() string {
	return "k-k routing on the n×n mesh with coloring (003 Lemmas 1–3, Theorems 1, 2, §6): ours = routing time / (k·n/2) (the max column is rounded to an integer; time_max is exact); extras: max queue / k, excess (T − kn/2)/√(kn log n), Theorem 1's bounds as stated in the same units (det; its queue bound is false, see the ledger's mesh/thm-1/queue), Lemma 3's bound read as k·n/2 + k^{5/6}·n^{2/3} (det-4, lemma3_time; valid where k ≥ n⁴: the k = n⁴ cells, n ≤ 8, mesh algorithms only), §6's halved Theorem 1 bound k·n/4 + 1.5·n² log n (torus, torus_time); dist: 0 uniform, 1 transpose, 2 reflect, 3 row-to-col; alg: 0 rand-3-phase, 1 rand-4-phase, 2 det-3-phase, 3 det-4-phase, 4 det-3-phase on the torus (step model, shorter-way stand-in, n ≤ 8), 5 the same with distance-n/2 packets leaving both ways (n ≤ 8); --max-n is the largest mesh side n; the paper prints no table"
}

// Cells are the (n, k, dist, alg) with n ≤ maxN: --max-n is the mesh side
// n (a cell's Size is still its number of PUs, n²).
func (kk) Cells(maxN int) ([]experiment.Cell, []string) {
	var cells []experiment.Cell
	var skipped []string
	for _, n := range Ns {
		if n > maxN {
			skipped = append(skipped, fmt.Sprintf("n=%d: mesh side > --max-n %d", n, maxN))
			continue
		}
		for kind, kname := range kinds {
			if kind == KindN4 && n > N4MaxN {
				skipped = append(skipped, fmt.Sprintf("n=%d: k = n⁴ only up to n = %d (%d packets a run)", n, N4MaxN, n*n*K(n, kind)))
				continue
			}
			for dist, f := range pmesh.KKFamilies {
				for ai, alg := range Algorithms {
					if isTorus(alg) && kind == KindN4 {
						if dist == 0 && ai == len(Algorithms)-1 {
							skipped = append(skipped, fmt.Sprintf("n=%d, k = n⁴: the torus cells run on the step model, not at k = n⁴", n))
						}
						continue
					}
					if isTorus(alg) && n > TorusMaxN {
						if dist == 0 && kind == 0 {
							skipped = append(skipped, fmt.Sprintf("n=%d: %s runs on the step model, only up to n = %d", n, alg, TorusMaxN))
						}
						continue
					}
					note := fmt.Sprintf("%s, %s, %s", alg, f, kname)
					if alg == am.Det4 && K(n, kind) < n*n*n*n {
						note += ": k < n⁴, outside the regime where column-sort's subsets are single PUs (the cited algorithm would rearrange in submeshes; ours pays rounding instead)"
					}
					if alg == am.Det4 && kind == KindN4 {
						note += ": Lemma 3's regime (column-sort's subsets are single PUs, all rearrangements internal): lemma3_time applies"
					}
					if alg == am.Det3 && kind == 0 {
						note += ": each colour class has k/2 = n/2 packets per PU, outside Theorem 1's analysis (a multiple of n); Corollary 1 is not exact there and thm1_* are reference values only"
					}
					cells = append(cells, experiment.Cell{
						Params: []experiment.Param{{Name: "n", Value: n}, {Name: "k", Value: K(n, kind)}, {Name: "dist", Value: dist}, {Name: "alg", Value: ai}},
						Size:   n * n, Note: note,
					})
				}
			}
		}
	}
	return cells, skipped
}

// BytesPerWorker is the memory of one run, from the K = n²·k packets: the
// distribution (8 bytes a packet), the plan (source, final destination,
// intermediate position and 3–4 phase targets: 4 bytes each), the colours,
// ALLOCATE's per-PU slices and the garbage a run leaves for the collector.
// Measured: a DET_3_PHASE_ROUTE run at n = 32, k = 5120 (5.2M packets) grows
// the Go heap to about 400 MB (≈ 77 bytes a packet; the randomized
// algorithms need about half); the estimate takes 140 bytes a packet, plus
// the counting engines' O(n³) arrays.
func (kk) BytesPerWorker(c experiment.Cell) int64 {
	d := Decode(c)
	K := int64(d.N) * int64(d.N) * int64(d.K)
	n := int64(d.N)
	return 140*K + 64*n*n*n + 1<<20
}

func (kk) NewWorker() func(experiment.Cell, uint64, int) (experiment.Sample, error) {
	cache := map[string]experiment.Sample{}
	return func(ec experiment.Cell, seed uint64, run int) (experiment.Sample, error) {
		c := Decode(ec)
		if c.Deterministic() {
			if s, ok := cache[ec.Key()]; ok {
				s.Run = run
				return s, nil
			}
		}
		r, err := Run(c, seed, run)
		if err != nil {
			return experiment.Sample{}, err
		}
		v := map[string]float64{
			"steps":     float64(r.Steps),
			"max_queue": float64(r.MaxQueue),
			"time":      float64(r.Steps) / (float64(c.K) * float64(c.N) / 2),
			"queue":     float64(r.MaxQueue) / float64(c.K),
		}
		for ph, s := range r.PhaseSteps {
			v[fmt.Sprintf("phase%d", ph+1)] = float64(s)
		}
		s := experiment.Sample{Run: run, Values: v}
		if c.Deterministic() {
			cache[ec.Key()] = s
		}
		return s, nil
	}
}

// Excess is Lemmas 1 and 2's normalized excess (T − k·n/2)/√(k·n·log n).
func Excess(steps float64, n, k int) float64 {
	return (steps - float64(k*n)/2) / math.Sqrt(float64(k*n*log2(n)))
}

// Thm1Time is Theorem 1's time bound with the constant of its proof,
// k·n/2 + 1.5·n²·log n (see props' mesh/thm-1/time), divided by
// k·n/2.
func Thm1Time(n, k int) float64 {
	return (float64(k*n)/2 + 1.5*float64(n*n*log2(n))) / (float64(k*n) / 2)
}

// Lemma3Time is Lemma 3's time bound for DET_4_PHASE_ROUTE with coloring,
// read as k·n/2 + k^{5/6}·n^{2/3} (the ledger's mesh/lemma-3/det4-time),
// divided by k·n/2.
func Lemma3Time(n, k int) float64 {
	return 1 + pmesh.Lemma3Term(n, k)/(float64(k*n)/2)
}

// TorusTime is §6's "leading terms half as large" applied to Theorem 1 on
// the torus, k·n/4 + 1.5·n²·log n (the ledger's mesh/sec-6/torus-one-way-exceeds and
// mesh/sec-6/torus-halved-split),
// divided by k·n/2.
func TorusTime(n, k int) float64 {
	return (float64(k*n)/4 + 1.5*float64(n*n*log2(n))) / (float64(k*n) / 2)
}

// Thm1Queue is Theorem 1's queue bound k + n²·log n, as stated, divided by k
// (adversarial distributions exceed it: props' mesh/thm-1/queue).
func Thm1Queue(n, k int) float64 { return float64(k+n*n*log2(n)) / float64(k) }

func (kk) Summarize(ec experiment.Cell, samples []experiment.Sample) experiment.Row {
	c := Decode(ec)
	col := func(key string) stats.Summary {
		xs := make([]float64, len(samples))
		for i, s := range samples {
			xs[i] = s.Values[key]
		}
		return stats.Summarize(xs)
	}
	t, q, st := col("time"), col("queue"), col("steps")
	row := experiment.Row{Cell: ec, Runs: len(samples),
		Ours: experiment.Stat{Mean: experiment.F(t.Mean), SD: experiment.F(t.SD), Max: experiment.F(t.Max)},
		Extra: map[string]float64{
			"time_max":   t.Max, // the table prints ours' max without decimals
			"queue_mean": q.Mean, "queue_sd": q.SD, "queue_max": q.Max,
			"excess_mean": Excess(st.Mean, c.N, c.K),
		}}
	switch c.Alg {
	case am.Det3:
		row.Extra["thm1_time"] = Thm1Time(c.N, c.K)
		row.Extra["thm1_queue"] = Thm1Queue(c.N, c.K)
	case am.Det4:
		row.Extra["lemma3_time"] = Lemma3Time(c.N, c.K)
	case Det3Torus, Det3TorusSplit:
		row.Extra["torus_time"] = TorusTime(c.N, c.K)
	}
	return row
}

func (kk) Charts(rows []experiment.Row) []experiment.NamedChart {
	var out []experiment.NamedChart
	kindOf := func(c Cell) int {
		switch { // for n ≥ 4 the four values are distinct
		case c.K == c.N*c.N*c.N*c.N:
			return KindN4
		case c.K == c.N*c.N*log2(c.N):
			return 2
		case c.K == c.N*c.N:
			return 1
		}
		return 0
	}
	for dist, f := range pmesh.KKFamilies {
		for _, metric := range []string{"time", "queue"} {
			var series []plotting.Series
			for ai, alg := range Algorithms {
				for kind := range kinds {
					var xs, ys []float64
					for _, r := range rows {
						c := Decode(r.Cell)
						if c.dist != dist || c.alg != ai || kindOf(c) != kind {
							continue
						}
						xs = append(xs, float64(c.N))
						if metric == "time" {
							ys = append(ys, *r.Ours.Mean)
						} else {
							ys = append(ys, r.Extra["queue_mean"])
						}
					}
					if len(xs) > 0 {
						series = append(series, plotting.Series{Name: fmt.Sprintf("%s, %s", alg, strings.ReplaceAll(kinds[kind], "·", " ")), X: xs, Y: ys, Points: true, Dashed: kind < 2})
					}
				}
			}
			if len(series) == 0 {
				continue
			}
			var xs []float64
			for _, s := range series {
				if len(s.X) > len(xs) {
					xs = s.X
				}
			}
			ref := make([]float64, len(xs))
			for i := range ref {
				ref[i] = 1
			}
			title, ylabel := fmt.Sprintf("k-k routing time, %s distributions, with coloring", f), "routing time / (k·n/2) (mean over runs)"
			refName := "k·n/2 (Lemmas 1, 2; Theorem 1's leading term)"
			if metric == "queue" {
				title, ylabel = fmt.Sprintf("k-k routing, largest queue, %s distributions", f), "max queue / k (mean over runs)"
				refName = "k"
			}
			series = append(series, plotting.Series{Name: refName, X: xs, Y: ref, Dashed: true})
			if metric == "time" && f == pmesh.KKUniform {
				halfRef := make([]float64, len(xs))
				for i := range halfRef {
					halfRef[i] = 0.5
				}
				series = append(series, plotting.Series{Name: "k·n/4 (Theorem 2's leading term, det, uniform)", X: xs, Y: halfRef, Dashed: true})
			}
			out = append(out, experiment.NamedChart{File: fmt.Sprintf("mesh-kk-%s-%s", metric, f), Chart: plotting.Chart{
				Title: title, XLabel: "n (mesh side)", YLabel: ylabel, LogX: true, Series: series,
			}})
		}
	}
	return out
}
