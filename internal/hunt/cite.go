package hunt

import (
	"encoding/json"
	"fmt"
	"path"
	"strings"
)

// Parse decodes the bytes of a case file (name says where they came from,
// for errors and Path); errors name it and the problem.
func Parse(name string, b []byte) (Case, error) {
	var c Case
	if err := json.Unmarshal(b, &c); err != nil {
		return Case{}, fmt.Errorf("%s: not a case file: %v", name, err)
	}
	if c.Kind == "" || len(c.Instance) == 0 {
		return Case{}, fmt.Errorf("%s: a case needs \"kind\" and \"instance\"", name)
	}
	c.Path = name
	return c, nil
}

// Cite is how a claim cites a saved hunted case in its evidence
// (props/<net>/hunted_claims.go): it parses the case's bytes (file names
// them), replays the case with its kind's replayer — the path `routecheck
// replay FILE` takes — and returns it only when the replay reproduced the
// recorded value, so the case's Value is a measured one. Otherwise the
// error names the file and carries the replay's report.
func Cite(file string, raw []byte) (Case, error) {
	c, err := Parse(file, raw)
	if err != nil {
		return Case{}, err
	}
	report, ok, err := Replay(c)
	if err != nil {
		return Case{}, fmt.Errorf("%s: replay: %v", file, err)
	}
	if !ok {
		return Case{}, fmt.Errorf("%s: the replay did not reproduce the recorded %s = %g:\n%s", file, c.Metric, c.Value, strings.TrimSpace(report))
	}
	return c, nil
}

// CiteInstance is Cite followed by decoding the case's instance into T
// (the instance type of the case's kind, e.g. internal/sothunt.Instance):
// the one way a claim cites a hunted case and reads what it holds. Errors
// name the file.
func CiteInstance[T any](file string, raw []byte) (Case, T, error) {
	var in T
	c, err := Cite(file, raw)
	if err != nil {
		return c, in, err
	}
	if err := json.Unmarshal(c.Instance, &in); err != nil {
		return c, in, fmt.Errorf("%s: instance: %v", file, err)
	}
	return c, in, nil
}

// ReplayCommand is the command that replays the saved original of a cited
// case — the file of the same name under the module's testdata/hunt/ (a
// claim cites a copy of it; hunttest.CitedCopies checks they are equal) —
// for a counterexample.
func (c Case) ReplayCommand() string {
	return "go run ./cmd/routecheck replay testdata/hunt/" + path.Base(c.Path)
}

// Versus is the case's hunted-against-random figure, for evidence: from
// RandomBest and Evaluations when the case records them, else the "hunted
// … vs …" clause of FoundBy (cases saved before those fields existed),
// else a sentence saying the baseline is not recorded; then, when the case
// holds fresh-seed figures (Fresh), the same comparison on the fresh
// seeds, which the search did not select on: the hunted best (or the saved
// shrunk instance) against random sampling's best, mean ± standard error.
func (c Case) Versus() string {
	s := ""
	switch i := strings.LastIndex(c.FoundBy, "hunted "); {
	case c.RandomBest != nil:
		at := ""
		if c.Evaluations > 0 {
			at = fmt.Sprintf(" at the same %d evaluations", c.Evaluations)
		}
		s = fmt.Sprintf("hunted %.6g vs best random sample %.6g%s", c.Value, *c.RandomBest, at)
	case i >= 0:
		s = c.FoundBy[i:] + " (from found_by)"
	default:
		s = fmt.Sprintf("hunted %.6g; the random baseline is not recorded in the case", c.Value)
	}
	f := c.Fresh
	if f == nil {
		return s
	}
	if c.RandomBest != nil || strings.Contains(s, " vs ") {
		s += " on the search's seeds"
	}
	one := func(name string, v FreshValue) string { return fmt.Sprintf("%s %.4g ± %.2g", name, v.Fresh, v.SE) }
	var parts []string
	if f.Hunted != nil {
		parts = append(parts, one("hunted", *f.Hunted))
	}
	if f.Saved != nil {
		parts = append(parts, one("saved (shrunk)", *f.Saved))
	}
	if len(parts) == 0 {
		return s
	}
	fr := strings.Join(parts, ", ")
	if f.Random != nil {
		fr += " vs " + one("random best", *f.Random)
	}
	return fmt.Sprintf("%s; on %d fresh seeds %s", s, f.Runs, fr)
}
