package aks

import (
	"math"
	"testing"

	"routecheck/models/sortnet"
)

// descSep is a wrong separator on purpose: Batcher's network with every
// comparator reversed, so each bag is sorted in descending order and the
// smaller half goes to the right child.
type descSep struct{}

func (descSep) Name() string { return "descending" }

func (descSep) Separate(m, _ int) []sortnet.Stage {
	var out []sortnet.Stage
	for _, st := range BatcherSort(m) {
		var r sortnet.Stage
		for _, c := range st {
			r = append(r, sortnet.Comparator{I: c.J, J: c.I})
		}
		out = append(out, r)
	}
	return out
}

// The per-stage reports, traced by hand on n = 8 (N = 8, L = 3) with the §5
// parameters: capacities b = 8·ν^t·A^d, bounds λε^(j−1)b, and loads are
// data-independent (the exact separator's Schedule); at t = 1 the root's 8
// items sit 4 and 4 in the two depth-1 bags (K = 0 at the root), with
// capacity 8·(13/20)·10 = 52, so the 1-stranger bound is 0.52. With the
// descending separator on the identity input, the root sends values 7…4 to
// bag 2 and 3…0 to bag 3; a value x is native to depth-1 bag x >> 2, so all
// 4 items of each bag are 1-strangers (a clause-4 violation), while the
// exact separator leaves none. Every report also accounts for all N items.
func TestStageReportsByHand(t *testing.T) {
	p := SeiferasParams()
	lam, eps, nu, A := p.Lambda.Float(), p.Eps.Float(), p.Nu.Float(), p.A.Float()
	for _, c := range []struct {
		name      string
		sep       Separator
		strangers int
	}{{"exact", Exact(), 0}, {"descending", descSep{}, 4}} {
		res, err := Construct(8, p, c.sep, identity(8))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		reps := res.Traces[0].Reports
		if len(reps) != res.Stages+1 || len(res.Schedule) != res.Stages+1 {
			t.Fatalf("%s: %d trace reports, %d schedule reports, %d stages", c.name, len(reps), len(res.Schedule), res.Stages)
		}
		for k, rep := range reps {
			total := 0
			for _, lv := range rep.Levels {
				total += lv.Bags * lv.MaxLoad
				b := 8 * math.Pow(nu, float64(rep.T)) * math.Pow(A, float64(lv.Depth))
				if math.Abs(lv.Capacity-b) > 1e-9*b || lv.CapFloor != int64(math.Floor(b+1e-9)) {
					t.Errorf("%s t = %d depth %d: capacity %v (⌊⌋ %d), want %v", c.name, rep.T, lv.Depth, lv.Capacity, lv.CapFloor, b)
				}
				if len(lv.Bounds) != lv.Depth || len(lv.Strangers) != lv.Depth {
					t.Fatalf("%s t = %d depth %d: %d bounds, %d stranger counts", c.name, rep.T, lv.Depth, len(lv.Bounds), len(lv.Strangers))
				}
				for j, bd := range lv.Bounds {
					if want := lam * math.Pow(eps, float64(j)) * b; math.Abs(bd-want) > 1e-9*want {
						t.Errorf("%s t = %d depth %d: bound %d = %v, want λε^%d·b = %v", c.name, rep.T, lv.Depth, j+1, bd, j, want)
					}
				}
				if s := res.Schedule[k].Levels; len(s) != len(rep.Levels) {
					t.Errorf("%s t = %d: schedule has %d levels, trace %d", c.name, rep.T, len(s), len(rep.Levels))
				}
			}
			if total != 8 {
				t.Errorf("%s t = %d: levels hold %d items, want 8", c.name, rep.T, total)
			}
		}
		r1 := reps[1]
		if len(r1.Levels) != 1 || r1.Levels[0].Depth != 1 || r1.Levels[0].Bags != 2 || r1.Levels[0].MinLoad != 4 || r1.Levels[0].MaxLoad != 4 {
			t.Fatalf("%s t = 1: levels %+v, want one level at depth 1 with 2 bags of 4", c.name, r1.Levels)
		}
		if got := r1.Levels[0].Strangers[0]; got != c.strangers {
			t.Errorf("%s t = 1: %d 1-strangers in a depth-1 bag, want %d", c.name, got, c.strangers)
		}
		v := r1.Violations()
		if (c.strangers > 0) != (len(v) == 1 && v[0].Clause == 4) {
			t.Errorf("%s t = 1: violations %v", c.name, v)
		}
		// The output fields agree with each other: Misplaced counts the
		// positions p with Output[p] ≠ p, and the network's depth is the
		// stages' depths plus the finishing sorters'.
		tr := res.Traces[0]
		mis := 0
		for q, x := range tr.Output {
			if x != int32(q) {
				mis++
			}
		}
		if tr.Misplaced != mis || tr.Sorted != (mis == 0) {
			t.Errorf("%s: Misplaced %d, Sorted %v; output %v", c.name, tr.Misplaced, tr.Sorted, tr.Output)
		}
		sum := res.FinalDepth
		for _, d := range res.StageDepth {
			sum += d
		}
		if res.FinalDepth <= 0 || sum != res.Net.Depth() {
			t.Errorf("%s: stage depths + final depth %d = %d, network depth %d", c.name, res.FinalDepth, sum, res.Net.Depth())
		}
	}
}
