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

// TestPrimeDealCap kills two mutants of primeClass's deal capacity
// capPU = ⌈members/n'²⌉ (deal's doc): `- 1` → `+ 1` and `/ (np * np)` →
// `/ (np / np)`. After L1 (the third phase target) no PU of a submesh may
// hold more than ⌈members/n'²⌉ packets. n = 4, n' = 2: (a) one packet per PU,
// 4 per submesh, cap 1; (b) 3 packets in submesh 0, cap ⌈3/4⌉ = 1 (the
// `+ 1` ceiling gives 2 and stacks two packets in local column 0).
func TestPrimeDealCap(t *testing.T) {
	const n, np = 4, 2
	cases := map[string][]int32{
		"full":  {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
		"three": {0, 1, 4},
	}
	for name, src := range cases {
		ds := make([]Dest, len(src))
		for i, p := range src {
			ds[i] = Dest{p / n, p % n} // stay home: a permutation
		}
		tg, err := primeClass(n, np, src, ds, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		load := map[int32]int{}
		for _, pu := range tg[2] {
			load[pu]++
			if load[pu] > 1 {
				t.Errorf("%s: L1 puts %d packets on PU %d, want at most ⌈members/n'²⌉ = 1", name, load[pu], pu)
			}
		}
	}
}

// TestLocalRouteSpreadsColours kills `col[e]*np/delta` → `col[e]/np/delta`
// in localRoute. Its doc: the intermediate column is ⌊colour·n'/Δ⌋ for a
// proper edge colouring. n = n' = 2, packets at (0,0) and (0,1) both bound
// for row 1: both edges leave local row 0, so Δ = 2 and their colours are
// 0 and 1, giving intermediate columns 0 and 1 — distinct PUs after the
// first phase (the mutant sends both to column 0).
func TestLocalRouteSpreadsColours(t *testing.T) {
	a, _, err := localRoute(2, 2, []int32{0, 1}, []int32{2, 3})
	if err != nil {
		t.Fatal(err)
	}
	if a[0] == a[1] || a[0]/2 != 0 || a[1]/2 != 0 {
		t.Errorf("first-phase targets %v, want two distinct PUs of row 0 (columns 0 and 1)", a)
	}
}
