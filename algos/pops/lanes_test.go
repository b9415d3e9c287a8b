package pops

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"routecheck/models/perm"
	"routecheck/models/pops"
)

// pcgAdvance(s, k) is the state after k draws: against k calls of
// rand.PCG.Uint64 for small k, and advance(advance(s, a), b) = advance(s,
// a + b) for large ones. Planted difference: advancing one draw too few
// must give another state.
func TestPCGAdvance(t *testing.T) {
	for _, k := range []uint64{0, 1, 2, 3, 64, 1000, 12345} {
		src := rand.NewPCG(17, k)
		hi, lo := pcgState(src)
		for range k {
			src.Uint64()
		}
		wh, wl := pcgState(src)
		if h, l := pcgAdvance(hi, lo, k); h != wh || l != wl {
			t.Fatalf("k = %d: advance gives (%x, %x), %d draws (%x, %x)", k, h, l, k, wh, wl)
		}
		if k > 0 {
			if h, l := pcgAdvance(hi, lo, k-1); h == wh && l == wl {
				t.Fatalf("k = %d: advancing k − 1 draws gives the same state", k)
			}
		}
	}
	for _, c := range [][2]uint64{{1 << 40, 3}, {1<<63 + 5, 1 << 62}, {123456789, 987654321}} {
		h1, l1 := pcgAdvance(5, 7, c[0])
		h1, l1 = pcgAdvance(h1, l1, c[1])
		h2, l2 := pcgAdvance(5, 7, c[0]+c[1])
		if h1 != h2 || l1 != l2 {
			t.Fatalf("advance %d then %d differs from advance %d", c[0], c[1], c[0]+c[1])
		}
	}
}

// TestWorkersMatchOne: RunPCG with 2, 3 and 5 lanes gives the Result of
// one lane, field by field, and leaves the stream where it leaves it, on
// the differential cases with g ≥ 32 (where lanes apply) and POPS(64,64)
// and POPS(200,32) (d not a multiple of 64, so source groups share bitmap
// words), both variants, with the counters in one part and in parts of 64
// and 512 bytes. Planted difference: lanes that start one draw late
// (laneSkew) must make some case differ.
func TestWorkersMatchOne(t *testing.T) {
	defer func(b int) { partBytes = b }(partBytes)
	var cases []counterCase
	for _, c := range counterCases(testing.Short()) {
		if c.sh.G >= 32 {
			cases = append(cases, c)
		}
	}
	rng := rand.New(rand.NewPCG(8, 9))
	for _, sh := range []pops.Shape{{D: 64, G: 64}, {D: 200, G: 32}} {
		for _, v := range []Variant{Faithful, SplitDelivery} {
			cases = append(cases, counterCase{sh, perm.Random(sh.N(), rng), Options{Variant: v}, rng.Uint64()})
		}
	}
	for _, b := range []int{partBytes, 64, 512} {
		partBytes = b
		for _, w := range []int{2, 3, 5} {
			t.Run(fmt.Sprintf("partBytes=%d/workers=%d", b, w), func(t *testing.T) {
				var one, many Engine
				many.Workers = w
				for i, c := range cases {
					ref := rand.NewPCG(c.seed, 1)
					want, err := one.RunPCG(c.sh, c.dst, ref, c.o)
					if err != nil {
						t.Fatal(err)
					}
					src := rand.NewPCG(c.seed, 1)
					got, err := many.RunPCG(c.sh, c.dst, src, c.o)
					if err != nil {
						t.Fatal(err)
					}
					if d := diffResults(got, want); d != "" {
						t.Fatalf("case %d, %v %+v seed %d: %d lanes and one differ in %s", i, c.sh, c.o, c.seed, w, d)
					}
					if src.Uint64() != ref.Uint64() {
						t.Fatalf("case %d: %d lanes leave the stream elsewhere", i, w)
					}
				}
			})
		}
	}
	defer func() { laneSkew = 0 }()
	laneSkew = 1 // the planted fault
	var one, many Engine
	many.Workers = 2
	caught := 0
	for _, c := range cases {
		want, _ := one.RunPCG(c.sh, c.dst, rand.NewPCG(c.seed, 1), c.o)
		got, _ := many.RunPCG(c.sh, c.dst, rand.NewPCG(c.seed, 1), c.o)
		if diffResults(got, want) != "" {
			caught++
		}
	}
	if caught == 0 {
		t.Fatal("planted fault (lanes one draw late) not caught")
	}
}

// TestShuffleRunPCG: ShuffleRunPCG with 1, 2 and 3 lanes leaves in dst
// ShuffleInto's permutation, returns the Result of ShuffleInto and then
// RunPCG with one lane, field by field (every step traced), and leaves the
// stream where they leave it: d = g from 32 (groups share bitmap words) to
// 512 (256 with -short), three seeds each, both variants, chunks of 100 and
// 1000 draws (group boundaries inside chunks) and the default, so that
// shuffleSlot1 runs wherever n ≥ 2 chunks; the counters in one part and
// in parts of 512 bytes (many slot-2 regions per lane). Also with the speculation
// planted wrong (specSkew: slot 1 done again after the swaps). Planted
// difference: the wrong speculation trusted (specTrust) must make some
// case differ.
func TestShuffleRunPCG(t *testing.T) {
	defer func(c int) { shuffleChunk = c }(shuffleChunk)
	defer func() { specSkew, specTrust = 0, false }()
	type tcase struct {
		sh pops.Shape
		o  Options
	}
	var cases []tcase
	// d = g = 512 (n = 2^18, 16 chunks of the default size) runs only at
	// the default chunk and part size and not with -short: the smaller
	// shapes cover every chunk and part layout at a quarter of the cost.
	shapes := []pops.Shape{{D: 32, G: 32}, {D: 64, G: 64}, {D: 128, G: 128}, {D: 256, G: 256}, {D: 512, G: 512}}
	if testing.Short() {
		shapes = shapes[:4]
	}
	defChunk, defPart := shuffleChunk, partBytes
	for _, sh := range shapes {
		for _, v := range []Variant{Faithful, SplitDelivery} {
			cases = append(cases, tcase{sh, Options{Variant: v}})
		}
	}
	// diffs runs every case and counts those that differ; fatal: stop at
	// the first.
	diffs := func(t *testing.T, chunk int, fatal bool) int {
		shuffleChunk = chunk
		bad, overlapped := 0, 0
		for _, w := range []int{1, 2, 3} {
			for _, c := range cases {
				if c.sh.D == 512 && (chunk != defChunk || partBytes != defPart) {
					continue
				}
				for seed := range uint64(3) {
					n := c.sh.N()
					if n >= 2*chunk && w > 1 {
						overlapped++
					}
					want, got := make([]int32, n), make([]int32, n)
					var one, many Engine
					many.Workers = w
					ref := rand.NewPCG(seed, uint64(n))
					ShuffleInto(want, ref)
					wr, err := one.RunPCG(c.sh, want, ref, c.o)
					if err != nil {
						t.Fatal(err)
					}
					src := rand.NewPCG(seed, uint64(n))
					gr, err := many.ShuffleRunPCG(c.sh, got, src, c.o)
					if err != nil {
						t.Fatal(err)
					}
					d := diffResults(gr, wr)
					switch {
					case !slices.Equal(got, want):
						d = "the permutation"
					case src.Uint64() != ref.Uint64():
						d = "where the stream is left"
					}
					if d != "" {
						bad++
						if fatal {
							t.Fatalf("%v %+v, chunk %d, seed %d, %d lanes: ShuffleRunPCG and ShuffleInto + RunPCG differ in %s", c.sh, c.o, chunk, seed, w, d)
						}
					}
				}
			}
		}
		if overlapped == 0 {
			t.Fatalf("chunk %d: no case overlaps the shuffle with slot 1", chunk)
		}
		return bad
	}
	defer func(b int) { partBytes = b }(partBytes)
	for _, b := range []int{partBytes, 512} {
		partBytes = b
		for _, skew := range []uint64{0, 1} {
			for _, chunk := range []int{100, 1000, shuffleChunk} {
				t.Run(fmt.Sprintf("partBytes=%d/specSkew=%d/chunk=%d", b, skew, chunk), func(t *testing.T) {
					specSkew = skew
					diffs(t, chunk, true)
				})
			}
		}
	}
	specSkew, specTrust = 1, true // the planted fault
	if diffs(t, 1000, false) == 0 {
		t.Fatal("planted fault (a wrong speculation trusted) not caught")
	}
}
