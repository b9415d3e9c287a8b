// Package bfly holds the claims of the butterfly paper (seed 001: routing
// on a butterfly with extra stages, §2's congestion analysis, Theorem 11,
// §4's simulations and fitted latency formulas), their property bodies and
// simulation cells. Its init functions register the claims in the props
// registry; import it (blank) to add them to a ledger.
package bfly
