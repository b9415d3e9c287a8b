package mbflynaive

import (
	"sort"

	mb "routecheck/models/multibutterfly"
)

// Run routes packets with destinations dest starting at inputs src on net
// with L batches and returns the positions of the packets after every
// iteration (positions[t][i] is packet i's node after iteration t; t = 0 is
// the start), stopping when every packet is at stage log N or after
// maxIter iterations.
func Run(net *mb.Network, L int, src, dest []int32, maxIter int) [][]int32 {
	at := map[int32][]int{}
	pos := make([]int32, len(src))
	for i, s := range src {
		pos[i] = s
		at[s] = append(at[s], i)
	}
	snap := func() []int32 { return append([]int32(nil), pos...) }
	out := [][]int32{snap()}
	done := func() bool {
		for _, v := range pos {
			if int(v)/net.N != net.LogN {
				return false
			}
		}
		return true
	}
	for t := 1; t <= maxIter && !done(); t++ {
		for c := int32(0); c < int32(2*net.D); c++ {
			type send struct {
				p    int
				from int32
				to   int32
			}
			var sends []send
			for v := int32(0); v < int32(net.Nodes()); v++ {
				s := int(v) / net.N
				if s == net.LogN || s%2 != t%2 || len(at[v]) == 0 {
					continue
				}
				ps := append([]int(nil), at[v]...)
				sort.Slice(ps, func(a, b int) bool {
					ka, kb := int(dest[ps[a]])%L, int(dest[ps[b]])%L
					return ka < kb || ka == kb && ps[a] < ps[b]
				})
				p := ps[0]
				for _, e := range net.Edges {
					if e.From != v || e.Colour != c {
						continue
					}
					bit := dest[p]>>(net.LogN-1-s)&1 == 1
					if e.Lower != bit {
						continue
					}
					busy := false
					for _, q := range at[e.To] {
						if int(dest[q])%L == int(dest[p])%L {
							busy = true
						}
					}
					if !busy {
						sends = append(sends, send{p, v, e.To})
					}
				}
			}
			for _, x := range sends {
				l := at[x.from]
				for i, q := range l {
					if q == x.p {
						at[x.from] = append(l[:i:i], l[i+1:]...)
						break
					}
				}
				at[x.to] = append(at[x.to], x.p)
				pos[x.p] = x.to
			}
		}
		out = append(out, snap())
	}
	return out
}
