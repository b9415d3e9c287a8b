package fuzz

import "math/rand/v2"

// byteChoices (in a non-test file so that the libFuzzer build, which
// compiles only the target's own _test.go file, sees it) decodes a fuzzer's bytes into small choices, one byte per
// choice (two for ranges wider than 256): a choice reads the next byte
// modulo the range, and a missing byte decodes as the range's low end, so
// every input, the empty one too, is a valid instance.
type byteChoices struct{ b []byte }

// intn returns a choice in [lo, hi] (hi ≥ lo).
func (c *byteChoices) intn(lo, hi int) int {
	m := hi - lo + 1
	if m <= 1 {
		return lo
	}
	width := 1
	if m > 256 {
		width = 2
	}
	v := 0
	for k := 0; k < width && len(c.b) > 0; k++ {
		v = v<<8 | int(c.b[0])
		c.b = c.b[1:]
	}
	return lo + v%m
}

// bool returns a choice of true or false (false when the bytes run out).
func (c *byteChoices) bool() bool { return c.intn(0, 1) == 1 }

// perm returns a permutation of 0…n−1 by Fisher–Yates swaps (the
// identity when the bytes run out).
func (c *byteChoices) perm(n int) []int32 {
	p := make([]int32, n)
	for i := range p {
		p[i] = int32(i)
	}
	for i := n - 1; i > 0; i-- {
		j := c.intn(0, i)
		p[i], p[j] = p[j], p[i]
	}
	return p
}

// seed returns 8 bytes as a uint64 (for a model's own rng).
func (c *byteChoices) seed() uint64 {
	var v uint64
	for k := 0; k < 8 && len(c.b) > 0; k++ {
		v = v<<8 | uint64(c.b[0])
		c.b = c.b[1:]
	}
	return v
}

// pcgBytes returns n bytes of the PCG(seed, 0xf022) stream.
func pcgBytes(seed uint64, n int) []byte {
	r := rand.New(rand.NewPCG(seed, 0xf022))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint64())
	}
	return b
}
