package popsexp

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"sync"

	"routecheck/algos/aks"
	ap "routecheck/algos/pops"
	"routecheck/algos/popsdet"
	"routecheck/algos/popsds"
	"routecheck/internal/experiment"
	"routecheck/internal/plotting"
	"routecheck/internal/seeds"
	"routecheck/internal/stats"
	"routecheck/models/perm"
	"routecheck/models/pops"
	"routecheck/oracles/popspaper"
	"routecheck/oracles/sortnetforms"
)

// table is pops-table1 (slots, Table I column A) or pops-table2 (steps,
// Table II), both on the faithful randomized router with c+ε = 4.
type table struct {
	name     string
	slots    bool
	cEps     float64 // c+ε of stage 1; 0 means 4
	variant  ap.Variant
	keepCoin bool // the other reading of the switch to stage 2
}

func init() {
	experiment.Register(table{name: "pops-table1", slots: true})
	experiment.Register(table{name: "pops-table2"})
}

// TableWithCEps returns the experiment name (pops-table1 or pops-table2)
// run with c+ε = cEps in Theorem 3.8's stage 1 instead of Corollary 3.9's 4
// (for a CLI option; the registered experiments use 4). Run r still sees
// the same permutation whatever c+ε is.
func TableWithCEps(name string, cEps float64) (experiment.Experiment, error) {
	if !(cEps >= 1 && cEps <= 1e6) {
		return nil, fmt.Errorf("c+ε = %v: must be in [1, 10^6]", cEps)
	}
	switch name {
	case "pops-table1":
		return table{name: name, slots: true, cEps: cEps}, nil
	case "pops-table2":
		return table{name: name, cEps: cEps}, nil
	}
	return nil, fmt.Errorf("experiment %q: c+ε applies to pops-table1 and pops-table2 only", name)
}

// TableWith returns pops-table1 or pops-table2 with the CLI's options:
// "c-eps" (a number in [1, 10^6]), "algorithm" (pops-rand-5slot, the
// default, or pops-rand-split-delivery) and "stage2" (as-written: p = 1
// after stage 1, the default; keep-coin: the coin kept at its last stage-1
// value). Run r sees the same permutation whatever the options.
func TableWith(name string, opts map[string]string) (experiment.Experiment, error) {
	var t table
	switch name {
	case "pops-table1":
		t = table{name: name, slots: true}
	case "pops-table2":
		t = table{name: name}
	default:
		return nil, fmt.Errorf("experiment %q: --c-eps, --algorithm and --stage2 apply to pops-table1 and pops-table2 only", name)
	}
	for k, v := range opts {
		switch k {
		case "c-eps":
			x, err := strconv.ParseFloat(v, 64)
			if err != nil || !(x >= 1 && x <= 1e6) {
				return nil, fmt.Errorf("c-eps = %q: c+ε must be a number in [1, 1000000]", v)
			}
			t.cEps = x
		case "algorithm":
			vv, err := ap.ParseVariant(v)
			if err != nil {
				return nil, err
			}
			t.variant = vv
		case "stage2":
			switch v {
			case "as-written":
			case "keep-coin":
				t.keepCoin = true
			default:
				return nil, fmt.Errorf("stage2 = %q: allowed as-written (p = 1 after stage 1), keep-coin", v)
			}
		default:
			return nil, fmt.Errorf("option %q unknown", k)
		}
	}
	return t, nil
}

func (t table) ceps() float64 {
	if t.cEps == 0 {
		return ap.DefaultCEps
	}
	return t.cEps
}

func (t table) Name() string { return t.name }

func (t table) Title() string {
	ce := fmt.Sprintf("c+ε = %g", t.ceps())
	if t.keepCoin {
		ce += ", stage-2 reading: coin kept at its last stage-1 value"
	}
	if t.slots {
		return "Table I (column A): slots to route a random permutation with the randomized router (" + t.variant.String() + ", " + ce + "; runs to completion, censored_runs = runs stopped at the 2^26-step guard), ours beside the paper; baseline B = §IV formula; det_* = deterministic sort-based routers of §II-A, closed forms (direct: sort all n = dg packets, stages × Slots(d,g); 8style: Cor. 2.4, AKS in place of Batcher in [8]; aks_c = §7 analytic AKS depth); sim_B = the algorithm of [8] simulated on the slot model (algos/popsds: d/g POPS(g,g) sorts by Batcher's odd-even merge sort, then our on-line completion of the steps the seed does not describe), measured on one random permutation for n ≤ 4096, sim_B_closed = its slot count in closed form (the same for every permutation)"
	}
	return "Table II: steps (μ, σ, max) to route a random permutation with the randomized router (" + t.variant.String() + ", " + ce + "; runs to completion, censored_runs = runs stopped at the 2^26-step guard), ours beside the paper"
}

func shapeOf(c experiment.Cell) pops.Shape {
	var sh pops.Shape
	for _, p := range c.Params {
		switch p.Name {
		case "d":
			sh.D = p.Value
		case "g":
			sh.G = p.Value
		}
	}
	return sh
}

func (t table) Cells(maxN int) ([]experiment.Cell, []string) {
	var cells []experiment.Cell
	var skipped []string
	for _, pc := range popspaper.Cells() {
		if pc.N > maxN {
			continue
		}
		g, ok := pc.G()
		if !ok {
			skipped = append(skipped, fmt.Sprintf("n=%d d=%dg: no POPS(d,g) has n = 16g² = %d (paper: -)", pc.N, pc.Ratio, pc.N))
			continue
		}
		c := experiment.Cell{Params: []experiment.Param{{Name: "n", Value: pc.N}, {Name: "d", Value: pc.D()}, {Name: "g", Value: g}}, Size: pc.N}
		if !pc.HasPaper() {
			c.Note = "paper: - (g = 1: stage 2 livelocks whenever two packets survive stage 1, see pops/thm-3.8/terminates-g1; such runs are stopped one step after stage 1 and counted in livelocked_runs, and ours is over the runs that finish)"
		}
		cells = append(cells, c)
	}
	return cells, skipped
}

func (t table) BytesPerWorker(c experiment.Cell) int64 { return BytesPerWorker(shapeOf(c)) }

func (t table) NewWorker() func(experiment.Cell, uint64, int) (experiment.Sample, error) {
	var e ap.Engine
	var dst []int32
	return func(c experiment.Cell, seed uint64, run int) (experiment.Sample, error) {
		sh := shapeOf(c)
		if len(dst) != sh.N() {
			dst = make([]int32, sh.N())
		}
		s, err := RunOneReading(&e, dst, sh, t.variant, t.cEps, t.keepCoin, seed, run)
		if err != nil {
			return experiment.Sample{}, err
		}
		return experiment.Sample{Run: run, Values: map[string]float64{
			"steps": float64(s.Steps), "slots": float64(s.Slots), "lost": float64(s.Lost),
			"completed": b01(s.Completed), "censored": b01(s.Censored), "livelocked": b01(s.Livelocked),
			"degree_after_stage1": float64(s.DegreeAfterStage1),
		}}, nil
	}
}

func (t table) Summarize(c experiment.Cell, samples []experiment.Sample) experiment.Row {
	sh := shapeOf(c)
	key := "steps"
	if t.slots {
		key = "slots"
	}
	// A livelocked run (g = 1) never finishes: its step count is no value,
	// so ours is over the other runs. A censored run's count is a lower
	// bound and is kept (the censored_runs column says how many there are).
	var xs []float64
	lost, incomplete, censored, livelocked := 0.0, 0.0, 0.0, 0.0
	for _, s := range samples {
		lost += s.Values["lost"]
		if s.Values["completed"] == 0 {
			incomplete++
		}
		censored += s.Values["censored"]
		livelocked += s.Values["livelocked"]
		if s.Values["livelocked"] == 0 {
			xs = append(xs, s.Values[key])
		}
	}
	sum := stats.Summarize(xs)
	row := experiment.Row{Cell: c, Runs: len(samples),
		Ours: experiment.Stat{Mean: experiment.F(sum.Mean), SD: experiment.F(sum.SD), Max: experiment.F(sum.Max)},
		Extra: map[string]float64{
			"lost_per_run":       lost / math.Max(1, float64(len(samples))),
			"lost_fraction":      lost / math.Max(1, float64(len(samples))*float64(sh.N())),
			"incomplete_runs":    incomplete,
			"censored_runs":      censored,
			"livelocked_runs":    livelocked,
			"formula_20d_over_g": popspaper.Corollary39Slots(sh.D, sh.G),
		}}
	if t.slots {
		row.Extra["baseline_B"] = popspaper.Baseline(sh.D, sh.G)
		for k, v := range DetColumns(sh) {
			row.Extra[k] = v
		}
		for k, v := range SimBColumns(sh) {
			row.Extra[k] = v
		}
	}
	pc, ok := popspaper.Lookup(sh.N(), sh.D/sh.G)
	if !ok || !pc.HasPaper() {
		return row
	}
	if t.slots {
		row.Paper = &experiment.Stat{Mean: experiment.F(pc.A)}
		// Paper SE: 5σ_II/√100 (Table I's runs are assumed to be 100; see popspaper).
		se := math.Sqrt(sum.SD*sum.SD/float64(sum.N) + 25*pc.Sigma*pc.Sigma/popspaper.TableIRunsAssumed)
		row.DevSE = dev(sum.Mean, pc.A, se)
		row.Extra["paper_B"] = float64(pc.B)
	} else {
		row.Paper = &experiment.Stat{Mean: experiment.F(pc.Mu), SD: experiment.F(pc.Sigma), Max: experiment.F(float64(pc.Max))}
		se := math.Sqrt(sum.SD*sum.SD/float64(sum.N) + pc.Sigma*pc.Sigma/popspaper.Runs)
		row.DevSE = dev(sum.Mean, pc.Mu, se)
	}
	return row
}

// The deterministic routers' columns of pops-table1 (Extra keys).
const (
	// ColDetDirectBatcher is the direct version of Corollary 2.4's router
	// (algos/popsdet.SortRouter) with Batcher's odd-even merge sort on all
	// n = dg wires: its depth k(k+1)/2, k = ⌈lg n⌉, times Slots(d, g) = 1
	// (d = 1) or 2⌈d/g⌉ slots per comparator stage (Lemma 2.2).
	ColDetDirectBatcher = "det_direct_batcher"
	// ColDetDirectAKS is the same router with the AKS-family network of
	// §7's analytic depth (c) (aks.PaperDepth, §5 parameters, Paterson
	// halvers) on n = dg wires.
	ColDetDirectAKS = "det_direct_aks_c"
	// ColDet8StyleAKS is the route of the paper's proof of Corollary 2.4:
	// the §IV formula of [8] with its sorting term — (2d/g)·(Batcher depth
	// on g² items), which is exactly (4d/g)·log²g + (2d/g)·log g — replaced
	// by (2d/g)·(AKS depth (c) on g² items).
	ColDet8StyleAKS = "det_8style_aks_c"
)

// lg2ceil is ⌈lg m⌉ for m ≥ 1.
func lg2ceil(m int) int { return bits.Len(uint(m - 1)) }

// aksDepthC is the analytic depth (c) of the AKS-family network on 2^k
// wires (0 for k = 0: one item needs no comparator).
func aksDepthC(k int) float64 {
	if k == 0 {
		return 0
	}
	d, err := aks.PaperDepth(k, aks.SeiferasParams(), 1)
	if err != nil {
		panic("popsexp: " + err.Error()) // fixed, valid parameters
	}
	return float64(d.Total)
}

// DetColumns returns the deterministic routers' slot counts for sh (see
// ColDetDirectBatcher, ColDetDirectAKS, ColDet8StyleAKS). They are closed
// forms: nothing is simulated.
func DetColumns(sh pops.Shape) map[string]float64 {
	n := sh.N()
	per := float64(popsdet.Slots(sh))
	k := lg2ceil(n)
	kg := lg2ceil(sh.G * sh.G)
	dg := float64(sh.D) / float64(sh.G)
	sortTerm := func(depth float64) float64 { return 2 * dg * depth }
	return map[string]float64{
		ColDetDirectBatcher: float64(sortnetforms.Depth(n)) * per,
		ColDetDirectAKS:     aksDepthC(k) * per,
		ColDet8StyleAKS:     popspaper.Baseline(sh.D, sh.G) - sortTerm(float64(sortnetforms.Depth(sh.G*sh.G))) + sortTerm(aksDepthC(kg)),
	}
}

// The simulated rival's columns of pops-table1 (Extra keys).
const (
	// ColSimB is the slot count of the algorithm of [8] as algos/popsds
	// simulates it on the slot model, measured on one uniformly random
	// permutation (stream SimBSeed) for cells with n ≤ SimBMaxN; a run
	// that does not deliver every packet without conflict leaves it out.
	ColSimB = "sim_B"
	// ColSimBClosed is popsds.Slots(d, g), the simulated router's slot
	// count in closed form (the same for every permutation, which the
	// ledger's pops/rival-8 claims check on the slot model), for every cell
	// with g ≥ 2.
	ColSimBClosed = "sim_B_closed"
)

// SimBMaxN is the largest n at which pops-table1 runs the [8] simulation
// (a run at n = 4096 takes up to a few CPU-seconds).
const SimBMaxN = 4096

// SimBSeed seeds the permutation of the sim_B column.
const SimBSeed = 8

// SimBColumns returns the simulated-[8] columns for sh (none when g < 2,
// outside popsds's scope).
func SimBColumns(sh pops.Shape) map[string]float64 {
	out := map[string]float64{}
	if popsds.CheckShape(sh) != nil {
		return out
	}
	out[ColSimBClosed] = float64(popsds.Slots(sh))
	if sh.N() > SimBMaxN {
		return out
	}
	if v, ok := simBCache.Load(sh); ok {
		if x := v.(float64); x >= 0 {
			out[ColSimB] = x
		}
		return out
	}
	dst := perm.Random(sh.N(), seeds.Rand(SimBSeed, uint64(sh.D), uint64(sh.G)))
	res, err := popsds.Route(sh, dst, popsds.None)
	x := -1.0
	if err == nil && res.Completed && res.Conflicts == 0 {
		x = float64(res.Slots)
		out[ColSimB] = x
	}
	simBCache.Store(sh, x)
	return out
}

// simBCache holds sim_B by shape: the run is deterministic.
var simBCache sync.Map

func b01(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func dev(m, p, se float64) *float64 {
	if se == 0 {
		if m == p {
			return experiment.F(0)
		}
		return nil
	}
	return experiment.F((m - p) / se)
}

func (t table) Charts(rows []experiment.Row) []experiment.NamedChart {
	var out []experiment.NamedChart
	for fig, ratio := range popspaper.Ratios {
		var ours, paper, base, det, nsO, nsP, nsB, nsS, sim []float64
		for _, r := range rows {
			sh := shapeOf(r.Cell)
			if sh.D != ratio*sh.G {
				continue
			}
			n := float64(sh.N())
			nsO, ours = append(nsO, n), append(ours, *r.Ours.Mean)
			if r.Paper != nil {
				nsP, paper = append(nsP, n), append(paper, *r.Paper.Mean)
			}
			nsB, base = append(nsB, n), append(base, popspaper.Baseline(sh.D, sh.G))
			if popsds.CheckShape(sh) == nil {
				nsS, sim = append(nsS, n), append(sim, float64(popsds.Slots(sh)))
			}
			det = append(det, DetColumns(sh)[ColDetDirectBatcher])
		}
		if len(ours) == 0 {
			continue
		}
		what, unit := "steps", "steps (mean over runs)"
		if t.slots {
			what, unit = "slots", "slots (mean over runs)"
		}
		series := []plotting.Series{
			{Name: "ours: randomized router", X: nsO, Y: ours, Points: true},
			{Name: "paper (Mei & Rizzi)", X: nsP, Y: paper, Dashed: true, Points: true},
		}
		if t.slots {
			// The AKS columns are left out: at 10^5–10^7 slots they would
			// squeeze the figure's comparison of A and B into its bottom.
			series = append(series,
				plotting.Series{Name: "baseline [8], §IV formula", X: nsB, Y: base, Dashed: true},
				plotting.Series{Name: "baseline [8], simulated (algos/popsds)", X: nsS, Y: sim, Points: true},
				plotting.Series{Name: "deterministic, direct: Batcher on n = dg wires", X: nsB, Y: det, Dashed: true})
		}
		dname := "d = g"
		if ratio > 1 {
			dname = fmt.Sprintf("d = %dg", ratio)
		}
		file := fmt.Sprintf("%s-d%dg", t.name, ratio)
		title := fmt.Sprintf("%s, %s", what, dname)
		if t.slots {
			file = fmt.Sprintf("pops-fig%d-d%dg", 4+fig, ratio)
			title = fmt.Sprintf("Figure %d redrawn: slots, %s", 4+fig, dname)
		}
		out = append(out, experiment.NamedChart{File: file, Chart: plotting.Chart{
			Title: title, XLabel: "n (processors)", YLabel: unit, LogX: true, LogY: t.slots, Series: series,
		}})
	}
	return out
}
