package sortnet

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// Tests for gremlins mutants that survived the existing tests (issue 9 E).
// The audit of every survivor, with the reasons for the ones left alive, is
// in docs/mutation/README.md (the README's "Mutation testing" section sums it up).

// ParseNetwork's range checks at their edges: a wire equal to n is out of
// range (whatever the other wire is), and a pair ending on wire 0 is a
// reversed comparator or one on a single wire, not a wire out of range.
// Each error names the comparator and the real fault, so a reader fixes the
// right thing.
func TestParseNetworkErrorAtEdges(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"N": 4, "nw": [[4,1]]}`, "[4, 1]: wire out of range"}, // i = n, j < i
		{`{"N": 4, "nw": [[4,3]]}`, "[4, 3]: wire out of range"},
		{`{"N": 4, "nw": [[1,4]]}`, "[1, 4]: wire out of range"},                                         // j = n
		{`{"N": 4, "nw": [[0,1],[1,0]]}`, "comparator 1 [1, 0]: the first wire must be the smaller one"}, // j = 0
		{`{"N": 4, "nw": [[0,0]]}`, "[0, 0]: both ends on one wire"},                                     // i = j = 0
		{`{"N": 4, "nw": [[0,-1]]}`, "[0, -1]: wire out of range"},
		{`{"N": 4, "nw": [[-1,0]]}`, "[-1, 0]: wire out of range"},
		{"[(2,0)]", "[2, 0]: the first wire must be the smaller one"},
		{"[(0,1)],[(0,0)]", "[0, 0]: both ends on one wire"},
	} {
		_, _, err := ParseNetwork([]byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one containing %q", c.in, err, c.want)
		}
	}
	// The widest legal comparator, [0, n−1], is accepted.
	nw, _, err := ParseNetwork([]byte(`{"N": 4, "nw": [[0,3]]}`))
	if err != nil || nw.Size() != 1 || nw.Stages[0][0] != (Comparator{I: 0, J: 3}) {
		t.Errorf("[[0,3]] on 4 wires: %v, %v; want one comparator [0:3]", nw, err)
	}
}

// Pack's layout, as Packed.comps documents it: the comparators in order,
// I | J<<16, in chunks of packedChunk, every chunk full but the last and
// none empty — ⌈size/packedChunk⌉ chunks, none at all for a network without
// comparators (empty stages still count in Depth).
func TestPackChunkLayout(t *testing.T) {
	old := packedChunk
	packedChunk = 7
	defer func() { packedChunk = old }()
	wires := []Comparator{{0, 1}, {1, 2}, {0, 2}}
	for _, size := range []int{0, 1, 6, 7, 8, 14, 15, 50} {
		// size comparators, three to a stage, between two empty stages.
		nw := Network{N: 3, Stages: []Stage{{}}}
		var want []uint32
		for k := range size {
			if k%3 == 0 {
				nw.Stages = append(nw.Stages, Stage{})
			}
			c := wires[k%3]
			last := len(nw.Stages) - 1
			nw.Stages[last] = append(nw.Stages[last], c)
			want = append(want, uint32(c.I)|uint32(c.J)<<16)
		}
		nw.Stages = append(nw.Stages, Stage{})
		p, err := Pack(nw, false)
		if err != nil {
			t.Fatal(err)
		}
		chunks := (size + 6) / 7
		if len(p.comps) != chunks || p.Size() != size || p.Depth() != len(nw.Stages) {
			t.Fatalf("size %d: %d chunks, size %d, depth %d; want %d chunks of at most 7, size %d, depth %d",
				size, len(p.comps), p.Size(), p.Depth(), chunks, size, len(nw.Stages))
		}
		var got []uint32
		for k, ch := range p.comps {
			wantLen := 7
			if k == chunks-1 {
				wantLen = size - 7*(chunks-1)
			}
			if len(ch) != wantLen {
				t.Errorf("size %d: chunk %d holds %d comparators, want %d", size, k, len(ch), wantLen)
			}
			got = append(got, ch...)
		}
		if !slices.Equal(got, want) {
			t.Errorf("size %d: chunks hold %s, want %s", size, fmt.Sprint(got), fmt.Sprint(want))
		}
	}
}
