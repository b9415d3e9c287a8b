package aks

import (
	"fmt"
	"testing"
)

// BenchmarkCertifiedNet builds the network with certified halvers
// (CertifiedNet, seed 1) and reports its depth, size, the root halver's
// degree and the number of partial (non-K_{h,h}) halvers. 2^13 needs about
// 2.2 GB:
//
//	go test -run '^$' -bench CertifiedNet -benchtime 1x -benchmem ./algos/aks
func BenchmarkCertifiedNet(b *testing.B) {
	for _, n := range []int{1 << 10, 1 << 12, 1 << 13} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for range b.N {
				res, sep, err := CertifiedNet(n, CertifiedOptions{Seed: 1})
				if err != nil {
					b.Fatal(err)
				}
				partial, root := 0, 0
				for _, hv := range sep.Halvers() {
					if !hv.Complete() {
						partial++
					}
					if hv.M == res.N && hv.R == 1 {
						root = hv.D
					}
				}
				b.ReportMetric(float64(res.Net.Depth()), "depth")
				b.ReportMetric(float64(res.Net.Size()), "comparators")
				b.ReportMetric(float64(root), "root-degree")
				b.ReportMetric(float64(partial), "partial-halvers")
			}
		})
	}
}
