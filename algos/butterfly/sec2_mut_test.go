package butterfly

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	mb "routecheck/models/butterfly"
	"routecheck/models/perm"
)

// Tests for surviving mutants of sec2.go (issue 9 E).

// K = 1 is in the allowed range [1, MaxSec2K]: a tiny factor gives
// K = ⌈1e-9·(2 + 1)⌉ = 1, Sec2Packets (and Launch, which it calls) accept it
// and every priority is 1.
func TestSec2KOneAccepted(t *testing.T) {
	o := Sec2Options{Shape: mb.Shape{LogN: 2}, KFactor: 1e-9}
	if k := o.K(1); k != 1 {
		t.Fatalf("K(1) = %d, want ⌈1e-9·3⌉ = 1", k)
	}
	ps, err := Sec2Packets(o, [][]int32{{3, 2, 1, 0}}, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatalf("K = 1 rejected: %v", err)
	}
	for _, p := range ps {
		if pr := Sec2Prio(1, p.Key); pr != 1 {
			t.Fatalf("packet %d priority %d, want 1 (K = 1)", p.ID, pr)
		}
	}
}

// The error for a bad permutation names it by its 1-based index ℓ.
func TestSec2PacketsErrorNamesPermutation(t *testing.T) {
	o := Sec2Options{Shape: mb.Shape{LogN: 2}}
	_, err := Sec2Packets(o, [][]int32{{0, 1, 2, 3}, {0, 1, 2}}, rand.New(rand.NewPCG(1, 2)))
	if err == nil || !strings.Contains(err.Error(), "permutation 2 has 3 entries") {
		t.Fatalf("error %v, want one naming permutation 2 with 3 entries", err)
	}
	_, err = Sec2Packets(o, [][]int32{{0, 1, 2, 3}, {0, 1, 1, 3}}, rand.New(rand.NewPCG(1, 2)))
	if err == nil || !strings.Contains(err.Error(), "permutation 2:") {
		t.Fatalf("error %v, want one naming permutation 2", err)
	}
}

// The draws of Sec2Packets, recomputed from the documented order on a
// second stream: per packet (input by input, then ℓ) X = IntN(2^r) only
// when r > 0, then π = 1 + IntN(K). With r = 0 there is no X draw at all.
func TestSec2PacketsDrawOrder(t *testing.T) {
	for _, r := range []int{0, 1, 2} {
		o := Sec2Options{Shape: mb.Shape{LogN: 3, R: r}}
		pi := []int32{5, 2, 7, 0, 1, 3, 6, 4}
		perms := [][]int32{pi, pi}
		K := 3 + 2 // ⌈1·(log N + p)⌉
		ps, err := Sec2Packets(o, perms, rand.New(rand.NewPCG(11, 12)))
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(11, 12))
		for i := range 8 {
			for l := range perms {
				x := 0
				if r > 0 {
					x = rng.IntN(1 << r)
				}
				pr := 1 + rng.IntN(K)
				p := ps[2*i+l]
				if int(p.X) != x || Sec2Prio(K, p.Key) != pr || int(p.Key&0xffffffff) != i {
					t.Fatalf("r=%d packet (%d, ℓ=%d): X %d priority %d key-src %d, want X %d priority %d src %d",
						r, i, l+1, p.X, Sec2Prio(K, p.Key), p.Key&0xffffffff, x, pr, i)
				}
			}
		}
	}
}

// The engine equals the step model on N = 128 and 256 (more than one
// 64-bit word of the per-stage bitmaps), every rule, r = 0 and 2.
func TestSec2EngineEqualsModelWide(t *testing.T) {
	var e Sec2Engine
	for _, n := range []int{7, 8} {
		for _, r := range []int{0, 2} {
			for _, rule := range Sec2Rules {
				seed := uint64(100*n + 10*r + int(rule))
				o := Sec2Options{Shape: mb.Shape{LogN: n, R: r}, Rule: rule, KFactor: 0.25}
				prng := rand.New(rand.NewPCG(seed, 7))
				perms := [][]int32{perm.Random(1<<n, prng), perm.Random(1<<n, prng)}
				ps, err := Sec2Packets(o, perms, rand.New(rand.NewPCG(seed, 1)))
				if err != nil {
					t.Fatal(err)
				}
				want := sec2OnModel(t, o, len(perms), ps, rand.New(rand.NewPCG(seed, 2)))
				got, err := e.Run(o, ps, rand.New(rand.NewPCG(seed, 2)), 100000)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got.Latency, want) {
					t.Fatalf("n=%d r=%d %v: engine and model differ", n, r, rule)
				}
			}
		}
	}
}

// The engine rejects a source, destination or X one past its range.
func TestSec2EngineRejectsOutOfRange(t *testing.T) {
	o := Sec2Options{Shape: mb.Shape{LogN: 2, R: 1}}
	for _, p := range []mb.Packet{
		{Src: 4, Dst: 0}, {Src: 0, Dst: 4}, {Src: 0, Dst: 0, X: 2},
	} {
		var e Sec2Engine
		if _, err := e.Run(o, []mb.Packet{p}, rand.New(rand.NewPCG(1, 2)), 100); err == nil {
			t.Fatalf("packet %+v accepted on N = 4, r = 1", p)
		}
	}
}

// A lone packet crosses one link per step: with log N = 2 and r = 1 it is
// delivered at step log N + r = 3, so maxSteps = 3 suffices and 2 does not.
func TestSec2EngineMaxStepsExact(t *testing.T) {
	o := Sec2Options{Shape: mb.Shape{LogN: 2, R: 1}}
	ps := []mb.Packet{{Src: 1, Dst: 2, X: 1}}
	var e Sec2Engine
	res, err := e.Run(o, ps, rand.New(rand.NewPCG(1, 2)), 3)
	if err != nil || res.Latency[0] != 3 || res.Steps != 3 {
		t.Fatalf("maxSteps 3: %v, latency %v, steps %d; want delivery at 3", err, res.Latency, res.Steps)
	}
	if _, err := e.Run(o, ps, rand.New(rand.NewPCG(1, 2)), 2); err == nil {
		t.Fatal("maxSteps 2 accepted a packet that needs 3 steps")
	}
}

// K = MaxSec2K = 2^30 is the top of the allowed range: log N = 1, p = 1 and
// factor 2^29 give K = 2^29·2 = 2^30 exactly; Sec2Packets and Launch accept
// it and the priorities lie in [1, 2^30]. One more is rejected.
func TestSec2KMaxAccepted(t *testing.T) {
	o := Sec2Options{Shape: mb.Shape{LogN: 1}, KFactor: 1 << 29}
	if k := o.K(1); k != MaxSec2K {
		t.Fatalf("K(1) = %d, want 2^30", k)
	}
	ps, err := Sec2Packets(o, [][]int32{{1, 0}}, rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		t.Fatalf("K = 2^30 rejected: %v", err)
	}
	for _, p := range ps {
		if pr := Sec2Prio(MaxSec2K, p.Key); pr < 1 || pr > MaxSec2K {
			t.Fatalf("packet %d priority %d outside [1, 2^30]", p.ID, pr)
		}
	}
	o.KFactor = 1<<29 + 1e-6 // K = ⌈2^30 + 2e-6⌉ = 2^30 + 1
	if _, err := Sec2Packets(o, [][]int32{{1, 0}}, rand.New(rand.NewPCG(3, 4))); err == nil {
		t.Fatal("K = 2^30 + 1 accepted")
	}
}

// Under Sec2TieSource, packets equal in (Key, Perm) — same priority, source
// and ℓ, which Sec2Packets never makes but Run and Route accept — go in
// queue order in both implementations: the engine equals the step model on
// such inputs (hand-built: two packets per input, both ℓ = 1, priority 1).
func TestSec2TieSourceDuplicatesQueueOrder(t *testing.T) {
	o := Sec2Options{Shape: mb.Shape{LogN: 3, R: 1}, Rule: Sec2TieSource}
	pi := perm.Random(8, rand.New(rand.NewPCG(5, 6)))
	var ps []mb.Packet
	for i := range int32(8) {
		for c := range int32(2) {
			ps = append(ps, mb.Packet{ID: int32(len(ps)), Src: i, Dst: pi[(int(i)+int(c)*3)%8], X: (i + c) % 2, Perm: 1, Key: sec2Key(1, 1, i)})
		}
	}
	want := sec2OnModel(t, o, 2, ps, rand.New(rand.NewPCG(5, 7)))
	var e Sec2Engine
	got, err := e.Run(o, ps, rand.New(rand.NewPCG(5, 7)), 1000)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Latency, want) {
		t.Fatalf("engine %v, model %v", got.Latency, want)
	}
	// In queue order the first of input 0's two packets leaves first: it
	// is delivered at step log N + r = 4 (nothing is ahead of it).
	if want[0] != 4 {
		t.Fatalf("first packet of input 0 delivered at %d, want 4", want[0])
	}
}
