package seeds

import "testing"

func TestDeriveDistinguishesPaths(t *testing.T) {
	seen := map[uint64][]uint64{}
	for a := range uint64(50) {
		for b := range uint64(50) {
			s := Derive(1, a, b)
			if p, dup := seen[s]; dup {
				t.Fatalf("Derive(1,%d,%d) = Derive(1,%v)", a, b, p)
			}
			seen[s] = []uint64{a, b}
		}
	}
	if Derive(1, 2) == Derive(2, 1) || Derive(1) == Derive(2) {
		t.Fatal("seed and path are not distinguished")
	}
	if Rand(5, 1).Uint64() != Rand(5, 1).Uint64() {
		t.Fatal("Rand is not deterministic")
	}
}
