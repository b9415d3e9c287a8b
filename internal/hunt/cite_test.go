package hunt

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// citeTestKind's replayer recomputes the metric as the sum of the
// instance's numbers and fails on a negative one.
const citeTestKind = "cite-test-sum"

func init() {
	RegisterKind(citeTestKind, func(c Case) (string, bool, error) {
		var xs []float64
		if err := json.Unmarshal(c.Instance, &xs); err != nil {
			return "", false, err
		}
		s := 0.0
		for _, x := range xs {
			if x < 0 {
				return "", false, fmt.Errorf("negative entry %g", x)
			}
			s += x
		}
		return fmt.Sprintf("sum %g", s), s == c.Value, nil
	})
}

// TestCite: a case whose replay gives its recorded value is returned with
// Path set to the name given; every other case is an error naming the file
// (and, when the replay disagrees, carrying its report).
func TestCite(t *testing.T) {
	c, err := Cite("t/ok.json", []byte(`{"kind":"cite-test-sum","metric":"sum","value":6,"instance":[1,2,3]}`))
	if err != nil || c.Value != 6 || c.Path != "t/ok.json" {
		t.Fatalf("reproducing case: %+v, %v", c, err)
	}
	for _, tc := range []struct{ name, raw, want string }{
		{"wrong value", `{"kind":"cite-test-sum","metric":"sum","value":7,"instance":[1,2,3]}`, "did not reproduce the recorded sum = 7:\nsum 6"},
		{"replayer error", `{"kind":"cite-test-sum","metric":"sum","value":1,"instance":[-1]}`, "replay: negative entry -1"},
		{"unknown kind", `{"kind":"no-such-kind","metric":"sum","value":1,"instance":[1]}`, `case kind "no-such-kind" unknown`},
		{"no instance", `{"kind":"cite-test-sum","metric":"sum","value":1}`, `a case needs "kind" and "instance"`},
		{"not JSON", `{"kind":`, "not a case file"},
	} {
		_, err := Cite("t/"+tc.name+".json", []byte(tc.raw))
		if err == nil || !strings.Contains(err.Error(), "t/"+tc.name+".json") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want the file name and %q", tc.name, err, tc.want)
		}
	}
}

// TestCiteInstance: a reproduced case comes back with its instance decoded
// into the type asked for; an instance of another shape, or a case whose
// replay fails, is an error naming the file.
func TestCiteInstance(t *testing.T) {
	raw := []byte(`{"kind":"cite-test-sum","metric":"sum","value":6,"instance":[1,2,3]}`)
	c, xs, err := CiteInstance[[]float64]("t/ok.json", raw)
	if err != nil || c.Value != 6 || c.Path != "t/ok.json" || fmt.Sprint(xs) != "[1 2 3]" {
		t.Fatalf("reproducing case: %+v, %v, %v", c, xs, err)
	}
	if _, _, err := CiteInstance[struct{ N int }]("t/shape.json", raw); err == nil || !strings.Contains(err.Error(), "t/shape.json: instance: ") {
		t.Errorf("instance of another shape: error %v, want the file and \"instance\"", err)
	}
	bad := []byte(`{"kind":"cite-test-sum","metric":"sum","value":7,"instance":[1,2,3]}`)
	if _, _, err := CiteInstance[[]float64]("t/bad.json", bad); err == nil || !strings.Contains(err.Error(), "t/bad.json: the replay did not reproduce") {
		t.Errorf("unreproduced case: error %v, want the replay mismatch", err)
	}
}

// TestReplayCommand: the command names the saved original under
// testdata/hunt/, whatever folder the cited copy is in.
func TestReplayCommand(t *testing.T) {
	for _, p := range []string{"props/sot/testdata/x-n8.json", "x-n8.json", "testdata/hunt/x-n8.json"} {
		if got, want := (Case{Path: p}).ReplayCommand(), "go run ./cmd/routecheck replay testdata/hunt/x-n8.json"; got != want {
			t.Errorf("Path %q: %q, want %q", p, got, want)
		}
	}
}

// TestVersus: the baseline comes from the case's fields first, then from
// found_by's last "hunted … vs …" clause, else it says it is missing; fresh
// figures, when the case has them, follow (values chosen exact in binary).
func TestVersus(t *testing.T) {
	rb := 3.5
	cases := []struct {
		c    Case
		want string
	}{
		{Case{Value: 4, RandomBest: &rb, Evaluations: 120, FoundBy: "hunted 9 vs 1"}, "hunted 4 vs best random sample 3.5 at the same 120 evaluations"},
		{Case{Value: 4, RandomBest: &rb}, "hunted 4 vs best random sample 3.5"},
		{Case{Value: 4, FoundBy: "annealing step 3, then shrunk; hunted 4 vs best of 10 random permutations 2"}, "hunted 4 vs best of 10 random permutations 2 (from found_by)"},
		{Case{Value: 4, FoundBy: "family identity"}, "hunted 4; the random baseline is not recorded in the case"},
		{Case{Value: 4, RandomBest: &rb, Evaluations: 120, Fresh: &Fresh{Runs: 400, Hunted: &FreshValue{Search: 4, Fresh: 2.5, SE: 0.25}, Random: &FreshValue{Search: 3.5, Fresh: 2.25, SE: 0.0625}}},
			"hunted 4 vs best random sample 3.5 at the same 120 evaluations on the search's seeds; on 400 fresh seeds hunted 2.5 ± 0.25 vs random best 2.25 ± 0.062"},
		{Case{Value: 4, FoundBy: "x, then shrunk; hunted 3 vs best of 10 random permutations 2", Fresh: &Fresh{Runs: 50, Saved: &FreshValue{Search: 4, Fresh: 1.5}}},
			"hunted 3 vs best of 10 random permutations 2 (from found_by) on the search's seeds; on 50 fresh seeds saved (shrunk) 1.5 ± 0"},
	}
	for _, tc := range cases {
		if got := tc.c.Versus(); got != tc.want {
			t.Errorf("Versus() = %q, want %q", got, tc.want)
		}
	}
}
