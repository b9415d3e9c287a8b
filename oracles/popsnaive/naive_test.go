package popsnaive_test

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"routecheck/models/pops"
	"routecheck/oracles/popsnaive"
)

func state(t *testing.T, d, g int, dst []int32) pops.State {
	t.Helper()
	sh, err := pops.NewShape(d, g)
	if err != nil {
		t.Fatal(err)
	}
	s, err := pops.NewState(sh, dst)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func idle(n int) []pops.Action {
	a := make([]pops.Action, n)
	for i := range a {
		a[i] = pops.Idle()
	}
	return a
}

// TestStepHandComputed checks the naive model on slots worked out by hand
// from the physics in the pops package doc.
func TestStepHandComputed(t *testing.T) {
	// POPS(2,2): processors 0,1 in group 0; 2,3 in group 1.
	tests := []struct {
		name    string
		dst     []int32
		actions func(a []pops.Action)
		wantBuf [][]pops.Item
		wantEv  pops.Events
	}{{
		name: "one sender reaches every listener of both couplers",
		dst:  []int32{3, -1, -1, -1},
		actions: func(a []pops.Action) {
			a[0].Send, a[0].To = 0, []int32{0, 1}
			a[1].Listen = 0 // c(0,0)
			a[2].Listen = 0 // c(1,0)
			a[3].Listen, a[3].Keep = 0, pops.KeepOwn
		},
		wantBuf: [][]pops.Item{
			{{Packet: 0, Kind: pops.Original}},
			{{Packet: 0, Kind: pops.Copy}},
			{{Packet: 0, Kind: pops.Copy}},
			{{Packet: 0, Kind: pops.Delivered}},
		},
		wantEv: pops.Events{
			Received: []pops.Reception{
				{Proc: 1, Coupler: pops.Coupler{To: 0, From: 0}, Msg: pops.Message{Kind: pops.PacketMsg, Packet: 0}},
				{Proc: 2, Coupler: pops.Coupler{To: 1, From: 0}, Msg: pops.Message{Kind: pops.PacketMsg, Packet: 0}},
				{Proc: 3, Coupler: pops.Coupler{To: 1, From: 0}, Msg: pops.Message{Kind: pops.PacketMsg, Packet: 0}},
			},
			Delivered: []int32{0},
		},
	}, {
		name: "two senders on one coupler deliver nothing there",
		dst:  []int32{2, 3, -1, -1},
		actions: func(a []pops.Action) {
			a[0].Send, a[0].To = 0, []int32{1}
			a[1].Ack, a[1].To = 2, []int32{1, 0}
			a[2].Listen = 0 // c(1,0): two senders
			a[3].Listen = 1 // c(1,1): silent
			a[0].Listen = 0 // c(0,0): only processor 1's ack
		},
		wantBuf: [][]pops.Item{
			{{Packet: 0, Kind: pops.Original}},
			{{Packet: 1, Kind: pops.Original}},
			nil, nil,
		},
		wantEv: pops.Events{
			Received:  []pops.Reception{{Proc: 0, Coupler: pops.Coupler{To: 0, From: 0}, Msg: pops.Message{Kind: pops.AckMsg, Packet: 2}}},
			Conflicts: []pops.Coupler{{To: 1, From: 0}},
		},
	}, {
		name: "KeepOwn discards a packet for someone else; dropping the last copy loses it",
		dst:  []int32{-1, -1, 1, -1},
		actions: func(a []pops.Action) {
			a[2].Send, a[2].To, a[2].Drop = 0, []int32{0}, []int32{0}
			a[0].Listen, a[0].Keep = 1, pops.KeepOwn
		},
		wantBuf: [][]pops.Item{nil, nil, nil, nil},
		wantEv: pops.Events{
			Received: []pops.Reception{{Proc: 0, Coupler: pops.Coupler{To: 0, From: 1}, Msg: pops.Message{Kind: pops.PacketMsg, Packet: 2}}},
			Lost:     []int32{2},
		},
	}, {
		name: "a sender hears itself; a dropped packet survives as the copy it relayed",
		dst:  []int32{1, -1, -1, -1},
		actions: func(a []pops.Action) {
			a[0].Send, a[0].To, a[0].Drop, a[0].Listen = 0, []int32{0}, []int32{0}, 0
		},
		wantBuf: [][]pops.Item{{{Packet: 0, Kind: pops.Copy}}, nil, nil, nil},
		wantEv: pops.Events{
			Received: []pops.Reception{{Proc: 0, Coupler: pops.Coupler{To: 0, From: 0}, Msg: pops.Message{Kind: pops.PacketMsg, Packet: 0}}},
		},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := state(t, 2, 2, tc.dst)
			a := idle(4)
			tc.actions(a)
			next, ev, err := popsnaive.Step(s, a)
			if err != nil {
				t.Fatal(err)
			}
			if next.Slot != 1 {
				t.Errorf("Slot = %d, want 1", next.Slot)
			}
			for i := range tc.wantBuf {
				if len(next.Buf[i]) != len(tc.wantBuf[i]) || (len(tc.wantBuf[i]) > 0 && !reflect.DeepEqual(next.Buf[i], tc.wantBuf[i])) {
					t.Errorf("Buf[%d] = %v, want %v", i, next.Buf[i], tc.wantBuf[i])
				}
			}
			if !reflect.DeepEqual(ev, tc.wantEv) {
				t.Errorf("events = %+v\nwant     %+v", ev, tc.wantEv)
			}
		})
	}
}

// TestStepRedelivery pins what a second acceptance at the destination does:
// it is reported as Duplicated and stored again (never repaired), and the
// resulting state, with two Delivered items for one packet, passes
// pops.CheckInvariants.
func TestStepRedelivery(t *testing.T) {
	s := state(t, 1, 2, []int32{1, -1})
	a := idle(2)
	a[0].Send, a[0].To = 0, []int32{1}
	a[1].Listen, a[1].Keep = 0, pops.KeepOwn
	s1, ev1, err := popsnaive.Step(s, a)
	if err != nil || !reflect.DeepEqual(ev1.Delivered, []int32{0}) {
		t.Fatalf("first slot: events %+v, err %v", ev1, err)
	}
	s2, ev2, err := popsnaive.Step(s1, a)
	if err != nil || !reflect.DeepEqual(ev2.Duplicated, []int32{0}) || ev2.Delivered != nil {
		t.Fatalf("second slot: events %+v, err %v", ev2, err)
	}
	want := []pops.Item{{Packet: 0, Kind: pops.Delivered}, {Packet: 0, Kind: pops.Delivered}}
	if !reflect.DeepEqual(s2.Buf[1], want) || !s2.Delivered[0] {
		t.Fatalf("destination stores %v (delivered flag %v) after two acceptances, want %v (true)", s2.Buf[1], s2.Delivered[0], want)
	}
	for k, st := range []pops.State{s1, s2} {
		if err := pops.CheckInvariants(st); err != nil {
			t.Fatalf("state after slot %d fails CheckInvariants: %v", k+1, err)
		}
	}
}

// TestStepRejects lists one illegal action per rule.
func TestStepRejects(t *testing.T) {
	// POPS(2,2), processor 0 holds one packet.
	tests := []struct {
		name string
		act  func(a *pops.Action)
	}{
		{"send index past buffer", func(a *pops.Action) { a.Send, a.To = 1, []int32{0} }},
		{"send index below -1", func(a *pops.Action) { a.Send, a.To = -2, []int32{0} }},
		{"ack packet out of range", func(a *pops.Action) { a.Ack, a.To = 4, []int32{0} }},
		{"ack below -1", func(a *pops.Action) { a.Ack = -3 }},
		{"packet and ack together", func(a *pops.Action) { a.Send, a.Ack, a.To = 0, 1, []int32{0} }},
		{"message without couplers", func(a *pops.Action) { a.Ack = 1 }},
		{"couplers without message", func(a *pops.Action) { a.To = []int32{1} }},
		{"coupler group too large", func(a *pops.Action) { a.Send, a.To = 0, []int32{2} }},
		{"coupler group negative", func(a *pops.Action) { a.Send, a.To = 0, []int32{0, -1} }},
		{"coupler listed twice", func(a *pops.Action) { a.Send, a.To = 0, []int32{1, 0, 1} }},
		{"listen group too large", func(a *pops.Action) { a.Listen = 2 }},
		{"listen below -1", func(a *pops.Action) { a.Listen = -2 }},
		{"unknown keep", func(a *pops.Action) { a.Keep = 2 }},
		{"drop past buffer", func(a *pops.Action) { a.Drop = []int32{1} }},
		{"drop negative", func(a *pops.Action) { a.Drop = []int32{-1} }},
		{"drop listed twice", func(a *pops.Action) { a.Drop = []int32{0, 0} }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := state(t, 2, 2, []int32{1, -1, -1, -1})
			a := idle(4)
			tc.act(&a[0])
			_, _, err := popsnaive.Step(s, a)
			if !errors.Is(err, pops.ErrActions) {
				t.Fatalf("err = %v, want an error wrapping pops.ErrActions", err)
			}
		})
	}
	t.Run("wrong number of actions", func(t *testing.T) {
		s := state(t, 2, 2, []int32{1, -1, -1, -1})
		if _, _, err := popsnaive.Step(s, idle(3)); !errors.Is(err, pops.ErrActions) {
			t.Fatalf("err = %v, want an error wrapping pops.ErrActions", err)
		}
	})
}

// TestStepPure checks that Step leaves its input alone.
func TestStepPure(t *testing.T) {
	s := state(t, 2, 2, []int32{1, 0, 3, 2})
	a := idle(4)
	a[0].Send, a[0].To, a[0].Drop = 0, []int32{0, 1}, []int32{0}
	a[1].Listen = 0
	before := s.Clone()
	next, _, err := popsnaive.Step(s, a)
	if err != nil {
		t.Fatal(err)
	}
	for i := range next.Buf {
		for k := range next.Buf[i] {
			next.Buf[i][k] = pops.Item{Packet: -7}
		}
	}
	next.Dst[0], next.Delivered[0], next.Lost[0] = -7, true, true
	if !s.Equal(before) {
		t.Fatalf("input state changed: %+v, was %+v", s, before)
	}
}

func ExampleStep() {
	sh, _ := pops.NewShape(1, 2) // two groups of one processor
	s, _ := pops.NewState(sh, []int32{1, 0})
	a := []pops.Action{pops.Idle(), pops.Idle()}
	a[0].Send, a[0].To = 0, []int32{1}
	a[1].Listen, a[1].Keep = 0, pops.KeepOwn
	next, ev, err := popsnaive.Step(s, a)
	fmt.Println(next.Buf[1], ev.Delivered, err)
	// Output: [{1 original} {0 delivered}] [0] <nil>
}
