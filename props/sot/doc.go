// Package sot holds the claims of the sparse-optical-torus paper (seed
// 002: deflection routing on SOT(n), the greedy and scheduled algorithms,
// Lemma 1 and §4's throughput and time claims), their property bodies
// (SotStepProperty, SotRouterProperty, which fuzz/ also runs) and
// generators. Its init functions register the claims in the props
// registry; import it (blank) to add them to a ledger.
package sot
