package butterfly

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// sortKeysRef sorts by (key, perm, id) with slices.SortFunc: the plain
// order radixSort must give (perm compared as signed when signed is set;
// unsigned is the planted difference).
func sortKeysRef(a []sortKey, signed bool) []sortKey {
	b := slices.Clone(a)
	slices.SortFunc(b, func(x, y sortKey) int {
		if c := cmp.Compare(x.key, y.key); c != 0 {
			return c
		}
		if signed {
			if c := cmp.Compare(x.perm, y.perm); c != 0 {
				return c
			}
		} else if c := cmp.Compare(uint32(x.perm), uint32(y.perm)); c != 0 {
			return c
		}
		return cmp.Compare(x.id, y.id)
	})
	return b
}

// radixSort gives slices.SortFunc's (key, perm, id) order on random
// inputs: keys from a few values (ties) up to full 64 bits, perms
// including negative ones, ids in input order as Run makes them; empty
// and one-element inputs too. The comparison sees a planted difference: a
// reference that compares perm unsigned differs wherever a negative perm
// ties a positive one on key.
func TestRadixSortMatchesSortFunc(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 14))
	planted, seen := 0, 0
	for trial := range 400 {
		k := rng.IntN(300)
		if trial < 2 {
			k = trial
		}
		keyRange := []uint64{1, 3, 1 << 20, 1 << 63}[trial%4]
		a := make([]sortKey, k)
		for i := range a {
			a[i] = sortKey{key: rng.Uint64N(keyRange) << uint(rng.IntN(2)*56), perm: int32(rng.IntN(7)) - 3, id: int32(i)}
			if trial%5 == 0 {
				a[i].perm = rng.Int32() - 1<<30
			}
		}
		want := sortKeysRef(a, true)
		got, _ := radixSort(slices.Clone(a), make([]sortKey, k))
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d (%d keys): radixSort %v, want %v", trial, k, got, want)
		}
		if bad := sortKeysRef(a, false); !slices.Equal(bad, want) {
			planted++
			if !slices.Equal(got, bad) {
				seen++
			}
		}
	}
	if planted < 50 || seen != planted {
		t.Fatalf("planted difference (perm unsigned) arose in %d trials and was seen in %d; want ≥ 50, all", planted, seen)
	}
}
