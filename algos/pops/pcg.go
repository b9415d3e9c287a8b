package pops

import (
	"math/rand/v2"

	"routecheck/internal/pcgstate"
)

// drawGroups sets groups[k] = IntN(g) for k = 0, 1, … in turn, drawing
// from src exactly as rand.New(src).IntN(g) would.
func drawGroups(src *rand.PCG, groups []int32, g int) {
	p := pcgstate.Load(src)
	n := uint64(g)
	if n&(n-1) == 0 {
		for k := range groups {
			groups[k] = int32(p.Uint64() & (n - 1))
		}
	} else {
		for k := range groups {
			groups[k] = int32(p.IntN(n))
		}
	}
	p.Store(src)
}
