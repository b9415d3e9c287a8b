package mesh

import (
	"math/rand/v2"
	"slices"
	"testing"

	amesh "routecheck/algos/mesh"
	"routecheck/internal/seeds"
	"routecheck/props/meshtest"
)

// TestKKFamiliesNamed: the named k-k families are the suite's, in its
// order (the claims' evidence and seeds index them).
func TestKKFamiliesNamed(t *testing.T) {
	want := []KKFamily{KKUniform, KKTranspose, KKReflect, KKRowToCol}
	if !slices.Equal(KKFamilies, want) {
		t.Errorf("KKFamilies = %v, want %v", KKFamilies, want)
	}
}

// genKKAppend is GenKK as first written: each packet appended to its PU's
// list in packet order (the plain construction GenKK's single array must
// reproduce).
func genKKAppend(f KKFamily, n, k int, r *rand.Rand) [][]amesh.Dest {
	in, err := meshtest.KK(string(f), n, k, r)
	if err != nil {
		panic(err)
	}
	out := make([][]amesh.Dest, n*n)
	for q, d := range in.Dst {
		out[in.Src[q]] = append(out[in.Src[q]], amesh.Dest{Row: d / int32(n), Col: d % int32(n)})
	}
	return out
}

// GenKK gives the lists of the plain construction for every family at the
// statistical claims' sizes and seeds of both kinds; the comparison
// catches a planted difference (two packets of one PU swapped).
func TestGenKKEqualsAppend(t *testing.T) {
	same := func(a, b [][]amesh.Dest) bool {
		return slices.EqualFunc(a, b, func(x, y []amesh.Dest) bool { return slices.Equal(x, y) })
	}
	for _, f := range KKFamilies {
		for _, sz := range []statSize{{4, 8, 0}, {4, 256, 0}, {8, 192, 0}, {16, 32, 0}} {
			for s := range uint64(3) {
				got, want := GenKK(f, sz.n, sz.k, seeds.Rand(0x9e, s)), genKKAppend(f, sz.n, sz.k, seeds.Rand(0x9e, s))
				if !same(got, want) {
					t.Fatalf("%s n=%d k=%d seed %d: GenKK differs from the plain construction", f, sz.n, sz.k, s)
				}
				for p := range got { // no list may reach into the next PU's
					if cap(got[p]) != len(got[p]) {
						t.Fatalf("%s: PU %d's list has capacity %d for %d packets", f, p, cap(got[p]), len(got[p]))
					}
				}
			}
		}
	}
	planted := genKKAppend(KKUniform, 4, 8, seeds.Rand(0x9e, 0))
	planted[5][2], planted[5][3] = planted[5][3], planted[5][2]
	if slices.Equal(planted[5][:4], GenKK(KKUniform, 4, 8, seeds.Rand(0x9e, 0))[5][:4]) || same(planted, GenKK(KKUniform, 4, 8, seeds.Rand(0x9e, 0))) {
		t.Fatal("a swap of two packets (of different destinations) is not seen")
	}
}
