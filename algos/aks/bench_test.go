package aks

import (
	"fmt"
	"math/rand/v2"
	"testing"
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
