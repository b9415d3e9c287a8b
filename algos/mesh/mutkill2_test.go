package mesh

import "testing"

// TestRoundShortExtractsNTimesQMinus1 kills `x = n * q` → `n / q` in the
// ExtractRoundShort branch of Step 3. Twelve packets for row 0 of a 4×4
// mesh: B = 12, ⌊B/n⌋ = 3, so the planted fault extracts n·(3 − 1) = 8
// packets (allocate.go's doc of ExtractRoundShort) and leaves 12 − 8 = 4,
// one subbucket of the power-of-two size 4. With n / q = 2 it would
// extract only 2 and leave 10, which no single power-of-two subbucket holds.
func TestRoundShortExtractsNTimesQMinus1(t *testing.T) {
	var d []Dest
	for range 3 {
		for c := range 4 {
			d = append(d, Dest{0, int32(c)})
		}
	}
	a, err := AllocateMutant(4, d, nil, ExtractRoundShort)
	if err != nil {
		t.Fatal(err)
	}
	if a.Subbuckets != 1 {
		t.Errorf("ExtractRoundShort, 12 packets in row 0 of n = 4: %d subbuckets, want 1 (remainder 4)", a.Subbuckets)
	}
}
