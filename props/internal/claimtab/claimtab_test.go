package claimtab

import (
	"testing"

	"routecheck/props"
)

// TestWithFault: the claim's check is check(real), the planted fault is
// check(planted) under the given name, appended after the faults the claim
// already had; the rest of the claim is untouched.
func TestWithFault(t *testing.T) {
	check := func(factor float64) func(props.Env) props.Outcome {
		return func(props.Env) props.Outcome {
			if factor == 1 {
				return props.Outcome{Verdict: props.Holds, Evidence: "real"}
			}
			return props.Outcome{Verdict: props.Violated, Evidence: "planted"}
		}
	}
	first := props.Fault{Name: "earlier", Check: check(3)}
	c := WithFault(props.Claim{ID: "x/y", Statement: "s", Faults: []props.Fault{first}}, check, 1, 0.5, "scaled by 0.5")
	if c.ID != "x/y" || c.Statement != "s" {
		t.Fatalf("claim fields changed: %+v", c)
	}
	if got := c.Check(props.Env{}); got.Evidence != "real" {
		t.Errorf("Check runs %q, want the real check", got.Evidence)
	}
	if len(c.Faults) != 2 || c.Faults[0].Name != "earlier" || c.Faults[1].Name != "scaled by 0.5" {
		t.Fatalf("faults %+v, want [earlier, scaled by 0.5]", c.Faults)
	}
	if got := c.Faults[1].Check(props.Env{}); got.Evidence != "planted" {
		t.Errorf("the planted fault runs %q, want check(planted)", got.Evidence)
	}
}
