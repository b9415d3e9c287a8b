package mesh

import (
	"encoding/json"
	"math"
	"slices"
	"testing"

	"routecheck/props"
)

// Every hunted case of mesh/sec-1/det3-beats-rand-from-n2-log-n is at a
// size the claim runs at every budget (n = 16, k = 1024: from the
// default on; else the check would skip it silently), and replays to the
// time its hunt recorded: the file's value is steps / (k·n/2 +
// 1.5·n²·log n), so DET_3 with coloring must take value × that many steps,
// more than k·n/2 (what the families give).
func TestDet3BeatsRandHuntedCases(t *testing.T) {
	hunted, err := huntedAtN2LogN()
	if err != nil {
		t.Fatal(err)
	}
	if len(hunted) != 6 {
		t.Fatalf("%d hunted cases, want 6", len(hunted))
	}
	small, _ := det3RandSizes(props.Small)
	def, _ := det3RandSizes(props.Default)
	for i, h := range hunted {
		// n = 16, k = 1024 is run from the default budget on
		if nk := [2]int{h.n, h.k}; !slices.Contains(small, nk) && (h.n != 16 || !slices.Contains(def, nk)) {
			t.Errorf("%s: n = %d, k = %d is not a size of the claim at the small budget %v (nor n = 16 at the default %v)", h.file, h.n, h.k, small, def)
		}
		raw, err := huntedFiles[i].json()
		if err != nil {
			t.Fatal(err)
		}
		var f kkFile
		if err := json.Unmarshal(raw, &f); err != nil {
			t.Fatal(err)
		}
		want := int(math.Round(f.Value * (float64(h.k*h.n)/2 + 1.5*float64(nlogn2(h.n)))))
		r, err := det3TimesWith(h.n, h.dst, nil, true)
		if err != nil {
			t.Fatal(err)
		}
		if r.Steps != want || r.Steps <= h.k*h.n/2 {
			t.Errorf("%s: DET_3 takes %d steps, the hunt recorded %d (k·n/2 = %d)", h.file, r.Steps, want, h.k*h.n/2)
		}
	}
}
