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
