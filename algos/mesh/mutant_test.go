package mesh

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// The planted-fault hooks never change the algorithms' default paths:
// AllocateMutant(Faithful) is Allocate, and each mutant differs from it
// on a case where Step 3 extracts.
func TestAllocateMutant(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 200 {
		n := []int{2, 4, 8}[i%3]
		d := make([]Dest, 1+r.IntN(3*n*n))
		for p := range d {
			d[p] = Dest{Row: int32(r.IntN(n)), Col: int32(r.IntN(n))}
		}
		want, err1 := Allocate(n, d, nil)
		got, err2 := AllocateMutant(n, d, nil, Faithful)
		if err1 != nil || err2 != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("n = %d, %v: Faithful %+v (%v), Allocate %+v (%v)", n, d, got, err2, want, err1)
		}
	}
	d := []Dest{{0, 0}, {0, 1}, {0, 2}, {0, 3}, {0, 0}, {0, 1}, {0, 2}, {0, 3}}
	for _, m := range []Mutation{ExtractOneShort, ExtractRoundShort} {
		a, err := AllocateMutant(4, d, nil, m)
		if err != nil {
			t.Fatal(err)
		}
		if m == ExtractOneShort && a.Counts[3] != 1 {
			t.Errorf("ExtractOneShort: counts %v, want one packet at position 3", a.Counts)
		}
		if m == ExtractRoundShort && a.Subbuckets != 1 {
			t.Errorf("ExtractRoundShort: %d subbuckets, want 1 (the remainder 4)", a.Subbuckets)
		}
	}
}
