package sortnet

import (
	"testing"

	"routecheck/models/sortnet"
)

// BenchmarkExhaustive01Batcher24 is the exhaustive 0-1 check (all 2^24
// inputs, 64 per word) of Batcher's odd-even merge sort on 24 wires; the
// target is ≤ 1 s per check on one core.
func BenchmarkExhaustive01Batcher24(b *testing.B) {
	nw, err := OddEvenMergeSort(24)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, ok, err := sortnet.Sorts01Exhaustive(nw); !ok || err != nil {
			b.Fatal("odd-even merge sort on 24 wires judged not sorting")
		}
	}
}

// The same check for the bitonic network.
func BenchmarkExhaustive01Bitonic24(b *testing.B) {
	nw, err := BitonicSort(24)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, ok, err := sortnet.Sorts01Exhaustive(nw); !ok || err != nil {
			b.Fatal("bitonic sort on 24 wires judged not sorting")
		}
	}
}

// Building the largest networks the tests use.
func BenchmarkBuild65536(b *testing.B) {
	for _, bl := range builds {
		b.Run(bl.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := bl.f(1 << 16); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
