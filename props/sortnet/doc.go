// Package sortnet holds the claims about comparator networks: Batcher's
// odd-even and bitonic sorters (algos/sortnet) and the AKS-family network
// of algos/aks (Seiferas's simplification), which seed 000's Theorem 2.3
// and Corollary 2.4 rest on; their faults, hill-climbing searches and
// SortnetVerify, the check `routecheck sortnet` runs on a network. Its init
// functions register the claims in the props registry; import it (blank)
// to add them to a ledger.
package sortnet
