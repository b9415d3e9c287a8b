package pops

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"routecheck/models/perm"
	mpops "routecheck/models/pops"
)

// pmSeedSalt is the second PCG word of every seeded run in this file.
const pmSeedSalt = 0x5eed_0f_9095

func pmSeeded(seed uint64) PopsModelChoices {
	return PopsModelRandChoices(rand.New(rand.NewPCG(seed, pmSeedSalt)))
}

// pmSeeds is how many seeded instances the sweeps below try.
func pmSeeds() uint64 {
	if testing.Short() {
		return 300
	}
	return 3000
}

// TestPopsModelProps runs every slot-model property under rapid
// (-rapid.checks scales them; -short divides by 5).
func TestPopsModelProps(t *testing.T) {
	for _, tc := range []struct {
		name string
		prop func(*rapid.T)
	}{
		{"Purity", PopsModelPurity},
		{"LegalSteps", PopsModelLegalSteps},
		{"Conservation", PopsModelConservation},
		{"Couplers", PopsModelCouplers},
		{"IllegalRejected", PopsModelIllegalRejected},
		{"Differential", PopsModelDifferential},
	} {
		t.Run(tc.name, rapid.MakeCheck(tc.prop))
	}
}

// pmSweepSeeds is how many seeded instances TestPopsModelPropsSeeded runs
// per property: as many as the other sweeps here (pmSeeds). Every planted
// broken step of TestPopsModelPropsCatchBrokenSteps is caught by seed 20
// (2026-11-24, -v logs "caught at seed N"), so 3,000 seeds is 150 times
// what the properties need to catch them; it was 15,000 (5 times the CPU).
func pmSweepSeeds() uint64 {
	if testing.Short() {
		return 1000
	}
	return 3000
}

// TestPopsModelPropsSeeded drives the same bodies from seeded math/rand/v2
// streams (the non-rapid driver), for volume.
func TestPopsModelPropsSeeded(t *testing.T) {
	for _, p := range PopsModelProps() {
		t.Run(p.Name, func(t *testing.T) {
			for seed := uint64(1); seed <= pmSweepSeeds(); seed++ {
				if msg := p.Check(pmSeeded(seed)); msg != "" {
					t.Fatalf("seed %d (PCG(%d, %#x)): %s", seed, seed, uint64(pmSeedSalt), msg)
				}
			}
		})
	}
}

// TestPopsModelRedelivery pins what a second acceptance at the destination
// does: Step reports it as Duplicated (not Delivered), stores a second
// Delivered item, and the state passes pops.CheckInvariants; and it checks
// that the strict LegalSteps property does meet such runs.
func TestPopsModelRedelivery(t *testing.T) {
	// POPS(1,2): packet 0 goes from processor 0 to processor 1. In all
	// three slots processor 0 sends its original over c(1,0) and processor 1
	// listens there with KeepOwn.
	sh, err := mpops.NewShape(1, 2)
	if err != nil {
		t.Fatal(err)
	}
	s, err := mpops.NewState(sh, []int32{1, perm.None})
	if err != nil {
		t.Fatal(err)
	}
	a := []mpops.Action{mpops.Idle(), mpops.Idle()}
	a[0].Send, a[0].To = 0, []int32{1}
	a[1].Listen, a[1].Keep = 0, mpops.KeepOwn
	for slot := 1; slot <= 3; slot++ {
		next, ev, err := mpops.Step(s, a)
		if err != nil {
			t.Fatalf("slot %d: legal actions rejected: %v", slot, err)
		}
		if err := mpops.CheckInvariants(next); err != nil {
			t.Fatalf("slot %d: next state %s fails CheckInvariants: %v", slot, PopsModelFormatState(next), err)
		}
		wantDelivered, wantDuplicated := []int32(nil), []int32{0}
		if slot == 1 {
			wantDelivered, wantDuplicated = []int32{0}, nil
		}
		if !slices.Equal(ev.Delivered, wantDelivered) || !slices.Equal(ev.Duplicated, wantDuplicated) {
			t.Fatalf("slot %d: Delivered/Duplicated = %v/%v, want %v/%v", slot, ev.Delivered, ev.Duplicated, wantDelivered, wantDuplicated)
		}
		if _, _, got := next.Occupancy(1); got != slot || !next.Delivered[0] {
			t.Fatalf("slot %d: destination stores %d Delivered items (flag %v), want %d (true)", slot, got, next.Delivered[0], slot)
		}
		s = next
	}

	// The strict property meets duplicate deliveries from random instances,
	// and they pass.
	runs, dupRuns := uint64(0), 0
	for seed := uint64(1); seed <= pmSeeds(); seed++ {
		dup := false
		step := func(s mpops.State, a []mpops.Action) (mpops.State, mpops.Events, error) {
			next, ev, err := mpops.Step(s, a)
			dup = dup || len(ev.Duplicated) > 0
			return next, ev, err
		}
		if msg := pmLegalSteps(step, pmSeeded(seed)); msg != "" {
			t.Fatalf("seed %d: LegalSteps: %s", seed, msg)
		}
		runs++
		if dup {
			dupRuns++
		}
	}
	t.Logf("%d of %d LegalSteps runs had a duplicate delivery", dupRuns, runs)
	if dupRuns == 0 {
		t.Fatalf("no LegalSteps run in %d seeds had a duplicate delivery", runs)
	}
}

// pmMutant is a deliberately broken step, with the properties that must
// catch it.
type pmMutant struct {
	name   string
	step   func() pmStepFunc // fresh per seed (some mutants keep a counter)
	caught []string          // names in PopsModelProps
}

func pmMutants() []pmMutant {
	wrap := func(f func(s mpops.State, a []mpops.Action, next *mpops.State, ev *mpops.Events, err *error)) func() pmStepFunc {
		return func() pmStepFunc {
			return func(s mpops.State, a []mpops.Action) (mpops.State, mpops.Events, error) {
				next, ev, err := mpops.Step(s, a)
				f(s, a, &next, &ev, &err)
				return next, ev, err
			}
		}
	}
	// legal wraps a mutation of a step's outcome that applies only when the
	// real step succeeded (an illegal step's error is passed on untouched).
	legal := func(f func(s mpops.State, next *mpops.State, ev *mpops.Events)) func() pmStepFunc {
		return wrap(func(s mpops.State, _ []mpops.Action, next *mpops.State, ev *mpops.Events, err *error) {
			if *err == nil {
				f(s, next, ev)
			}
		})
	}
	return []pmMutant{{
		name: "forgets conflicts",
		step: wrap(func(_ mpops.State, _ []mpops.Action, _ *mpops.State, ev *mpops.Events, _ *error) { ev.Conflicts = nil }),
		// Purity and conservation do not look at conflicts.
		caught: []string{"Couplers", "Differential"},
	}, {
		name: "mutates its input",
		step: wrap(func(s mpops.State, _ []mpops.Action, _ *mpops.State, _ *mpops.Events, _ *error) {
			for p := range s.Dst {
				if s.Dst[p] != perm.None {
					s.Delivered[p] = !s.Delivered[p]
				}
			}
		}),
		caught: []string{"Purity", "IllegalRejected", "Differential"},
	}, {
		name: "not deterministic",
		step: func() pmStepFunc {
			calls := 0
			return func(s mpops.State, a []mpops.Action) (mpops.State, mpops.Events, error) {
				next, ev, err := mpops.Step(s, a)
				if calls++; calls%2 == 0 {
					next.Slot += 2
				}
				return next, ev, err
			}
		},
		caught: []string{"Purity", "Differential"},
	}, {
		name: "shares buffers with its input",
		step: legal(func(s mpops.State, next *mpops.State, _ *mpops.Events) {
			for i := range next.Buf {
				if len(s.Buf[i]) > 0 && slices.Equal(next.Buf[i], s.Buf[i]) {
					next.Buf[i] = s.Buf[i]
				}
			}
		}),
		caught: []string{"Purity"},
	}, {
		name: "accepts illegal actions",
		step: wrap(func(s mpops.State, _ []mpops.Action, next *mpops.State, ev *mpops.Events, err *error) {
			if *err != nil {
				*next, *ev, *err = s.Clone(), mpops.Events{}, nil
				next.Slot++
			}
		}),
		caught: []string{"IllegalRejected", "Differential"},
	}, {
		name: "creates a copy",
		step: legal(func(s mpops.State, next *mpops.State, _ *mpops.Events) {
			for p, d := range s.Dst {
				if d != perm.None && !next.Lost[p] {
					last := len(next.Buf) - 1
					next.Buf[last] = append(next.Buf[last], mpops.Item{Packet: int32(p), Kind: mpops.Copy})
					return
				}
			}
		}),
		caught: []string{"Conservation", "Couplers", "Differential"},
	}, {
		name: "forgets losses",
		step: legal(func(_ mpops.State, next *mpops.State, ev *mpops.Events) {
			for _, p := range ev.Lost {
				next.Lost[p] = false
			}
			ev.Lost = nil
		}),
		caught: []string{"LegalSteps", "Conservation", "Differential"},
	}, {
		name: "repeats loss events",
		step: legal(func(_ mpops.State, next *mpops.State, ev *mpops.Events) {
			ev.Lost = nil
			for p, lost := range next.Lost {
				if lost {
					ev.Lost = append(ev.Lost, int32(p))
				}
			}
		}),
		caught: []string{"Conservation", "Differential"},
	}, {
		name: "misreports receptions",
		step: wrap(func(s mpops.State, _ []mpops.Action, _ *mpops.State, ev *mpops.Events, _ *error) {
			for k := range ev.Received {
				ev.Received[k].Msg.Packet = (ev.Received[k].Msg.Packet + 1) % int32(len(s.Dst)+1)
			}
		}),
		caught: []string{"Couplers", "Differential"},
	}, {
		name: "delivers at the wrong processor",
		step: wrap(func(s mpops.State, _ []mpops.Action, next *mpops.State, ev *mpops.Events, err *error) {
			if *err != nil || len(ev.Delivered) == 0 || len(next.Buf) < 2 {
				return
			}
			p := ev.Delivered[0]
			wrong := (int(s.Dst[p]) + 1) % len(next.Buf)
			next.Buf[wrong] = append(next.Buf[wrong], mpops.Item{Packet: p, Kind: mpops.Delivered})
		}),
		caught: []string{"LegalSteps", "Conservation", "Couplers", "Differential"},
	}, {
		name: "stores a delivery without flagging it",
		step: legal(func(_ mpops.State, next *mpops.State, ev *mpops.Events) {
			for _, p := range ev.Delivered {
				next.Delivered[p] = false
			}
			ev.Delivered = nil
		}),
		// CheckInvariants: a Delivered item must be flagged Delivered.
		caught: []string{"LegalSteps", "Conservation", "Couplers", "Differential"},
	}, {
		name: "reports duplicates as deliveries",
		step: wrap(func(_ mpops.State, _ []mpops.Action, _ *mpops.State, ev *mpops.Events, _ *error) {
			ev.Delivered = append(ev.Delivered, ev.Duplicated...)
			ev.Duplicated = nil
		}),
		// The states are right: CheckInvariants has nothing to object to.
		caught: []string{"Conservation", "Couplers", "Differential"},
	}, {
		name:   "forgets duplicates",
		step:   wrap(func(_ mpops.State, _ []mpops.Action, _ *mpops.State, ev *mpops.Events, _ *error) { ev.Duplicated = nil }),
		caught: []string{"Conservation", "Couplers", "Differential"},
	}, {
		name: "discards repeated acceptances",
		step: legal(func(s mpops.State, next *mpops.State, ev *mpops.Events) {
			for _, p := range ev.Duplicated {
				buf := next.Buf[s.Dst[p]]
				if k := len(buf) - 1; k >= 0 && buf[k] == (mpops.Item{Packet: p, Kind: mpops.Delivered}) {
					next.Buf[s.Dst[p]] = buf[:k]
				}
			}
			ev.Duplicated = nil
		}),
		// A single Delivered item per packet also passes CheckInvariants.
		caught: []string{"Conservation", "Couplers", "Differential"},
	}}
}

// TestPopsModelPropsCatchBrokenSteps shows that each property can fail: run
// against deliberately broken steps, it finds a violation within a few
// hundred seeded instances.
func TestPopsModelPropsCatchBrokenSteps(t *testing.T) {
	bodies := map[string]pmBody{
		"Purity":          pmPurity,
		"LegalSteps":      pmLegalSteps,
		"Conservation":    pmConservation,
		"Couplers":        pmCouplers,
		"IllegalRejected": pmIllegalRejected,
		"Differential":    pmDifferential,
	}
	for _, m := range pmMutants() {
		for _, name := range m.caught {
			body := bodies[name]
			if body == nil {
				t.Fatalf("mutant %q names unknown property %q", m.name, name)
			}
			t.Run(m.name+"/"+name, func(t *testing.T) {
				for seed := uint64(1); seed <= 2*pmSeeds(); seed++ {
					if msg := body(m.step(), pmSeeded(seed)); msg != "" {
						t.Logf("caught at seed %d: %s", seed, strings.SplitN(msg, "\n", 2)[0])
						return
					}
				}
				t.Fatalf("%s did not catch the mutant %q in %d seeds", name, m.name, 2*pmSeeds())
			})
		}
	}
}

// TestPopsModelGeneratorsCoverEvents guards against vacuous properties:
// seeded legal runs must produce every kind of event, and the illegal
// generator every kind of rejection.
func TestPopsModelGeneratorsCoverEvents(t *testing.T) {
	seen := map[string]int{}
	for seed := uint64(1); seed <= pmSeeds(); seed++ {
		c := pmSeeded(seed)
		s, err := PopsModelStateWith(c)
		if err != nil {
			t.Fatal(err)
		}
		for slot := 0; slot < 4; slot++ {
			a, kind := PopsModelActionsWith(c, s)
			next, ev, err := mpops.Step(s, a)
			if err != nil {
				seen["rejected "+kind.String()]++
				continue
			}
			seen["accepted "+kind.String()]++
			for _, r := range ev.Received {
				seen[fmt.Sprintf("received msg kind %d", r.Msg.Kind)]++
			}
			if len(ev.Conflicts) > 0 {
				seen["conflict"]++
			}
			if len(ev.Delivered) > 0 {
				seen["delivered"]++
			}
			if len(ev.Duplicated) > 0 {
				seen["duplicated"]++
			}
			if len(ev.Lost) > 0 {
				seen["lost"]++
			}
			s = next
		}
	}
	t.Logf("%v", seen)
	for _, want := range []string{
		"accepted legal", "rejected illegal", "accepted raw", "rejected raw",
		fmt.Sprintf("received msg kind %d", mpops.PacketMsg), fmt.Sprintf("received msg kind %d", mpops.AckMsg),
		"conflict", "delivered", "duplicated", "lost",
	} {
		if seen[want] == 0 {
			t.Errorf("no %q in %d seeded runs", want, pmSeeds())
		}
	}
	if seen["rejected legal"] > 0 || seen["accepted illegal"] > 0 {
		t.Errorf("legal vectors rejected %d times, illegal ones accepted %d times", seen["rejected legal"], seen["accepted illegal"])
	}
}

// TestPopsModelByteChoices pins the byte decoding the fuzz corpus relies on.
func TestPopsModelByteChoices(t *testing.T) {
	c := PopsModelByteChoices([]byte{7, 0x01, 0x02, 255})
	got := []int{
		c.IntRange(1, 5, ""),     // 7 % 5 = 2 → 3
		c.IntRange(0, 999, ""),   // 0x0102 = 258 → 258
		c.IntRange(-1, 1, ""),    // 255 % 3 = 0 → -1
		c.IntRange(10, 20, ""),   // exhausted → lo
		c.IntRange(-3, -3, ""),   // single value
		c.IntRange(0, 1<<20, ""), // exhausted → lo
	}
	if want := []int{3, 258, -1, 10, -3, 0}; !slices.Equal(got, want) {
		t.Fatalf("decoded %v, want %v", got, want)
	}
}

// TestPopsModelRapidGenerators checks the rapid generator wrappers: shapes
// in range, valid partial permutations, reachable states that pass
// CheckInvariants, legal vectors accepted (next states passing
// CheckInvariants), illegal ones rejected, raw ones judged alike by
// models/pops and popsnaive.
func TestPopsModelRapidGenerators(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sh := PopsModelShapes().Draw(t, "shape")
		if sh.D < 1 || sh.D > PopsModelMaxSide || sh.G < 1 || sh.G > PopsModelMaxSide {
			t.Fatalf("shape %v out of range", sh)
		}
		if p := PopsModelPartialPerms(sh.N()).Draw(t, "perm"); len(p) != sh.N() || perm.Validate(p, false) != nil {
			t.Fatalf("not a partial permutation of N_%d: %v", sh.N(), p)
		}
		s := PopsModelStates().Draw(t, "state")
		if err := mpops.CheckInvariants(s); err != nil {
			t.Fatalf("generated state fails CheckInvariants: %v\n  %s", err, PopsModelFormatState(s))
		}
		for _, v := range []struct {
			gen  *rapid.Generator[[]mpops.Action]
			kind PopsModelActionKind
		}{
			{PopsModelLegalActions(s), PopsModelLegal},
			{PopsModelIllegalActions(s), PopsModelIllegal},
			{PopsModelRawActions(s), PopsModelRaw},
		} {
			a := v.gen.Draw(t, v.kind.String())
			if _, msg := PopsModelCheckStep(s, a, v.kind, true); msg != "" {
				t.Fatalf("%s\n  state: %s\n  actions (%s): %s", msg, PopsModelFormatState(s), v.kind, PopsModelFormatActions(a))
			}
		}
	})
}
