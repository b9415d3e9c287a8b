package pops

import (
	"math/rand/v2"
	"testing"

	"routecheck/models/perm"
)

// probe sends processor 0's packet to group 1 in slot 1 (processor 2
// listens) and records what each processor may read of packet headers.
type probe struct{ dest map[[2]int32]int32 }

func (p *probe) Start(Shape, *rand.Rand) { p.dest = map[[2]int32]int32{} }

func (p *probe) Act(v Local, _ *rand.Rand) Action {
	for q := int32(0); q < 4; q++ {
		p.dest[[2]int32{int32(v.Slot()), v.Proc()*10 + q}] = v.Dest(q)
	}
	a := Idle()
	if v.Slot() == 0 && v.Proc() == 0 {
		a.Send, a.To = 0, []int32{1}
	}
	if v.Slot() == 0 && v.Proc() == 2 {
		a.Listen, a.Keep = 0, KeepAll
	}
	return a
}

// TestLocalDest: a processor reads the header of its own packet, of a packet
// it holds, and of one it heard — nothing else (POPS(2,2), dst = 3 2 1 0).
func TestLocalDest(t *testing.T) {
	p := &probe{}
	if _, err := Drive(Shape{D: 2, G: 2}, []int32{3, 2, 1, 0}, p, rand.New(rand.NewPCG(1, 1)), DriveOptions{MaxSlots: 2}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		slot, proc, pkt, want int32
	}{
		{0, 0, 0, 3},         // its own packet
		{0, 0, 1, perm.None}, // another's, never seen
		{0, 2, 0, perm.None}, // not yet heard
		{1, 2, 0, 3},         // heard in slot 1 and kept as a copy
		{1, 1, 0, perm.None}, // did not listen
	} {
		if got := p.dest[[2]int32{c.slot, c.proc*10 + c.pkt}]; got != c.want {
			t.Errorf("slot %d, processor %d, packet %d: Dest = %d, want %d", c.slot, c.proc, c.pkt, got, c.want)
		}
	}
}
