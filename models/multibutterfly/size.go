package multibutterfly

import (
	"fmt"
	"math"
	"math/bits"
)

// MaxEdges is the largest number of edges a network may have: edges are
// named by int32 indices (Network.Out, Move.Edge, CommNetwork.Edges read by
// StepComm's []int32 exchanges, and the fast engine's tables), so an edge
// count above 2^31 − 1 cannot be represented.
//
// This is the only limit on the degree d: nothing in the representation
// depends on d otherwise (colours are int32, the König colouring and the
// splitters take any d; the fast engine's 64-bit masks are per batch, not
// per edge). Until 2026-11-24 Build, BuildAppendixA and BuildComm refused
// d > 64 with no representation reason, while accepting N = 2^20 at d = 64,
// whose 2·64·2^20·20 ≈ 2.7·10^9 edges overflowed the int32 indices.
const MaxEdges = math.MaxInt32

// bytesPerEdge is the measured heap a built network keeps per edge (the
// Edge record, its Out index, the splitters' adjacency lists and colours):
// BuildComm(n, 102) keeps 84–85 bytes per edge at n = 256, 512, 1024 (0.63,
// 1.41 and 3.14·10^6 edges; it allocates about 365 bytes per edge in all
// while building, most of it the colourings' scratch). Measured 2026-11-24.
const bytesPerEdge = 85

// checkEdges returns an error unless d ≥ 1 and the network, with edges(d)
// edges, fits MaxEdges. what names the network's size parameter (e.g.
// "N = 1024").
func checkEdges(what string, d int, edges func(d int64) int64) error {
	if d < 1 {
		return fmt.Errorf("multibutterfly: d = %d: must be ≥ 1", d)
	}
	if int64(d) > MaxEdges {
		return fmt.Errorf("multibutterfly: d = %d: must be ≤ 2^31 − 1", d)
	}
	if e := edges(int64(d)); e > MaxEdges {
		return fmt.Errorf("multibutterfly: d = %d at %s: %d edges, over the %d that int32 edge indices allow (and about %.0f GiB of heap); the largest d that fits at this size is %d",
			d, what, e, int64(MaxEdges), float64(e)*bytesPerEdge/(1<<30), maxDegree(int64(d), edges))
	}
	return nil
}

// maxDegree is the largest d' < d with edges(d') ≤ MaxEdges (0 if none),
// by bisection; edges must be increasing and edges(d) > MaxEdges.
func maxDegree(d int64, edges func(d int64) int64) int64 {
	lo, hi := int64(0), d // edges(lo) fits (or lo = 0), edges(hi) does not
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if edges(mid) <= MaxEdges {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// checkSize returns log N, or an error unless N is a power of two in
// [2, 2^20] and d ≥ 1 with 2d·N·log N edges within MaxEdges (the
// parameters Build and BuildAppendixA accept).
func checkSize(n, d int) (int, error) {
	if n < 2 || n&(n-1) != 0 || n > 1<<20 {
		return 0, fmt.Errorf("multibutterfly: N = %d: must be a power of two in [2, 2^20]", n)
	}
	logN := bits.Len(uint(n)) - 1
	return logN, checkEdges(fmt.Sprintf("N = %d", n), d, mbEdges(n, logN))
}

// mbEdges is the edge count 2d·N·log N of an N-input multi-butterfly.
func mbEdges(n, logN int) func(d int64) int64 {
	return func(d int64) int64 { return 2 * d * int64(n) * int64(logN) }
}

// commEdges is the edge count of a §4.1 network: d·n·log n expander edges,
// 2d·n·log n multi-butterfly edges and n·log n direct edges.
func commEdges(n, logN int) func(d int64) int64 {
	return func(d int64) int64 { return (3*d + 1) * int64(n) * int64(logN) }
}
