package sottest

import (
	"fmt"

	"routecheck/models/perm"
	msot "routecheck/models/sot"
)

// Deliveries is the suite's delivery property as a value, for callers that
// step the model their own way (the claims in props/sot run the paper's
// algorithms through algos/sot.Run and check every run with it): every
// delivery event is of a known packet, at the packet's target, happens
// once, after exactly n·(1 + deflections) hops, and the final state agrees
// with the events. The suite's own runs use the same check.
type Deliveries struct {
	n         int
	rel       []perm.Pair
	delivered []bool
}

// NewDeliveries starts the delivery check of relation rel on SOT(n).
func NewDeliveries(n int, rel []perm.Pair) *Deliveries {
	return &Deliveries{n: n, rel: rel, delivered: make([]bool, len(rel))}
}

// Observe checks one step's delivery events and records them; it returns
// the first one that breaks the property (nil: none). Events after a
// failing one in the same step are not recorded.
func (c *Deliveries) Observe(ds []msot.Delivery) error {
	for _, d := range ds {
		switch {
		case int(d.ID) >= len(c.rel) || d.ID < 0:
			return fmt.Errorf("delivery of unknown packet %d", d.ID)
		case d.Proc != c.rel[d.ID].Dst:
			return fmt.Errorf("packet %d for P%d absorbed by P%d", d.ID, c.rel[d.ID].Dst, d.Proc)
		case c.delivered[d.ID]:
			return fmt.Errorf("packet %d delivered twice", d.ID)
		case int(d.Latency) != c.n*(1+int(d.Defl)):
			return fmt.Errorf("packet %d delivered after %d hops with %d deflections (n·(1 + d) = %d)", d.ID, d.Latency, d.Defl, c.n*(1+int(d.Defl)))
		}
		c.delivered[d.ID] = true
	}
	return nil
}

// Final checks that the final state s says delivered for exactly the
// packets the events delivered.
func (c *Deliveries) Final(s *msot.State) error {
	for k, d := range c.delivered {
		if d != s.IsDelivered(int32(k)) {
			return fmt.Errorf("packet %d: delivery events say %v, the final state says %v", k, d, !d)
		}
	}
	return nil
}

// NewInstance is the instance of relation rel on SOT(n) with the router's
// seed, named family (the claims in props/sot build their counterexamples
// with it).
func NewInstance(family string, n int, seed uint64, rel []perm.Pair) Instance {
	return instance(family, n, seed, rel)
}
