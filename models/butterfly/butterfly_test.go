package butterfly

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"

	"pgregory.net/rapid"
)

// genShape draws a small network in either mode.
func genShape(t *rapid.T) Shape {
	n := rapid.IntRange(1, 4).Draw(t, "n")
	sh := Shape{LogN: n, R: rapid.IntRange(0, n).Draw(t, "r"), Mode: Mode(rapid.IntRange(0, 1).Draw(t, "mode"))}
	if sh.Mode == Buffered {
		sh.StrictBuffers = rapid.Bool().Draw(t, "strict")
	}
	return sh
}

// genPackets draws p pipelined random permutations' worth of packets
// (arbitrary destinations, not necessarily permutations).
func genPackets(t *rapid.T, sh Shape) []Packet {
	N := sh.N()
	k := rapid.IntRange(0, 3*N).Draw(t, "packets")
	ps := make([]Packet, k)
	for i := range ps {
		ps[i] = Packet{ID: int32(i), Src: int32(rapid.IntRange(0, N-1).Draw(t, "src")), Dst: int32(rapid.IntRange(0, N-1).Draw(t, "dst")),
			X: int32(rapid.IntRange(0, 1<<sh.R-1).Draw(t, "x")), Perm: 1}
	}
	return ps
}

// legalSends picks, for every non-empty queue, a random packet or nothing,
// skipping sends into occupied buffers under StrictBuffers.
func legalSends(st State, rng *rand.Rand) []Send {
	var a []Send
	for i, q := range st.Queues {
		if len(q) == 0 || rng.IntN(4) == 0 {
			continue
		}
		k := rng.IntN(len(q))
		if st.StrictBuffers {
			s, row, _ := st.Node(i)
			p := q[k]
			if s+1 < st.Stages() {
				to := st.RowAt(p, s+1)
				in := 0
				if to != row {
					in = 1
				}
				if st.Full[2*((s+1)*st.N()+int(to))+in] {
					continue
				}
			}
		}
		a = append(a, Send{Queue: int32(i), Index: int32(k)})
	}
	return a
}

// Random legal runs conserve packets, keep every packet on its path, never
// mutate the input state, and Step is deterministic and independent of the
// order of the actions.
func TestStepProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sh := genShape(t)
		ps := genPackets(t, sh)
		st, err := New(sh, ps)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 1))
		delivered := map[int32]bool{}
		for step := 0; step < 200 && st.InFlight() > 0; step++ {
			a := legalSends(st, rng)
			before := st.Clone()
			nx, ev, err := Step(st, a)
			if err != nil {
				t.Fatalf("legal step rejected: %v", err)
			}
			if !reflect.DeepEqual(before, st) {
				t.Fatal("Step modified its input state")
			}
			nx2, ev2, _ := Step(st, a)
			if !reflect.DeepEqual(nx, nx2) || !reflect.DeepEqual(ev, ev2) {
				t.Fatal("Step is not deterministic")
			}
			rev := make([]Send, len(a))
			for i := range a {
				rev[i] = a[len(a)-1-i]
			}
			nx3, _, _ := Step(st, rev)
			if !reflect.DeepEqual(nx, nx3) {
				t.Fatal("Step depends on the order of the actions")
			}
			if ev.Moves != len(a) {
				t.Fatalf("%d moves for %d sends", ev.Moves, len(a))
			}
			for _, d := range ev.Delivered {
				if delivered[d.ID] {
					t.Fatalf("packet %d delivered twice", d.ID)
				}
				delivered[d.ID] = true
				if d.Row != ps[d.ID].Dst {
					t.Fatalf("packet %d delivered at %d, destination %d", d.ID, d.Row, ps[d.ID].Dst)
				}
			}
			if err := CheckInvariants(nx, len(ps)); err != nil {
				t.Fatal(err)
			}
			st = nx
		}
	})
}

// The model rejects what the hardware cannot do.
func TestStepRejects(t *testing.T) {
	two := []Packet{{ID: 0, Src: 0, Dst: 0}, {ID: 1, Src: 0, Dst: 1}}
	nq, _ := New(Shape{LogN: 2, Mode: NodeQueue}, two)
	if _, _, err := Step(nq, []Send{{0, 0}, {0, 1}}); !errors.Is(err, ErrAction) {
		t.Errorf("node queue: two packets forwarded by one node: %v", err)
	}
	if _, _, err := Step(nq, []Send{{0, 2}}); !errors.Is(err, ErrAction) {
		t.Errorf("index out of range: %v", err)
	}
	if _, _, err := Step(nq, []Send{{-1, 0}}); !errors.Is(err, ErrAction) {
		t.Errorf("queue out of range: %v", err)
	}
	// Buffered: both packets 0 → 0 take the straight link of (0, 0).
	same := []Packet{{ID: 0, Src: 0, Dst: 0}, {ID: 1, Src: 0, Dst: 0}}
	bq, _ := New(Shape{LogN: 2, Mode: Buffered}, same)
	if _, _, err := Step(bq, []Send{{0, 0}, {0, 1}}); !errors.Is(err, ErrAction) {
		t.Errorf("buffered: two packets on one link: %v", err)
	}
	// A packet placed in the wrong link queue.
	bad := bq.Clone()
	bad.Queues[1], bad.Queues[0] = bad.Queues[0], nil
	if _, _, err := Step(bad, []Send{{1, 0}}); !errors.Is(err, ErrAction) {
		t.Errorf("buffered: packet sent over a link its path does not take: %v", err)
	}
	if err := CheckInvariants(bad, 2); err == nil {
		t.Error("CheckInvariants accepts a packet in the wrong link queue")
	}
	// Strict buffers: the second packet may not follow the first at once.
	sb, _ := New(Shape{LogN: 2, Mode: Buffered, StrictBuffers: true}, same)
	s1, _, err := Step(sb, []Send{{0, 0}})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := Step(s1, []Send{{0, 0}}); !errors.Is(err, ErrAction) {
		t.Errorf("strict: send into an occupied buffer accepted: %v", err)
	}
	// …while the default (pipelined) buffers accept it.
	pb, _ := New(Shape{LogN: 2, Mode: Buffered}, same)
	p1, _, _ := Step(pb, []Send{{0, 0}})
	if _, _, err := Step(p1, []Send{{0, 0}}); err != nil {
		t.Errorf("pipelined buffer refused: %v", err)
	}
	for _, sh := range []Shape{{LogN: 0}, {LogN: 3, R: 4}, {LogN: 3, R: -1}, {LogN: 3, StrictBuffers: true}} {
		if err := sh.Validate(); err == nil {
			t.Errorf("%+v accepted", sh)
		}
	}
	if _, err := New(Shape{LogN: 2, R: 1}, []Packet{{ID: 0, Src: 0, Dst: 0, X: 2}}); err == nil {
		t.Error("X ≥ 2^r accepted")
	}
	if _, err := New(Shape{LogN: 2}, []Packet{{ID: 0, Src: 0, Dst: 4}}); err == nil {
		t.Error("destination out of range accepted")
	}
	if _, err := New(Shape{LogN: 2}, []Packet{{ID: 3}, {ID: 3}}); err == nil {
		t.Error("duplicate ids accepted")
	}
}

// bitsOf is the tuple (a_1, …, a_n) of a row, a_1 first.
func bitsOf(x int32, n int) []int32 {
	b := make([]int32, n)
	for i := range n {
		b[i] = x >> (n - 1 - i) & 1
	}
	return b
}

// RowAt agrees with §3's path written out bit by bit as printed, and
// consecutive rows are joined by a link of the network (straight, or cross
// on bit Dim(s)).
func TestRowAtIsThePrintedPath(t *testing.T) {
	for n := 1; n <= 5; n++ {
		for r := 0; r <= n; r++ {
			sh := Shape{LogN: n, R: r}
			N := sh.N()
			for src := range N {
				for dst := range N {
					for x := range 1 << r {
						p := Packet{Src: int32(src), Dst: int32(dst), X: int32(x)}
						a, b, xs := bitsOf(int32(src), n), bitsOf(int32(dst), n), bitsOf(int32(x), r)
						// The printed path: stage s ≤ r: (x_1..x_s, a_{s+1}..a_n);
						// r < s ≤ n: (x_1..x_r, b_{r+1}..b_s, a_{s+1}..a_n);
						// s = n + j: (b_1..b_j, x_{j+1}..x_r, b_{r+1}..b_n).
						for s := 0; s <= n+r; s++ {
							want := make([]int32, n)
							for i := 1; i <= n; i++ {
								switch {
								case s <= n && i <= min(s, r):
									want[i-1] = xs[i-1]
								case s <= n && i <= s:
									want[i-1] = b[i-1]
								case s <= n:
									want[i-1] = a[i-1]
								case i <= s-n || i > r:
									want[i-1] = b[i-1]
								default:
									want[i-1] = xs[i-1]
								}
							}
							got := sh.RowAt(p, s)
							if !reflect.DeepEqual(bitsOf(got, n), want) {
								t.Fatalf("n=%d r=%d %d→%d x=%d stage %d: row %v, printed %v", n, r, src, dst, x, s, bitsOf(got, n), want)
							}
							if s > 0 {
								if d := got ^ sh.RowAt(p, s-1); d != 0 && d != sh.Mask(s) {
									t.Fatalf("stage %d: rows %d and %d are not linked", s, sh.RowAt(p, s-1), got)
								}
							}
						}
					}
				}
			}
		}
	}
}
