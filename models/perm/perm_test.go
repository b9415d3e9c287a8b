package perm

import (
	"math/rand/v2"
	"testing"
)

func TestValidate(t *testing.T) {
	cases := []struct {
		p    []int32
		full bool
		ok   bool
	}{
		{[]int32{1, 0, 2}, true, true},
		{[]int32{1, 1, 2}, true, false},
		{[]int32{3, 0, 1}, true, false},
		{[]int32{None, 0, 1}, true, false},
		{[]int32{None, 0, 1}, false, true},
		{[]int32{None, None, None}, false, true},
		{[]int32{}, true, true},
	}
	for _, c := range cases {
		if err := Validate(c.p, c.full); (err == nil) != c.ok {
			t.Errorf("Validate(%v, %v) = %v, want ok=%v", c.p, c.full, err, c.ok)
		}
	}
}

func TestEachCountsFactorial(t *testing.T) {
	fact := 1
	for n := 1; n <= 7; n++ {
		fact *= n
		seen := map[string]bool{}
		Each(n, func(p []int32) bool {
			if err := Validate(p, true); err != nil {
				t.Fatal(err)
			}
			seen[string(rune(0))+fmtPerm(p)] = true
			return true
		})
		if len(seen) != fact {
			t.Errorf("n=%d: %d distinct permutations, want %d", n, len(seen), fact)
		}
	}
}

func fmtPerm(p []int32) string {
	b := make([]byte, len(p))
	for i, v := range p {
		b[i] = byte('a' + v)
	}
	return string(b)
}

func TestRandomIsPermutationAndInverse(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 50; n++ {
		p := Random(n, rng)
		if err := Validate(p, true); err != nil {
			t.Fatal(err)
		}
		q := Inverse(p)
		for i := range p {
			if q[p[i]] != int32(i) {
				t.Fatalf("inverse wrong at %d", i)
			}
		}
	}
}

// randomIntoReference is Fisher–Yates as RandomInto promises it, written
// as the plain loop: the independent computation its output is checked
// against.
func randomIntoReference(p []int32, rng *rand.Rand) {
	for i := range p {
		p[i] = int32(i)
	}
	for i := len(p) - 1; i > 0; i-- {
		j := rng.IntN(i + 1)
		p[i], p[j] = p[j], p[i]
	}
}

// RandomInto (batched draws) gives the plain loop's permutation for the same
// seed and leaves the generator in the same state (the next draws agree),
// for sizes around the batch boundaries and a large one.
func TestRandomIntoMatchesPlainFisherYates(t *testing.T) {
	sizes := []int{0, 1, 2, 3, 255, 256, 257, 258, 511, 512, 513, 1000, 1 << 16, 100003}
	for _, n := range sizes {
		for seed := uint64(1); seed <= 3; seed++ {
			a, b := rand.New(rand.NewPCG(seed, uint64(n))), rand.New(rand.NewPCG(seed, uint64(n)))
			got, want := make([]int32, n), make([]int32, n)
			RandomInto(got, a)
			randomIntoReference(want, b)
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("n = %d, seed %d: p[%d] = %d, plain loop gives %d", n, seed, i, got[i], want[i])
				}
			}
			if x, y := a.Uint64(), b.Uint64(); x != y {
				t.Fatalf("n = %d, seed %d: next draw %d, plain loop's generator gives %d", n, seed, x, y)
			}
		}
	}
}
