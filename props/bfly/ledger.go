package bfly

import (
	_ "embed"

	"routecheck/props/internal/claimtab"
)

// ledgerText is ledger.md: what the ledger says of this package's claims
// written as literals (source, statement, scope, kind, scope class,
// recorded verdict, notes); see claimtab.Ledger.
//
//go:embed ledger.md
var ledgerText string

// ledger attaches ledger.md's records to claims by ID (ledger.Text).
var ledger = claimtab.MustParse("props/bfly/ledger.md", ledgerText)
