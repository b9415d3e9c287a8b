package sottest

import (
	"strings"
	"testing"

	"routecheck/models/perm"
	msot "routecheck/models/sot"
)

// TestDeliveries: the delivery property on hand-made events of SOT(3)
// with packets 0: P0 → P1 and 1: P2 → P0 — each way to break it is
// reported, a correct history passes, and Final compares with the state.
func TestDeliveries(t *testing.T) {
	const n = 3
	rel := []perm.Pair{{Src: 0, Dst: 1}, {Src: 2, Dst: 0}}
	ok0 := msot.Delivery{ID: 0, Proc: 1, Latency: n}
	for _, c := range []struct {
		name string
		ds   []msot.Delivery
		want string
	}{
		{"unknown packet", []msot.Delivery{{ID: 2, Proc: 0, Latency: n}}, "unknown packet 2"},
		{"wrong target", []msot.Delivery{{ID: 0, Proc: 2, Latency: n}}, "absorbed by P2"},
		{"twice", []msot.Delivery{ok0, ok0}, "delivered twice"},
		{"hops", []msot.Delivery{{ID: 1, Proc: 0, Latency: n + 1, Defl: 0}}, "after 4 hops with 0 deflections"},
		{"deflected hops", []msot.Delivery{{ID: 1, Proc: 0, Latency: 2 * n, Defl: 1}}, ""},
		{"good", []msot.Delivery{ok0, {ID: 1, Proc: 0, Latency: n}}, ""},
	} {
		err := NewDeliveries(n, rel).Observe(c.ds)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v, want no failure", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want a failure saying %q", c.name, err, c.want)
		}
	}
	s, err := msot.NewState(n, rel)
	if err != nil {
		t.Fatal(err)
	}
	d := NewDeliveries(n, rel)
	if err := d.Final(&s); err != nil {
		t.Errorf("nothing delivered, state agrees: %v", err)
	}
	if err := d.Observe([]msot.Delivery{ok0}); err != nil {
		t.Fatal(err)
	}
	if err := d.Final(&s); err == nil || !strings.Contains(err.Error(), "packet 0") {
		t.Errorf("events deliver packet 0, the state does not: %v, want a failure", err)
	}
}
