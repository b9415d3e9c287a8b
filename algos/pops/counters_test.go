package pops

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"reflect"
	"testing"

	"routecheck/models/perm"
	"routecheck/models/pops"
)

// diffResults names the first field in which two Results differ ("" if
// none).
func diffResults(a, b Result) string {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	for i := range va.NumField() {
		if !reflect.DeepEqual(va.Field(i).Interface(), vb.Field(i).Interface()) {
			return fmt.Sprintf("%s: %v vs %v", va.Type().Field(i).Name, va.Field(i).Interface(), vb.Field(i).Interface())
		}
	}
	return ""
}

// counterCase is one differential run: a shape, an input and options.
type counterCase struct {
	sh   pops.Shape
	dst  []int32
	o    Options
	seed uint64
}

// counterCases are the differential test's inputs: g from 1 to 64 (powers
// of two and not), d from g to 4g + 3, and POPS(256,256) and POPS(1000,100), full and partial permutations, both
// variants, full and one-step traces, with and without the stage-1 coin's
// kept reading.
func counterCases(short bool) []counterCase {
	rng := rand.New(rand.NewPCG(41, 43))
	var cs []counterCase
	for _, g := range []int{1, 2, 3, 8, 13, 32, 64} {
		for _, d := range []int{g, 2 * g, 4*g + 3} {
			if short && g > 32 && d > g {
				continue
			}
			sh := pops.Shape{D: d, G: g}
			for _, partial := range []bool{false, true} {
				dst := perm.Random(sh.N(), rng)
				if partial {
					for i := range dst {
						if rng.IntN(3) == 0 {
							dst[i] = perm.None
						}
					}
				}
				for _, v := range []Variant{Faithful, SplitDelivery} {
					o := Options{Variant: v, MaxTrace: rng.IntN(2), KeepCoin: rng.IntN(4) == 0}
					if g == 1 {
						o.MaxSteps = Stage1Steps(sh, DefaultCEps) + 1 // g = 1 can livelock
					}
					cs = append(cs, counterCase{sh, dst, o, rng.Uint64()})
				}
			}
		}
	}
	// Larger shapes, where the counters of slot 2 span many words and
	// are cleared word by word in the last steps and wholesale in the first.
	for _, sh := range []pops.Shape{{D: 256, G: 256}, {D: 1000, G: 100}} {
		dst := perm.Random(sh.N(), rng)
		for _, v := range []Variant{Faithful, SplitDelivery} {
			cs = append(cs, counterCase{sh, dst, Options{Variant: v}, rng.Uint64()})
		}
	}
	return cs
}

// TestEngineCountersMatchSorted is the differential test of Run's
// per-coupler counters (slot2 and deliver in live.go) against the counting sorts they
// replaced (runSorted): on every case the two give the same Result, field
// by field — including the conflicts of slot 2 and every delivery
// sub-slot, the losses and the degree trace, which the model comparison
// (TestEngineMatchesModel) checks only on g ≤ 24. One Engine is reused
// across the cases, so counters left set by a step would show. The copies
// are counted in one part (the default, at these g) and split into parts of
// 8, 64 and 512 bytes of counters. Planted difference: counters not cleared between runs (one word of the slot-2
// counters set before a run) must make some case differ.
func TestEngineCountersMatchSorted(t *testing.T) {
	defer func(b int) { partBytes = b }(partBytes)
	for _, b := range []int{partBytes, 8, 64, 512} {
		partBytes = b // 8: a part per counter word
		t.Run(fmt.Sprintf("partBytes=%d", b), engineCountersMatchSorted)
	}
}

func engineCountersMatchSorted(t *testing.T) {
	var fast, plain Engine
	cases := counterCases(testing.Short())
	for i, c := range cases {
		want, err := plain.runSorted(c.sh, c.dst, rand.New(rand.NewPCG(c.seed, 1)), c.o)
		if err != nil {
			t.Fatal(err)
		}
		got, err := fast.Run(c.sh, c.dst, rand.New(rand.NewPCG(c.seed, 1)), c.o)
		if err != nil {
			t.Fatal(err)
		}
		if d := diffResults(got, want); d != "" {
			t.Fatalf("case %d, %v %+v seed %d: counters and sorts differ in %s", i, c.sh, c.o, c.seed, d)
		}
	}
	caught := 0
	for _, c := range cases {
		if c.sh.G < 8 {
			continue
		}
		want, err := plain.runSorted(c.sh, c.dst, rand.New(rand.NewPCG(c.seed, 1)), c.o)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fast.Run(c.sh, c.dst, rand.New(rand.NewPCG(c.seed, 1)), c.o); err != nil {
			t.Fatal(err)
		}
		fast.bm2[0] = ^uint64(0) // the planted fault: slot-2 couplers 0…31 look taken
		got, err := fast.Run(c.sh, c.dst, rand.New(rand.NewPCG(c.seed, 1)), c.o)
		clear(fast.bm2)
		if err != nil {
			t.Fatal(err)
		}
		if diffResults(got, want) != "" {
			caught++
		}
	}
	if caught == 0 {
		t.Fatal("planted fault (slot-2 counters not cleared) not caught by the comparison")
	}
}

// TestRunPCGMatchesRun: RunPCG, which draws the steps without a coin from
// the PCG directly, gives Run's Result on every differential case and
// leaves the stream where Run leaves it. Planted difference: a stream one
// draw ahead must make some case differ.
func TestRunPCGMatchesRun(t *testing.T) {
	var e Engine
	caught := 0
	for i, c := range counterCases(testing.Short()) {
		ref := rand.New(rand.NewPCG(c.seed, 1))
		want, err := e.Run(c.sh, c.dst, ref, c.o)
		if err != nil {
			t.Fatal(err)
		}
		src := rand.NewPCG(c.seed, 1)
		got, err := e.RunPCG(c.sh, c.dst, src, c.o)
		if err != nil {
			t.Fatal(err)
		}
		if d := diffResults(got, want); d != "" {
			t.Fatalf("case %d, %v %+v seed %d: RunPCG and Run differ in %s", i, c.sh, c.o, c.seed, d)
		}
		if src.Uint64() != ref.Uint64() {
			t.Fatalf("case %d: RunPCG leaves the stream elsewhere", i)
		}
		ahead := rand.NewPCG(c.seed, 1)
		ahead.Uint64() // the planted fault
		got, err = e.RunPCG(c.sh, c.dst, ahead, c.o)
		if err != nil {
			t.Fatal(err)
		}
		if diffResults(got, want) != "" {
			caught++
		}
	}
	if caught == 0 {
		t.Fatal("planted fault (stream one draw ahead) not caught")
	}
}

// select64 against the plain way (clear the lowest set bit r times): every
// rank of random words of every density, and the edge words.
func TestSelect64(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	words := []uint64{1, 1 << 63, ^uint64(0), 0x8000000000000001, 0xff00, 0xffffffff00000000}
	for range 3000 {
		w := rng.Uint64()
		for range rng.IntN(4) {
			w &= rng.Uint64() // sparser words
		}
		for range rng.IntN(3) {
			w |= rng.Uint64() // denser ones
		}
		words = append(words, w)
	}
	for _, w := range words {
		v := w
		for r := range bits.OnesCount64(w) {
			if got, want := select64(w, r), bits.TrailingZeros64(v); got != want {
				t.Fatalf("select64(%#x, %d) = %d, want %d", w, r, got, want)
			}
			v &= v - 1
		}
	}
}
