package pops

import (
	"flag"
	"fmt"
	"math/big"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	ap "routecheck/algos/pops"
	"routecheck/models/perm"
)

// The survivor-class reduction (pops_exhaustive.go) against the unreduced
// enumeration: every input — every permutation and every choice, with "does
// not take part" where the step has a coin — run on the slot model gives
// the same conflicts in slots 3–5, losses, duplicates and buffer maxima as
// its class representative. Exhaustive for POPS(2,2) and POPS(d,1) with
// d ≤ 5 (and POPS(3,2), 524,880 inputs, with -pops.long-exhaustive: ≈ 15 s);
// 3000 random inputs each for POPS(3,2), POPS(4,2) and POPS(8,1).
var longExhaustive = flag.Bool("pops.long-exhaustive", false, "TestSurvivorClassesMatchUnreduced: also every input of POPS(3,2) (≈ 15 s)")

func TestSurvivorClassesMatchUnreduced(t *testing.T) {
	for _, alg := range []ap.Variant{ap.Faithful, ap.SplitDelivery} {
		reps := map[string]stepOutcome{}
		repOutcome := func(in PopsInstance) stepOutcome {
			r := classRep(in)
			k := fmt.Sprint(r.D, r.G, r.Perm, r.Groups)
			o, ok := reps[k]
			if !ok {
				o = outcomeOf(RunPops(r))
				reps[k] = o
			}
			return o
		}
		maxN := 5
		if *longExhaustive {
			maxN = 6
		}
		// Every input's class (or, with the group swap, its image) is one
		// that stepClasses enumerates.
		enumerated := map[string]bool{}
		for _, sh := range stepShapes(maxN, func(d, g int) bool { return d >= g }) {
			cl, err := stepClasses(alg, sh[0], sh[1])
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range cl {
				enumerated[fmt.Sprint(c.in.D, c.in.G, c.in.Perm, c.in.Groups)] = true
			}
		}
		cases, bad := Exhaustive(alg, maxN, func(d, g int) bool { return d >= g }, func(in PopsInstance, r PopsRunReport) bool {
			rep := classRep(in)
			found := enumerated[fmt.Sprint(rep.D, rep.G, rep.Perm, rep.Groups)]
			if !found && in.G == 2 && in.D%2 == 0 {
				img := classRep(swapGroups(rep))
				found = enumerated[fmt.Sprint(img.D, img.G, img.Perm, img.Groups)]
			}
			if !found {
				t.Errorf("%v %+v: class %+v not enumerated", alg, in, rep)
				return false
			}
			if got, want := outcomeOf(r), repOutcome(in); got != want {
				t.Errorf("%v %+v: unreduced %+v, class representative %+v", alg, in, got, want)
				return false
			}
			return true
		})
		if bad != nil {
			return
		}
		rng := rand.New(rand.NewPCG(8, uint64(alg)))
		for _, sh := range [][2]int{{3, 2}, {4, 2}, {8, 1}} {
			d, g := sh[0], sh[1]
			for range 3000 {
				in := PopsInstance{D: d, G: g, Algorithm: alg.String(), Perm: perm.Random(d*g, rng), Groups: make([]int32, d*g)}
				for p := range in.Groups {
					in.Groups[p] = int32(rng.IntN(g+1)) - 1
				}
				if got, want := outcomeOf(RunPops(in)), repOutcome(in); got != want {
					t.Fatalf("%v %+v: unreduced %+v, class representative %+v", alg, in, got, want)
				}
				cases++
			}
		}
		t.Logf("%v: %d inputs, %d class representatives", alg, cases, len(reps))
	}
}

// freeChoices against brute force: every assignment of m packets to
// {−1 if coin} ∪ f groups with no group chosen exactly once.
func TestFreeChoices(t *testing.T) {
	for m := 0; m <= 6; m++ {
		for f := 0; f <= 3; f++ {
			for _, coin := range []bool{false, true} {
				lo := 0
				if coin {
					lo = -1
				}
				vals := f - lo
				count := 0
				x := make([]int, m)
				total := 1
				for range m {
					total *= vals
				}
				for c := range total {
					v := c
					cnt := make([]int, f)
					for i := range x {
						x[i] = v%vals + lo
						v /= vals
						if x[i] >= 0 {
							cnt[x[i]]++
						}
					}
					if !slices.Contains(cnt, 1) {
						count++
					}
				}
				if got := freeChoices(m, f, coin); got.Int64() != int64(count) {
					t.Errorf("freeChoices(%d, %d, %v) = %v, brute force %d", m, f, coin, got, count)
				}
			}
		}
	}
}

// The group-swap symmetry used for POPS(d,2), d even: a class and its
// image do the same on the slot model — every class of POPS(2,2), and 2000
// random inputs of POPS(4,2) (any choices, not only survivors) with their
// images.
func TestGroupSwapSymmetry(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for _, alg := range []ap.Variant{ap.Faithful, ap.SplitDelivery} {
		cl, err := stepClasses(alg, 2, 2)
		if err != nil {
			t.Fatal(err)
		}
		var ins []PopsInstance
		for _, c := range cl {
			ins = append(ins, c.in)
		}
		for range 2000 {
			in := PopsInstance{D: 4, G: 2, Algorithm: alg.String(), Perm: perm.Random(8, rng), Groups: make([]int32, 8)}
			for p := range in.Groups {
				in.Groups[p] = int32(rng.IntN(3)) - 1
			}
			ins = append(ins, in)
		}
		for _, in := range ins {
			img := swapGroups(in)
			if a, b := outcomeOf(RunPops(in)), outcomeOf(RunPops(img)); a != b {
				t.Fatalf("%v: %+v does %+v, its image %+v does %+v", alg, in, a, img, b)
			}
		}
	}
}

// The compact class sets and the class runner against the plain path
// (stepClasses, then outcomeOf(RunPops(class)) on the instance as
// stepClasses builds it, with the mutant set): every class of every shape
// with dg ≤ 8 expands to the plain representative, survivors and size, for
// both algorithms; the runner gives the plain outcome on every class of the
// shapes with n ≤ 5 and on every 29th class of POPS(3,2) and POPS(4,2), for
// both algorithms and every planted fault. The comparison is not vacuous:
// the planted faults change the outcome of some class (checked), so a
// runner that ignored the mutant would fail.
func TestClassSetsMatchPlain(t *testing.T) {
	muts := append([]ap.Mutant{ap.NoMutant}, routerFaults...)
	for _, dg := range stepShapes(maxStepN, func(d, g int) bool { return d >= g }) {
		d, g := dg[0], dg[1]
		set, err := newClassSet(d, g)
		if err != nil {
			t.Fatal(err)
		}
		for _, alg := range []ap.Variant{ap.Faithful, ap.SplitDelivery} {
			if alg == ap.SplitDelivery && d*g > 6 {
				continue // stepClasses is the same but for the Algorithm field (checked below), and costs ≈ 1 s at POPS(4,2)
			}
			cl, err := stepClasses(alg, d, g)
			if err != nil {
				t.Fatal(err)
			}
			if len(cl) != len(set.classes) {
				t.Fatalf("POPS(%d,%d) %v: %d compact classes, %d plain", d, g, alg, len(set.classes), len(cl))
			}
			sum := big.NewInt(0)
			for i, c := range cl {
				sum.Add(sum, c.size)
				want := c.in
				want.Mutant = ap.MutantRelayKeeps
				if got := set.instance(i, alg, ap.MutantRelayKeeps); !reflect.DeepEqual(got, want) {
					t.Fatalf("POPS(%d,%d) %v class %d: compact %+v, plain %+v", d, g, alg, i, got, want)
				}
				if cc := set.classes[i]; int(cc.survivors) != c.survivors || new(big.Int).SetUint64(cc.size).Cmp(c.size) != 0 {
					t.Fatalf("POPS(%d,%d) class %d: compact survivors %d size %d, plain %d %v", d, g, i, cc.survivors, cc.size, c.survivors, c.size)
				}
			}
			if sum.Cmp(set.inputs) != 0 {
				t.Fatalf("POPS(%d,%d): compact inputs %v, plain %v", d, g, set.inputs, sum)
			}
		}
	}
	differ := 0
	for _, dg := range stepShapes(maxStepN, func(d, g int) bool { return d >= g }) {
		d, g := dg[0], dg[1]
		every := 1
		if d*g >= 6 {
			every = 29
		}
		set, err := newClassSet(d, g)
		if err != nil {
			t.Fatal(err)
		}
		for _, alg := range []ap.Variant{ap.Faithful, ap.SplitDelivery} {
			for _, mut := range muts {
				run := newClassRunner(set, alg, mut)
				for i := 0; i < len(set.classes); i += every {
					in := set.instance(i, alg, mut)
					want := outcomeOf(RunPops(in))
					if got := run.outcome(i); got != want {
						t.Fatalf("%+v: runner %+v, plain %+v", in, got, want)
					}
					if mut != ap.NoMutant && want != outcomeOf(RunPops(set.instance(i, alg, ap.NoMutant))) {
						differ++
					}
				}
			}
		}
	}
	if differ == 0 {
		t.Fatal("no planted fault changed any class's outcome: the comparison cannot tell a runner that ignores the mutant")
	}
	t.Logf("%d (class, fault) pairs whose outcome the fault changes", differ)
}
