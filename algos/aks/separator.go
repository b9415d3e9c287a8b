package aks

import (
	"fmt"
	"math/bits"
	"math/rand/v2"

	"routecheck/models/sortnet"
)

// Separator produces the comparator layers applied to one bag. Positions
// 0..m−1 are the bag's registers in bag order; a comparator {I, J} (I < J)
// puts the smaller item on position I. m is even and ≥ 2; kick is the
// number of items that will be kicked back to the parent from each end
// (0 at the root, otherwise 1 ≤ 2·kick < m). A separator should move the
// smallest (largest) kick items into the first (last) kick positions and the
// smaller half into the first half, up to its error ε (§6).
//
// Separators may keep state (random streams, caches) and are not safe for
// concurrent use.
type Separator interface {
	Separate(m, kick int) []sortnet.Stage
	Name() string
}

// Halver produces the layers of an approximate halver on positions 0..m−1
// (m even ≥ 2): it should move all but a fraction ε of the k smallest
// (largest) items, for every k ≤ m/2, into the first (second) half (§6,
// Lemma 1). Expander halvers only join the two halves; that is not required.
type Halver interface {
	Halve(m int) []sortnet.Stage
	Name() string
}

// BatcherSort returns the layers of Batcher's odd-even merge-exchange sort
// on m wires (Knuth, TAOCP 3, §5.2.2 Algorithm M), of depth k(k+1)/2 for
// k = ⌈log₂ m⌉. It is our own implementation, independent of algos/sortnet.
func BatcherSort(m int) []sortnet.Stage {
	if m < 2 {
		return nil
	}
	t := bits.Len(uint(m - 1)) // ⌈log₂ m⌉
	var out []sortnet.Stage
	for p := 1 << (t - 1); p > 0; p >>= 1 {
		q, r, d := 1<<(t-1), 0, p
		for {
			var st sortnet.Stage
			for i := 0; i+d < m; i++ {
				if i&p == r {
					st = append(st, sortnet.Comparator{I: int32(i), J: int32(i + d)})
				}
			}
			if len(st) > 0 {
				out = append(out, st)
			}
			if q == p {
				break
			}
			d, q, r = q-p, q>>1, p
		}
	}
	return out
}

type exactSep struct{ cache map[int][]sortnet.Stage }

// Exact returns the separator that sorts each bag (Batcher's network on the
// bag): an ε = 0 separator, with which Construct yields a sorting network
// for every n.
func Exact() Separator { return &exactSep{cache: map[int][]sortnet.Stage{}} }

func (e *exactSep) Name() string { return "exact" }

func (e *exactSep) Separate(m, _ int) []sortnet.Stage {
	if st, ok := e.cache[m]; ok {
		return st
	}
	st := BatcherSort(m)
	e.cache[m] = st
	return st
}

type halverSep struct{ h Halver }

// FromHalver returns the separator of §6, Lemma 2 and "Combining halving
// and separation", built from h: first h on all m positions; then, with
// r = ⌈log₂(m/kick)⌉, for i = r−1 down to 1, h on the prefix of length
// 2^i·kick and (in parallel) on the suffix of that length. The longest
// prefix (suffix) reaches past the middle and is simplified as if the
// positions beyond the middle held +∞ (−∞): comparators reaching past the
// middle are dropped. At the root (kick = 0) it is h alone.
func FromHalver(h Halver) Separator { return halverSep{h} }

func (s halverSep) Name() string { return "lemma2(" + s.h.Name() + ")" }

func (s halverSep) Separate(m, kick int) []sortnet.Stage {
	var out []sortnet.Stage
	if _, fresh := s.h.(*expander); fresh {
		// The expander's stages are new at every call (nothing else holds
		// them); other halvers may return stages they keep (a cache).
		out = s.h.Halve(m)
	} else {
		out = cloneStages(s.h.Halve(m))
	}
	if kick <= 0 {
		return out
	}
	if 2*kick >= m {
		panic(fmt.Sprintf("aks: separator called with m = %d, kick = %d", m, kick))
	}
	r := 0
	for kick<<r < m {
		r++
	}
	half := int32(m / 2)
	for i := r - 1; i >= 1; i-- {
		l := kick << i
		hv := s.h.Halve(l)
		off := int32(m - l)
		for _, st := range hv {
			k := 0
			for _, c := range st {
				if c.J < half {
					k++
				}
				if c.I+off >= half {
					k++
				}
			}
			if k == 0 {
				continue
			}
			layer := make(sortnet.Stage, 0, k) // its exact size: no growing
			for _, c := range st {
				if c.J < half { // prefix [0, l)
					layer = append(layer, c)
				}
				if c.I+off >= half { // suffix [m−l, m)
					layer = append(layer, sortnet.Comparator{I: c.I + off, J: c.J + off})
				}
			}
			if len(layer) > 0 {
				out = append(out, layer)
			}
		}
	}
	return out
}

func cloneStages(sts []sortnet.Stage) []sortnet.Stage {
	out := make([]sortnet.Stage, len(sts))
	for i, st := range sts {
		out[i] = append(sortnet.Stage(nil), st...)
	}
	return out
}

type expander struct {
	d   int
	r   *rand.Rand
	pcg *rand.PCG // r's source where known (ExpanderNet): drawn from directly
}

// ExpanderHalver returns a halver made of d independent uniformly random
// perfect matchings between the two halves, one layer each (§6, proof of
// Lemma 1, with a random d-regular bipartite multigraph in place of an
// explicit expander). Fresh matchings are drawn from r at every call. For
// m = 2 it is the single comparator. It panics if d < 1 or r is nil.
func ExpanderHalver(d int, r *rand.Rand) Halver {
	if d < 1 || r == nil {
		panic("aks: ExpanderHalver needs d ≥ 1 and a non-nil *rand.Rand")
	}
	return &expander{d: d, r: r}
}

func (e *expander) Name() string { return fmt.Sprintf("expander(d=%d)", e.d) }

func (e *expander) Halve(m int) []sortnet.Stage {
	h := m / 2
	if h == 1 {
		return []sortnet.Stage{{{I: 0, J: 1}}}
	}
	out := make([]sortnet.Stage, e.d)
	for k := range out {
		// Matching i ↦ h + π(i) for π = r.Perm(h), shuffled in place: Perm
		// is the identity shuffled by r.Shuffle, so this draws the same π
		// from r without the []int of Perm (TestExpanderHalveIsPerm).
		st := make(sortnet.Stage, h)
		for i := range st {
			st[i] = sortnet.Comparator{I: int32(i), J: int32(h + i)}
		}
		if e.pcg != nil && !plainPaths {
			shuffleJ(st, e.pcg)
		} else {
			e.r.Shuffle(h, func(i, j int) { st[i].J, st[j].J = st[j].J, st[i].J })
		}
		out[k] = st
	}
	return out
}

// shuffleJ shuffles the J ends of st as rand.New(src).Shuffle(len(st),
// swap of J ends) does — the same draws, the same permutation, src left
// at the same place (TestShuffleJSame) — drawing from src directly, with
// no call through the rand.Source interface or the swap closure: about a
// quarter of the expander network's construction went to the shuffle.
func shuffleJ(st sortnet.Stage, src *rand.PCG) {
	for i := len(st) - 1; i > 0; i-- {
		m := uint64(i + 1)
		x := src.Uint64()
		var j uint64
		if m&(m-1) == 0 {
			j = x & (m - 1)
		} else {
			hi, lo := bits.Mul64(x, m)
			if lo < m {
				hi = lemireReject(src, m, x)
			}
			j = hi
		}
		st[i].J, st[j].J = st[j].J, st[i].J
	}
}

// lemireReject is math/rand/v2's uint64n past its first draw x, where the
// low word of x·m is below m (m not a power of two): x stands unless that
// low word is below 2^64 mod m, else it draws again until one stands, and
// returns the high word of the one that stands.
func lemireReject(src *rand.PCG, m, x uint64) uint64 {
	hi, lo := bits.Mul64(x, m)
	thresh := -m % m
	for lo < thresh {
		hi, lo = bits.Mul64(src.Uint64(), m)
	}
	return hi
}

type sortHalver struct{}

// SortHalver is the exact halver that sorts (Batcher): an ε = 0 halver
// whose comparators are not restricted to join the two halves. With it,
// FromHalver behaves as Exact plus redundant layers.
func SortHalver() Halver { return sortHalver{} }

func (sortHalver) Name() string                { return "sort" }
func (sortHalver) Halve(m int) []sortnet.Stage { return BatcherSort(m) }

// ExpanderNet builds the network on n wires with the §5 parameters
// (SeiferasParams) and Lemma 2 separators made of halvers of d random
// perfect matchings (ExpanderHalver), drawn from PCG(seed, n): the same
// (n, d, seed) always gives the same network. Errors are Construct's.
func ExpanderNet(n, d int, seed uint64) (*Result, error) {
	return Construct(n, SeiferasParams(), ExpanderSeparator(n, d, seed))
}

// ExpanderSeparator is ExpanderNet's separator: Lemma 2 separators made of
// halvers of d random perfect matchings (ExpanderHalver) drawn from
// PCG(seed, n), the same as FromHalver(ExpanderHalver(d,
// rand.New(rand.NewPCG(seed, n)))) — the same matchings, drawn from the
// PCG directly. It panics if d < 1.
func ExpanderSeparator(n, d int, seed uint64) Separator {
	pcg := rand.NewPCG(seed, uint64(n))
	h := ExpanderHalver(d, rand.New(pcg)).(*expander)
	h.pcg = pcg
	return FromHalver(h)
}
