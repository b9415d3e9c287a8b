package butterfly

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"pgregory.net/rapid"

	mb "routecheck/models/butterfly"
	"routecheck/models/perm"
)

// sec2OnModel routes ps with §2's router on the step model (through the
// Router interface), checking the invariants after every step, and returns
// every packet's delivery step.
func sec2OnModel(t interface {
	Fatal(...any)
	Fatalf(string, ...any)
}, o Sec2Options, p int, ps []mb.Packet, rng *rand.Rand) []int32 {
	st, err := mb.New(o.Shape, ps)
	if err != nil {
		t.Fatal(err)
	}
	lat := make([]int32, len(ps))
	r := Sec2Router{Sec2Options: o, P: p}
	for st.InFlight() > 0 {
		if st.Step > 100000 {
			t.Fatal("no delivery after 100000 steps")
		}
		next, ev, _, err := mb.RouteStep(st, r, rng)
		if err != nil {
			t.Fatal(err)
		}
		if err := mb.CheckInvariants(next, len(ps)); err != nil {
			t.Fatal(err)
		}
		for _, d := range ev.Delivered {
			if d.Row != ps[d.ID].Dst {
				t.Fatalf("packet %d delivered at %d, destination %d", d.ID, d.Row, ps[d.ID].Dst)
			}
			lat[d.ID] = int32(next.Step)
		}
		st = next
	}
	return lat
}

// genSec2 draws a §2 instance: n ≤ maxN, r ≤ n, a rule, a K factor, and
// 1…4 permutations (copies of one, or independent).
func genSec2(t *rapid.T, maxN int) (Sec2Options, [][]int32, uint64) {
	n := rapid.IntRange(1, maxN).Draw(t, "n")
	o := Sec2Options{Shape: mb.Shape{LogN: n, R: rapid.IntRange(0, n).Draw(t, "r")},
		Rule:    Sec2Rules[rapid.IntRange(0, len(Sec2Rules)-1).Draw(t, "rule")],
		KFactor: []float64{0, 0.25, 1, 4}[rapid.IntRange(0, 3).Draw(t, "kf")]}
	seed := rapid.Uint64().Draw(t, "seed")
	prng := rand.New(rand.NewPCG(seed, 7))
	perms := make([][]int32, rapid.IntRange(1, 4).Draw(t, "t"))
	same := rapid.Bool().Draw(t, "copies")
	for l := range perms {
		perms[l] = perm.Random(1<<n, prng)
		if same && l > 0 {
			perms[l] = perms[0]
		}
	}
	return o, perms, seed
}

// The fast engine gives every packet the step model's delivery step, from
// the same conflict-resolution stream, under every rule (differential
// test); and the planted engine fault (no draw among tied priorities) is
// told apart by the same comparison on some instance.
func TestSec2EngineEqualsModel(t *testing.T) {
	var e Sec2Engine
	rapid.Check(t, func(t *rapid.T) {
		o, perms, seed := genSec2(t, 5)
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
			t.Fatalf("engine %v, model %v", got.Latency, want)
		}
		last := int32(0)
		for _, l := range want {
			last = max(last, l)
		}
		if int(last) != got.Steps {
			t.Fatalf("Steps %d, last delivery %d", got.Steps, last)
		}
	})
}

func TestSec2EngineFaultDiffers(t *testing.T) {
	var e Sec2Engine
	// Copies of one permutation with K = ⌈0.25·(log N + p)⌉ make ties
	// common; some seed must tell the faulty engine from the model.
	for seed := range uint64(200) {
		o := Sec2Options{Shape: mb.Shape{LogN: 4}, Rule: Sec2TieRandom, KFactor: 0.25}
		pi := perm.Random(16, rand.New(rand.NewPCG(seed, 3)))
		ps, err := Sec2Packets(o, [][]int32{pi, pi, pi, pi}, rand.New(rand.NewPCG(seed, 1)))
		if err != nil {
			t.Fatal(err)
		}
		want := sec2OnModel(t, o, 4, ps, rand.New(rand.NewPCG(seed, 2)))
		o.Fault = Sec2FaultNoTieDraw
		got, err := e.Run(o, ps, rand.New(rand.NewPCG(seed, 2)), 100000)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Latency, want) {
			return
		}
	}
	t.Fatal("the engine without tie draws matched the model on 200 instances")
}

// Launch draws exactly what Sec2Packets draws; priorities lie in [1, K]
// with K = ⌈f·(log N + p)⌉ and every value of a small range occurs.
func TestSec2PacketsPriorities(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		o, perms, seed := genSec2(t, 4)
		ps, err := Sec2Packets(o, perms, rand.New(rand.NewPCG(seed, 1)))
		if err != nil {
			t.Fatal(err)
		}
		f := o.KFactor
		if f == 0 {
			f = 1
		}
		K := o.K(len(perms))
		if float64(K) < f*float64(o.Shape.LogN+len(perms)) || float64(K-1) >= f*float64(o.Shape.LogN+len(perms)) {
			t.Fatalf("K = %d for factor %g, log N %d, p %d", K, f, o.Shape.LogN, len(perms))
		}
		rng := rand.New(rand.NewPCG(seed, 1))
		r := Sec2Router{Sec2Options: o, P: len(perms)}
		for k, p := range ps {
			if pr := Sec2Prio(K, p.Key); pr < 1 || pr > K {
				t.Fatalf("packet %d: priority %d outside [1, %d]", k, pr, K)
			}
			if int32(p.Key&0xffffffff) != p.Src {
				t.Fatalf("packet %d: key %x does not carry source %d", k, p.Key, p.Src)
			}
			x, key := r.Launch(o.Shape, mb.Packet{ID: p.ID, Src: p.Src, Dst: p.Dst, Perm: p.Perm}, rng)
			if x != p.X || key != p.Key {
				t.Fatalf("packet %d: Launch (%d, %x), Sec2Packets (%d, %x)", k, x, key, p.X, p.Key)
			}
			if wantDst := perms[p.Perm-1][p.Src]; p.Dst != wantDst {
				t.Fatalf("packet %d: destination %d, permutation %d sends %d to %d", k, p.Dst, p.Perm, p.Src, wantDst)
			}
		}
	})
	// Every value of [1, K] occurs, none outside: K = 4 + 4 = 8 at N = 16,
	// p = 4 (64 packets: a value is missed with probability ≤ 8·(7/8)^64 ≈ 2e-3,
	// and the seed is fixed).
	o := Sec2Options{Shape: mb.Shape{LogN: 4}}
	pi := perm.Random(16, rand.New(rand.NewPCG(1, 1)))
	ps, err := Sec2Packets(o, [][]int32{pi, pi, pi, pi}, rand.New(rand.NewPCG(5, 5)))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]int{}
	for _, p := range ps {
		seen[Sec2Prio(8, p.Key)]++
	}
	for v := 1; v <= 8; v++ {
		if seen[v] == 0 {
			t.Errorf("priority %d never drawn: %v", v, seen)
		}
	}
	if len(seen) != 8 {
		t.Errorf("priorities outside [1, 8]: %v", seen)
	}
}

// sec2Pick's three rules on hand-made queues.
func TestSec2Pick(t *testing.T) {
	K := 10
	q := []mb.Packet{
		{Src: 5, Perm: 1, Key: sec2Key(K, 7, 5)},
		{Src: 3, Perm: 1, Key: sec2Key(K, 9, 3)},
		{Src: 9, Perm: 1, Key: sec2Key(K, 9, 9)},
		{Src: 3, Perm: 2, Key: sec2Key(K, 2, 3)},
		{Src: 1, Perm: 1, Key: sec2Key(K, 9, 1)},
	}
	at := func(i int) mb.Packet { return q[i] }
	// As printed: the highest priority (9: packets 1, 2, 4), then the
	// smaller source (1: packet 4).
	if k := sec2Pick(Sec2TieSource, len(q), at, nil, false); k != 4 {
		t.Errorf("tie by source picks %d, want 4", k)
	}
	// Random ties: only packets 1, 2, 4, each about a third of the time
	// (3000 draws, fixed seed; each count within ±150 of 1000 is a 5.2σ band).
	rng := rand.New(rand.NewPCG(2, 2))
	cnt := map[int]int{}
	for range 3000 {
		cnt[sec2Pick(Sec2TieRandom, len(q), at, rng, false)]++
	}
	for _, k := range []int{1, 2, 4} {
		if cnt[k] < 850 || cnt[k] > 1150 {
			t.Errorf("random ties: packet %d picked %d of 3000 times, want ≈ 1000: %v", k, cnt[k], cnt)
		}
	}
	if len(cnt) != 3 {
		t.Errorf("random ties picked outside the highest priority: %v", cnt)
	}
	// The planted fault serves the first tied packet.
	if k := sec2Pick(Sec2TieRandom, len(q), at, rng, true); k != 1 {
		t.Errorf("no-draw fault picks %d, want 1", k)
	}
	// Random resolution: every packet, priorities ignored.
	cnt = map[int]int{}
	for range 5000 {
		cnt[sec2Pick(Sec2Random, len(q), at, rng, false)]++
	}
	for k := range q {
		if cnt[k] < 850 || cnt[k] > 1150 {
			t.Errorf("random resolution: packet %d picked %d of 5000 times, want ≈ 1000", k, cnt[k])
		}
	}
	// One packet: no draw (a nil rng would panic).
	for _, rule := range Sec2Rules {
		if k := sec2Pick(rule, 1, at, nil, false); k != 0 {
			t.Errorf("%v on one packet picks %d", rule, k)
		}
	}
}

func TestSec2BadParameters(t *testing.T) {
	pi := []int32{0, 1}
	for _, c := range []struct {
		o    Sec2Options
		want string
	}{
		{Sec2Options{Shape: mb.Shape{LogN: 1}, KFactor: -1}, "K factor"},
		{Sec2Options{Shape: mb.Shape{LogN: 1}, Rule: 7}, "§2 rule"},
		{Sec2Options{Shape: mb.Shape{LogN: 0}}, "log N"},
	} {
		if _, err := Sec2Packets(c.o, [][]int32{pi}, rand.New(rand.NewPCG(1, 1))); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want one naming %q", c.o, err, c.want)
		}
	}
	var e Sec2Engine
	o := Sec2Options{Shape: mb.Shape{LogN: 1, Mode: mb.Buffered}}
	ps, err := Sec2Packets(o, [][]int32{pi}, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Run(o, ps, rand.New(rand.NewPCG(1, 1)), 100); err == nil || !strings.Contains(err.Error(), "node-queue") {
		t.Errorf("engine on the buffered model: error %v", err)
	}
	if _, err := Sec2Packets(Sec2Options{Shape: mb.Shape{LogN: 1}}, [][]int32{{0, 0}}, rand.New(rand.NewPCG(1, 1))); err == nil {
		t.Error("a non-permutation was accepted")
	}
}
