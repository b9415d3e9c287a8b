package mesh

import (
	"slices"
	"testing"

	amesh "routecheck/algos/mesh"
	"routecheck/internal/seeds"
)

// The hand-built Theorem 1 case (thm1QueueHand's comment works it out): a
// k-k distribution with n = 2, k = 8 whose end-of-Phase-2 queue at PU (0,0)
// is 14, on the step model too; the saved replay file is the same instance.
func TestThm1QueueHand(t *testing.T) {
	const n, k = 2, 8
	d := thm1QueueHand()
	recv := make([]int, n*n)
	for p, ds := range d {
		if len(ds) != k {
			t.Fatalf("PU %d sends %d packets", p, len(ds))
		}
		for _, x := range ds {
			recv[int(x.Row)*n+int(x.Col)]++
		}
	}
	if !slices.Equal(recv, []int{k, k, k, k}) {
		t.Fatalf("receives %v: not a k-k distribution", recv)
	}
	q, pu, measured, err := endQueue2(n, d, nil)
	if err != nil {
		t.Fatal(err)
	}
	if q != 14 || pu != 0 || measured != 14 {
		t.Fatalf("end-of-Phase-2 queue %d at PU %d (step model %d), want 14 at PU 0", q, pu, measured)
	}
	fn, fk, fd, err := thm1Cases[0].parse()
	if err != nil || fn != n || fk != k || !slices.EqualFunc(fd, d, slices.Equal) {
		t.Fatalf("props/testdata/mesh-thm1-queue-n2-k8-colored.json is not thm1QueueHand: n = %d, k = %d, err %v", fn, fk, err)
	}
}

// Thm1QueueRepaired at hand-computed points: k + ⌊(n−1)·min(n², k)/n⌋ +
// 2·n²·log n.
func TestThm1QueueRepairedValues(t *testing.T) {
	for _, c := range []struct{ n, k, want int }{
		{2, 8, 8 + 2 + 8},           // min(4, 8) = 4, (1·4)/2 = 2
		{4, 16, 16 + 12 + 64},       // min(16, 16) = 16, 3·16/4 = 12
		{4, 8, 8 + 6 + 64},          // min(16, 8) = 8, 3·8/4 = 6
		{8, 64, 64 + 56 + 384},      // 7·64/8 = 56, 2·64·3 = 384
		{8, 192, 192 + 56 + 384},    // min(64, 192) = 64
		{16, 32, 32 + 30 + 2*256*4}, // min(256, 32) = 32, 15·32/16 = 30
	} {
		if got := Thm1QueueRepaired(c.n, c.k); got != c.want {
			t.Errorf("Thm1QueueRepaired(%d, %d) = %d, want %d", c.n, c.k, got, c.want)
		}
	}
}

// shrinkKK keeps the predicate, keeps the distribution k-k and never adds
// travelling packets; with an always-true predicate every packet goes home.
func TestShrinkKK(t *testing.T) {
	const n, k = 4, 8
	d := GenKK(KKUniform, n, k, seeds.Rand(5))
	kk := func(d [][]amesh.Dest) bool {
		recv := make([]int, n*n)
		for _, ds := range d {
			for _, x := range ds {
				recv[int(x.Row)*n+int(x.Col)]++
			}
		}
		return slices.Max(recv) == k && slices.Min(recv) == k
	}
	if s := shrinkKK(n, d, func([][]amesh.Dest) bool { return true }); travelling(n, s) != 0 || !kk(s) {
		t.Fatalf("always-bad: %d packets still travel", travelling(n, s))
	}
	// Keep at least 20 packets travelling: the shrink stops there.
	s := shrinkKK(n, d, func(x [][]amesh.Dest) bool { return travelling(n, x) >= 20 })
	if travelling(n, s) != 20 || !kk(s) || travelling(n, d) < 20 {
		t.Fatalf("bounded shrink: %d travelling (from %d)", travelling(n, s), travelling(n, d))
	}
}
