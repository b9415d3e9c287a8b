package pops

// SetCountingSortLimit sets countingSortLimit for a test and returns the
// function that restores it. A limit of -1000 never sorts by counting, one
// of 1 << 20 always does (for the shapes the tests use).
func SetCountingSortLimit(l int) (restore func()) {
	old := countingSortLimit
	countingSortLimit = l
	return func() { countingSortLimit = old }
}
