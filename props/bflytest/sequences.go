package bflytest

import (
	"fmt"
	"math/rand/v2"

	"routecheck/models/perm"
	"routecheck/oracles/bflyforms"
)

// SequenceFamilies name the permutation sequences of Sequence.
var SequenceFamilies = []string{"random×t", "transpose×t", "bit-reversal×t", "pipelined-random"}

// Sequence returns t ≥ 1 permutations of the N = 2^n inputs of a family:
// t copies of one uniformly random permutation ("random×t"), of the
// transpose ("transpose×t") or of the bit reversal ("bit-reversal×t"), or
// t independent uniformly random ones ("pipelined-random"). Only the
// random families read rng. The suite's transpose×t and pipelined-random
// families are these (laid out with permsSpec), and routecheck's butterfly
// claims draw their instances from it. An unknown family panics.
func Sequence(family string, n, t int, rng *rand.Rand) [][]int32 {
	N := 1 << n
	ps := make([][]int32, t)
	switch family {
	case "random×t":
		ps[0] = perm.Random(N, rng)
	case "transpose×t":
		ps[0] = bflyforms.Transpose(n)
	case "bit-reversal×t":
		ps[0] = bflyforms.BitReversal(n)
	case "pipelined-random":
		for l := range ps {
			ps[l] = perm.Random(N, rng)
		}
		return ps
	default:
		panic(fmt.Sprintf("bflytest: unknown sequence family %q (allowed %v)", family, SequenceFamilies))
	}
	for l := 1; l < t; l++ {
		ps[l] = ps[0]
	}
	return ps
}
