package multibutterfly

import (
	"testing"

	"routecheck/internal/seeds"
)

// Theorem 4.3's proof: 3 log n + 4d log 2d + 1 stages; P = log n + 2d log 2d
// expander layers of n·d edges, log n splitter levels of n·2d edges, P
// direct layers of n edges. d = 2, n = 8: P = 3 + 8 = 11, 26 stages,
// 11·16 + 3·32 + 11·8 = 360 edges; d = 4, n = 4: P = 2 + 24 = 26, 55
// stages, 26·16 + 2·32 + 26·4 = 584 edges. Expander layers are copies of
// one graph, and the splitters of a level are one splitter.
func TestBuildThm43Counts(t *testing.T) {
	for _, c := range []struct{ n, d, P, stages, edges int }{{8, 2, 11, 26, 360}, {4, 4, 26, 55, 584}} {
		net, err := BuildThm43(c.n, c.d, seeds.Rand(2, uint64(c.n)))
		if err != nil {
			t.Fatal(err)
		}
		if net.P != c.P || net.Stages() != c.stages || len(net.Edges) != c.edges || net.FirstDirect() != c.P+net.LogN {
			t.Fatalf("n=%d d=%d: P %d, %d stages, %d edges", c.n, c.d, net.P, net.Stages(), len(net.Edges))
		}
		per := c.n * c.d
		for i := per; i < net.P*per; i++ {
			a, b := net.Edges[i], net.Edges[i%per]
			if a.From-a.Stage*int32(c.n) != b.From || a.To-a.Stage*int32(c.n) != b.To || a.Colour != b.Colour {
				t.Fatalf("n=%d d=%d: expander layer %d differs from layer 0 at edge %d", c.n, c.d, a.Stage, i)
			}
		}
		for s, row := range net.MB.Splitters {
			for j := range row {
				if row[j].Upper.Adj[0][0] != row[0].Upper.Adj[0][0] || len(row[j].Colour) != len(row[0].Colour) {
					t.Fatalf("n=%d d=%d: splitter (%d, %d) differs from (%d, 0)", c.n, c.d, s, j, s)
				}
			}
		}
	}
	for _, c := range [][2]int{{3, 2}, {8, 3}, {8, 1}, {8, 32}, {2048, 2}} {
		if _, err := BuildThm43(c[0], c[1], seeds.Rand(1)); err == nil {
			t.Errorf("n=%d d=%d accepted", c[0], c[1])
		}
	}
}

// InitThm43 rejects destinations outside the direct part or repeated.
func TestInitThm43Rejects(t *testing.T) {
	net, _ := BuildThm43(4, 2, seeds.Rand(1))
	np := 4 * (net.P + 1)
	dest := make([]int32, np)
	for i := range dest {
		dest[i] = int32(net.FirstDirect()*4 + i)
	}
	if _, err := InitThm43(net, dest); err != nil {
		t.Fatal(err)
	}
	dest[1] = dest[0]
	if _, err := InitThm43(net, dest); err == nil {
		t.Fatal("repeated destination accepted")
	}
	dest[1] = 0
	if _, err := InitThm43(net, dest); err == nil {
		t.Fatal("destination in stage 0 accepted")
	}
}
