package mesh1d

import "testing"

// Hand-worked cases: the time is the last arrival, worked out step by step.
func TestLemma4Hand(t *testing.T) {
	for _, c := range []struct {
		name     string
		n        int
		src, dst []int32
		want     int // rightward steps, by hand
	}{
		{"empty", 4, nil, nil, 0},
		{"one packet 0→2", 3, []int32{0}, []int32{2}, 2},
		{"two packets 0→1", 2, []int32{0, 0}, []int32{1, 1}, 2},
		{"two packets 0→2", 3, []int32{0, 0}, []int32{2, 2}, 3},
		{"staggered 0→3, 1→3", 4, []int32{0, 1}, []int32{3, 3}, 3},
	} {
		if got := Lemma4(c.n, c.src, c.dst); got != c.want {
			t.Errorf("%s: Lemma4 = %d, want %d", c.name, got, c.want)
		}
		if got := Naive(c.n, c.src, c.dst).StepsRight; got != c.want {
			t.Errorf("%s: Naive = %d, want %d", c.name, got, c.want)
		}
	}
}

// The printed form is off: with no packets it still gives n − 2, and a
// single packet 0 → 2 on three PUs (2 steps) gives 1.
func TestLemma4PrintedDiffers(t *testing.T) {
	if got := Lemma4Printed(4, nil, nil); got != 2 {
		t.Errorf("printed, empty, n = 4: %d, want n − 2 = 2", got)
	}
	if got := Lemma4Printed(3, []int32{0}, []int32{2}); got != 1 {
		t.Errorf("printed, 0→2 on 3 PUs: %d, want 1", got)
	}
}
