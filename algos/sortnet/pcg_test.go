package sortnet

import (
	"math/bits"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"routecheck/models/sortnet"
)

// intNNoReject is IntNPCG without the rejection step: a planted difference
// that TestIntNPCG's comparison must tell apart from rand.Rand.IntN.
func intNNoReject(src *rand.PCG, n int) int {
	hi, _ := bits.Mul64(src.Uint64(), uint64(n))
	return int(hi)
}

// IntNPCG returns rand.New(src).IntN's numbers and leaves src where IntN
// leaves it, for small n, powers of two, and n = 2^62 + 1, 3·2^61, where
// math/rand/v2 rejects about a quarter of the draws (so the rejection loop
// runs); without the rejection the sequences part. drawPCG, which writes
// IntNPCG out, is checked through TestWeight01PCGSame.
func TestIntNPCG(t *testing.T) {
	ns := []int{1, 2, 3, 5, 7, 64, 100, 1000, 4097, 1 << 16, 1<<16 + 1, 1<<31 - 1, 1<<62 + 1, 1<<62 + 12345, 1<<63 - 1, 3 << 61}
	seq := func(f func(*rand.PCG, int) int, n int) []int {
		src := rand.NewPCG(7, uint64(n))
		out := make([]int, 0, 201)
		for range 200 {
			out = append(out, f(src, n))
		}
		return append(out, int(src.Uint64()>>1)) // where the stream stands
	}
	ref := func(src *rand.PCG, n int) int { return rand.New(src).IntN(n) }
	for _, n := range ns {
		if got, want := seq(IntNPCG, n), seq(ref, n); !slices.Equal(got, want) {
			t.Fatalf("n = %d: IntNPCG gives %v…, rand.Rand.IntN %v…", n, got[:5], want[:5])
		}
	}
	if slices.Equal(seq(intNNoReject, 1<<62+1), seq(ref, 1<<62+1)) {
		t.Fatal("IntN without rejection gives the same sequence at n = 2^62 + 1: the comparison cannot tell")
	}
	defer func() {
		if recover() == nil {
			t.Error("IntNPCG(src, 0) did not panic")
		}
	}()
	IntNPCG(rand.NewPCG(1, 2), 0)
}

// UnsortedManyPCG gives what UnsortedManyBy gives through rand.New(src):
// the same first failing weights and inputs, and the stream left at the
// same place, on Batcher's network with one comparator deleted (which some
// weights expose) and on the whole network; a different deleted comparator
// changes the answers (the comparison can fail).
func TestWeight01PCGSame(t *testing.T) {
	const n, of = 40, 41
	bat, err := OddEvenMergeSort(n)
	if err != nil {
		t.Fatal(err)
	}
	del := bat.Clone()
	del.Stages[5] = slices.Delete(del.Stages[5], 1, 2)
	del2 := bat.Clone()
	del2.Stages[9] = slices.Delete(del2.Stages[9], 0, 1)
	type ans struct {
		k, weight int
		z         []int
		next      uint64
	}
	evalMany := func(nw sortnet.Network) func([][]uint64) {
		return func(ws [][]uint64) {
			for _, w := range ws {
				sortnet.Eval01(nw, w)
			}
		}
	}
	run := func(usePCG bool, nw sortnet.Network) []ans {
		var out []ans
		for _, group := range []int{1, 3, 4, 7} {
			g, src := NewWeight01(n), rand.NewPCG(3, uint64(group))
			r := rand.New(src)
			for k0 := 0; k0 < of; k0 += group {
				var a ans
				if usePCG {
					a.k, a.weight, a.z = g.UnsortedManyPCG(evalMany(nw), k0, min(of, k0+group), of, src)
				} else {
					a.k, a.weight, a.z = g.UnsortedManyBy(evalMany(nw), k0, min(of, k0+group), of, r)
				}
				a.next = src.Uint64()
				out = append(out, a)
			}
		}
		return out
	}
	for _, nw := range []sortnet.Network{del, bat} {
		want := run(false, nw)
		if got := run(true, nw); !reflect.DeepEqual(got, want) {
			t.Fatalf("UnsortedManyPCG differs from UnsortedManyBy:\n got %v\nwant %v", got, want)
		}
	}
	failures := 0
	for _, a := range run(false, del) {
		if a.z != nil {
			failures++
		}
	}
	if failures == 0 {
		t.Fatal("no failing group: the comparison needs some")
	}
	if reflect.DeepEqual(run(true, del2), run(false, del)) {
		t.Fatal("a different deleted comparator gave the same answers")
	}
}

// BenchmarkWeight01Draw: 64 random 0-1 inputs of weight n/2 on n = 8193
// wires, through rand.Rand.IntN and through the PCG directly.
//
//	go test -run '^$' -bench Weight01Draw ./algos/sortnet
func BenchmarkWeight01Draw(b *testing.B) {
	const n = 8193
	b.Run("rand", func(b *testing.B) {
		g, r := NewWeight01(n), rand.New(rand.NewPCG(1, 2))
		for range b.N {
			g.draw(1, 3, r)
		}
	})
	b.Run("pcg", func(b *testing.B) {
		g, src := NewWeight01(n), rand.NewPCG(1, 2)
		for range b.N {
			g.drawPCG(1, 3, src)
		}
	})
}
