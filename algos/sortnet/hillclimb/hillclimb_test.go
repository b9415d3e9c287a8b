package hillclimb

import (
	"flag"
	"math/rand/v2"
	"slices"
	"testing"

	"routecheck/algos/aks"
	asn "routecheck/algos/sortnet"
	"routecheck/models/sortnet"
)

var long = flag.Bool("hillclimb.long", false, "run the slow measurement behind the package comment's figures")

func misplaced(y []int32) int {
	m := 0
	for p, v := range y {
		if v != int32(p) {
			m++
		}
	}
	return m
}

func isPerm(xs []int32) bool {
	seen := make([]bool, len(xs))
	for _, x := range xs {
		if x < 0 || int(x) >= len(xs) || seen[x] {
			return false
		}
		seen[x] = true
	}
	return true
}

func randPerm(r *rand.Rand, n int) []int32 {
	xs := make([]int32, n)
	for i, v := range r.Perm(n) {
		xs[i] = int32(v)
	}
	return xs
}

// withoutLastStage is nw minus its last stage.
func withoutLastStage(nw sortnet.Network) sortnet.Network {
	m := nw.Clone()
	m.Stages = m.Stages[:len(m.Stages)-1]
	return m
}

// With no comparators the output is the input, so the objective is the
// number of non-fixed points: from the identity (0) transpositions climb to
// a derangement (n), the maximum.
func TestClimbEmptyNetworkReachesDerangement(t *testing.T) {
	for _, n := range []int{2, 3, 17, 64} {
		start := make([]int32, n)
		for i := range start {
			start[i] = int32(i)
		}
		res := Climb(sortnet.Network{N: n}, rand.New(rand.NewPCG(1, uint64(n))), Options{Evals: 4000, Start: start})
		if res.Misplaced != n || misplaced(res.Input) != n {
			t.Errorf("n = %d: climb reached %d misplaced (input %v), a derangement has %d", n, res.Misplaced, res.Input, n)
		}
		if res.StartMisplaced != 0 {
			t.Errorf("n = %d: the identity start reported %d misplaced", n, res.StartMisplaced)
		}
	}
}

// A sorting network leaves nothing out of place, whatever the climb tries.
func TestClimbSortingNetworkFindsNothing(t *testing.T) {
	for _, n := range []int{5, 100, 1024} {
		nw, err := asn.OddEvenMergeSort(n)
		if err != nil {
			t.Fatal(err)
		}
		res := Climb(nw, rand.New(rand.NewPCG(2, uint64(n))), Options{Evals: 300, Restarts: 2})
		if res.Misplaced != 0 || !sortnet.Sorted(res.Output) || !isPerm(res.Input) {
			t.Errorf("n = %d: Batcher's network: %d misplaced, output sorted %v", n, res.Misplaced, sortnet.Sorted(res.Output))
		}
		if res.Evals != 300 {
			t.Errorf("n = %d: %d evaluations, asked for 300", n, res.Evals)
		}
	}
}

// The result is self-consistent, recomputed independently: Input is a
// permutation, Output is the network applied to it, Misplaced counts
// Output's misplaced positions and is at least what the starting points
// had; the same seed gives the same result.
func TestClimbResultConsistent(t *testing.T) {
	nw, err := asn.BitonicSort(200)
	if err != nil {
		t.Fatal(err)
	}
	bad := withoutLastStage(nw)
	res := Climb(bad, rand.New(rand.NewPCG(3, 4)), Options{Evals: 500, Restarts: 3})
	out := slices.Clone(res.Input)
	sortnet.Apply(bad, out)
	switch {
	case !isPerm(res.Input):
		t.Fatalf("input is not a permutation")
	case !slices.Equal(out, res.Output):
		t.Fatalf("Output is not the network applied to Input")
	case misplaced(out) != res.Misplaced:
		t.Fatalf("Misplaced %d, recomputed %d", res.Misplaced, misplaced(out))
	case res.Misplaced < res.StartMisplaced:
		t.Fatalf("Misplaced %d below the starting points' %d", res.Misplaced, res.StartMisplaced)
	case res.Evals != 500 || res.Accepted > res.Evals:
		t.Fatalf("evaluations %d, accepted %d", res.Evals, res.Accepted)
	}
	again := Climb(bad, rand.New(rand.NewPCG(3, 4)), Options{Evals: 500, Restarts: 3})
	if !slices.Equal(again.Input, res.Input) || again.Misplaced != res.Misplaced || again.Accepted != res.Accepted {
		t.Fatalf("same seed, different result")
	}
}

// Where the objective has a gradient the climb beats random sampling with
// the same number of evaluations. Odd-even merge sort without its last stage
// (the comparators [2k−1 : 2k]) leaves exactly the pairs that stage would
// exchange swapped, so at most n − 2 items out of place (wires 0 and n−1
// already hold the minimum and maximum); random permutations leave about
// half the pairs swapped, and the climb gets close to every pair.
func TestClimbBeatsSamplingWithGradient(t *testing.T) {
	const n, evals = 64, 3000
	nw, err := asn.OddEvenMergeSort(n)
	if err != nil {
		t.Fatal(err)
	}
	bad := withoutLastStage(nw)
	r := rand.New(rand.NewPCG(5, 6))
	sampled := 0
	for range evals {
		y := randPerm(r, n)
		sortnet.Apply(bad, y)
		sampled = max(sampled, misplaced(y))
	}
	res := Climb(bad, rand.New(rand.NewPCG(7, 8)), Options{Evals: evals})
	t.Logf("n = %d, %d evaluations: random sampling %d, climb %d (bound n − 2 = %d)", n, evals, sampled, res.Misplaced, n-2)
	if res.Misplaced > n-2 {
		t.Fatalf("climb reports %d misplaced, more than the bound n − 2", res.Misplaced)
	}
	if res.Misplaced <= sampled+8 {
		t.Fatalf("climb %d is not clearly above random sampling %d", res.Misplaced, sampled)
	}
}

func TestClimbPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"nil rand":  func() { Climb(sortnet.Network{N: 3}, nil, Options{}) },
		"bad start": func() { Climb(sortnet.Network{N: 3}, rand.New(rand.NewPCG(1, 1)), Options{Start: []int32{0, 0, 1}}) },
		"short":     func() { Climb(sortnet.Network{N: 3}, rand.New(rand.NewPCG(1, 1)), Options{Start: []int32{0, 1}}) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// The figures of the package comment for Batcher mutants (a measurement,
// logged): single-comparator deletions of odd-even merge sort on 256 wires
// that 200 random permutations never expose, attacked by the climb and by
// random sampling with 400 evaluations each.
func TestMeasureRareDeletions(t *testing.T) {
	const n, evals = 256, 400
	nw, err := asn.OddEvenMergeSort(n)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	var rare [][2]int
	for s, st := range nw.Stages {
		for x := range st {
			m := nw.Clone()
			m.Stages[s] = slices.Delete(m.Stages[s], x, x+1)
			exposed := false
			for range 200 {
				y := randPerm(r, n)
				sortnet.Apply(m, y)
				if !sortnet.Sorted(y) {
					exposed = true
					break
				}
			}
			if !exposed {
				rare = append(rare, [2]int{s, x})
			}
		}
	}
	climbed, sampled := 0, 0
	for k, c := range rare {
		m := nw.Clone()
		m.Stages[c[0]] = slices.Delete(m.Stages[c[0]], c[1], c[1]+1)
		if Climb(m, rand.New(rand.NewPCG(7, uint64(k))), Options{Evals: evals}).Misplaced > 0 {
			climbed++
		}
		rs := rand.New(rand.NewPCG(9, uint64(k)))
		for range evals {
			y := randPerm(rs, n)
			sortnet.Apply(m, y)
			if !sortnet.Sorted(y) {
				sampled++
				break
			}
		}
	}
	t.Logf("%d rare deletions: the climb exposes %d, random sampling %d (%d evaluations each)", len(rare), climbed, sampled, evals)
}

// The figures of the package comment for the AKS-family network with
// random-matching halvers (run with -hillclimb.long, ≈ 10 s): n = 4096,
// d = 8, matchings from PCG(5, 4096); the worst of 1000 random
// permutations against three climbs of 1000 evaluations.
func TestMeasureAKSExpander(t *testing.T) {
	if !*long {
		t.Skip("measurement: run with -hillclimb.long")
	}
	const n, evals = 4096, 1000
	res, err := aks.Construct(n, aks.SeiferasParams(), aks.FromHalver(aks.ExpanderHalver(8, rand.New(rand.NewPCG(5, n)))))
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	sampled := 0
	for range evals {
		y := randPerm(r, n)
		sortnet.Apply(res.Net, y)
		sampled = max(sampled, misplaced(y))
	}
	var climbs []int
	for seed := range uint64(3) {
		climbs = append(climbs, Climb(res.Net, rand.New(rand.NewPCG(3, seed)), Options{Evals: evals}).Misplaced)
	}
	t.Logf("n = %d, d = 8: worst of %d random permutations %d; climbs of %d evaluations: %v", n, evals, sampled, evals, climbs)
}
