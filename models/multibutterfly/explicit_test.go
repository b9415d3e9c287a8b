package multibutterfly

import "testing"

// TestBuildMGG: every non-output node has 2d = 16 out-edges, 8 into each
// output set, whose heads lie in A_{s+1,2j} (upper) or A_{s+1,2j+1} (lower);
// the same for BuildMGGShifted (only the fold differs).
func TestBuildMGG(t *testing.T) {
	for _, build := range []func(int) (*Network, error){BuildMGG, BuildMGGShifted} {
		testBuildMGG(t, build)
	}
}

func testBuildMGG(t *testing.T, build func(int) (*Network, error)) {
	t.Helper()
	for _, n := range []int{2, 8, 64} {
		net, err := build(n)
		if err != nil {
			t.Fatal(err)
		}
		for v := range net.N * net.LogN {
			s, k := net.StageOf(int32(v))
			up, low := 0, 0
			for _, e := range net.Out[v] {
				ed := net.Edges[e]
				s2, k2 := net.StageOf(ed.To)
				j := k >> (net.LogN - s)
				want := 2 * j
				if ed.Lower {
					want++
					low++
				} else {
					up++
				}
				if s2 != s+1 || k2>>(net.LogN-s-1) != want {
					t.Fatalf("N=%d: edge %d→%d leaves its output set", n, v, ed.To)
				}
			}
			if up != 8 || low != 8 {
				t.Fatalf("N=%d node %d: %d upper, %d lower edges", n, v, up, low)
			}
		}
	}
	for _, n := range []int{0, 3, 1 << 17} {
		if _, err := build(n); err == nil {
			t.Fatalf("N = %d: no error", n)
		}
	}
}

func TestBuildAppendixAErrors(t *testing.T) {
	for _, c := range [][2]int{{3, 2}, {0, 2}, {8, 0}, {1 << 20, 52}} {
		if _, err := BuildAppendixA(c[0], c[1], nil); err == nil {
			t.Fatalf("BuildAppendixA(%d, %d): no error", c[0], c[1])
		}
	}
}
