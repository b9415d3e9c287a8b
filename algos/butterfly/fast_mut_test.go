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
