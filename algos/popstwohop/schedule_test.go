package popstwohop

import (
	"testing"

	"routecheck/models/pops"
)

// Spread's listeners, worked out by hand from its documentation. d ≥ g
// (POPS(3, 2)): in slot t the offset is ⌊(t−1)/2⌋·g mod d, processor ℓ of a
// group has rank r = (ℓ − offset) mod d and listens to (r + t) mod g when
// r < g, else idles (−1). d < g (POPS(2, 3)): processor ℓ listens to
// (ℓ + ⌊(t−1)/2⌋·d + t) mod g. Processor i has ℓ = i mod d.
func TestSpreadListeners(t *testing.T) {
	for _, c := range []struct {
		sh   pops.Shape
		t    int
		want []int // by ℓ
	}{
		{pops.Shape{D: 3, G: 2}, 1, []int{1, 0, -1}}, // offset 0
		{pops.Shape{D: 3, G: 2}, 2, []int{0, 1, -1}}, // offset 0
		{pops.Shape{D: 3, G: 2}, 3, []int{0, -1, 1}}, // offset 2: ranks 1, 2, 0
		{pops.Shape{D: 3, G: 2}, 5, []int{-1, 1, 0}}, // offset 1: ranks 2, 0, 1
		{pops.Shape{D: 2, G: 3}, 1, []int{1, 2}},
		{pops.Shape{D: 2, G: 3}, 3, []int{2, 0}},
		{pops.Shape{D: 2, G: 3}, 4, []int{0, 1}},
		{pops.Shape{D: 2, G: 3}, 6, []int{1, 2}},
	} {
		s := Spread(c.sh)
		for i := range c.sh.N() {
			if got, want := s.In(i, c.t), c.want[i%c.sh.D]; got != want {
				t.Errorf("%+v slot %d processor %d: In = %d, want %d", c.sh, c.t, i, got, want)
			}
		}
	}
}

// mix is splitmix64's finalizer: mix(x) is the output of splitmix64 with
// state x, so mix(0) and mix(0x9e3779b97f4a7c15) are the first two outputs
// of seed 0, the published test vectors 0xe220a8397b1dcdaf and
// 0x6e789e6aa1b965f4. Hashed shoots processor i at slot t to
// mix(i·2^32 + t) mod g.
func TestMixAndHashed(t *testing.T) {
	if got := mix(0); got != 0xe220a8397b1dcdaf {
		t.Errorf("mix(0) = %#x, want 0xe220a8397b1dcdaf", got)
	}
	if got := mix(0x9e3779b97f4a7c15); got != 0x6e789e6aa1b965f4 {
		t.Errorf("mix(golden) = %#x, want 0x6e789e6aa1b965f4", got)
	}
	s := Hashed(pops.Shape{D: 2, G: 7})
	if got, want := s.Out(0, 0), int(uint64(0xe220a8397b1dcdaf)%7); got != want {
		t.Errorf("Hashed Out(0, 0) = %d, want %d", got, want)
	}
}
