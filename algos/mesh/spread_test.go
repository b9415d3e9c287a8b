package mesh

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// spreadTargetsMap is NewPlanPrime's spread as first written (arrivals
// grouped per (line, block) in a map, each group bucketed on its origin):
// the reference of TestSpreadTargetsEqualsMap.
func spreadTargetsMap(n, np int, pos []int32, block func(i int) int, alongRows bool) []int32 {
	P := len(pos)
	out := make([]int32, P)
	at := func(r, col int) int32 { return int32(r*n + col) }
	type key struct{ line, blk int }
	arr := map[key][]int{}
	var keys []key
	for i, pu := range pos {
		line := int(pu) / n
		if !alongRows {
			line = int(pu) % n
		}
		kk := key{line, block(i)}
		if _, ok := arr[kk]; !ok {
			keys = append(keys, kk)
		}
		arr[kk] = append(arr[kk], i)
	}
	for _, kk := range keys {
		list := arr[kk]
		coord := func(i int) int {
			if alongRows {
				return int(pos[i]) % n
			}
			return int(pos[i]) / n
		}
		byOrigin := make([][]int, n)
		for _, i := range list {
			byOrigin[coord(i)] = append(byOrigin[coord(i)], i)
		}
		t := 0
		for _, b := range byOrigin {
			for _, i := range b {
				x := kk.blk*np + t*np/len(list)
				if alongRows {
					out[i] = at(kk.line, x)
				} else {
					out[i] = at(x, kk.line)
				}
				t++
			}
		}
	}
	return out
}

// spreadTargets gives the map version's targets on random positions and
// blocks (n up to 16, every n' dividing n, along rows and columns, from 1
// to 3n² packets); the comparison catches a planted difference (blocks
// shifted by one in the map version); a block outside [0, g) is an error.
func TestSpreadTargetsEqualsMap(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	caught := false
	for range 400 {
		n := 1 + r.IntN(16)
		var nps []int
		for np := 1; np <= n; np++ {
			if n%np == 0 {
				nps = append(nps, np)
			}
		}
		np := nps[r.IntN(len(nps))]
		g := n / np
		P := 1 + r.IntN(3*n*n)
		pos, blk := make([]int32, P), make([]int, P)
		for i := range pos {
			pos[i], blk[i] = int32(r.IntN(n*n)), r.IntN(g)
		}
		rows := r.IntN(2) == 0
		block := func(i int) int { return blk[i] }
		got, err := spreadTargets(n, np, pos, block, rows)
		if err != nil {
			t.Fatal(err)
		}
		if want := spreadTargetsMap(n, np, pos, block, rows); !slices.Equal(got, want) {
			t.Fatalf("n = %d, n' = %d, %d packets, along rows %v: %v, map version %v", n, np, P, rows, got, want)
		}
		if g > 1 && !slices.Equal(got, spreadTargetsMap(n, np, pos, func(i int) int { return (blk[i] + 1) % g }, rows)) {
			caught = true
		}
	}
	if !caught {
		t.Error("planted difference (blocks shifted) never caught")
	}
	if _, err := spreadTargets(4, 2, []int32{0}, func(int) int { return 2 }, true); err == nil {
		t.Error("a block outside [0, g) was accepted")
	}
}
