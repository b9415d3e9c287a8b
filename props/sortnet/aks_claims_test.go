package sortnet

import (
	"math"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"routecheck/algos/aks"
	asn "routecheck/algos/sortnet"
	msn "routecheck/models/sortnet"
	"routecheck/props"
)

// dropLast returns nw without its last comparator.
func dropLast(nw msn.Network) msn.Network {
	nw = nw.Clone()
	last := len(nw.Stages) - 1
	nw.Stages[last] = nw.Stages[last][:len(nw.Stages[last])-1]
	return nw.Compact()
}

// aksMinFailing01 returns an input of least min(weight, n − weight) among
// the failing ones, the smallest number among those: checked by brute force
// on broken Batcher networks.
func TestAKSMinFailingIsMinimal(t *testing.T) {
	for _, n := range []int{3, 6, 9, 11} {
		nw, err := asn.OddEvenMergeSort(n)
		if err != nil {
			t.Fatal(err)
		}
		if _, found := aksMinFailing01(nw); found {
			t.Fatalf("n = %d: Batcher's network reported as failing", n)
		}
		bad := dropLast(nw)
		x, found := aksMinFailing01(bad)
		if !found {
			t.Fatalf("n = %d: broken network not caught", n)
		}
		key := func(y uint64) int { w := bits.OnesCount64(y); return min(w, n-w) }
		for y := uint64(0); y < 1<<n; y++ {
			in := asn.Bits01(n, y)
			msn.Apply(bad, in)
			if msn.Sorted(in) {
				continue
			}
			if key(y) < key(x) || (key(y) == key(x) && y < x) {
				t.Fatalf("n = %d: reported %b, but %b also fails and is smaller", n, x, y)
			}
		}
		in := asn.Bits01(n, x)
		msn.Apply(bad, in)
		if msn.Sorted(in) {
			t.Fatalf("n = %d: reported %b is sorted", n, x)
		}
	}
}

// The expander counterexample replays: the reported input, run through the
// network rebuilt from the reported seed, gives the reported unsorted output,
// and every smaller n sorts all its 0-1 inputs.
func TestAKSExpanderCounterexampleReplays(t *testing.T) {
	f, ok, err := AKSExpanderSmallest(AKSExpanderD, props.DefaultSeed, 16)
	if err != nil || f == nil {
		t.Fatalf("no failure found (%v)", err)
	}
	res, err := aks.ExpanderNet(f.N, f.D, f.NetworkSeed[0])
	if err != nil {
		t.Fatal(err)
	}
	out := slices.Clone(f.Input)
	msn.Apply(res.Net, out)
	if !slices.Equal(out, f.Output) || msn.Sorted(out) {
		t.Fatalf("replay gives %v, reported %v", out, f.Output)
	}
	for _, n := range ok {
		r, err := aks.ExpanderNet(n, f.D, f.NetworkSeed[0])
		if err != nil {
			t.Fatal(err)
		}
		if _, sorts, _ := msn.Sorts01Exhaustive(r.Net); !sorts {
			t.Errorf("n = %d reported as sorting but does not", n)
		}
	}
}

// The independent constraint evaluation: hand values, and it can fail.
// C1 at the §5 example: 4·10/100 + 5/20 = 13/20 exactly (holds with
// equality); ν = 13/20 − 10⁻⁹ breaks C1 only; ε = 1/2 at A = 10 breaks
// 2εA < 1 and C2.
func TestAKSConstraints(t *testing.T) {
	failing := func(cs []AKSConstraint) []string {
		var out []string
		for _, c := range cs {
			if !c.Holds {
				out = append(out, c.Name+" "+c.Text)
			}
		}
		return out
	}
	A, nu, lam := big.NewRat(10, 1), big.NewRat(13, 20), big.NewRat(1, 100)
	cs := aksConstraints(A, nu, lam, lam)
	if f := failing(cs); len(f) != 0 {
		t.Fatalf("§5 example fails %v", f)
	}
	if cs[4].Name != "C1" || cs[4].LHS != cs[4].RHS {
		t.Errorf("C1 at the §5 example: %+v, want equality", cs[4])
	}
	f := failing(aksConstraints(A, new(big.Rat).Sub(nu, big.NewRat(1, 1e9)), lam, lam))
	if len(f) != 1 || f[0][:2] != "C1" {
		t.Errorf("ν just below 13/20: fails %v, want C1 only", f)
	}
	f = failing(aksConstraints(A, nu, lam, big.NewRat(1, 2)))
	if len(f) != 2 || f[0][:2] != "C2" || f[1][:2] != "C3" {
		t.Errorf("ε = 1/2: fails %v, want C2 and 2εA < 1", f)
	}
	if aksRat("1/96.4").Cmp(big.NewRat(10, 964)) != 0 || aksRat("6.785").Cmp(big.NewRat(6785, 1000)) != 0 {
		t.Error("aksRat misreads the printed values")
	}
}

// The depth model against the numbers §7 prints: seven 1/700-halvers of
// Paterson depth 10564, ≈ 6.95·log₂n iterations (§5 example); seven
// 1/402.15-halvers of depth 5621, ≈ 6.05·log₂n (the alternative).
func TestAKSDepthModelMatchesSection7(t *testing.T) {
	for _, c := range []struct {
		p      aks.Params
		depth  int64
		iterPK float64
	}{{aks.SeiferasParams(), 10564, 6.95}, {aks.AltParams(), 5621, 6.05}} {
		m := newAKSDepthModel(c.p)
		if m.halvers != 7 || m.halverDepth != c.depth {
			t.Errorf("%v: %d halvers of depth %d, §7: 7 of depth %d", c.p, m.halvers, m.halverDepth, c.depth)
		}
		if math.Abs(m.coef-c.iterPK) > 0.01 {
			t.Errorf("%v: %.4f·log₂n iterations, §7 ≈ %.2f", c.p, m.coef, c.iterPK)
		}
		// n = 8 by hand (algos/aks TestStageCount): 5 stages, final
		// 8-sorters of depth 6.
		if d, _ := m.total(3); c.p == aks.SeiferasParams() && d != 5*7*10564+6 {
			t.Errorf("k = 3: depth %d, want 5·7·10564 + 6", d)
		}
	}
}

// aksCapacityMismatch accepts the real construction's reports and reports a
// capacity ⌊b⌋, a float capacity or a clause 4 bound that is off.
func TestAKSCapacityMismatch(t *testing.T) {
	n := 100
	in := snPerm(rand.New(rand.NewPCG(1, 2)), n)
	build := func() *aks.Result {
		res, err := aks.Construct(n, aks.SeiferasParams(), aks.Exact(), in)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if what := aksCapacityMismatch(n, build()); what != "" {
		t.Fatalf("real construction: %s", what)
	}
	// deepest is the last level of the report after t stages of the trace.
	deepest := func(r *aks.Result, t int) *aks.LevelReport {
		lvs := r.Traces[0].Reports[t].Levels
		return &lvs[len(lvs)-1]
	}
	for name, doctor := range map[string]func(*aks.Result){
		"⌊b⌋ + 1":       func(r *aks.Result) { r.Schedule[3].Levels[0].CapFloor++ },
		"b·(1 + 2^−40)": func(r *aks.Result) { deepest(r, 5).Capacity *= 1 + 1.0/(1<<40) },
		"bound ·ε":      func(r *aks.Result) { deepest(r, 4).Bounds[0] /= 100 },
		"padded size":   func(r *aks.Result) { r.N *= 2 },
	} {
		res := build()
		doctor(res)
		what := aksCapacityMismatch(n, res)
		if what == "" {
			t.Errorf("%s: not reported", name)
		}
		t.Logf("%s: %s", name, what)
	}
}
