package sortnet

import (
	"slices"
	"testing"

	"routecheck/models/sortnet"
)

// Verify's exhaustive part includes n = maxExh ("for N ≤ maxExh"): on 4
// wires with maxExh = 4 it runs all 2^4 = 16 inputs, and for the network
// with the single comparator [0:1] the numerically smallest unsorted input
// (wire i = bit i) is x = 1, i.e. (1, 0, 0, 0): x = 0 is all zeros, and x = 1
// comes out as (0, 1, 0, 0), a one on wire 1 above zeros on wires 2–3.
func TestVerifyExhaustiveAtMaxExh(t *testing.T) {
	nw := sortnet.Network{N: 4, Stages: []sortnet.Stage{{{I: 0, J: 1}}}}
	v := Verify(nw, 1, 4, 0, 0)
	if !v.Exhaustive || v.Inputs != 16 || v.Sorts || v.Failure == nil {
		t.Fatalf("n = maxExh = 4: %+v, want the exhaustive check of 16 inputs with a failure", v)
	}
	if want := []int{1, 0, 0, 0}; !slices.Equal(v.Failure.Input, want) {
		t.Errorf("failure %v, want the smallest failing input %v", v.Failure.Input, want)
	}
	if v = Verify(nw, 1, 3, 0, 0); v.Exhaustive {
		t.Errorf("n = 4 > maxExh = 3 ran exhaustively: %+v", v)
	}
}

// Verify's random 0-1 part, uncut (work large), draws 64 inputs for each
// weight of 0..N when N + 1 ≤ 256 ("up to 256 weights spread over 0..N"):
// on N = 40 wires with 2 random permutations and the 7 structured inputs
// that is 2 + 7 + 64·41 = 2633 inputs for a network that sorts.
func TestVerifyWeightCount(t *testing.T) {
	nw, err := OddEvenMergeSort(40)
	if err != nil {
		t.Fatal(err)
	}
	v := Verify(nw, 3, 16, 2, 1e12)
	if !v.Sorts || v.Exhaustive || v.Inputs != 2+7+64*41 {
		t.Errorf("n = 40: %+v, want a sorting verdict on 2633 inputs", v)
	}
}

// Zero wires with the exhaustive part switched off (maxExh = −1): the
// empty network sorts the empty input; the work cut must not divide by the
// zero cost (size 0 + n 0), and one weight (0) is drawn: 7 + 64 inputs.
func TestVerifyZeroWiresNotExhaustive(t *testing.T) {
	v := Verify(sortnet.Network{N: 0}, 1, -1, 0, 1000)
	if !v.Sorts || v.Exhaustive || v.Failure != nil || v.Inputs != 7+64 {
		t.Errorf("n = 0, maxExh = −1: %+v", v)
	}
}
