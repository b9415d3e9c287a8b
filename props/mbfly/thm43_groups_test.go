package mbfly

import "testing"

// TestGroupBadByHand: P = 4, d = 2 has one grouping, {0, 2} and {1, 3}; stage
// 2 is a sender of {0, 2} (sender stages {0, 2}) and a receiver of {1, 3}
// (receiver stages {2, 4}): one bad stage. On a ring (stage 4 ≡ 0) the
// receivers of {1, 3} are {2, 0}: none. P = 6, d = 3: only evens / odds;
// stages 2 and 4 are bad ({0, 2, 4} against {2, 4, 6}), stages 1, 3, 5 not.
func TestGroupBadByHand(t *testing.T) {
	for _, c := range []struct {
		P, d  int
		ring  bool
		best  int
		count int
	}{{4, 2, false, 1, 1}, {4, 2, true, 0, 1}, {6, 3, false, 2, 1}, {6, 3, true, 0, 1}} {
		best, part, count := groupBad(c.P, c.d, c.ring)
		if best != c.best || count != c.count {
			t.Errorf("P=%d d=%d ring=%v: least %d over %d groupings (%v); want %d over %d", c.P, c.d, c.ring, best, count, part, c.best, c.count)
		}
	}
}
