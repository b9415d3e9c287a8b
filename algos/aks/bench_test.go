package aks

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"routecheck/models/sortnet"
)

// BenchmarkExpander builds the expander-halver network (Lemma 2 separators
// from d random matchings, Seiferas's §5 parameters), the target
// being n = 2^16 in at most 30 s:
//
//	go test -run '^$' -bench Expander -benchtime 1x -benchmem ./algos/aks
func BenchmarkExpander(b *testing.B) {
	for _, c := range []struct{ n, d int }{{1 << 12, 8}, {1 << 16, 8}, {1 << 16, 16}} {
		b.Run(fmt.Sprintf("n=%d/d=%d", c.n, c.d), func(b *testing.B) {
			for i := range b.N {
				sep := FromHalver(ExpanderHalver(c.d, rand.New(rand.NewPCG(uint64(i), 1))))
				res, err := Construct(c.n, SeiferasParams(), sep)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(res.Net.Depth()), "depth")
				b.ReportMetric(float64(res.Net.Size()), "comparators")
			}
		})
	}
}

// BenchmarkExact builds the exact-separator network for n = 2^12.
func BenchmarkExact(b *testing.B) {
	for range b.N {
		res, err := Construct(1<<12, SeiferasParams(), Exact())
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(res.Net.Depth()), "depth")
	}
}

// BenchmarkPacked compares the plain engine (sortnet.Apply, Eval01) with
// the packed one (sortnet.Packed) on the exact-separator network for
// n = 2^14, per comparator and input (ns/comparator) and as comparators
// applied per second (one 0-1 word of 64 inputs counting once; eval01many
// runs four words a pass, the rate per word). Since 2026-11-24 the packed
// runs stop where the values are in order (sortnet.Packed), which on this
// network is after its root stages, about 5 % of the comparators: the
// packed rates count the comparators skipped as applied, i.e. they compare
// whole runs, not the cost of one comparator.
//
//	go test -run '^$' -bench Packed -benchtime 10x ./algos/aks
func BenchmarkPacked(b *testing.B) {
	res, err := Construct(1<<14, SeiferasParams(), Exact())
	if err != nil {
		b.Fatal(err)
	}
	nw := res.Net
	p, err := sortnet.Pack(nw, false)
	if err != nil {
		b.Fatal(err)
	}
	size := float64(nw.Size())
	xs := make([]int32, nw.N)
	w := make([]uint64, nw.N)
	ws := make([][]uint64, 4)
	for l := range ws {
		ws[l] = make([]uint64, nw.N)
	}
	for _, c := range []struct {
		name  string
		run   func()
		words int // inputs (or words of 64 0-1 inputs) a run
	}{
		{"apply/plain", func() { sortnet.Apply(nw, xs) }, 1},
		{"apply/packed", func() { p.Apply(xs) }, 1},
		{"eval01/plain", func() { sortnet.Eval01(nw, w) }, 1},
		{"eval01/packed", func() { p.Eval01(w) }, 1},
		{"eval01many/packed", func() { p.Eval01Many(ws) }, len(ws)},
	} {
		b.Run(c.name, func(b *testing.B) {
			r := rand.New(rand.NewPCG(3, 4))
			for range b.N {
				for i, x := range r.Perm(len(xs)) {
					xs[i] = int32(x)
				}
				for _, v := range append(ws, w) {
					for i := range v {
						v[i] = r.Uint64()
					}
				}
				c.run()
			}
			evals := float64(b.N) * size * float64(c.words)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/evals, "ns/comparator")
			b.ReportMetric(evals/b.Elapsed().Seconds(), "comparators/s")
		})
	}
}
