package meshtest_test

import (
	"fmt"
	"math/rand/v2"

	am "routecheck/algos/mesh"
	"routecheck/models/mesh"
	"routecheck/props/meshtest"
)

// A deliberately broken toy router — it sends a packet right whenever its
// target is in another column, forgetting that the target may lie to the
// left — is caught at once: on the 2×2 mesh the packet from PU 1 (row 0,
// column 1) to PU 0 is pushed over the missing right border link in the
// first step.
func Example() {
	rightOnly := mesh.RouterFunc(func(v mesh.View, _ *rand.Rand) mesh.Moves {
		m := mesh.Still
		for k, it := range v.Queue {
			switch {
			case int(it.Target)%v.N != v.PU%v.N && m[mesh.Right] < 0:
				m[mesh.Right] = int32(k)
			case int(it.Target)%v.N == v.PU%v.N && int(it.Target) > v.PU && m[mesh.Up] < 0:
				m[mesh.Up] = int32(k)
			case int(it.Target)%v.N == v.PU%v.N && int(it.Target) < v.PU && m[mesh.Down] < 0:
				m[mesh.Down] = int32(k)
			}
		}
		return m
	})
	fs := meshtest.Check(func() mesh.Router { return rightOnly }, meshtest.Options{Sizes: []int{2}, ReplayDir: "-"})
	f := fs[0]
	fmt.Printf("%s in %s\n%s\nstep %d: %s\n", f.Property, f.Instance.Family, f.Instance, f.Step, f.Message)
	// Output:
	// model in n=2/mesh/exhaustive/single
	// 2×2 mesh, 1 packets: 1→0
	// step 1: mesh: illegal action: PU 1 has no right link
}

// peek is farthest-first with a congestion cheat: it remembers how many
// packets in transit every PU's queue held when it saw it in that PU's
// Route call, and a PU holds back a packet bound right while the right
// neighbour, as the router last saw it, had 2 or more in transit. A PU cannot see its neighbour's queue; the
// router shared by every PU can, and the suite's locality property catches
// it: with a router per PU the cheat has nothing to read.
type peek struct{ load map[int]int }

func (p *peek) Route(v mesh.View, rng *rand.Rand) mesh.Moves {
	p.load[v.PU] = 0
	for _, it := range v.Queue {
		if int(it.Target) != v.PU {
			p.load[v.PU]++
		}
	}
	m := am.GridFarthestFirst.Route(v, rng)
	if m[mesh.Right] >= 0 && p.load[v.PU+1] >= 2 {
		m[mesh.Right] = -1
	}
	return m
}

func Example_locality() {
	fs := meshtest.Check(func() mesh.Router { return &peek{load: map[int]int{}} }, meshtest.Options{Sizes: []int{3}, ReplayDir: "-"})
	f := fs[0]
	fmt.Printf("%s in %s at step %d\n", f.Property, f.Instance.Family, f.Step)
	// Output:
	// locality in n=3/mesh/kk/hot-spot/k=2 at step 2
}
