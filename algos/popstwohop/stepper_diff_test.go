package popstwohop

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"sync"
	"testing"

	"routecheck/models/perm"
	"routecheck/models/pops"

	"pgregory.net/rapid"
)

// sameRun returns "" when two runs agree — every Result field, the final
// state by State.Equal, and the error text — else what differs.
func sameRun(got Result, gerr error, want Result, werr error) string {
	if fmt.Sprint(gerr) != fmt.Sprint(werr) {
		return fmt.Sprintf("error %v, plain path %v", gerr, werr)
	}
	if !got.Final.Equal(want.Final) {
		return fmt.Sprintf("final state %+v, plain path %+v", got.Final, want.Final)
	}
	got.Final, want.Final = pops.State{}, pops.State{}
	if !reflect.DeepEqual(got, want) {
		return fmt.Sprintf("%+v, plain path %+v", got, want)
	}
	return ""
}

// genTwoHopCase draws a shape, a schedule (one of the three, or one whose
// Out leaves the group range in some slot, which the model rejects), a
// partial permutation and a slot count.
func genTwoHopCase(t *rapid.T) (Schedule, []int32, int) {
	d := rapid.IntRange(1, 6).Draw(t, "d")
	g := rapid.IntRange(1, 6).Draw(t, "g")
	sh := pops.Shape{D: d, G: g}
	n := sh.N()
	var s Schedule
	switch rapid.IntRange(0, 3).Draw(t, "schedule") {
	case 0:
		s = Shift(sh)
	case 1:
		s = Hashed(sh)
	case 2:
		s = Spread(sh)
	default:
		bad := rapid.IntRange(1, 9).Draw(t, "bad slot")
		s = Spread(sh)
		in := s.In
		s.Name, s.In = "spread-bad", func(i, t int) int {
			if t == bad && i == 0 {
				return g
			}
			return in(i, t)
		}
	}
	ids := make([]int32, n)
	for i := range ids {
		ids[i] = int32(i)
	}
	dst := rapid.Permutation(ids).Draw(t, "perm")
	for i := range dst {
		if rapid.IntRange(0, 3).Draw(t, "absent") == 0 {
			dst[i] = perm.None
		}
	}
	return s, dst, rapid.IntRange(0, 12).Draw(t, "slots")
}

// Run (with a pops.Stepper) equals the plain path (pops.Step, a fresh state
// every slot: Run as it was before the Stepper) on random shapes, schedules,
// partial permutations and slot counts, model rejections included.
func TestRunStepperMatchesPlainPath(t *testing.T) {
	var ok, failed, routed int
	rapid.Check(t, func(t *rapid.T) {
		s, dst, slots := genTwoHopCase(t)
		got, gerr := Run(s, dst, slots)
		want, werr := plainRun(s, dst, slots)
		if why := sameRun(got, gerr, want, werr); why != "" {
			t.Fatalf("%s %v π=%v, %d slots: %s", s.Name, s.Shape, dst, slots, why)
		}
		if werr != nil {
			failed++
			return
		}
		ok++
		for _, at := range want.RoutedAt {
			if at > 0 {
				routed++
			}
		}
	})
	// The comparison must have seen both outcomes and packets that moved
	// (about 1 draw in 6 ends in an error: all 100 succeeding has
	// probability about 0.84^100 < 10⁻⁷).
	t.Logf("%d runs completed (%d packets routed by a hop), %d ended in an error", ok, routed, failed)
	if ok == 0 || failed == 0 || routed == 0 {
		t.Fatalf("degenerate draws: %d completed, %d errors, %d packets routed", ok, failed, routed)
	}
}

// Planted difference: using the Stepper outside its validity window. A
// caller that keeps run's Stepper and steps twice more (every processor
// drops its first item) has res.Final overwritten — the Stepper's state is
// valid only until the second next call — and sameRun reports it. Run
// never does this: its Stepper is local.
func TestRunStepperMisuseIsCaught(t *testing.T) {
	sh := pops.Shape{D: 2, G: 2}
	s, dst, slots := Shift(sh), []int32{2, 3, 0, 1}, 4
	want, werr := plainRun(s, dst, slots)
	if werr != nil || want.Final.Buf == nil {
		t.Fatalf("plain path: %+v, %v", want, werr)
	}
	var stepper pops.Stepper
	got, gerr := run(s, dst, slots, stepper.Step)
	if why := sameRun(got, gerr, want, werr); why != "" {
		t.Fatalf("before the misuse: %s", why)
	}
	drop := func(st pops.State) []pops.Action {
		a := make([]pops.Action, sh.N())
		for i := range a {
			a[i] = pops.Idle()
			if len(st.Buf[i]) > 0 {
				a[i].Drop = []int32{0}
			}
		}
		return a
	}
	s1, _, err := stepper.Step(got.Final, drop(got.Final))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := stepper.Step(s1, drop(s1)); err != nil {
		t.Fatal(err)
	}
	if why := sameRun(got, gerr, want, werr); why == "" {
		t.Fatal("the Stepper used outside its validity window: sameRun saw no difference")
	} else {
		t.Log("caught:", why)
	}
}

// plainRun is Run as it was before the Stepper (commit 5afded9), verbatim
// but for its name: pops.Step for every slot.
func plainRun(s Schedule, dst []int32, slots int) (Result, error) {
	sh := s.Shape
	n, d := sh.N(), sh.D
	st, err := pops.NewState(sh, dst)
	if err != nil {
		return Result{}, err
	}
	res := Result{Routed: make([]bool, n), RoutedAt: make([]int, n)}
	live := make([]bool, n) // A-buffer of processor i still holds p_i
	for p, q := range dst {
		if q == perm.None {
			continue
		}
		if int(q)/d == p/d {
			res.Routed[p] = true
		} else {
			live[p] = true
		}
	}
	bPkt := make([]int32, n) // B-buffer content, or −1
	for i := range bPkt {
		bPkt[i] = -1
	}
	acts := make([]pops.Action, n)
	for t := 1; t <= slots; t++ {
		odd := t%2 == 1
		for i := range acts {
			a := pops.Idle()
			a.Listen = int32(s.In(i, t))
			a.Keep = pops.KeepAll
			orig := itemIndex(st.Buf[i], int32(i), pops.Original)
			if orig >= 0 && res.Routed[i] && res.RoutedAt[i] > 0 {
				a.Drop = append(a.Drop, int32(orig)) // property 6: gone from the A-buffer
			}
			switch {
			case odd && live[i]:
				a.Send, a.To = int32(orig), []int32{int32(s.Out(i, t))}
			case !odd && bPkt[i] >= 0:
				k := itemIndex(st.Buf[i], bPkt[i], pops.Copy)
				if k < 0 {
					return res, fmt.Errorf("popstwohop: slot %d: processor %d lost its B-buffer packet %d", t, i, bPkt[i])
				}
				a.Send, a.To = int32(k), []int32{int32(int(dst[bPkt[i]]) / d)}
				a.Drop = append(a.Drop, int32(k))
				bPkt[i] = -1
			}
			acts[i] = a
		}
		next, ev, err := pops.Step(st, acts)
		if err != nil {
			return res, fmt.Errorf("popstwohop: %s, slot %d: %w", s.Name, t, err)
		}
		var relayed []int32
		if len(ev.Lost) > 0 {
			return res, fmt.Errorf("popstwohop: slot %d: packets %v lost", t, ev.Lost)
		}
		for _, r := range ev.Received {
			if r.Msg.Kind != pops.PacketMsg {
				continue
			}
			p, k := r.Msg.Packet, int(r.Proc)
			switch {
			case int(dst[p])/d == k/d:
				if !res.Routed[p] {
					res.Routed[p], res.RoutedAt[p] = true, t
					live[p] = false
				}
			case odd:
				if bPkt[k] >= 0 {
					return res, fmt.Errorf("popstwohop: slot %d: processor %d receives into a full B-buffer", t, k)
				}
				bPkt[k] = p
				relayed = append(relayed, p)
			default:
				return res, fmt.Errorf("popstwohop: slot %d: processor %d got packet %d outside its destination group in an even slot", t, k, p)
			}
		}
		res.Conflicts = append(res.Conflicts, len(ev.Conflicts))
		res.Relayed = append(res.Relayed, relayed)
		if err := pops.CheckInvariants(next); err != nil {
			return res, fmt.Errorf("popstwohop: slot %d: %w", t, err)
		}
		st = next
		res.Slots = t
	}
	res.Final = st
	return res, nil
}

// Run's Stepper comes from a pool: a result's Final must survive later
// runs that reuse the same Stepper (Run clones it), and runs in parallel
// goroutines, on different shapes, must each equal the plain path (run with
// -race to check that no two runs share a Stepper).
func TestRunPooledStepperFinalAndConcurrency(t *testing.T) {
	type tc struct {
		s     Schedule
		dst   []int32
		slots int
	}
	var cases []tc
	for k, sh := range []pops.Shape{{D: 3, G: 3}, {D: 4, G: 2}, {D: 2, G: 5}, {D: 5, G: 5}} {
		for j, mk := range []func(pops.Shape) Schedule{Shift, Hashed, Spread} {
			rng := rand.New(rand.NewPCG(uint64(k), uint64(j)))
			dst := make([]int32, sh.N())
			for p, q := range rng.Perm(sh.N()) {
				dst[p] = int32(q)
			}
			cases = append(cases, tc{mk(sh), dst, 6})
		}
	}
	wants := make([]Result, len(cases))
	werrs := make([]error, len(cases))
	for k, c := range cases {
		wants[k], werrs[k] = plainRun(c.s, c.dst, c.slots)
	}
	// Sequential: keep every result, compare them all at the end.
	gots := make([]Result, len(cases))
	gerrs := make([]error, len(cases))
	for k, c := range cases {
		gots[k], gerrs[k] = Run(c.s, c.dst, c.slots)
	}
	for k, c := range cases {
		if why := sameRun(gots[k], gerrs[k], wants[k], werrs[k]); why != "" {
			t.Fatalf("%s %v, kept while later runs went on: %s", c.s.Name, c.s.Shape, why)
		}
	}
	// Concurrent.
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range 20 {
				k := (w*7 + r) % len(cases)
				c := cases[k]
				got, gerr := Run(c.s, c.dst, c.slots)
				if why := sameRun(got, gerr, wants[k], werrs[k]); why != "" {
					errs <- fmt.Sprintf("%s %v: %s", c.s.Name, c.s.Shape, why)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for why := range errs {
		t.Fatal(why)
	}
}
