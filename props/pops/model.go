package pops

// Conformance properties of the POPS(d, g) slot model (models/pops) and the
// generators that drive them. Every generator is written once against a
// PopsModelChoices source, so the same code serves rapid (which shrinks),
// a seeded math/rand/v2 stream (gopter commands, the CLI) and fuzz bytes.
// Exported identifiers carry the PopsModel prefix; unexported helpers the
// pm prefix.

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"

	"pgregory.net/rapid"

	"routecheck/models/perm"
	mpops "routecheck/models/pops"
	"routecheck/oracles/popsnaive"
)

// PopsModelMaxSide is the largest d and the largest g the shape generators
// produce (shapes are POPS(d, g) with 1 ≤ d, g ≤ PopsModelMaxSide).
const PopsModelMaxSide = 5

// ---------------------------------------------------------------------------
// Choice sources

// PopsModelChoices is a source of bounded integer choices. The POPS
// slot-model generators make every random decision through it.
type PopsModelChoices interface {
	// IntRange returns an integer in [lo, hi]; it panics if lo > hi. lo is
	// always the simplest choice (rapid shrinks towards it); label names the
	// choice in rapid's logs.
	IntRange(lo, hi int, label string) int
}

// PopsModelRapidChoices draws every choice from t with rapid.IntRange, so
// rapid can shrink what the generators build.
func PopsModelRapidChoices(t *rapid.T) PopsModelChoices { return pmRapidChoices{t} }

// PopsModelRandChoices draws uniform choices from r (use a PCG source with
// an explicit seed).
func PopsModelRandChoices(r *rand.Rand) PopsModelChoices { return pmRandChoices{r} }

// PopsModelByteChoices decodes choices from b, for native fuzz targets: a
// choice among m values reads one byte (two when m > 256, four when
// m > 65536) and takes it modulo m; once b is used up every choice is lo, so
// every byte string decodes to something.
func PopsModelByteChoices(b []byte) PopsModelChoices { return &pmByteChoices{b: b} }

type pmRapidChoices struct{ t *rapid.T }

func (c pmRapidChoices) IntRange(lo, hi int, label string) int {
	pmCheckRange(lo, hi)
	return rapid.IntRange(lo, hi).Draw(c.t, label)
}

type pmRandChoices struct{ r *rand.Rand }

func (c pmRandChoices) IntRange(lo, hi int, _ string) int {
	pmCheckRange(lo, hi)
	return lo + int(c.r.Uint64N(uint64(hi-lo)+1))
}

type pmByteChoices struct{ b []byte }

func (c *pmByteChoices) IntRange(lo, hi int, _ string) int {
	pmCheckRange(lo, hi)
	m := uint64(hi-lo) + 1
	width := 1
	switch {
	case m > 1<<16:
		width = 4
	case m > 1<<8:
		width = 2
	}
	var v uint64
	for k := 0; k < width && len(c.b) > 0; k++ {
		v = v<<8 | uint64(c.b[0])
		c.b = c.b[1:]
	}
	return lo + int(v%m)
}

func pmCheckRange(lo, hi int) {
	if lo > hi {
		panic(fmt.Sprintf("props: IntRange(%d, %d): lo > hi", lo, hi))
	}
}

// ---------------------------------------------------------------------------
// Generators driven by a choice source

// PopsModelActionKind says what a generated action vector is known to be.
type PopsModelActionKind uint8

const (
	// PopsModelLegal vectors hold only actions the hardware can perform.
	PopsModelLegal PopsModelActionKind = iota
	// PopsModelIllegal vectors contain at least one impossible action (or
	// have the wrong length).
	PopsModelIllegal
	// PopsModelRaw vectors are legal vectors with a few fields overwritten by
	// values near their allowed range; they may or may not be legal.
	PopsModelRaw
)

// String returns "legal", "illegal" or "raw".
func (k PopsModelActionKind) String() string {
	switch k {
	case PopsModelLegal:
		return "legal"
	case PopsModelIllegal:
		return "illegal"
	case PopsModelRaw:
		return "raw"
	}
	return fmt.Sprintf("PopsModelActionKind(%d)", k)
}

// PopsModelShapeWith returns POPS(d, g) with 1 ≤ d, g ≤ PopsModelMaxSide.
func PopsModelShapeWith(c PopsModelChoices) mpops.Shape {
	d := c.IntRange(1, PopsModelMaxSide, "d")
	g := c.IntRange(1, PopsModelMaxSide, "g")
	sh, err := mpops.NewShape(d, g)
	if err != nil {
		panic("props: " + err.Error())
	}
	return sh
}

// PopsModelPartialPermWith returns a partial permutation of N_n: a random
// permutation (Fisher–Yates; the identity is the simplest) in which each
// source independently keeps its packet with probability 3/4.
func PopsModelPartialPermWith(c PopsModelChoices, n int) []int32 {
	p := perm.Identity(n)
	for i := 0; i < n-1; i++ {
		j := c.IntRange(i, n-1, "perm")
		p[i], p[j] = p[j], p[i]
	}
	for i := range p {
		if c.IntRange(0, 3, "absent") == 3 {
			p[i] = perm.None
		}
	}
	return p
}

// PopsModelInitialStateWith returns pops.NewState of a random shape and
// partial permutation (slot 0, every packet at its source).
func PopsModelInitialStateWith(c PopsModelChoices) mpops.State {
	sh := PopsModelShapeWith(c)
	s, err := mpops.NewState(sh, PopsModelPartialPermWith(c, sh.N()))
	if err != nil {
		panic("props: " + err.Error())
	}
	return s
}

// PopsModelStateWith returns a state reached from a random initial state by
// 0–4 slots of random legal actions stepped with pops.Step, so it may hold
// copies, delivered (possibly more than once) and lost packets. The error reports a legal warm-up slot
// that pops.Step rejected (a model bug).
func PopsModelStateWith(c PopsModelChoices) (mpops.State, error) {
	s := PopsModelInitialStateWith(c)
	warm := c.IntRange(0, 4, "warm-up slots")
	for k := 0; k < warm; k++ {
		a := PopsModelLegalActionsWith(c, s)
		next, _, err := mpops.Step(s, a)
		if err != nil {
			return s, fmt.Errorf("warm-up slot %d: pops.Step rejected legal actions: %w\nstate:   %s\nactions: %s",
				k, err, PopsModelFormatState(s), PopsModelFormatActions(a))
		}
		s = next
	}
	return s, nil
}

// PopsModelLegalActionsWith returns one legal action per processor of s.
// Each processor independently:
//   - stays silent (probability 2/5), sends a random packet of its buffer
//     (2/5; silent if the buffer is empty) or sends an ack naming a random
//     packet id (1/5);
//   - sends its message to one random group (2/3) or to a random non-empty
//     set of groups in random order (1/3); a single-group packet goes to its
//     destination's group half of the time;
//   - does not listen (1/4), listens to a random group with a random Keep
//     (1/2), or, if it is some packet's destination, listens to that
//     packet's source group with KeepOwn (1/4);
//   - with probability 1/6 drops a random non-empty set of its buffer
//     entries (in random order).
//
// The biases make conflicts, deliveries, duplicate deliveries (a
// destination that keeps listening to its packet's source group with
// KeepOwn accepts it again) and losses all common on small shapes.
func PopsModelLegalActionsWith(c PopsModelChoices, s mpops.State) []mpops.Action {
	n, g, d := s.Shape.N(), s.Shape.G, s.Shape.D
	source := perm.Inverse(s.Dst)
	a := make([]mpops.Action, n)
	for i := range a {
		act := mpops.Idle()
		held := len(s.Buf[i])
		switch c.IntRange(0, 4, "message") {
		case 2, 3:
			if held > 0 {
				act.Send = int32(c.IntRange(0, held-1, "send"))
			}
		case 4:
			act.Ack = int32(c.IntRange(0, n-1, "ack"))
		}
		if act.Send >= 0 || act.Ack >= 0 {
			k := 1
			if c.IntRange(0, 2, "broadcast") == 2 {
				k = c.IntRange(1, g, "fan-out")
			}
			act.To = pmPick(c, g, k, "to")
			if act.Send >= 0 && k == 1 && c.IntRange(0, 1, "towards destination") == 1 {
				if dst := s.Dst[s.Buf[i][act.Send].Packet]; dst != perm.None {
					act.To[0] = dst / int32(d)
				}
			}
		}
		act.Keep = mpops.Keep(c.IntRange(0, 1, "keep"))
		switch c.IntRange(0, 3, "listen mode") {
		case 1, 2:
			act.Listen = int32(c.IntRange(0, g-1, "listen"))
		case 3:
			if src := source[i]; src != perm.None {
				act.Listen, act.Keep = src/int32(d), mpops.KeepOwn
			}
		}
		if held > 0 && c.IntRange(0, 5, "drops") == 5 {
			act.Drop = pmPick(c, held, c.IntRange(1, held, "drop count"), "drop")
		}
		a[i] = act
	}
	return a
}

// PopsModelIllegalActionsWith returns an action vector for s that the
// hardware cannot perform: a legal vector with one or two processors'
// actions corrupted (out-of-range Send, Ack, Listen, To or Drop entries,
// duplicate To or Drop entries, a packet and an ack together, couplers
// without a message, a message without couplers, an unknown Keep), or, one
// time in 13, a vector of the wrong length. Every corruption is illegal on
// its own, whatever the rest of the action holds.
func PopsModelIllegalActionsWith(c PopsModelChoices, s mpops.State) []mpops.Action {
	a := PopsModelLegalActionsWith(c, s)
	n := len(a)
	if c.IntRange(0, 12, "wrong length") == 12 {
		if c.IntRange(0, 1, "shorter") == 0 {
			return a[:c.IntRange(0, n-1, "length")]
		}
		for extra := c.IntRange(1, 2, "extra"); extra > 0; extra-- {
			a = append(a, mpops.Idle())
		}
		return a
	}
	for k := c.IntRange(1, 2, "corruptions"); k > 0; k-- {
		i := c.IntRange(0, n-1, "corrupted processor")
		pmCorrupt(c, s, i, &a[i])
	}
	return a
}

// PopsModelRawActionsWith returns a legal vector with 1–3 fields of random
// processors overwritten by values in a window around their allowed range
// (Send in [-2, held], Ack in [-2, n], Listen in [-2, g], Keep in [0, 2],
// To and Drop lists of small length with entries just inside or outside
// their range). The result may or may not be legal.
func PopsModelRawActionsWith(c PopsModelChoices, s mpops.State) []mpops.Action {
	a := PopsModelLegalActionsWith(c, s)
	n, g := s.Shape.N(), s.Shape.G
	for k := c.IntRange(1, 3, "overwrites"); k > 0; k-- {
		i := c.IntRange(0, n-1, "overwritten processor")
		act := &a[i]
		held := len(s.Buf[i])
		switch c.IntRange(0, 5, "field") {
		case 0:
			act.Send = int32(c.IntRange(-2, held, "raw send"))
		case 1:
			act.Ack = int32(c.IntRange(-2, n, "raw ack"))
		case 2:
			act.To = make([]int32, c.IntRange(0, g+1, "raw to count"))
			for x := range act.To {
				act.To[x] = int32(c.IntRange(-1, g, "raw to"))
			}
		case 3:
			act.Listen = int32(c.IntRange(-2, g, "raw listen"))
		case 4:
			act.Keep = mpops.Keep(c.IntRange(0, 2, "raw keep"))
		case 5:
			act.Drop = make([]int32, c.IntRange(0, 2, "raw drop count"))
			for x := range act.Drop {
				act.Drop[x] = int32(c.IntRange(-1, held, "raw drop"))
			}
		}
	}
	return a
}

// PopsModelActionsWith returns a legal vector (probability 4/6), an illegal
// one (1/6) or a raw one (1/6), and which it is. Legal is the simplest.
func PopsModelActionsWith(c PopsModelChoices, s mpops.State) ([]mpops.Action, PopsModelActionKind) {
	switch c.IntRange(0, 5, "vector kind") {
	case 4:
		return PopsModelIllegalActionsWith(c, s), PopsModelIllegal
	case 5:
		return PopsModelRawActionsWith(c, s), PopsModelRaw
	}
	return PopsModelLegalActionsWith(c, s), PopsModelLegal
}

// pmPick returns k distinct values of [0, m) in random order (a partial
// Fisher–Yates shuffle; the simplest pick is 0, 1, …, k-1).
func pmPick(c PopsModelChoices, m, k int, label string) []int32 {
	pool := make([]int32, m)
	for x := range pool {
		pool[x] = int32(x)
	}
	for x := 0; x < k; x++ {
		y := c.IntRange(x, m-1, label)
		pool[x], pool[y] = pool[y], pool[x]
	}
	return pool[:k:k]
}

// pmOutside returns a value outside [lo, hi]: just above, just below, a bit
// further away, or an int32 extreme.
func pmOutside(c PopsModelChoices, lo, hi int) int32 {
	switch c.IntRange(0, 3, "outside") {
	case 0:
		return int32(hi + 1)
	case 1:
		return int32(lo - 1 - c.IntRange(0, 3, "below"))
	case 2:
		return int32(hi + 1 + c.IntRange(0, 3, "above"))
	}
	if c.IntRange(0, 1, "extreme") == 0 {
		return math.MaxInt32
	}
	return math.MinInt32
}

// pmCorrupt makes processor i's action impossible, whatever else it holds.
func pmCorrupt(c PopsModelChoices, s mpops.State, i int, act *mpops.Action) {
	n, g, held := s.Shape.N(), s.Shape.G, len(s.Buf[i])
	switch c.IntRange(0, 10, "corruption") {
	case 0: // Send out of range
		act.Send = pmOutside(c, -1, held-1)
	case 1: // Ack out of range
		act.Ack = pmOutside(c, -1, n-1)
	case 2: // Listen out of range
		act.Listen = pmOutside(c, -1, g-1)
	case 3: // a To group out of range (or To without a message)
		act.To = append(slices.Clone(act.To), pmOutside(c, 0, g-1))
	case 4: // a To group listed twice (or To without a message)
		if len(act.To) > 0 {
			act.To = append(slices.Clone(act.To), act.To[c.IntRange(0, len(act.To)-1, "repeated to")])
		} else {
			b := int32(c.IntRange(0, g-1, "repeated to"))
			act.To = []int32{b, b}
		}
	case 5: // a Drop index out of range
		act.Drop = append(slices.Clone(act.Drop), pmOutside(c, 0, held-1))
	case 6: // a Drop index listed twice (out of range when nothing is held)
		if len(act.Drop) > 0 {
			act.Drop = append(slices.Clone(act.Drop), act.Drop[c.IntRange(0, len(act.Drop)-1, "repeated drop")])
		} else {
			act.Drop = []int32{0, 0}
		}
	case 7: // a packet and an ack together (Send 0 is out of range when nothing is held)
		act.Send = int32(c.IntRange(0, max(held-1, 0), "send"))
		act.Ack = int32(c.IntRange(0, n-1, "ack"))
		if len(act.To) == 0 {
			act.To = []int32{int32(c.IntRange(0, g-1, "to"))}
		}
	case 8: // couplers without a message
		act.Send, act.Ack = -1, -1
		if len(act.To) == 0 {
			act.To = []int32{int32(c.IntRange(0, g-1, "to"))}
		}
	case 9: // a message without couplers
		act.To = nil
		if act.Send == -1 && act.Ack == -1 {
			act.Ack = int32(c.IntRange(0, n-1, "ack"))
		}
	case 10: // an unknown Keep
		act.Keep = mpops.Keep(c.IntRange(int(mpops.KeepOwn)+1, math.MaxUint8, "keep"))
	}
}

// ---------------------------------------------------------------------------
// rapid generators

// PopsModelShapes generates POPS(d, g) with 1 ≤ d, g ≤ PopsModelMaxSide.
func PopsModelShapes() *rapid.Generator[mpops.Shape] {
	return rapid.Custom(func(t *rapid.T) mpops.Shape { return PopsModelShapeWith(PopsModelRapidChoices(t)) })
}

// PopsModelPartialPerms generates partial permutations of N_n (see
// PopsModelPartialPermWith).
func PopsModelPartialPerms(n int) *rapid.Generator[[]int32] {
	return rapid.Custom(func(t *rapid.T) []int32 { return PopsModelPartialPermWith(PopsModelRapidChoices(t), n) })
}

// PopsModelStates generates states reached from a random partial
// permutation by a few random legal slots (see PopsModelStateWith). It fails
// the test if pops.Step rejects a legal warm-up slot.
func PopsModelStates() *rapid.Generator[mpops.State] {
	return rapid.Custom(func(t *rapid.T) mpops.State {
		s, err := PopsModelStateWith(PopsModelRapidChoices(t))
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

// PopsModelLegalActions generates legal action vectors for s.
func PopsModelLegalActions(s mpops.State) *rapid.Generator[[]mpops.Action] {
	return rapid.Custom(func(t *rapid.T) []mpops.Action {
		return PopsModelLegalActionsWith(PopsModelRapidChoices(t), s)
	})
}

// PopsModelIllegalActions generates action vectors for s that contain at
// least one impossible action.
func PopsModelIllegalActions(s mpops.State) *rapid.Generator[[]mpops.Action] {
	return rapid.Custom(func(t *rapid.T) []mpops.Action {
		return PopsModelIllegalActionsWith(PopsModelRapidChoices(t), s)
	})
}

// PopsModelRawActions generates possibly illegal action vectors for s.
func PopsModelRawActions(s mpops.State) *rapid.Generator[[]mpops.Action] {
	return rapid.Custom(func(t *rapid.T) []mpops.Action {
		return PopsModelRawActionsWith(PopsModelRapidChoices(t), s)
	})
}

// ---------------------------------------------------------------------------
// Comparing outcomes

// pmStepFunc is the signature of pops.Step and popsnaive.Step. The property
// bodies take the step under test as an argument so that the tests can
// check that each body catches deliberately broken steps.
type pmStepFunc = func(mpops.State, []mpops.Action) (mpops.State, mpops.Events, error)

// PopsModelOutcome is the result of stepping one slot.
type PopsModelOutcome struct {
	State  mpops.State
	Events mpops.Events
	Err    error
}

// PopsModelStepOutcome steps s with a using step (pops.Step or
// popsnaive.Step) and returns the outcome, converting a panic into the
// returned panic value (nil when step returned normally).
func PopsModelStepOutcome(step func(mpops.State, []mpops.Action) (mpops.State, mpops.Events, error),
	s mpops.State, a []mpops.Action) (out PopsModelOutcome, panicked any) {
	defer func() {
		if r := recover(); r != nil {
			panicked = r
		}
	}()
	out.State, out.Events, out.Err = step(s, a)
	return out, nil
}

// PopsModelNormalizeEvents returns a copy of e with every list sorted and
// every empty list nil, so that two Events holding the same multisets are
// reflect.DeepEqual.
func PopsModelNormalizeEvents(e mpops.Events) mpops.Events {
	var out mpops.Events
	if len(e.Received) > 0 {
		out.Received = slices.Clone(e.Received)
		slices.SortFunc(out.Received, func(x, y mpops.Reception) int {
			for _, d := range [...]int64{
				int64(x.Proc) - int64(y.Proc),
				int64(x.Coupler.To) - int64(y.Coupler.To),
				int64(x.Coupler.From) - int64(y.Coupler.From),
				int64(x.Msg.Kind) - int64(y.Msg.Kind),
				int64(x.Msg.Packet) - int64(y.Msg.Packet),
			} {
				if d != 0 {
					return pmSign(d)
				}
			}
			return 0
		})
	}
	if len(e.Conflicts) > 0 {
		out.Conflicts = slices.Clone(e.Conflicts)
		slices.SortFunc(out.Conflicts, pmCompareCouplers)
	}
	sorted := func(xs []int32) []int32 {
		if len(xs) == 0 {
			return nil
		}
		xs = slices.Clone(xs)
		slices.Sort(xs)
		return xs
	}
	out.Delivered = sorted(e.Delivered)
	out.Duplicated = sorted(e.Duplicated)
	out.Lost = sorted(e.Lost)
	return out
}

func pmSign(d int64) int {
	switch {
	case d < 0:
		return -1
	case d > 0:
		return 1
	}
	return 0
}

func pmCompareCouplers(x, y mpops.Coupler) int {
	if x.To != y.To {
		return pmSign(int64(x.To) - int64(y.To))
	}
	return pmSign(int64(x.From) - int64(y.From))
}

// PopsModelCompare describes the first difference between the outcome got
// of models/pops and the outcome want of the reference, or returns "" when
// they agree: both reject (each error wrapping pops.ErrActions; the texts
// may differ), or both accept with State.Equal next states and the same
// events as multisets.
func PopsModelCompare(got, want PopsModelOutcome) string {
	switch {
	case got.Err != nil && !errors.Is(got.Err, mpops.ErrActions):
		return fmt.Sprintf("models/pops error does not wrap pops.ErrActions: %v", got.Err)
	case want.Err != nil && !errors.Is(want.Err, mpops.ErrActions):
		return fmt.Sprintf("reference error does not wrap pops.ErrActions: %v", want.Err)
	case got.Err != nil && want.Err != nil:
		return ""
	case got.Err != nil:
		return fmt.Sprintf("models/pops rejects (%v), the reference accepts", got.Err)
	case want.Err != nil:
		return fmt.Sprintf("models/pops accepts, the reference rejects (%v)", want.Err)
	}
	if !got.State.Equal(want.State) {
		return fmt.Sprintf("next states differ:\n  models/pops: %s\n  reference:   %s", PopsModelFormatState(got.State), PopsModelFormatState(want.State))
	}
	ge, we := PopsModelNormalizeEvents(got.Events), PopsModelNormalizeEvents(want.Events)
	if !reflect.DeepEqual(ge, we) {
		return fmt.Sprintf("events differ:\n  models/pops: %+v\n  reference:   %+v", ge, we)
	}
	return ""
}

// PopsModelCheckStep steps s with a through models/pops and
// oracles/popsnaive and returns the models/pops outcome together with a
// description of everything wrong with it ("" when nothing is): a panic in
// either implementation, a changed input state or action vector, an error
// not wrapping pops.ErrActions, a rejected legal vector or an accepted
// illegal one (as told by kind), a disagreement with popsnaive, and — when
// checkInvariants is set — an accepted step whose next state fails
// pops.CheckInvariants.
func PopsModelCheckStep(s mpops.State, a []mpops.Action, kind PopsModelActionKind, checkInvariants bool) (PopsModelOutcome, string) {
	return pmCheckStep(mpops.Step, s, a, kind, checkInvariants)
}

func pmCheckStep(step pmStepFunc, s mpops.State, a []mpops.Action, kind PopsModelActionKind, checkInvariants bool) (PopsModelOutcome, string) {
	before, actsBefore := s.Clone(), pmCloneActions(a)
	got, p := PopsModelStepOutcome(step, s, a)
	if p != nil {
		return got, fmt.Sprintf("models/pops.Step panicked on %s actions: %v", kind, p)
	}
	if !s.Equal(before) {
		return got, "models/pops.Step modified its input state"
	}
	if !reflect.DeepEqual(a, actsBefore) {
		return got, "models/pops.Step modified its action vector"
	}
	want, p := PopsModelStepOutcome(popsnaive.Step, s, a)
	if p != nil {
		return got, fmt.Sprintf("popsnaive.Step panicked on %s actions: %v", kind, p)
	}
	switch {
	case kind == PopsModelLegal && got.Err != nil:
		return got, fmt.Sprintf("models/pops rejects legal actions: %v", got.Err)
	case kind == PopsModelIllegal && got.Err == nil:
		return got, "models/pops accepts illegal actions"
	case kind == PopsModelIllegal && want.Err == nil:
		return got, "popsnaive accepts illegal actions"
	}
	if d := PopsModelCompare(got, want); d != "" {
		return got, "models/pops and oracles/popsnaive disagree on " + kind.String() + " actions: " + d
	}
	if checkInvariants && got.Err == nil {
		if err := mpops.CheckInvariants(got.State); err != nil {
			return got, fmt.Sprintf("next state fails CheckInvariants: %v\n  next: %s", err, PopsModelFormatState(got.State))
		}
	}
	return got, ""
}

func pmCloneActions(a []mpops.Action) []mpops.Action {
	if a == nil {
		return nil
	}
	c := make([]mpops.Action, len(a))
	for i, act := range a {
		c[i] = act
		c[i].To = slices.Clone(act.To)
		c[i].Drop = slices.Clone(act.Drop)
	}
	return c
}

// ---------------------------------------------------------------------------
// Properties

// PopsModelProp is one slot-model property, driven by a choice source.
type PopsModelProp struct {
	// Name identifies the property (also the suffix of its rapid body).
	Name string
	// Check runs the property once on the instance c chooses and returns ""
	// when it holds or a description of the violation.
	Check func(c PopsModelChoices) string
}

// PopsModelProps returns the slot-model properties, all expected to hold:
// the bodies behind PopsModelPurity, PopsModelLegalSteps,
// PopsModelConservation, PopsModelCouplers, PopsModelIllegalRejected and
// PopsModelDifferential, for drivers other than rapid.
func PopsModelProps() []PopsModelProp {
	return []PopsModelProp{
		{Name: "Purity", Check: pmBind(pmPurity)},
		{Name: "LegalSteps", Check: pmBind(pmLegalSteps)},
		{Name: "Conservation", Check: pmBind(pmConservation)},
		{Name: "Couplers", Check: pmBind(pmCouplers)},
		{Name: "IllegalRejected", Check: pmBind(pmIllegalRejected)},
		{Name: "Differential", Check: pmBind(pmDifferential)},
	}
}

// pmBody is a property body: it checks step on the instance c chooses.
type pmBody = func(step pmStepFunc, c PopsModelChoices) string

// pmBind fixes a body's step to models/pops.Step.
func pmBind(body pmBody) func(PopsModelChoices) string {
	return func(c PopsModelChoices) string { return body(mpops.Step, c) }
}

func pmRapidProp(t *rapid.T, body pmBody) {
	if msg := body(mpops.Step, PopsModelRapidChoices(t)); msg != "" {
		t.Fatal(msg)
	}
}

// PopsModelPurity checks that pops.Step is pure: on a random reachable state
// and a random (legal, illegal or raw) action vector it leaves the state and
// the actions unchanged, stepping twice gives Equal states, DeepEqual events
// and the same error, and the next state shares no memory with the input
// (overwriting it does not change the input or the second result).
func PopsModelPurity(t *rapid.T) { pmRapidProp(t, pmPurity) }

// PopsModelLegalSteps checks that over a run of 1–8 slots of random legal
// actions from a fresh state, pops.Step never errors, counts the slot, keeps
// Shape and Dst, and returns a state that passes pops.CheckInvariants. The
// actions are unrestricted, so runs include destinations accepting their
// packet again (Events.Duplicated, a second Delivered item): such states are
// legal model states, and must pass CheckInvariants too.
func PopsModelLegalSteps(t *rapid.T) { pmRapidProp(t, pmLegalSteps) }

// PopsModelConservation checks, over a run of 1–8 slots of random legal
// actions from a fresh state, that no packet is created (every item and
// every received packet message names a packet with Dst ≠ None, held at the
// start of the slot by a processor of the sending group), that each
// packet's item count changes exactly by the receptions stored minus the
// entries dropped, and that every packet is delivered, lost or still held,
// with exactly one Lost event, ever, for a lost packet. Deliveries are
// counted by events, not by stored items: a packet has exactly one Delivered
// event, ever, once its Delivered flag is set; every later acceptance at its
// destination is a Duplicated event (never before the slot after the
// Delivered one); and each slot's Delivered plus Duplicated events for a
// packet equal the Delivered items it stored (minus those dropped).
func PopsModelConservation(t *rapid.T) { pmRapidProp(t, pmConservation) }

// PopsModelCouplers checks the coupler physics from the events of one slot
// on a random reachable state with random legal actions: a coupler with
// exactly one sender delivers that sender's message to every processor
// listening to it (and to no one else); a coupler with two or more senders
// delivers nothing and is listed in Events.Conflicts, which lists nothing
// else; the listener stores exactly what its Keep accepts; and Delivered /
// Duplicated name exactly the packets accepted at their destination for the
// first time / again.
func PopsModelCouplers(t *rapid.T) { pmRapidProp(t, pmCouplers) }

// PopsModelIllegalRejected checks that an action vector containing an
// impossible action makes pops.Step (and popsnaive.Step) return an error
// wrapping pops.ErrActions, without panicking or touching the state.
func PopsModelIllegalRejected(t *rapid.T) { pmRapidProp(t, pmIllegalRejected) }

// PopsModelDifferential checks pops.Step against oracles/popsnaive over a run
// of 1–8 slots from a random reachable state, each slot a random legal,
// illegal or raw action vector: both reject or both accept with Equal next
// states and the same events (see PopsModelCheckStep).
func PopsModelDifferential(t *rapid.T) { pmRapidProp(t, pmDifferential) }

// pmOnState makes a property body that starts from a random reachable
// state (PopsModelStateWith; a failure to build one is the body's
// failure).
func pmOnState(body func(step pmStepFunc, c PopsModelChoices, s mpops.State) string) pmBody {
	return func(step pmStepFunc, c PopsModelChoices) string {
		s, err := PopsModelStateWith(c)
		if err != nil {
			return err.Error()
		}
		return body(step, c, s)
	}
}

// pmPurity is the body of PopsModelPurity, from the state pmOnState drew.
var pmPurity = pmOnState(pmPurityOn)

func pmPurityOn(step pmStepFunc, c PopsModelChoices, s mpops.State) string {
	a, kind := PopsModelActionsWith(c, s)
	where := fmt.Sprintf("\n  state:   %s\n  actions (%s): %s", PopsModelFormatState(s), kind, PopsModelFormatActions(a))
	s0, a0 := s.Clone(), pmCloneActions(a)

	r1, p := PopsModelStepOutcome(step, s, a)
	if p != nil {
		return fmt.Sprintf("step panicked: %v%s", p, where)
	}
	if !s.Equal(s0) {
		return "step modified its input state" + where
	}
	if !reflect.DeepEqual(a, a0) {
		return "step modified its action vector" + where
	}
	r2, p := PopsModelStepOutcome(step, s, a)
	if p != nil {
		return fmt.Sprintf("step panicked on the second call: %v%s", p, where)
	}
	if (r1.Err == nil) != (r2.Err == nil) || (r1.Err != nil && r1.Err.Error() != r2.Err.Error()) {
		return fmt.Sprintf("two calls gave errors %v and %v%s", r1.Err, r2.Err, where)
	}
	if r1.Err != nil {
		return ""
	}
	if !r1.State.Equal(r2.State) {
		return fmt.Sprintf("two calls gave different states:\n  %s\n  %s%s", PopsModelFormatState(r1.State), PopsModelFormatState(r2.State), where)
	}
	if !reflect.DeepEqual(r1.Events, r2.Events) {
		return fmt.Sprintf("two calls gave different events:\n  %+v\n  %+v%s", r1.Events, r2.Events, where)
	}
	// The next state must own its memory: overwrite all of the first result.
	second := r2.State.Clone()
	pmScribble(r1.State)
	if !s.Equal(s0) {
		return "overwriting the next state changed the input state (shared memory)" + where
	}
	if !r2.State.Equal(second) {
		return "overwriting one call's result changed the other's (shared memory)" + where
	}
	return ""
}

// pmScribble overwrites every element of s's slices with garbage.
func pmScribble(s mpops.State) {
	for i := range s.Buf {
		for k := range s.Buf[i] {
			s.Buf[i][k] = mpops.Item{Packet: -7, Kind: 99}
		}
	}
	for p := range s.Dst {
		s.Dst[p] = -7
	}
	for p := range s.Delivered {
		s.Delivered[p] = !s.Delivered[p]
	}
	for p := range s.Lost {
		s.Lost[p] = !s.Lost[p]
	}
}

func pmLegalSteps(step pmStepFunc, c PopsModelChoices) string {
	s := PopsModelInitialStateWith(c)
	if err := mpops.CheckInvariants(s); err != nil {
		return fmt.Sprintf("initial state fails CheckInvariants: %v\n  state: %s", err, PopsModelFormatState(s))
	}
	return pmLegalRun(step, c, s, func(s mpops.State, _ []mpops.Action, next mpops.State, ev mpops.Events, where string) string {
		if err := mpops.CheckInvariants(next); err != nil {
			return fmt.Sprintf("next state fails CheckInvariants: %v\n  next: %s\n  events: %+v%s", err, PopsModelFormatState(next), ev, where)
		}
		if next.Slot != s.Slot+1 || next.Shape != s.Shape || !slices.Equal(next.Dst, s.Dst) {
			return fmt.Sprintf("slot, shape or destinations changed: next %s%s", PopsModelFormatState(next), where)
		}
		return ""
	})
}

// pmLegalRun steps s through 1–8 slots (drawn from c), each with a random
// legal action vector, which step must accept; each judges every slot
// (where describes it) and its first message ends the run.
func pmLegalRun(step pmStepFunc, c PopsModelChoices, s mpops.State, each func(s mpops.State, a []mpops.Action, next mpops.State, ev mpops.Events, where string) string) string {
	slots := c.IntRange(1, 8, "slots")
	for k := 0; k < slots; k++ {
		a := PopsModelLegalActionsWith(c, s)
		where := fmt.Sprintf("\n  slot %d state: %s\n  actions: %s", k, PopsModelFormatState(s), PopsModelFormatActions(a))
		next, ev, err := step(s, a)
		if err != nil {
			return fmt.Sprintf("legal actions rejected: %v%s", err, where)
		}
		if msg := each(s, a, next, ev, where); msg != "" {
			return msg
		}
		s = next
	}
	return ""
}

func pmConservation(step pmStepFunc, c PopsModelChoices) string {
	s := PopsModelInitialStateWith(c)
	n := s.Shape.N()
	lostEvents := make([]int, n)
	deliveredEvents := make([]int, n)
	return pmLegalRun(step, c, s, func(s mpops.State, a []mpops.Action, next mpops.State, ev mpops.Events, where string) string {
		if msg := pmConservedSlot(s, a, next, ev, lostEvents, deliveredEvents); msg != "" {
			return msg + fmt.Sprintf("\n  next: %s\n  events: %+v%s", PopsModelFormatState(next), ev, where)
		}
		return ""
	})
}

// pmConservedSlot checks one slot s --a--> next with events ev and adds the
// slot's Lost and Delivered events to the run's counts (deliveredEvents
// holds the counts of the earlier slots on entry).
func pmConservedSlot(s mpops.State, a []mpops.Action, next mpops.State, ev mpops.Events, lostEvents, deliveredEvents []int) string {
	n := s.Shape.N()
	exists := func(p int32) bool { return p >= 0 && int(p) < n && s.Dst[p] != perm.None }
	for _, p := range ev.Lost {
		if !exists(p) {
			return fmt.Sprintf("Lost event for packet %d, which does not exist", p)
		}
		if lostEvents[p]++; lostEvents[p] > 1 {
			return fmt.Sprintf("packet %d has a second Lost event", p)
		}
	}
	// A repeated acceptance is Duplicated, and only after the slot of the
	// packet's Delivered event.
	accepted := make(map[int32]int)
	for _, p := range ev.Duplicated {
		if !exists(p) {
			return fmt.Sprintf("Duplicated event for packet %d, which does not exist", p)
		}
		if deliveredEvents[p] == 0 {
			return fmt.Sprintf("Duplicated event for packet %d, which had no Delivered event in an earlier slot", p)
		}
		accepted[p]++
	}
	for _, p := range ev.Delivered {
		if !exists(p) {
			return fmt.Sprintf("Delivered event for packet %d, which does not exist", p)
		}
		accepted[p]++
		if deliveredEvents[p]++; deliveredEvents[p] > 1 {
			return fmt.Sprintf("packet %d has a second Delivered event (repeats belong in Duplicated)", p)
		}
	}
	// No packet is created: every stored item names an existing packet.
	count := func(st mpops.State, p int32) (items, delivered int, held bool) {
		for _, buf := range st.Buf {
			for _, it := range buf {
				if it.Packet == p {
					items++
					held = held || it.Kind == mpops.Original || it.Kind == mpops.Copy
					if it.Kind == mpops.Delivered {
						delivered++
					}
				}
			}
		}
		return
	}
	for i, buf := range next.Buf {
		for _, it := range buf {
			if !exists(it.Packet) {
				return fmt.Sprintf("processor %d holds packet %d, which does not exist", i, it.Packet)
			}
		}
	}
	// A packet message must carry a packet held, at the start of the slot,
	// by a processor of the sending group; stored receptions and drops
	// account for every change of a packet's item count.
	delta := make(map[int32]int)
	for _, r := range ev.Received {
		if r.Msg.Kind != mpops.PacketMsg {
			continue
		}
		p := r.Msg.Packet
		if !exists(p) {
			return fmt.Sprintf("processor %d received packet %d, which does not exist", r.Proc, p)
		}
		heldInGroup := false
		for j := int(r.Coupler.From) * s.Shape.D; j < int(r.Coupler.From+1)*s.Shape.D; j++ {
			for _, it := range s.Buf[j] {
				heldInGroup = heldInGroup || it.Packet == p
			}
		}
		if !heldInGroup {
			return fmt.Sprintf("processor %d received packet %d over %v, but no processor of group %d held it", r.Proc, p, r.Coupler, r.Coupler.From)
		}
		act := a[r.Proc]
		if act.Keep == mpops.KeepAll || (act.Keep == mpops.KeepOwn && s.Dst[p] == r.Proc) {
			delta[p]++
		}
	}
	droppedDelivered := make(map[int32]int)
	for i, act := range a {
		for _, k := range act.Drop {
			it := s.Buf[i][k]
			delta[it.Packet]--
			if it.Kind == mpops.Delivered {
				droppedDelivered[it.Packet]++
			}
		}
	}
	for p := int32(0); int(p) < n; p++ {
		if s.Dst[p] == perm.None {
			if next.Delivered[p] || next.Lost[p] {
				return fmt.Sprintf("absent packet %d is flagged delivered or lost", p)
			}
			continue
		}
		before, deliveredBefore, _ := count(s, p)
		after, deliveredAfter, held := count(next, p)
		if after != before+delta[p] {
			return fmt.Sprintf("packet %d: %d items before, %+d from stored receptions and drops, but %d after (created or destroyed)", p, before, delta[p], after)
		}
		if deliveredAfter != deliveredBefore+accepted[p]-droppedDelivered[p] {
			return fmt.Sprintf("packet %d: %d Delivered items before, %d Delivered/Duplicated events, %d dropped, but %d after (an acceptance at the destination not reported exactly once)",
				p, deliveredBefore, accepted[p], droppedDelivered[p], deliveredAfter)
		}
		if (s.Delivered[p] && !next.Delivered[p]) || (s.Lost[p] && !next.Lost[p]) {
			return fmt.Sprintf("packet %d lost its Delivered or Lost flag", p)
		}
		if !next.Delivered[p] && !next.Lost[p] && !held {
			return fmt.Sprintf("packet %d vanished: not delivered, not lost, not held", p)
		}
		if next.Lost[p] && (held || next.Delivered[p]) {
			return fmt.Sprintf("packet %d is flagged lost but is held or delivered", p)
		}
		if next.Lost[p] != (lostEvents[p] == 1) {
			return fmt.Sprintf("packet %d: Lost flag %v after %d Lost events", p, next.Lost[p], lostEvents[p])
		}
		if next.Delivered[p] != (deliveredEvents[p] == 1) {
			return fmt.Sprintf("packet %d: Delivered flag %v after %d Delivered events", p, next.Delivered[p], deliveredEvents[p])
		}
	}
	return ""
}

// pmCouplers is the body of PopsModelCouplers, from the state pmOnState drew.
var pmCouplers = pmOnState(pmCouplersOn)

func pmCouplersOn(step pmStepFunc, c PopsModelChoices, s mpops.State) string {
	a := PopsModelLegalActionsWith(c, s)
	where := fmt.Sprintf("\n  state:   %s\n  actions: %s", PopsModelFormatState(s), PopsModelFormatActions(a))
	next, ev, err := step(s, a)
	if err != nil {
		return fmt.Sprintf("legal actions rejected: %v%s", err, where)
	}
	where = fmt.Sprintf("\n  events: %+v%s", ev, where)
	d, g, n := s.Shape.D, s.Shape.G, s.Shape.N()

	// Senders of every coupler, straight from the actions.
	senders := make(map[mpops.Coupler][]int)
	for j, act := range a {
		if act.Send < 0 && act.Ack < 0 {
			continue
		}
		for _, b := range act.To {
			cp := mpops.Coupler{To: b, From: int32(j / d)}
			senders[cp] = append(senders[cp], j)
		}
	}
	msgOf := func(j int) mpops.Message {
		if a[j].Send >= 0 {
			return mpops.Message{Kind: mpops.PacketMsg, Packet: s.Buf[j][a[j].Send].Packet}
		}
		return mpops.Message{Kind: mpops.AckMsg, Packet: a[j].Ack}
	}

	// Conflicts: exactly the couplers with two or more senders, once each.
	listed := make(map[mpops.Coupler]int)
	for _, cp := range ev.Conflicts {
		listed[cp]++
		if listed[cp] > 1 || len(senders[cp]) < 2 {
			return fmt.Sprintf("Conflicts lists %v (%d senders, listed %d times)", cp, len(senders[cp]), listed[cp]) + where
		}
	}
	for b := 0; b < g; b++ {
		for src := 0; src < g; src++ {
			cp := mpops.Coupler{To: int32(b), From: int32(src)}
			if len(senders[cp]) >= 2 && listed[cp] == 0 {
				return fmt.Sprintf("%v has senders %v but is not in Conflicts", cp, senders[cp]) + where
			}
		}
	}

	// Receptions: exactly one per listener of a single-sender coupler.
	got := make([][]mpops.Reception, n)
	for _, r := range ev.Received {
		if r.Proc < 0 || int(r.Proc) >= n {
			return fmt.Sprintf("reception at processor %d, which does not exist", r.Proc) + where
		}
		got[r.Proc] = append(got[r.Proc], r)
	}
	var firstTime, again []int32
	for i, act := range a {
		if act.Listen < 0 {
			if len(got[i]) > 0 {
				return fmt.Sprintf("processor %d does not listen but received %v", i, got[i]) + where
			}
			if len(next.Buf[i]) != len(s.Buf[i])-len(act.Drop) {
				return fmt.Sprintf("processor %d does not listen but its buffer went from %d to %d items with %d drops", i, len(s.Buf[i]), len(next.Buf[i]), len(act.Drop)) + where
			}
			continue
		}
		cp := mpops.Coupler{To: int32(i / d), From: act.Listen}
		if len(senders[cp]) != 1 {
			if len(got[i]) > 0 {
				return fmt.Sprintf("processor %d listens to %v with %d senders but received %v", i, cp, len(senders[cp]), got[i]) + where
			}
			if len(next.Buf[i]) != len(s.Buf[i])-len(act.Drop) {
				return fmt.Sprintf("processor %d received nothing but its buffer went from %d to %d items with %d drops", i, len(s.Buf[i]), len(next.Buf[i]), len(act.Drop)) + where
			}
			continue
		}
		want := mpops.Reception{Proc: int32(i), Coupler: cp, Msg: msgOf(senders[cp][0])}
		if len(got[i]) != 1 || got[i][0] != want {
			return fmt.Sprintf("processor %d listens to %v with one sender (processor %d): received %v, want %v", i, cp, senders[cp][0], got[i], want) + where
		}
		// What the listener stores.
		var stored *mpops.Item
		if p := want.Msg.Packet; want.Msg.Kind == mpops.PacketMsg {
			switch {
			case act.Keep == mpops.KeepAll:
				stored = &mpops.Item{Packet: p, Kind: mpops.Copy}
			case act.Keep == mpops.KeepOwn && s.Dst[p] == int32(i):
				stored = &mpops.Item{Packet: p, Kind: mpops.Delivered}
				if s.Delivered[p] {
					again = append(again, p)
				} else {
					firstTime = append(firstTime, p)
				}
			}
		}
		wantLen := len(s.Buf[i]) - len(act.Drop)
		if stored != nil {
			wantLen++
		}
		if len(next.Buf[i]) != wantLen || (stored != nil && next.Buf[i][wantLen-1] != *stored) {
			return fmt.Sprintf("processor %d (Keep %d) received %v: buffer %v → %v, want %d items ending with %v", i, act.Keep, want.Msg, s.Buf[i], next.Buf[i], wantLen, stored) + where
		}
	}
	ne := PopsModelNormalizeEvents(mpops.Events{Delivered: firstTime, Duplicated: again})
	ge := PopsModelNormalizeEvents(mpops.Events{Delivered: ev.Delivered, Duplicated: ev.Duplicated})
	if !reflect.DeepEqual(ne, ge) {
		return fmt.Sprintf("Delivered/Duplicated = %v/%v, want %v/%v", ev.Delivered, ev.Duplicated, firstTime, again) + where
	}
	return ""
}

// pmIllegalRejected is the body of PopsModelIllegalRejected, from the state pmOnState drew.
var pmIllegalRejected = pmOnState(pmIllegalRejectedOn)

func pmIllegalRejectedOn(step pmStepFunc, c PopsModelChoices, s mpops.State) string {
	a := PopsModelIllegalActionsWith(c, s)
	if _, msg := pmCheckStep(step, s, a, PopsModelIllegal, false); msg != "" {
		return fmt.Sprintf("%s\n  state:   %s\n  actions: %s", msg, PopsModelFormatState(s), PopsModelFormatActions(a))
	}
	return ""
}

// pmDifferential is the body of PopsModelDifferential, from the state pmOnState drew.
var pmDifferential = pmOnState(pmDifferentialOn)

func pmDifferentialOn(step pmStepFunc, c PopsModelChoices, s mpops.State) string {
	slots := c.IntRange(1, 8, "slots")
	for k := 0; k < slots; k++ {
		a, kind := PopsModelActionsWith(c, s)
		out, msg := pmCheckStep(step, s, a, kind, false)
		if msg != "" {
			return fmt.Sprintf("slot %d: %s\n  state:   %s\n  actions (%s): %s", k, msg, PopsModelFormatState(s), kind, PopsModelFormatActions(a))
		}
		if out.Err == nil {
			s = out.State
		}
	}
	return ""
}

// ---------------------------------------------------------------------------
// Formatting for failure messages

// PopsModelFormatState prints a state compactly for failure messages:
// shape, slot, destinations, non-empty buffers as p<i>:[o0 c3 d5] for
// Original, Copy and Delivered items, and the delivered and lost packets.
func PopsModelFormatState(s mpops.State) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%v slot %d dst=%v buf={", s.Shape, s.Slot, s.Dst)
	sep := ""
	for i, buf := range s.Buf {
		if len(buf) == 0 {
			continue
		}
		fmt.Fprintf(&b, "%sp%d:[", sep, i)
		sep = " "
		for k, it := range buf {
			if k > 0 {
				b.WriteByte(' ')
			}
			switch it.Kind {
			case mpops.Original:
				b.WriteByte('o')
			case mpops.Copy:
				b.WriteByte('c')
			case mpops.Delivered:
				b.WriteByte('d')
			default:
				fmt.Fprintf(&b, "?%d:", it.Kind)
			}
			fmt.Fprintf(&b, "%d", it.Packet)
		}
		b.WriteByte(']')
	}
	b.WriteString("}")
	var delivered, lost []int
	for p := range s.Dst {
		if p < len(s.Delivered) && s.Delivered[p] {
			delivered = append(delivered, p)
		}
		if p < len(s.Lost) && s.Lost[p] {
			lost = append(lost, p)
		}
	}
	fmt.Fprintf(&b, " delivered=%v lost=%v", delivered, lost)
	return b.String()
}

// PopsModelFormatActions prints an action vector compactly for failure
// messages: its length, then the non-idle actions, e.g.
// "p0{send#0 >[1 2] listen1 /own drop[0]} p3{ack5 >[0]}".
func PopsModelFormatActions(a []mpops.Action) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d actions:", len(a))
	for i, act := range a {
		var parts []string
		if act.Send != -1 {
			parts = append(parts, fmt.Sprintf("send#%d", act.Send))
		}
		if act.Ack != -1 {
			parts = append(parts, fmt.Sprintf("ack%d", act.Ack))
		}
		if act.To != nil {
			parts = append(parts, fmt.Sprintf(">%v", act.To))
		}
		if act.Listen != -1 {
			parts = append(parts, fmt.Sprintf("listen%d", act.Listen))
		}
		switch act.Keep {
		case mpops.KeepAll:
			if act.Listen != -1 {
				parts = append(parts, "/all")
			}
		case mpops.KeepOwn:
			parts = append(parts, "/own")
		default:
			parts = append(parts, fmt.Sprintf("/keep=%d", act.Keep))
		}
		if act.Drop != nil {
			parts = append(parts, fmt.Sprintf("drop%v", act.Drop))
		}
		if len(parts) > 0 {
			fmt.Fprintf(&b, " p%d{%s}", i, strings.Join(parts, " "))
		}
	}
	return b.String()
}
