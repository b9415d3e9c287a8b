package butterfly

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	mb "routecheck/models/butterfly"
	"routecheck/models/perm"
)

// RangeR = ⌊c·log N·2^r⌋, c = DefaultC = 7 when C is 0.
func TestRangeR(t *testing.T) {
	for _, c := range []struct {
		c       float64
		logN, r int
		want    int64
	}{{2, 3, 1, 12}, {1.5, 4, 2, 24}, {0, 3, 1, 42}, {0.3, 5, 0, 1}} {
		o := Options{Shape: mb.Shape{LogN: c.logN, R: c.r}, C: c.c}
		if got := o.RangeR(); got != c.want {
			t.Errorf("c = %v, log N = %d, r = %d: RangeR = %d, want %d", c.c, c.logN, c.r, got, c.want)
		}
	}
}

// Block(ℓ, log N) = ⌈ℓ/log N⌉.
func TestBlock(t *testing.T) {
	for _, c := range [][3]int{{0, 3, 0}, {1, 3, 1}, {3, 3, 1}, {4, 3, 2}, {7, 2, 4}, {1, 1, 1}} {
		if got := Block(c[0], c[1]); got != c[2] {
			t.Errorf("Block(%d, %d) = %d, want %d", c[0], c[1], got, c[2])
		}
	}
}

// less orders by Key, then by Perm; it is strict (a packet is not before
// itself).
func TestLess(t *testing.T) {
	a := mb.Packet{Key: 5, Perm: 1}
	b := mb.Packet{Key: 5, Perm: 2}
	c := mb.Packet{Key: 4, Perm: 9}
	if !less(a, b) || less(b, a) || less(a, a) || !less(c, a) || less(a, c) {
		t.Error("less is not (Key, Perm) lexicographic and strict")
	}
}

// Packets' limits: the priority range must stay below 2^32 (c = 2^31 at
// log N = 2, r = 0 gives exactly 2^32: refused; 2^31 − 1 is fine), and
// ⌈t/log N⌉ < 256 (t = 256 permutations at log N = 1 refused, 255 fine).
// A bad permutation is named by its 1-based number.
func TestPacketsLimits(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	sh := mb.Shape{LogN: 2}
	id := []int32{0, 1, 2, 3}
	if _, err := Packets(Options{Shape: sh, C: 1 << 31}, [][]int32{id}, rng); err == nil {
		t.Error("priority range 2^32 accepted")
	}
	if _, err := Packets(Options{Shape: sh, C: 1<<31 - 1}, [][]int32{id}, rng); err != nil {
		t.Errorf("priority range 2^32 − 4: %v", err)
	}
	one := mb.Shape{LogN: 1}
	for _, c := range []struct {
		t  int
		ok bool
	}{{255, true}, {256, false}} {
		perms := make([][]int32, c.t)
		for i := range perms {
			perms[i] = []int32{1, 0}
		}
		if _, err := Packets(Options{Shape: one}, perms, rng); (err == nil) != c.ok {
			t.Errorf("%d permutations at log N = 1: %v, want ok %v", c.t, err, c.ok)
		}
	}
	if _, err := Packets(Options{Shape: sh}, [][]int32{id, {0, 0, 1, 2}}, rng); err == nil || !strings.Contains(err.Error(), "permutation 2") {
		t.Errorf("bad second permutation: %v", err)
	}
	if _, err := Packets(Options{Shape: sh}, [][]int32{{0, 1, 2}}, rng); err == nil || !strings.Contains(err.Error(), "permutation 1 has 3 entries") {
		t.Errorf("short first permutation: %v", err)
	}
}

// Every packet's path crosses one node per stage 0 … n + r, so the
// congestions add up to (packets)·(n + r + 1).
func TestCongestionSums(t *testing.T) {
	sh := mb.Shape{LogN: 3, R: 1}
	rng := rand.New(rand.NewPCG(2, 2))
	ps, err := Packets(Options{Shape: sh}, [][]int32{perm.Random(8, rng), perm.Random(8, rng)}, rng)
	if err != nil {
		t.Fatal(err)
	}
	var sum int64
	for _, c := range Congestion(sh, ps) {
		sum += int64(c)
	}
	if want := int64(len(ps) * (sh.Stages() + 1)); sum != want {
		t.Errorf("Σ C(v) = %d, want %d", sum, want)
	}
}

// RunOnModel stops with an error when maxSteps is one short of what the run
// needs, and not when it is exactly enough.
func TestRunOnModelStepCap(t *testing.T) {
	sh := mb.Shape{LogN: 3}
	rng := rand.New(rand.NewPCG(3, 3))
	ps, err := Packets(Options{Shape: sh}, [][]int32{perm.Random(8, rng), perm.Random(8, rng)}, rng)
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Shape: sh}
	full, err := RunOnModel(o, ps, math.MaxInt)
	if err != nil || full.Steps == 0 {
		t.Fatalf("%+v %v", full, err)
	}
	if _, err := RunOnModel(o, ps, full.Steps); err != nil {
		t.Errorf("maxSteps = %d, exactly enough: %v", full.Steps, err)
	}
	if _, err := RunOnModel(o, ps, full.Steps-1); err == nil {
		t.Errorf("maxSteps = %d, one short: no error", full.Steps-1)
	}
}

// Engine.Run refuses packets outside the network (source or destination N,
// X = 2^r) and, like RunOnModel, errs when maxSteps is one short but not
// when it is exactly enough.
func TestEngineLimits(t *testing.T) {
	var e Engine
	sh := mb.Shape{LogN: 2, R: 1}
	o := Options{Shape: sh}
	for _, p := range []mb.Packet{{Src: 4, Dst: 0}, {Src: 0, Dst: 4}, {Src: 0, Dst: 1, X: 2}, {Src: -1}, {Dst: -1}, {X: -1}} {
		if _, err := e.Run(o, []mb.Packet{p}, 100); err == nil || !strings.Contains(err.Error(), "out of range") {
			t.Errorf("packet %+v on N = 4, r = 1: %v, want it refused as out of range", p, err)
		}
	}
	rng := rand.New(rand.NewPCG(4, 4))
	ps, err := Packets(o, [][]int32{perm.Random(4, rng), perm.Random(4, rng)}, rng)
	if err != nil {
		t.Fatal(err)
	}
	full, err := e.Run(o, ps, math.MaxInt32)
	if err != nil || full.Steps == 0 {
		t.Fatalf("%+v %v", full, err)
	}
	if _, err := e.Run(o, ps, full.Steps); err != nil {
		t.Errorf("maxSteps = %d, exactly enough: %v", full.Steps, err)
	}
	if _, err := e.Run(o, ps, full.Steps-1); err == nil {
		t.Errorf("maxSteps = %d, one short: no error", full.Steps-1)
	}
}

// Greedy.Launch panics (a programmer error: Packets refuses these first) at
// a priority range of 2^32 and at block 256, and not just below.
func TestLaunchLimits(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	panics := func(g Greedy, sh mb.Shape, p mb.Packet) (did bool) {
		defer func() { did = recover() != nil }()
		g.Launch(sh, p, rng)
		return false
	}
	sh := mb.Shape{LogN: 2}
	if !panics(Greedy{Options{C: 1 << 31}}, sh, mb.Packet{Perm: 1}) || panics(Greedy{Options{C: 1<<31 - 1}}, sh, mb.Packet{Perm: 1}) {
		t.Error("Launch: range 2^32 must panic, 2^32 − 4 not")
	}
	one := mb.Shape{LogN: 1}
	if !panics(Greedy{}, one, mb.Packet{Perm: 256}) || panics(Greedy{}, one, mb.Packet{Perm: 255}) {
		t.Error("Launch: block 256 must panic, 255 not")
	}
}

// §4's runs: every packet needs at least n + r steps (one per stage), and
// the mean latency is at most the last delivery.
func TestSec4Run(t *testing.T) {
	var e Engine
	o := Options{Shape: mb.Shape{LogN: 3, R: 1}}
	mean, maxLat, err := Sec4Run(&e, o, 2, rand.New(rand.NewPCG(6, 6)))
	if err != nil || mean < float64(o.Shape.Stages()) || mean > float64(maxLat) {
		t.Errorf("mean %v, max %d, err %v; want n + r = %d ≤ mean ≤ max", mean, maxLat, err, o.Shape.Stages())
	}
}
