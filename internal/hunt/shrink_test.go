package hunt

import (
	"context"
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"routecheck/internal/seeds"
	"routecheck/models/perm"
)

// atLeastMoved is a metric whose minimal instances are known by hand: the
// number of packets that are not fixed points.
func atLeastMoved(p []int32) (float64, error) { return float64(Moved(p)), nil }

// randomPartial is a random partial permutation: a random permutation with
// about a third of its entries removed.
func randomPartial(n int, rng *rand.Rand) []int32 {
	p := perm.Random(n, rng)
	for i := range p {
		if rng.IntN(3) == 0 {
			p[i] = perm.None
		}
	}
	return p
}

// cycles2 reports whether every packet of p that is not a fixed point is
// in a 2-cycle (p[p[i]] = i).
func cycles2(p []int32) bool {
	for i, x := range p {
		if x != perm.None && x != int32(i) && p[x] != int32(i) {
			return false
		}
	}
	return true
}

// "At least m packets not fixed points": on a partial permutation every
// fixed point and every surplus packet can go, so exactly m packets remain,
// none a fixed point. On a full permutation only fixing swaps are allowed,
// and one swap fixes one packet, or two when they form a 2-cycle: m
// remain, or m + 1 when every move left would fix a 2-cycle (then every
// moved packet is in one).
func TestShrinkAtLeastMMoved(t *testing.T) {
	ctx := context.Background()
	for k := range uint64(20) {
		rng := seeds.Rand(41, k)
		n := 8 + rng.IntN(24)
		m := 2 + rng.IntN(5)
		p := randomPartial(n, rng)
		if Moved(p) < m {
			continue
		}
		q, st, err := ShrinkPartial(ctx, p, atLeastMoved, float64(m), 0)
		if err != nil || !st.Minimal {
			t.Fatalf("partial: %v, %+v", err, st)
		}
		if err := perm.Validate(q, false); err != nil {
			t.Fatal(err)
		}
		if Packets(q) != m || Moved(q) != m {
			t.Errorf("partial %v shrunk to %v: %d packets, %d moved, want %d and %d", p, q, Packets(q), Moved(q), m, m)
		}
		f := perm.Random(n, rng)
		if Moved(f) < m {
			continue
		}
		g, st, err := ShrinkPerm(ctx, f, atLeastMoved, float64(m), 0)
		if err != nil || !st.Minimal {
			t.Fatalf("full: %v, %+v", err, st)
		}
		if err := perm.Validate(g, true); err != nil {
			t.Fatal(err)
		}
		switch mv := Moved(g); {
		case mv == m:
		case mv == m+1 && cycles2(g):
		default:
			t.Errorf("full %v shrunk to %v: %d moved, want %d (or %d, all in 2-cycles)", f, g, mv, m, m+1)
		}
	}
}

// A planted pair, 3 → 7 and 7 → 3: a partial permutation shrinks to that
// pair alone, a full one to the transposition (3 7). Moves elsewhere never
// touch 3 or 7 (nothing else goes to them), so the core is always reached.
func TestShrinkPlantedPair(t *testing.T) {
	ctx := context.Background()
	pair := func(p []int32) (float64, error) {
		if p[3] == 7 && p[7] == 3 {
			return 1, nil
		}
		return 0, nil
	}
	for k := range uint64(10) {
		rng := seeds.Rand(42, k)
		n := 10 + rng.IntN(20)
		f := perm.Random(n, rng)
		// Plant: 3 → 7, 7 → 3, repairing the permutation.
		for _, a := range [2][2]int32{{3, 7}, {7, 3}} {
			j := slices.Index(f, a[1])
			f[j], f[a[0]] = f[a[0]], a[1]
		}
		want := perm.Identity(n)
		want[3], want[7] = 7, 3
		g, st, err := ShrinkPerm(ctx, f, pair, 1, 0)
		if err != nil || !st.Minimal || !slices.Equal(g, want) {
			t.Errorf("full %v shrunk to %v (%+v, %v), want the transposition (3 7)", f, g, st, err)
		}
		p := slices.Clone(f)
		for i := range p {
			if i != 3 && i != 7 && rng.IntN(2) == 0 {
				p[i] = perm.None
			}
		}
		q, st, err := ShrinkPartial(ctx, p, pair, 1, 0)
		wantP := slices.Repeat([]int32{perm.None}, n)
		wantP[3], wantP[7] = 7, 3
		if err != nil || !st.Minimal || !slices.Equal(q, wantP) {
			t.Errorf("partial %v shrunk to %v (%+v, %v), want the pair alone", p, q, st, err)
		}
	}
}

// randomKK is a random k-k distribution on n processors: list p holds the
// destinations of p's k packets.
func randomKK(n, k int, rng *rand.Rand) [][]int32 {
	all := make([]int32, 0, n*k)
	for x := range n {
		for range k {
			all = append(all, int32(x))
		}
	}
	rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	d := make([][]int32, n)
	for p := range d {
		d[p] = all[p*k : (p+1)*k]
	}
	return d
}

// isKK checks that every processor sends and receives k packets.
func isKK(d [][]int32, k int) bool {
	recv := make([]int, len(d))
	for _, ds := range d {
		if len(ds) != k {
			return false
		}
		for _, x := range ds {
			recv[x]++
		}
	}
	for _, c := range recv {
		if c != k {
			return false
		}
	}
	return true
}

// On k-k distributions: "at least m packets not fixed points" shrinks to m
// moved packets, or m + 1 when the last move would fix two at once; and a
// planted packet (the last processor's last packet goes to processor n−2)
// shrinks to its 2-cycle core: that packet and one packet of n−2 going to
// n−1, every other packet a fixed point. (By hand: in a locally minimal
// result every other moved packet's move must take the planted packet as
// its partner, so it belongs to n−2; counting what n−2 and n−1 send and
// receive leaves exactly one, going to n−1.)
func TestShrinkListsKK(t *testing.T) {
	ctx := context.Background()
	for c := range uint64(12) {
		rng := seeds.Rand(43, c)
		n, k := 3+rng.IntN(6), 1+rng.IntN(5)
		d := randomKK(n, k, rng)
		m := 2 + rng.IntN(4)
		if MovedLists(d) >= m {
			q, st, err := ShrinkLists(ctx, d, func(d [][]int32) (float64, error) { return float64(MovedLists(d)), nil }, float64(m), 0)
			if err != nil || !st.Minimal || !isKK(q, k) {
				t.Fatalf("%v → %v: %+v, %v, k-k %v", d, q, st, err, isKK(q, k))
			}
			if mv := MovedLists(q); mv != m && mv != m+1 {
				t.Errorf("%v shrunk to %v: %d moved, want %d or %d", d, q, mv, m, m+1)
			}
		}
		// Plant: d[n−1][k−1] = n−2, by swapping with a packet going to n−2.
		if d[n-1][k-1] != int32(n-2) {
			for p := range d {
				if s := slices.Index(d[p], int32(n-2)); s >= 0 && !(p == n-1 && s == k-1) {
					d[p][s], d[n-1][k-1] = d[n-1][k-1], int32(n-2)
					break
				}
			}
		}
		planted := func(d [][]int32) (float64, error) {
			if d[n-1][k-1] == int32(n-2) {
				return 1, nil
			}
			return 0, nil
		}
		q, st, err := ShrinkLists(ctx, d, planted, 1, 0)
		if err != nil || !st.Minimal || !isKK(q, k) {
			t.Fatalf("planted %v → %v: %+v, %v", d, q, st, err)
		}
		back := 0
		for p, ds := range q {
			for r, x := range ds {
				switch {
				case x == int32(p), p == n-1 && r == k-1:
				case p == n-2 && x == int32(n-1):
					back++
				default:
					t.Errorf("planted: %v shrunk to %v: packet (%d, %d) → %d is not in the core", d, q, p, r, x)
				}
			}
		}
		if back != 1 || q[n-1][k-1] != int32(n-2) {
			t.Errorf("planted: %v shrunk to %v: %d packets of n−2 go back, want 1", d, q, back)
		}
	}
}

// The partner of a move on k-k lists: a packet of x going to p first, so
// that a 2-cycle becomes two fixed points at once; then processors in
// order; never p itself.
func TestListPartner(t *testing.T) {
	d := [][]int32{{1, 2}, {0, 2}, {0, 1}}
	for _, tc := range []struct{ p, x, q, s int }{{0, 2, 2, 0}, {0, 1, 1, 0}, {2, 0, 0, 1}, {1, 2, 2, 1}} {
		if q, s := ListPartner(d, tc.p, tc.x); q != tc.q || s != tc.s {
			t.Errorf("ListPartner(%v, %d, %d) = (%d, %d), want (%d, %d)", d, tc.p, tc.x, q, s, tc.q, tc.s)
		}
	}
	if q, s := ListPartner([][]int32{{0}, {1}}, 0, 1); q != -1 || s != -1 {
		t.Errorf("no partner: (%d, %d)", q, s)
	}
}

// The cap: at most maxEvals evaluations, the result still ≥ target and
// valid, Minimal false when it cut a pass short. An evaluation error ends
// the shrink and is returned. A done context stops it at once.
func TestShrinkCapErrorContext(t *testing.T) {
	ctx := context.Background()
	f := perm.Random(40, seeds.Rand(44))
	calls := 0
	count := func(p []int32) (float64, error) { calls++; return atLeastMoved(p) }
	g, st, err := ShrinkPerm(ctx, f, count, 3, 5)
	if err != nil || st.Evals != 5 || calls != 5 || st.Minimal || Moved(g) < 3 || perm.Validate(g, true) != nil {
		t.Errorf("cap 5: %d calls, %+v, %v, %d moved", calls, st, err, Moved(g))
	}
	if Moved(g) >= Moved(f) {
		t.Errorf("cap 5: nothing shrunk (%d → %d moved)", Moved(f), Moved(g))
	}
	boom := errors.New("boom")
	calls = 0
	_, st, err = ShrinkPerm(ctx, f, func(p []int32) (float64, error) {
		calls++
		if calls == 2 {
			return 0, boom
		}
		return 1, nil
	}, 0, 0)
	if err != boom || calls != 2 || st.Minimal {
		t.Errorf("error: %v after %d calls, %+v", err, calls, st)
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	g, st, err = ShrinkPerm(done, f, atLeastMoved, 0, 0)
	if err != nil || st.Evals != 0 || st.Minimal || !slices.Equal(g, f) {
		t.Errorf("cancelled: %+v, %v", st, err)
	}
	// Already minimal: one pass, nothing kept, no evaluation for the identity.
	if _, st, _ := ShrinkPerm(ctx, perm.Identity(5), atLeastMoved, 0, 0); !st.Minimal || st.Evals != 0 || st.Passes != 1 {
		t.Errorf("identity: %+v", st)
	}
}

// ShrinkFlag: 0 is as many as the search made but at least 2000, −1 no
// shrinking, and
// values below −1 are rejected naming the flag.
func TestShrinkFlag(t *testing.T) {
	var f ShrinkFlag
	if c, ok := f.Cap(3000); !ok || c != 3000 {
		t.Errorf("undefined flag: %d %v", c, ok)
	}
	for _, tc := range []struct {
		v, cap int
		ok     bool
	}{{0, 2000, true}, {-1, 0, false}, {50, 50, true}} {
		n := tc.v
		f = ShrinkFlag{intFlag{&n}}
		if c, ok := f.Cap(120); c != tc.cap || ok != tc.ok || f.Check() != nil {
			t.Errorf("--shrink-evals %d: cap %d %v", tc.v, c, ok)
		}
	}
	n := -2
	if err := (ShrinkFlag{intFlag{&n}}).Check(); err == nil {
		t.Error("--shrink-evals -2 accepted")
	}
}

// ShrinkSublists removes every packet the metric does not need. For "at
// least m processors whose first packet goes to processor 0": a second
// packet can always go, and so can a first one not going to 0, so every
// list ends empty or [0], and exactly m are [0]. A planted pair (a packet
// 2 → 5 and a packet 4 → 1) shrinks to those two packets alone.
func TestShrinkSublists(t *testing.T) {
	ctx := context.Background()
	firstTo0 := func(d [][]int32) (float64, error) {
		k := 0
		for _, ds := range d {
			if len(ds) > 0 && ds[0] == 0 {
				k++
			}
		}
		return float64(k), nil
	}
	planted := func(d [][]int32) (float64, error) {
		if slices.Contains(d[2], 5) && slices.Contains(d[4], 1) {
			return 1, nil
		}
		return 0, nil
	}
	for c := range uint64(10) {
		rng := seeds.Rand(45, c)
		n, h := 6+rng.IntN(6), 2+rng.IntN(4)
		d := randomKK(n, h, rng)
		if v, _ := firstTo0(d); v >= 1 {
			m := 1 + rng.IntN(int(v))
			q, st, err := ShrinkSublists(ctx, d, firstTo0, float64(m), 0)
			if err != nil || !st.Minimal || len(q) != n || PacketsLists(q) != m {
				t.Fatalf("%v shrunk to %v (%+v, %v), want %d packets", d, q, st, err, m)
			}
			for _, ds := range q {
				if len(ds) > 0 && !slices.Equal(ds, []int32{0}) {
					t.Errorf("%v shrunk to %v: a list %v is neither empty nor [0]", d, q, ds)
				}
			}
		}
		if !slices.Contains(d[2], 5) {
			d[2][rng.IntN(h)] = 5 // receive counts may pass h: the shrinker does not look at them
		}
		if !slices.Contains(d[4], 1) {
			d[4][rng.IntN(h)] = 1
		}
		q, st, err := ShrinkSublists(ctx, d, planted, 1, 0)
		for p, ds := range q {
			want := []int32{}
			switch p {
			case 2:
				want = []int32{5}
			case 4:
				want = []int32{1}
			}
			if err != nil || !st.Minimal || !slices.Equal(ds, want) {
				t.Errorf("planted: %v shrunk to %v (%+v, %v), want only 2 → 5 and 4 → 1", d, q, st, err)
				break
			}
		}
	}
}

// An unbalanced input (a processor sends elsewhere and receives nothing
// from another processor) is an error naming the processor, before any
// evaluation, not a panic; a destination out of range too.
func TestShrinkListsUnbalanced(t *testing.T) {
	ctx := context.Background()
	calls := 0
	ev := func([][]int32) (float64, error) { calls++; return 1, nil }
	for _, tc := range []struct {
		d    [][]int32
		want string
	}{
		{[][]int32{{1}, {1}, {2}}, "processor 0 sends 1 more"}, // 1 receives 2, sends 1
		{[][]int32{{1, 0}, {1, 2}, {2}}, "processor 0 sends 1 more"},
		{[][]int32{{3}, {1}, {2}}, "goes to 3"},
	} {
		q, st, err := ShrinkLists(ctx, tc.d, ev, 0, 0)
		if err == nil || !strings.Contains(err.Error(), tc.want) || calls != 0 || st.Evals != 0 || !reflect.DeepEqual(q, tc.d) {
			t.Errorf("%v: %v (want %q), %d calls, %+v", tc.d, err, tc.want, calls, st)
		}
	}
}

// ShrinkContext: with ShrinkTime a shrink whose evaluations are slow stops
// near that time, valid and not shown minimal; without it, it runs to a
// local minimum.
func TestShrinkContextTime(t *testing.T) {
	f := perm.Random(40, seeds.Rand(45))
	slow := func(p []int32) (float64, error) { time.Sleep(5 * time.Millisecond); return atLeastMoved(p) }
	ctx, cancel := Options{ShrinkTime: 20 * time.Millisecond}.ShrinkContext(context.Background())
	defer cancel()
	g, st, err := ShrinkPerm(ctx, f, slow, 3, 0)
	// To a local minimum the shrink fixes at least Moved(f) − 4 packets,
	// one evaluation each; in 20 ms at ≥ 5 ms an evaluation it makes at most
	// about 5 (the check allows 20: counts, not wall time, so a loaded
	// machine cannot fail it).
	if need := Moved(f) - 4; need < 30 || err != nil || st.Minimal || st.Evals > 20 || Moved(g) < 3 || perm.Validate(g, true) != nil {
		t.Errorf("ShrinkTime 20ms: %+v, %v, %d → %d moved", st, err, Moved(f), Moved(g))
	}
	ctx2, cancel2 := Options{}.ShrinkContext(context.Background())
	defer cancel2()
	if g, st, err := ShrinkPerm(ctx2, f, atLeastMoved, 3, 0); err != nil || !st.Minimal || Moved(g) > 4 {
		t.Errorf("no ShrinkTime: %+v, %v, %d moved", st, err, Moved(g))
	}
}

// ShrinkStep: --shrink-evals -1 makes no call; otherwise shrink gets the
// cap (the flag's, or max(search evaluations, 2000) for 0) and done its
// result, whose clause is returned; an error of either keeps the unshrunk
// best and returns ShrinkFailed's clause.
func TestShrinkStep(t *testing.T) {
	boom := errors.New("boom")
	for _, tc := range []struct {
		flag, searchEvals  int
		shrinkErr, doneErr error
		wantCap            int
		want               string
	}{
		{flag: -1, want: ""},
		{flag: 0, searchEvals: 30, wantCap: DefaultShrinkFloor, want: "kept 7"},
		{flag: 0, searchEvals: 5000, wantCap: 5000, want: "kept 7"},
		{flag: 40, searchEvals: 5000, wantCap: 40, want: "kept 7"},
		{flag: 40, shrinkErr: boom, wantCap: 40, want: ShrinkFailed(Options{}, boom)},
		{flag: 40, doneErr: boom, wantCap: 40, want: ShrinkFailed(Options{}, boom)},
	} {
		n := tc.flag
		calls, gotCap := 0, -1
		got := ShrinkStep(context.Background(), Options{}, ShrinkFlag{intFlag{&n}}, tc.searchEvals, func(ctx context.Context, maxEvals int) (int, ShrinkStats, error) {
			calls++
			gotCap = maxEvals
			return 7, ShrinkStats{}, tc.shrinkErr
		}, func(q int, st ShrinkStats) (string, error) {
			if tc.shrinkErr != nil || q != 7 {
				t.Errorf("%+v: done called with %d", tc, q)
			}
			return "kept 7", tc.doneErr
		})
		wantCalls := 1
		if tc.flag == -1 {
			wantCalls, tc.wantCap = 0, -1
		}
		if got != tc.want || calls != wantCalls || gotCap != tc.wantCap {
			t.Errorf("%+v: clause %q, %d calls, cap %d", tc, got, calls, gotCap)
		}
	}
}
