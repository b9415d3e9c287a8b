// Package claimtab lets a network's claim package register its claims as a
// table rather than as copies of the same block: most claims carry one
// planted fault that is the claim's own check with one parameter changed
// (a bound scaled by a stated factor, a mutant router, a perturbed input),
// and WithFault writes that once. It knows no network.
package claimtab

import "routecheck/props"

// WithFault returns c with Check = check(real) and, appended to c.Faults,
// one planted fault named name whose check is check(planted) — the same
// check with the parameter changed, fixed before running.
func WithFault[T any](c props.Claim, check func(T) func(props.Env) props.Outcome, real, planted T, name string) props.Claim {
	c.Check = check(real)
	c.Faults = append(c.Faults, props.Fault{Name: name, Check: check(planted)})
	return c
}

// Register registers the claims of a table in order (the ledger prints
// claims in registration order).
func Register(cs ...props.Claim) {
	for _, c := range cs {
		props.Register(c)
	}
}
