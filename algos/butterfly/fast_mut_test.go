package butterfly

import (
	"reflect"
	"testing"

	mb "routecheck/models/butterfly"
)

// Equal keys are ordered by ℓ (Perm), not by packet ID: at input 0 the
// packet of ℓ = 1 (ID 1) goes before the packet of ℓ = 2 (ID 0). Both head
// for row 0 at stage 1 (destinations 0 and 1 share bit 1), so ID 1 is
// delivered at step log N = 2 and ID 0 one step behind, at 3 (hand
// computation on the 4-input butterfly, node model, paper priority).
func TestEngineEqualKeysByPermNotID(t *testing.T) {
	o := Options{Shape: mb.Shape{LogN: 2, Mode: mb.NodeQueue}, Priority: PaperPriority}
	ps := []mb.Packet{
		{ID: 0, Src: 0, Dst: 0, Perm: 2, Key: 5},
		{ID: 1, Src: 0, Dst: 1, Perm: 1, Key: 5},
	}
	var e Engine
	res, err := e.Run(o, ps, 100)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int32{3, 2}; !reflect.DeepEqual(res.Latency, want) {
		t.Fatalf("latencies %v, want %v", res.Latency, want)
	}
}

// The planted fault FaultNodeSendsTwo makes a node forward a second packet
// to the next stage whenever one is left after the first (delivery from
// the last stage is untouched). The two packets of input 0 (destinations 2
// and 1: bit 1 differs, so rows 2 and 0 at stage 1) leave together at step
// 1 and are both delivered at step 2; the router sends them one per step:
// ID 1 (ℓ = 1) at step 2, ID 0 at 3. A lone packet takes log N = 2 steps.
func TestEngineFaultNodeSendsTwo(t *testing.T) {
	ps := []mb.Packet{
		{ID: 0, Src: 0, Dst: 2, Perm: 2, Key: 5},
		{ID: 1, Src: 0, Dst: 1, Perm: 1, Key: 5},
		{ID: 2, Src: 3, Dst: 3, Perm: 1, Key: 5}, // alone: no second packet to send
	}
	for _, c := range []struct {
		f    Fault
		want []int32
	}{{NoFault, []int32{3, 2, 2}}, {FaultNodeSendsTwo, []int32{2, 2, 2}}} {
		o := Options{Shape: mb.Shape{LogN: 2, Mode: mb.NodeQueue}, Priority: PaperPriority, Fault: c.f}
		var e Engine
		res, err := e.Run(o, ps, 100)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(res.Latency, c.want) {
			t.Fatalf("fault %d: latencies %v, want %v", c.f, res.Latency, c.want)
		}
	}
}

// The planted fault FaultLIFO makes every queue a stack (FIFO priority).
// Node model, N = 4. First case: three packets start at input 0 and leave
// it one per step, oldest (lowest ID) first under FIFO, newest first under
// LIFO; each then passes stage 1 alone. Second case: inputs 0 and 2 each
// hold two packets for rows 0 or 1, so all four meet at node (1, 0): FIFO
// sends IDs 0, 2 (step 1), 1, 3 (step 2) on and node (1, 0) serves them in
// arrival order, 0 2 1 3 at steps 2…5; LIFO sends 1, 3, then 0, 2, and the
// stack serves 3 (step 2), then 2, 0, 1 (pushed 0 then 2 on top of 1).
// Under PaperPriority the fault changes nothing.
func TestEngineFaultLIFO(t *testing.T) {
	one := []mb.Packet{{ID: 0, Src: 0, Dst: 0}, {ID: 1, Src: 0, Dst: 1}, {ID: 2, Src: 0, Dst: 2}}
	two := []mb.Packet{{ID: 0, Src: 0, Dst: 0}, {ID: 1, Src: 0, Dst: 1}, {ID: 2, Src: 2, Dst: 0}, {ID: 3, Src: 2, Dst: 1}}
	for _, c := range []struct {
		ps   []mb.Packet
		prio Priority
		f    Fault
		want []int32
	}{
		{one, FIFO, NoFault, []int32{2, 3, 4}}, {one, FIFO, FaultLIFO, []int32{4, 3, 2}},
		{two, FIFO, NoFault, []int32{2, 4, 3, 5}}, {two, FIFO, FaultLIFO, []int32{4, 5, 3, 2}},
		{two, PaperPriority, FaultLIFO, nil},
	} {
		o := Options{Shape: mb.Shape{LogN: 2, Mode: mb.NodeQueue}, Priority: c.prio, Fault: c.f}
		var e Engine
		res, err := e.Run(o, c.ps, 100)
		if err != nil {
			t.Fatal(err)
		}
		want := c.want
		if want == nil { // the fault is FIFO's only: the real router's answer
			o.Fault = NoFault
			ref, err := e.Run(o, c.ps, 100)
			if err != nil {
				t.Fatal(err)
			}
			want = ref.Latency
		}
		if !reflect.DeepEqual(res.Latency, want) {
			t.Fatalf("priority %d, fault %d: latencies %v, want %v", c.prio, c.f, res.Latency, want)
		}
	}
}
