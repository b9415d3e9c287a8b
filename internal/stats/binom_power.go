package stats

// BinomMinCount is the power of an exact one-sided binomial test: the
// least count c in 1..n with P(Bin(n, q) ≥ c) ≤ alpha, i.e. the fewest
// successes in n trials that the test at level alpha can call too many
// for rate q; n + 1 when no count reaches alpha.
func BinomMinCount(n int, q, alpha float64) int {
	for c := 1; c <= n; c++ {
		if BinomAtLeast(c, n, q) <= alpha {
			return c
		}
	}
	return n + 1
}
