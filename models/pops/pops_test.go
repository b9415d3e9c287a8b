package pops_test

import (
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"routecheck/models/perm"
	"routecheck/models/pops"
)

// Expected values in this file come from the rules in doc.go and the doc
// comments of pops.go (processor i is in group ⌊i/d⌋; c(b, a) carries group a
// to group b; one sender delivers to every listener, two deliver nothing;
// KeepAll stores a Copy, KeepOwn a Delivered item only at the destination;
// drops apply to the buffer at the start of the slot), never from outputs.

const none = perm.None

func idle(n int) []pops.Action {
	a := make([]pops.Action, n)
	for i := range a {
		a[i] = pops.Idle()
	}
	return a
}

// sendTo sends buffer index k to the couplers c(b, group(i)) for b in to.
func sendTo(k int32, to ...int32) pops.Action {
	return pops.Action{Send: k, Ack: -1, To: to, Listen: -1}
}

// ackTo sends a header-only ack naming packet p.
func ackTo(p int32, to ...int32) pops.Action {
	return pops.Action{Send: -1, Ack: p, To: to, Listen: -1}
}

// listen listens to c(group(i), a).
func listen(a int32, keep pops.Keep) pops.Action {
	return pops.Action{Send: -1, Ack: -1, Listen: a, Keep: keep}
}

func mustShape(t *testing.T, d, g int) pops.Shape {
	t.Helper()
	s, err := pops.NewShape(d, g)
	if err != nil {
		t.Fatalf("NewShape(%d, %d): %v", d, g, err)
	}
	return s
}

func mustState(t *testing.T, d, g int, dst []int32) pops.State {
	t.Helper()
	s, err := pops.NewState(mustShape(t, d, g), dst)
	if err != nil {
		t.Fatalf("NewState(POPS(%d,%d), %v): %v", d, g, dst, err)
	}
	return s
}

func TestNewShape(t *testing.T) {
	for _, tc := range []struct {
		d, g    int
		ok      bool
		errPart string
	}{
		{d: 1, g: 1, ok: true},
		{d: 2, g: 3, ok: true},
		{d: 0, g: 3, errPart: "d = 0"},
		{d: -1, g: 3, errPart: "d = -1"},
		{d: 3, g: 0, errPart: "g = 0"},
		{d: 3, g: -2, errPart: "g = -2"},
		// n = d·g may reach MaxN exactly (2^31 − 1 is prime: only 1·MaxN).
		{d: pops.MaxN, g: 1, ok: true},
		{d: 1, g: pops.MaxN, ok: true},
		{d: pops.MaxN, g: 2, errPart: "n must be ≤"},
		{d: 1 << 16, g: 1 << 15, errPart: "d·g = 2147483648"},
		{d: math.MaxInt32, g: math.MaxInt32, errPart: "n must be ≤"},
	} {
		s, err := pops.NewShape(tc.d, tc.g)
		if tc.ok {
			if err != nil || s != (pops.Shape{D: tc.d, G: tc.g}) {
				t.Errorf("NewShape(%d, %d) = %v, %v; want POPS(%d,%d), nil", tc.d, tc.g, s, err, tc.d, tc.g)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.errPart) {
			t.Errorf("NewShape(%d, %d) error = %v; want one containing %q", tc.d, tc.g, err, tc.errPart)
		}
	}
}

func TestShapeGroups(t *testing.T) {
	s := pops.Shape{D: 3, G: 4}
	if s.N() != 12 {
		t.Errorf("POPS(3,4).N() = %d, want 12", s.N())
	}
	// processor i is in group ⌊i/d⌋
	for i, want := range []int{0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3} {
		if got := s.Group(i); got != want {
			t.Errorf("POPS(3,4).Group(%d) = %d, want %d", i, got, want)
		}
	}
	if got := s.String(); got != "POPS(3,4)" {
		t.Errorf("String() = %q", got)
	}
	if got := (pops.Coupler{To: 2, From: 1}).String(); got != "c(2,1)" {
		t.Errorf("Coupler String() = %q", got)
	}
	for k, want := range map[pops.ItemKind]string{pops.Original: "original", pops.Copy: "copy", pops.Delivered: "delivered", 0: "ItemKind(0)", 7: "ItemKind(7)"} {
		if got := k.String(); got != want {
			t.Errorf("ItemKind(%d).String() = %q, want %q", uint8(k), got, want)
		}
	}
}

func TestNewState(t *testing.T) {
	shape := pops.Shape{D: 2, G: 2}
	for _, tc := range []struct {
		name string
		dst  []int32
		ok   bool
	}{
		{"permutation", []int32{3, 2, 1, 0}, true},
		{"partial permutation", []int32{none, 0, none, 2}, true},
		{"no packet at all", []int32{none, none, none, none}, true},
		{"too short", []int32{0, 1, 2}, false},
		{"too long", []int32{0, 1, 2, 3, none}, false},
		{"repeated destination", []int32{1, 1, none, none}, false},
		{"destination out of range", []int32{4, none, none, none}, false},
		{"negative destination other than None", []int32{-2, none, none, none}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dst := slices.Clone(tc.dst)
			s, err := pops.NewState(shape, dst)
			if !tc.ok {
				if err == nil {
					t.Fatalf("NewState(%v) accepted an invalid destination vector", tc.dst)
				}
				return
			}
			if err != nil {
				t.Fatalf("NewState(%v): %v", tc.dst, err)
			}
			if s.Shape != shape || s.Slot != 0 || !slices.Equal(s.Dst, tc.dst) {
				t.Fatalf("NewState(%v) = %+v", tc.dst, s)
			}
			// packet p starts at processor p, as an Original
			for p, d := range tc.dst {
				var want []pops.Item
				if d != none {
					want = []pops.Item{{Packet: int32(p), Kind: pops.Original}}
				}
				if !slices.Equal(s.Buf[p], want) {
					t.Errorf("Buf[%d] = %v, want %v", p, s.Buf[p], want)
				}
			}
			if len(s.Buf) != 4 || !slices.Equal(s.Delivered, make([]bool, 4)) || !slices.Equal(s.Lost, make([]bool, 4)) {
				t.Errorf("NewState(%v): flags %v %v, %d buffers", tc.dst, s.Delivered, s.Lost, len(s.Buf))
			}
			if err := pops.CheckInvariants(s); err != nil {
				t.Errorf("a fresh state breaks an invariant: %v", err)
			}
			// the state owns its copy of dst
			dst[0] = 99
			if s.Dst[0] == 99 {
				t.Error("NewState keeps the caller's dst slice")
			}
		})
	}
}

type stepCase struct {
	name string
	d, g int
	dst  []int32
	acts map[int]pops.Action // processors not listed are idle
	// wantBuf lists the buffers after the slot by processor (nil = empty).
	wantBuf [][]pops.Item
	want    pops.Events
	// wantDelivered and wantLost list the packets flagged after the slot.
	wantDelivered, wantLost []int32
}

func orig(p int32) pops.Item { return pops.Item{Packet: p, Kind: pops.Original} }
func cp(p int32) pops.Item   { return pops.Item{Packet: p, Kind: pops.Copy} }
func dlv(p int32) pops.Item  { return pops.Item{Packet: p, Kind: pops.Delivered} }

func pkt(p int32) pops.Message { return pops.Message{Kind: pops.PacketMsg, Packet: p} }
func ack(p int32) pops.Message { return pops.Message{Kind: pops.AckMsg, Packet: p} }

func rcv(proc, to, from int32, m pops.Message) pops.Reception {
	return pops.Reception{Proc: proc, Coupler: pops.Coupler{To: to, From: from}, Msg: m}
}

// POPS(2,3): groups {0,1}, {2,3}, {4,5}.
var stepCases = []stepCase{
	{
		name: "one sender reaches every listener; KeepOwn stores only at the destination",
		d:    2, g: 3,
		dst: []int32{3, none, none, none, none, none},
		acts: map[int]pops.Action{
			0: sendTo(0, 1),            // c(1,0)
			2: listen(0, pops.KeepOwn), // not the destination: read and discarded
			3: listen(0, pops.KeepOwn), // the destination
			4: listen(0, pops.KeepAll), // c(2,0) is silent
			5: listen(2, pops.KeepAll), // c(2,2) is silent
			1: listen(0, pops.KeepAll), // c(0,0) is silent
		},
		wantBuf: [][]pops.Item{{orig(0)}, nil, nil, {dlv(0)}, nil, nil},
		want: pops.Events{
			Received:  []pops.Reception{rcv(2, 1, 0, pkt(0)), rcv(3, 1, 0, pkt(0))},
			Delivered: []int32{0},
		},
		wantDelivered: []int32{0},
	},
	{
		name: "KeepAll stores a Copy, even at the destination: a relay is not a delivery",
		d:    2, g: 3,
		dst: []int32{3, none, none, none, none, none},
		acts: map[int]pops.Action{
			0: sendTo(0, 1),
			2: listen(0, pops.KeepAll),
			3: listen(0, pops.KeepAll),
		},
		wantBuf: [][]pops.Item{{orig(0)}, nil, {cp(0)}, {cp(0)}, nil, nil},
		want: pops.Events{
			Received: []pops.Reception{rcv(2, 1, 0, pkt(0)), rcv(3, 1, 0, pkt(0))},
		},
	},
	{
		name: "one message to several couplers, one of them inside the sender's group",
		d:    2, g: 3,
		dst: []int32{none, 4, none, none, none, none},
		acts: map[int]pops.Action{
			1: sendTo(0, 2, 0),         // c(2,0) and c(0,0)
			0: listen(0, pops.KeepAll), // c(0,0)
			4: listen(0, pops.KeepOwn), // c(2,0): destination
			5: listen(1, pops.KeepAll), // c(2,1): silent
			2: listen(0, pops.KeepOwn), // c(1,0): silent
		},
		wantBuf: [][]pops.Item{{cp(1)}, {orig(1)}, nil, nil, {dlv(1)}, nil},
		want: pops.Events{
			Received:  []pops.Reception{rcv(0, 0, 0, pkt(1)), rcv(4, 2, 0, pkt(1))},
			Delivered: []int32{1},
		},
		wantDelivered: []int32{1},
	},
	{
		name: "two senders on a coupler deliver nothing; the other couplers still work",
		d:    2, g: 3,
		dst: []int32{3, 2, 5, 4, 1, 0},
		acts: map[int]pops.Action{
			0: {Send: 0, Ack: -1, To: []int32{1}, Listen: 2, Keep: pops.KeepAll},    // c(1,0); listens to conflicting c(0,2)
			1: {Send: 0, Ack: -1, To: []int32{1, 2}, Listen: 2, Keep: pops.KeepOwn}, // c(1,0) conflict, c(2,0) alone
			2: {Send: 0, Ack: -1, To: []int32{2}, Listen: 0, Keep: pops.KeepAll},    // c(2,1) alone; listens to conflicting c(1,0)
			3: listen(0, pops.KeepOwn),                                              // c(1,0): conflict
			4: {Send: 0, Ack: -1, To: []int32{0}, Listen: 1, Keep: pops.KeepAll},    // c(0,2) conflict; hears c(2,1)
			5: {Send: 0, Ack: -1, To: []int32{0}, Listen: 0, Keep: pops.KeepOwn},    // c(0,2) conflict; hears c(2,0), not its packet
		},
		wantBuf: [][]pops.Item{{orig(0)}, {orig(1)}, {orig(2)}, {orig(3)}, {orig(4), cp(2)}, {orig(5)}},
		want: pops.Events{
			Received:  []pops.Reception{rcv(4, 2, 1, pkt(2)), rcv(5, 2, 0, pkt(1))},
			Conflicts: []pops.Coupler{{To: 0, From: 2}, {To: 1, From: 0}},
		},
	},
	{
		name: "three senders on a coupler are a conflict too",
		d:    3, g: 2,
		dst: []int32{3, 4, 5, none, none, none},
		acts: map[int]pops.Action{
			0: sendTo(0, 1), 1: sendTo(0, 1), 2: sendTo(0, 1),
			3: listen(0, pops.KeepOwn), 4: listen(0, pops.KeepAll),
		},
		wantBuf: [][]pops.Item{{orig(0)}, {orig(1)}, {orig(2)}, nil, nil, nil},
		want:    pops.Events{Conflicts: []pops.Coupler{{To: 1, From: 0}}},
	},
	{
		name: "an ack is header-only: received, never stored",
		d:    2, g: 3,
		dst: []int32{3, none, none, none, none, none},
		acts: map[int]pops.Action{
			3: ackTo(0, 0),             // c(0,1)
			0: listen(1, pops.KeepAll), // c(0,1)
			1: listen(1, pops.KeepOwn), // c(0,1)
		},
		wantBuf: [][]pops.Item{{orig(0)}, nil, nil, nil, nil, nil},
		want: pops.Events{
			Received: []pops.Reception{rcv(0, 0, 1, ack(0)), rcv(1, 0, 1, ack(0))},
		},
	},
	{
		name: "an ack and a packet on one coupler conflict",
		d:    2, g: 2,
		dst: []int32{2, none, none, none},
		acts: map[int]pops.Action{
			0: sendTo(0, 1), 1: ackTo(3, 1), // both on c(1,0); 3 = n−1 is a legal id
			2: listen(0, pops.KeepOwn),
		},
		wantBuf: [][]pops.Item{{orig(0)}, nil, nil, nil},
		want:    pops.Events{Conflicts: []pops.Coupler{{To: 1, From: 0}}},
	},
	{
		name: "a packet sent and dropped in the same slot is delivered, not lost",
		d:    2, g: 3,
		dst: []int32{3, none, none, none, none, none},
		acts: map[int]pops.Action{
			0: {Send: 0, Ack: -1, To: []int32{1}, Listen: -1, Drop: []int32{0}},
			3: listen(0, pops.KeepOwn),
		},
		wantBuf: [][]pops.Item{nil, nil, nil, {dlv(0)}, nil, nil},
		want: pops.Events{
			Received:  []pops.Reception{rcv(3, 1, 0, pkt(0))},
			Delivered: []int32{0},
		},
		wantDelivered: []int32{0},
	},
	{
		name: "a packet dropped with no copy left is lost",
		d:    2, g: 3,
		dst: []int32{3, none, 0, none, none, none},
		acts: map[int]pops.Action{
			0: {Send: -1, Ack: -1, Listen: -1, Drop: []int32{0}},
		},
		wantBuf:  [][]pops.Item{nil, nil, {orig(2)}, nil, nil, nil},
		want:     pops.Events{Lost: []int32{0}},
		wantLost: []int32{0},
	},
	{
		name: "a drop indexes the buffer at the start of the slot: what arrives stays",
		d:    2, g: 3,
		dst: []int32{none, 4, 3, none, none, none},
		acts: map[int]pops.Action{
			2: sendTo(0, 0), // c(0,1)
			1: {Send: -1, Ack: -1, Listen: 1, Keep: pops.KeepAll, Drop: []int32{0}},
		},
		wantBuf:  [][]pops.Item{nil, {cp(2)}, {orig(2)}, nil, nil, nil},
		want:     pops.Events{Received: []pops.Reception{rcv(1, 0, 1, pkt(2))}, Lost: []int32{1}},
		wantLost: []int32{1},
	},
	{
		name: "a sent copy is still held: sending alone loses nothing",
		d:    1, g: 3,
		dst: []int32{2, 0, 1},
		acts: map[int]pops.Action{
			0: sendTo(0, 1, 2), // c(1,0), c(2,0)
			2: {Send: 0, Ack: -1, To: []int32{1}, Listen: 0, Keep: pops.KeepOwn},
		},
		// c(1,0) and c(1,2) both reach group 1, but processor 1 listens to neither
		wantBuf: [][]pops.Item{{orig(0)}, {orig(1)}, {orig(2), dlv(0)}},
		want: pops.Events{
			Received:  []pops.Reception{rcv(2, 2, 0, pkt(0))},
			Delivered: []int32{0},
		},
		wantDelivered: []int32{0},
	},
}

func actions(n int, acts map[int]pops.Action) []pops.Action {
	a := idle(n)
	for i, x := range acts {
		a[i] = x
	}
	return a
}

func flagged(f []bool) []int32 {
	var out []int32
	for p, b := range f {
		if b {
			out = append(out, int32(p))
		}
	}
	return out
}

func eventsEqual(x, y pops.Events) bool {
	return slices.Equal(x.Received, y.Received) && slices.Equal(x.Conflicts, y.Conflicts) &&
		slices.Equal(x.Delivered, y.Delivered) && slices.Equal(x.Duplicated, y.Duplicated) &&
		slices.Equal(x.Lost, y.Lost)
}

func TestStep(t *testing.T) {
	for _, tc := range stepCases {
		t.Run(tc.name, func(t *testing.T) {
			s := mustState(t, tc.d, tc.g, tc.dst)
			a := actions(s.Shape.N(), tc.acts)
			before := s.Clone()
			next, ev, err := pops.Step(s, a)
			if err != nil {
				t.Fatalf("Step: %v", err)
			}
			if !s.Equal(before) {
				t.Fatalf("Step mutated its input state:\nbefore %+v\nafter  %+v", before, s)
			}
			if next.Slot != s.Slot+1 {
				t.Errorf("Slot = %d, want %d", next.Slot, s.Slot+1)
			}
			for i := range tc.wantBuf {
				if !slices.Equal(next.Buf[i], tc.wantBuf[i]) {
					t.Errorf("Buf[%d] = %v, want %v", i, next.Buf[i], tc.wantBuf[i])
				}
			}
			if !eventsEqual(ev, tc.want) {
				t.Errorf("events = %+v\nwant     %+v", ev, tc.want)
			}
			if got := flagged(next.Delivered); !slices.Equal(got, tc.wantDelivered) {
				t.Errorf("Delivered flags %v, want %v", got, tc.wantDelivered)
			}
			if got := flagged(next.Lost); !slices.Equal(got, tc.wantLost) {
				t.Errorf("Lost flags %v, want %v", got, tc.wantLost)
			}
			if !slices.Equal(next.Dst, s.Dst) || next.Shape != s.Shape {
				t.Errorf("Step changed Dst or Shape")
			}
			if err := pops.CheckInvariants(next); err != nil {
				t.Errorf("conservation: %v", err)
			}
			// same state and actions, same result
			next2, ev2, err := pops.Step(s, a)
			if err != nil || !next2.Equal(next) || !reflect.DeepEqual(ev2, ev) {
				t.Errorf("Step is not deterministic: %+v %+v %v", next2, ev2, err)
			}
		})
	}
}

// stepOK steps and fails the test on an error or a broken invariant.
func stepOK(t *testing.T, s pops.State, a []pops.Action) (pops.State, pops.Events) {
	t.Helper()
	next, ev, err := pops.Step(s, a)
	if err != nil {
		t.Fatalf("slot %d: %v", s.Slot, err)
	}
	if err := pops.CheckInvariants(next); err != nil {
		t.Fatalf("slot %d: %v", s.Slot, err)
	}
	return next, ev
}

func TestStepSequences(t *testing.T) {
	t.Run("a loss is reported once", func(t *testing.T) {
		s := mustState(t, 1, 2, []int32{1, none})
		a := idle(2)
		a[0].Drop = []int32{0}
		s, ev := stepOK(t, s, a)
		if !slices.Equal(ev.Lost, []int32{0}) {
			t.Fatalf("slot 1: Lost = %v, want [0]", ev.Lost)
		}
		s, ev = stepOK(t, s, idle(2))
		if len(ev.Lost) != 0 || !s.Lost[0] || s.Slot != 2 {
			t.Fatalf("slot 2: Lost event %v, flag %v, slot %d", ev.Lost, s.Lost[0], s.Slot)
		}
	})
	t.Run("a second acceptance at the destination is a duplicate, stored again", func(t *testing.T) {
		s := mustState(t, 1, 2, []int32{1, none})
		a := idle(2)
		a[0] = sendTo(0, 1)
		a[1] = listen(0, pops.KeepOwn)
		s, ev := stepOK(t, s, a)
		if !slices.Equal(ev.Delivered, []int32{0}) || len(ev.Duplicated) != 0 {
			t.Fatalf("slot 1: %+v", ev)
		}
		s, ev = stepOK(t, s, a)
		if len(ev.Delivered) != 0 || !slices.Equal(ev.Duplicated, []int32{0}) {
			t.Fatalf("slot 2: %+v, want packet 0 duplicated", ev)
		}
		if !slices.Equal(s.Buf[1], []pops.Item{dlv(0), dlv(0)}) || !s.Delivered[0] {
			t.Fatalf("slot 2: Buf[1] = %v, Delivered %v", s.Buf[1], s.Delivered)
		}
	})
	t.Run("relay through a copy, drop the original, deliver", func(t *testing.T) {
		// POPS(1,3): packet 0 goes 0 → 1 (copy) → 2 (destination).
		s := mustState(t, 1, 3, []int32{2, none, none})
		a := idle(3)
		a[0] = pops.Action{Send: 0, Ack: -1, To: []int32{1}, Listen: -1, Drop: []int32{0}}
		a[1] = listen(0, pops.KeepAll)
		s, ev := stepOK(t, s, a)
		if len(ev.Lost) != 0 || !slices.Equal(s.Buf[1], []pops.Item{cp(0)}) || len(s.Buf[0]) != 0 {
			t.Fatalf("slot 1: %+v, buffers %v", ev, s.Buf)
		}
		a = idle(3)
		a[1] = pops.Action{Send: 0, Ack: -1, To: []int32{2}, Listen: -1, Drop: []int32{0}}
		a[2] = listen(1, pops.KeepOwn)
		s, ev = stepOK(t, s, a)
		if !slices.Equal(ev.Delivered, []int32{0}) || len(ev.Lost) != 0 ||
			!slices.Equal(s.Buf[2], []pops.Item{dlv(0)}) || len(s.Buf[1]) != 0 {
			t.Fatalf("slot 2: %+v, buffers %v", ev, s.Buf)
		}
	})
	t.Run("dropping two of three items keeps the third, in order", func(t *testing.T) {
		// Processor 0 collects copies of packets 1 and 2, then drops indices 2 and 0.
		s := mustState(t, 1, 3, []int32{1, 2, 0})
		a := idle(3)
		a[1] = sendTo(0, 0)
		a[0] = listen(1, pops.KeepAll)
		s, _ = stepOK(t, s, a)
		a = idle(3)
		a[2] = sendTo(0, 0)
		a[0] = listen(2, pops.KeepAll)
		s, _ = stepOK(t, s, a)
		if want := []pops.Item{orig(0), cp(1), cp(2)}; !slices.Equal(s.Buf[0], want) {
			t.Fatalf("Buf[0] = %v, want %v", s.Buf[0], want)
		}
		a = idle(3)
		a[0].Drop = []int32{2, 0}
		s, ev := stepOK(t, s, a)
		if want := []pops.Item{cp(1)}; !slices.Equal(s.Buf[0], want) {
			t.Fatalf("Buf[0] = %v, want %v", s.Buf[0], want)
		}
		// packet 0's only item was its original; packet 2 still has its original
		if !slices.Equal(ev.Lost, []int32{0}) {
			t.Fatalf("Lost = %v, want [0]", ev.Lost)
		}
	})
}

func TestStepRejects(t *testing.T) {
	// POPS(2,3); processor 0 holds packet 0, processor 1 holds nothing.
	dst := []int32{3, none, none, none, none, none}
	for _, tc := range []struct {
		name string
		proc int
		act  pops.Action
		ok   bool
	}{
		{"send the only packet", 0, sendTo(0, 1), true},
		{"send and ack in one slot (two messages)", 0, pops.Action{Send: 0, Ack: 0, To: []int32{1}, Listen: -1}, false},
		{"send past the buffer", 0, sendTo(1, 1), false},
		{"send from an empty buffer", 1, sendTo(0, 1), false},
		{"send index below -1", 0, sendTo(-2, 1), false},
		{"ack the last packet id", 1, ackTo(5, 1), true},
		{"ack packet 0", 1, ackTo(0, 1), true},
		{"ack past the last packet id", 1, ackTo(6, 1), false},
		{"ack below -1", 1, ackTo(-2, 1), false},
		{"send without couplers", 0, sendTo(0), false},
		{"ack without couplers", 1, ackTo(0), false},
		{"couplers without a message", 0, pops.Action{Send: -1, Ack: -1, To: []int32{1}, Listen: -1}, false},
		{"the same coupler twice", 0, sendTo(0, 1, 1), false},
		{"the same coupler twice, not adjacent", 0, sendTo(0, 1, 2, 1), false},
		{"every coupler of the group", 0, sendTo(0, 2, 0, 1), true},
		{"coupler to group g", 0, sendTo(0, 3), false},
		{"coupler to group -1", 0, sendTo(0, -1), false},
		{"listen to the last group", 0, listen(2, pops.KeepAll), true},
		{"listen to group 0", 5, listen(0, pops.KeepOwn), true},
		{"listen to group g", 0, listen(3, pops.KeepAll), false},
		{"listen to group -2", 0, listen(-2, pops.KeepAll), false},
		{"unknown Keep", 0, listen(1, pops.Keep(2)), false},
		{"drop the only item", 0, pops.Action{Send: -1, Ack: -1, Listen: -1, Drop: []int32{0}}, true},
		{"drop past the buffer", 0, pops.Action{Send: -1, Ack: -1, Listen: -1, Drop: []int32{1}}, false},
		{"drop from an empty buffer", 1, pops.Action{Send: -1, Ack: -1, Listen: -1, Drop: []int32{0}}, false},
		{"drop index -1", 0, pops.Action{Send: -1, Ack: -1, Listen: -1, Drop: []int32{-1}}, false},
		{"drop an index twice", 0, pops.Action{Send: -1, Ack: -1, Listen: -1, Drop: []int32{0, 0}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := mustState(t, 2, 3, dst)
			a := idle(6)
			a[tc.proc] = tc.act
			before := s.Clone()
			_, _, err := pops.Step(s, a)
			if !s.Equal(before) {
				t.Fatal("Step mutated its input state")
			}
			if tc.ok {
				if err != nil {
					t.Fatalf("legal action rejected: %v", err)
				}
				return
			}
			if !errors.Is(err, pops.ErrActions) {
				t.Fatalf("error %v does not wrap ErrActions", err)
			}
		})
	}
	t.Run("wrong number of actions", func(t *testing.T) {
		s := mustState(t, 2, 3, dst)
		for _, k := range []int{0, 5, 7} {
			if _, _, err := pops.Step(s, idle(k)); !errors.Is(err, pops.ErrActions) {
				t.Errorf("%d actions for 6 processors: error %v", k, err)
			}
		}
	})
}

// base is a valid POPS(2,2) state: packet 0 (0 → 3) delivered, its original
// still at 0; packet 2 (2 → 1) at its source with a copy at processor 1.
func base() pops.State {
	return pops.State{
		Shape:     pops.Shape{D: 2, G: 2},
		Dst:       []int32{3, none, 1, none},
		Buf:       [][]pops.Item{{orig(0)}, {cp(2)}, {orig(2)}, {dlv(0)}},
		Delivered: []bool{true, false, false, false},
		Lost:      []bool{false, false, false, false},
		Slot:      1,
	}
}

func TestCheckInvariants(t *testing.T) {
	for _, tc := range []struct {
		name    string
		edit    func(s *pops.State)
		errPart string // "" = valid
	}{
		{"valid", func(*pops.State) {}, ""},
		{"a duplicate delivery is physically possible", func(s *pops.State) { s.Buf[3] = append(s.Buf[3], dlv(0)) }, ""},
		{"a delivered packet whose copies are dropped", func(s *pops.State) { s.Buf[0] = nil }, ""},
		{"a delivered flag with no stored item", func(s *pops.State) { s.Buf[3] = nil }, ""},
		{"a lost packet with no item left", func(s *pops.State) { s.Buf[1], s.Buf[2], s.Lost[2] = nil, nil, true }, ""},
		{"a copy away from source and destination", func(s *pops.State) { s.Buf[0] = append(s.Buf[0], cp(2)) }, ""},
		{"a duplicated original", func(s *pops.State) { s.Buf[1] = append(s.Buf[1], orig(2)) }, "original of packet 2"},
		{"a lost item without a loss event", func(s *pops.State) { s.Buf[1], s.Buf[2] = nil, nil }, "vanished"},
		{"a delivered item away from the destination", func(s *pops.State) { s.Buf[2] = append(s.Buf[2], dlv(0)) }, "as delivered"},
		{"a stored delivery not flagged", func(s *pops.State) { s.Delivered[0] = false }, "not flagged delivered"},
		{"flagged lost but held", func(s *pops.State) { s.Lost[2] = true }, "flagged lost"},
		{"flagged lost but delivered", func(s *pops.State) { s.Buf[0], s.Lost[0] = nil, true }, "flagged lost"},
		{"an item of an absent packet", func(s *pops.State) { s.Buf[0] = append(s.Buf[0], cp(1)) }, "does not exist"},
		{"an item of packet -1", func(s *pops.State) { s.Buf[0] = append(s.Buf[0], cp(-1)) }, "does not exist"},
		{"an item of packet n", func(s *pops.State) { s.Buf[0] = append(s.Buf[0], cp(4)) }, "does not exist"},
		{"an item of kind 0", func(s *pops.State) { s.Buf[1][0].Kind = 0 }, "unknown kind"},
		{"an item of kind 4", func(s *pops.State) { s.Buf[1][0].Kind = 4 }, "unknown kind"},
		{"an absent packet flagged delivered", func(s *pops.State) { s.Delivered[1] = true }, "absent packet 1"},
		{"an absent packet flagged lost", func(s *pops.State) { s.Lost[3] = true }, "absent packet 3"},
		{"short Dst", func(s *pops.State) { s.Dst = s.Dst[:3] }, "length"},
		{"short Buf", func(s *pops.State) { s.Buf = s.Buf[:3] }, "length"},
		{"short Delivered", func(s *pops.State) { s.Delivered = s.Delivered[:3] }, "length"},
		{"long Lost", func(s *pops.State) { s.Lost = append(s.Lost, false) }, "length"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := base()
			tc.edit(&s)
			err := pops.CheckInvariants(s)
			if tc.errPart == "" {
				if err != nil {
					t.Fatalf("valid state rejected: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.errPart) {
				t.Fatalf("error = %v, want one containing %q", err, tc.errPart)
			}
		})
	}
}

func TestOccupancy(t *testing.T) {
	s := base()
	s.Buf[1] = []pops.Item{cp(2), dlv(1), cp(0), orig(1), cp(3), {Packet: 0, Kind: 9}}
	for i, want := range [][3]int{{1, 0, 0}, {1, 3, 1}, {1, 0, 0}, {0, 0, 1}} {
		o, c, d := s.Occupancy(i)
		if [3]int{o, c, d} != want {
			t.Errorf("Occupancy(%d) = %d, %d, %d; want %v", i, o, c, d, want)
		}
	}
}

func TestCloneEqual(t *testing.T) {
	s := base()
	c := s.Clone()
	if !c.Equal(s) || !s.Equal(c) {
		t.Fatal("a clone is not equal to its original")
	}
	// a deep copy: editing the clone leaves the original alone
	c.Buf[1][0] = cp(0)
	c.Dst[0], c.Delivered[1], c.Lost[1] = 2, true, true
	if !s.Equal(base()) {
		t.Fatal("editing a clone changed the original")
	}
	for _, tc := range []struct {
		name string
		edit func(s *pops.State)
	}{
		{"shape", func(s *pops.State) { s.Shape = pops.Shape{D: 1, G: 4} }},
		{"slot", func(s *pops.State) { s.Slot++ }},
		{"dst", func(s *pops.State) { s.Dst[1] = 0 }},
		{"delivered", func(s *pops.State) { s.Delivered[0] = false }},
		{"lost", func(s *pops.State) { s.Lost[1] = true }},
		{"number of buffers", func(s *pops.State) { s.Buf = append(s.Buf, nil) }},
		{"buffer content", func(s *pops.State) { s.Buf[3][0].Kind = pops.Copy }},
		{"buffer length", func(s *pops.State) { s.Buf[2] = append(s.Buf[2], cp(0)) }},
	} {
		x := base()
		tc.edit(&x)
		if x.Equal(base()) || base().Equal(x) {
			t.Errorf("Equal misses a different %s", tc.name)
		}
	}
}
