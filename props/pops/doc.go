// Package pops holds the claims of the POPS paper (seed 000: permutation
// routing on the partitioned optical passive stars network — the §III
// randomized router, the deterministic and two-hop routers, Theorem 2.x's
// lower bounds and the published tables), their property bodies, the
// slot-model checks (PopsModel…) that fuzz/ runs, and the instance
// generators and runner (PopsInstance, GenPopsInstance, RunPops) that
// internal/popshunt shares. Its init functions register the claims in the
// props registry; import it (blank) to add them to a ledger.
package pops
