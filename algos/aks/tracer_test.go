package aks

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"routecheck/models/sortnet"
)

// A Tracer's reports are the reports Construct gives for the same inputs
// traced while it builds, on expander-halver and exact networks, run
// through the packed network and the plain one; the traceable
// construction's Result is Construct's. With one comparator of the first
// stage deleted from the expander networks run (a planted difference)
// some report differs.
func TestTracerSameAsConstruct(t *testing.T) {
	perm := func(n int, seed uint64) []int32 {
		xs := make([]int32, n)
		for i, x := range rand.New(rand.NewPCG(seed, 3)).Perm(n) {
			xs[i] = int32(x)
		}
		return xs
	}
	for _, c := range []struct{ n, d int }{{256, 8}, {1024, 8}, {1024, 16}, {512, 0}} {
		sep := func() Separator {
			if c.d == 0 {
				return Exact()
			}
			return ExpanderSeparator(c.n, c.d, 17)
		}
		ins := [][]int32{perm(c.n, 1), perm(c.n, 2), perm(c.n, 3)}
		want, err := Construct(c.n, SeiferasParams(), sep(), ins...)
		if err != nil {
			t.Fatal(err)
		}
		res, tr, err := ConstructTraceable(c.n, SeiferasParams(), sep())
		if err != nil {
			t.Fatal(err)
		}
		plain, _ := Construct(c.n, SeiferasParams(), sep())
		if !reflect.DeepEqual(res, plain) {
			t.Fatalf("n = %d, d = %d: the traceable construction's Result differs from Construct's", c.n, c.d)
		}
		p, err := sortnet.Pack(res.Net, false)
		if err != nil {
			t.Fatal(err)
		}
		applyPlain := func(y []int32, from, to int) {
			for _, st := range res.Net.Stages[from:to] {
				sortnet.ApplyStage(st, y)
			}
		}
		if tr.Boundaries() != res.Stages+1 {
			t.Fatalf("n = %d: %d boundaries, want %d", c.n, tr.Boundaries(), res.Stages+1)
		}
		for k, in := range ins {
			for name, apply := range map[string]func([]int32, int, int){"packed": p.ApplyStages, "plain": applyPlain} {
				got, err := tr.Reports(apply, in)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want.Traces[k].Reports) {
					t.Fatalf("n = %d, d = %d, input %d, %s: the Tracer's reports differ from Construct's", c.n, c.d, k, name)
				}
			}
		}
		// The planted difference: the network run with one comparator of
		// its first stage deleted (on the expander networks: the exact
		// root sort repairs it).
		if c.d == 0 {
			continue
		}
		mut := res.Net.Clone()
		mut.Stages[0] = slices.Delete(mut.Stages[0], 0, 1)
		applyMut := func(y []int32, from, to int) {
			for _, st := range mut.Stages[from:to] {
				sortnet.ApplyStage(st, y)
			}
		}
		differs := false
		for k, in := range ins {
			got, _ := tr.Reports(applyMut, in)
			differs = differs || !reflect.DeepEqual(got, want.Traces[k].Reports)
		}
		if !differs {
			t.Fatalf("n = %d, d = %d: a comparator deleted from the first stage changes no report: the comparison cannot tell", c.n, c.d)
		}
	}
	if _, _, err := ConstructTraceable(1000, SeiferasParams(), Exact()); err == nil {
		t.Error("ConstructTraceable(1000, …) gave no error: n must be a power of two")
	}
	_, tr, _ := ConstructTraceable(64, SeiferasParams(), Exact())
	if _, err := tr.Reports(func([]int32, int, int) {}, make([]int32, 64)); err == nil {
		t.Error("Reports of a non-permutation gave no error")
	}
}
