// Package props is routecheck's front door: exported property bodies,
// generators, and the claims registry.
//
// Every checkable statement of the seed papers is a Claim: an ID such as
// "pops/prop-3.2/d-eq-g", its source (seed file and statement number), the
// statement in one line, its scope, its Kind, the Verdict recorded in the
// ledger, and a Check that recomputes the verdict at a Budget. A claim the
// framework found false stays registered with Recorded = Violated (or
// Inconsistent) and its check must keep finding — and shrinking — the
// counterexample. `go test ./props` runs every claim at the small budget and
// fails when a verdict differs from the recorded one; `routecheck claims`
// prints the ledger.
//
// Nothing in this file knows which network a claim is about: network
// packages register their claims from their own files (pops_claims.go, …).
package props
