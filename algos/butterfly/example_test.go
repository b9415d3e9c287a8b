package butterfly_test

import (
	"fmt"
	"math/rand/v2"

	ab "routecheck/algos/butterfly"
	mb "routecheck/models/butterfly"
	"routecheck/models/perm"
)

// Route one renamed transpose on a 64-input butterfly with r = 3 extra
// stages in the §2–3 node model, with §3's priorities.
func Example() {
	rng := rand.New(rand.NewPCG(2026, 11))
	const n = 6
	N := 1 << n
	transpose := make([]int32, N)
	for i := range N {
		transpose[i] = int32(i>>(n/2) | (i&(1<<(n/2)-1))<<(n/2))
	}
	o := ab.Options{Shape: mb.Shape{LogN: n, R: 3, Mode: mb.NodeQueue}}
	renamed := ab.Rename(transpose, perm.Random(N, rng))
	ps, _ := ab.Packets(o, [][]int32{renamed}, rng)
	var e ab.Engine
	res, _ := e.Run(o, ps, 1000)
	fmt.Println("packets:", len(ps), "congestion before renaming:", ab.MaxCongestion(mb.Shape{LogN: n}, mustPackets(transpose)))
	fmt.Println("path length:", o.Shape.Stages(), "steps:", res.Steps)
	// Output:
	// packets: 64 congestion before renaming: 8
	// path length: 9 steps: 13
}

func mustPackets(p []int32) []mb.Packet {
	ps := make([]mb.Packet, len(p))
	for i, d := range p {
		ps[i] = mb.Packet{ID: int32(i), Src: int32(i), Dst: d}
	}
	return ps
}
