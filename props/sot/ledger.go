package sot

import (
	_ "embed"

	"routecheck/props/internal/claimtab"
)

// ledgerText is ledger.md: the words (source, statement, scope, notes) of
// this package's claims whose words are not computed; see claimtab.Ledger.
//
//go:embed ledger.md
var ledgerText string

// ledger attaches ledger.md's records to claims by ID (ledger.Text).
var ledger = claimtab.MustParse("props/sot/ledger.md", ledgerText)
