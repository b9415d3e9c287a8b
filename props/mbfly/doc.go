// Package mbfly holds the claims of the multi-butterfly paper (seed 004:
// Upfal's expanders, splitters, the multi-butterfly and its batched
// priority routing), their property bodies and simulators. Its init
// functions register the claims in the props registry; import it (blank)
// to add them to a ledger.
package mbfly
