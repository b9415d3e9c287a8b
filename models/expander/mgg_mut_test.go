package expander

import (
	"slices"
	"testing"
)

// TestMGGNeighbourMultisets: the neighbour multiset of every vertex equals
// the eight images of the package doc (Hoory–Linial–Wigderson §8, after
// Gabber–Galil), computed here independently: for (x, y) the images
// (x+2y, y), (x−2y, y), (x+2y+1, y), (x−2y−1, y), (x, y+2x), (x, y−2x),
// (x, y+2x+1), (x, y−2x−1), reduced mod a and mod b. Odd and even sides are
// used, since on some power-of-two tori a wrong image still leaves the
// graph symmetric and 8-regular.
func TestMGGNeighbourMultisets(t *testing.T) {
	for _, s := range [][2]int{{3, 3}, {5, 5}, {7, 7}, {2, 4}, {4, 8}, {3, 6}} {
		a, b := s[0], s[1]
		g, err := MGG(a, b)
		if err != nil {
			t.Fatal(err)
		}
		if g.NA != a*b || g.NB != a*b {
			t.Fatalf("%v: sides %d %d, want %d", s, g.NA, g.NB, a*b)
		}
		pos := func(v, k int) int {
			for v < 0 {
				v += k
			}
			return v % k
		}
		for x := 0; x < a; x++ {
			for y := 0; y < b; y++ {
				want := []int32{
					int32(pos(x+2*y, a)*b + y), int32(pos(x-2*y, a)*b + y),
					int32(pos(x+2*y+1, a)*b + y), int32(pos(x-2*y-1, a)*b + y),
					int32(x*b + pos(y+2*x, b)), int32(x*b + pos(y-2*x, b)),
					int32(x*b + pos(y+2*x+1, b)), int32(x*b + pos(y-2*x-1, b)),
				}
				got := slices.Clone(g.Adj[x*b+y])
				slices.Sort(want)
				slices.Sort(got)
				if !slices.Equal(got, want) {
					t.Fatalf("%v: (%d, %d) neighbours %v, want %v", s, x, y, got, want)
				}
			}
		}
	}
}

// TestMGGSizeLimits: the documented ranges — a·b ≤ 2^16 is accepted at the
// limit (256×256) and refused just above (256×512); MGGShape(1) is the
// 1×1 torus (1 = 2^0 is a power of two ≥ 1) and MGGShape(0) is refused.
func TestMGGSizeLimits(t *testing.T) {
	if _, err := MGG(256, 256); err != nil {
		t.Errorf("MGG(256, 256): %v, want accepted (a·b = 65536)", err)
	}
	if _, err := MGG(256, 512); err == nil {
		t.Errorf("MGG(256, 512) accepted, want error (a·b = 131072)")
	}
	if a, b, err := MGGShape(1); err != nil || a != 1 || b != 1 {
		t.Errorf("MGGShape(1) = %d, %d, %v; want 1, 1, nil", a, b, err)
	}
	if _, _, err := MGGShape(0); err == nil {
		t.Errorf("MGGShape(0) accepted, want error")
	}
}
