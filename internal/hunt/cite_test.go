package hunt

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
)

// citeTestKind's replayer recomputes the metric as the sum of the
// instance's numbers and fails on a negative one; citeTestReportKind is the
// same replay registered with RegisterKind (a report, no value).
const (
	citeTestKind       = "cite-test-sum"
	citeTestReportKind = "cite-test-sum-report"
)

func citeTestSum(c Case) (Replayed, error) {
	var xs []float64
	if err := json.Unmarshal(c.Instance, &xs); err != nil {
		return Replayed{}, err
	}
	s := 0.0
	for _, x := range xs {
		if x < 0 {
			return Replayed{}, fmt.Errorf("negative entry %g", x)
		}
		s += x
	}
	return Replayed{Report: fmt.Sprintf("sum %g", s), Value: s, Reproduced: s == c.Value}, nil
}

func init() {
	RegisterReplayer(citeTestKind, citeTestSum)
	RegisterKind(citeTestReportKind, func(c Case) (string, bool, error) {
		r, err := citeTestSum(c)
		return r.Report, r.Reproduced, err
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

// TestCiteNotReproduced: a case whose replay runs to another value comes
// back — with its instance, from CiteInstance — together with a
// *NotReproduced holding the recorded and the replayed value (its message
// is the one Cite always gave); Stale tells it from the errors of a case
// that cannot be replayed, and its methods give what a claim judges and
// says, with a nil receiver meaning "reproduced".
func TestCiteNotReproduced(t *testing.T) {
	raw := []byte(`{"kind":"cite-test-sum","metric":"sum","value":7,"instance":[1,2,3]}`)
	c, xs, err := CiteInstance[[]float64]("t/stale.json", raw)
	nr, other := Stale(err)
	if nr == nil || other != nil {
		t.Fatalf("error %v (%T): want a *NotReproduced", err, err)
	}
	want := NotReproduced{File: "t/stale.json", Metric: "sum", Recorded: 7, Replayed: 6, Report: "sum 6"}
	if *nr != want || c.Value != 7 || c.Path != "t/stale.json" || fmt.Sprint(xs) != "[1 2 3]" {
		t.Fatalf("got %+v, case %+v, instance %v; want %+v with the case and its instance", *nr, c, xs, want)
	}
	if got := err.Error(); got != "t/stale.json: the replay did not reproduce the recorded sum = 7:\nsum 6" {
		t.Errorf("Error() = %q", got)
	}
	if v := nr.Value(c.Value); v != 6 {
		t.Errorf("Value = %g, want the replayed 6", v)
	}
	if got := nr.Note("ev"); !strings.HasPrefix(got, "ev; ") || !strings.Contains(got, "did NOT reproduce: its replay gives sum = 6 where it records 7") {
		t.Errorf("Note = %q", got)
	}
	if got := nr.Mark(map[string]any{"file": "f"}); fmt.Sprint(got) != "map[file:f recorded:7 replayed:6]" {
		t.Errorf("Mark = %v", got)
	}
	if got := nr.Inconclusive("ev"); !strings.HasPrefix(got, "t/stale.json no longer reproduces (a stale case): its replay gives sum = 6 where it records 7") || !strings.Contains(got, "The judgement: ev.") || !strings.HasSuffix(got, "The replay:\nsum 6") {
		t.Errorf("Inconclusive = %q", got)
	}

	// A reproduced case: no error, and the nil methods change nothing.
	_, err = Cite("t/ok.json", []byte(`{"kind":"cite-test-sum","metric":"sum","value":6,"instance":[1,2,3]}`))
	nr, other = Stale(err)
	if err != nil || nr != nil || other != nil || nr.Value(6) != 6 || nr.Note("ev") != "ev" || fmt.Sprint(nr.Mark(map[string]any{"a": 1})) != "map[a:1]" {
		t.Errorf("reproduced: %v, %v, %v", err, nr, other)
	}

	// Cases that cannot be replayed are not NotReproduced.
	for name, raw := range map[string]string{
		"replayer error": `{"kind":"cite-test-sum","metric":"sum","value":1,"instance":[-1]}`,
		"unknown kind":   `{"kind":"no-such-kind","metric":"sum","value":1,"instance":[1]}`,
		"not JSON":       `{"kind":`,
	} {
		c, _, err := CiteInstance[[]float64]("t/x.json", []byte(raw))
		if nr, other := Stale(err); nr != nil || other == nil || c.Kind != "" {
			t.Errorf("%s: NotReproduced %v, other error %v, case %+v: want only an error", name, nr, other, c)
		}
	}
	// An instance that does not decode into the type asked is its own
	// error, even when the replay disagreed.
	if _, _, err := CiteInstance[struct{ N int }]("t/shape.json", raw); err == nil || !strings.Contains(err.Error(), "t/shape.json: instance: ") {
		t.Errorf("instance of another shape: error %v", err)
	} else if nr, _ := Stale(err); nr != nil {
		t.Errorf("instance of another shape: a NotReproduced: %v", nr)
	}

	// A kind registered with RegisterKind reports no value: NaN, which
	// no bound is broken by.
	r, err := ReplayValue(Case{Kind: citeTestReportKind, Metric: "sum", Value: 7, Instance: json.RawMessage(`[1,2,3]`)})
	if err != nil || r.Reproduced || r.Report != "sum 6" || !math.IsNaN(r.Value) {
		t.Errorf("report-only kind: %+v, %v; want the report, not reproduced, value NaN", r, err)
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
