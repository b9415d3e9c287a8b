// Package props is routecheck's front door: the claims registry.
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
// This package is the core and knows no network: the registry (Claim,
// Register, Claims, Run), verdicts, budgets, planted faults and the power
// rule, scope classes, Falsify and the false-alarm rate Alpha. Each
// network's claims, property bodies and generators live in a package of
// their own that registers its claims in init — props/pops, props/mesh,
// props/sot, props/bfly, props/mbfly, props/sortnet — and none imports
// another; the conformance suites are props/<net>test. `go test ./props`
// imports every network's package (ledger_imports_test.go), so it still
// checks the whole ledger; so does cmd/routecheck (claims_register.go).
//
// A network package keeps what its ledger says of a claim apart from the
// check: the source, statement, scope, kind, scope class, recorded verdict
// and notes of a claim written as a literal are a record in the package's
// ledger.md (one "## ID" heading, then "- field: value" lines), and the Go
// literal is wrapped in ledger.Text, which fills those fields by ID
// (props/internal/claimtab.Ledger). What is computed (sizes, table cells,
// formatted numbers, a verdict recorded per budget) stays in Go.
// TestLedgersAllUsed fails on a record no claim takes.
package props
