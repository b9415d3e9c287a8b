package popsobl

import (
	"math"
	"testing"

	"routecheck/models/pops"
)

// Hashed paths end at the destination, visit one intermediate at most, are
// the same on every call (a function of seed, a, b) and differ between
// seeds; every permutation of the small shapes is delivered without
// conflict or loss.
func TestHashedPaths(t *testing.T) {
	for _, sh := range []pops.Shape{{D: 2, G: 2}, {D: 2, G: 3}, {D: 1, G: 6}} {
		fam, other := Hashed(sh, 1), Hashed(sh, 2)
		differ := 0
		for a := range int32(sh.N()) {
			for b := range int32(sh.N()) {
				if a == b {
					continue
				}
				p, q := fam(a, b), fam(a, b)
				if len(p) < 1 || len(p) > 2 || p[len(p)-1] != b || len(p) != len(q) || p[0] != q[0] || p[0] == a {
					t.Fatalf("%v: path %d→%d is %v then %v", sh, a, b, p, q)
				}
				if o := other(a, b); len(o) != len(p) || o[0] != p[0] {
					differ++
				}
			}
		}
		if differ == 0 {
			t.Fatalf("%v: seeds 1 and 2 give the same family", sh)
		}
		permutations(sh.N(), func(p []int32) {
			r, err := Execute(sh, p, fam, 100)
			if err != nil || r.Delivered != sh.N() || r.Conflicts != 0 || len(r.Lost) != 0 {
				t.Fatalf("%v %v: %+v %v", sh, p, r, err)
			}
		})
	}
}

// The intermediate is close to uniform: on POPS(16,16) over 200 pairs ×
// 200 seeds the count of intermediates in each of the 16 groups is
// binomial(40000·(1 − ≈2/256), 1/16) if uniform; each group's count is
// within 6 standard deviations of 2500 (false alarm < 16·2·10⁻⁹ for a
// uniform hash; a hash stuck on a few groups fails by hundreds of σ).
func TestHashedUniform(t *testing.T) {
	sh := pops.Shape{D: 16, G: 16}
	cnt := make([]int, sh.G)
	total := 0
	for s := range uint64(200) {
		fam := Hashed(sh, s)
		for k := range int32(200) {
			a, b := (k*37)%256, (k*91+5)%256
			if a == b {
				continue
			}
			if p := fam(a, b); len(p) == 2 {
				cnt[sh.Group(int(p[0]))]++
				total++
			}
		}
	}
	mean := float64(total) / 16
	sd := math.Sqrt(float64(total) * (1.0 / 16) * (15.0 / 16))
	for g, c := range cnt {
		if math.Abs(float64(c)-mean) > 6*sd {
			t.Fatalf("group %d got %d intermediates, expected %.0f ± %.0f (6σ)", g, c, mean, 6*sd)
		}
	}
}
