// Package sortnet holds the claims about comparator networks: Batcher's
// odd-even and bitonic sorters (algos/sortnet) and the AKS-family network
// of algos/aks (Seiferas's simplification), which seed 000's Theorem 2.3
// and Corollary 2.4 rest on, with their faults and hill-climbing searches.
// (The check `routecheck sortnet` runs on one network is algos/sortnet's
// Verify; the sorts claims here use its parts.) Its init functions register
// the claims in the props registry; import it (blank) to add them to a
// ledger.
package sortnet
