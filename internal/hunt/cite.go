package hunt

import (
	"encoding/json"
	"errors"
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
// them) and replays the case with its kind's replayer — the path
// `routecheck replay FILE` takes. When the replay reproduces the recorded
// value it returns the case and nil, so the case's Value is a measured
// one. When the replay runs but does not reproduce it, Cite still returns
// the case, with a *NotReproduced that holds the value the replay measured:
// a claim judges that one (NotReproduced's methods), so a case that no
// longer reproduces can still come out violated. Any other error (the bytes
// are not a case, the kind is unknown, the replay fails) names the file,
// with an empty case: the case cannot be judged at all.
func Cite(file string, raw []byte) (Case, error) {
	c, err := Parse(file, raw)
	if err != nil {
		return Case{}, err
	}
	r, err := ReplayValue(c)
	if err != nil {
		return Case{}, fmt.Errorf("%s: replay: %v", file, err)
	}
	if !r.Reproduced {
		return c, &NotReproduced{File: file, Metric: c.Metric, Recorded: c.Value, Replayed: r.Value, Report: r.Report}
	}
	return c, nil
}

// CiteInstance is Cite followed by decoding the case's instance into T
// (the instance type of the case's kind, e.g. internal/sothunt.Instance):
// the one way a claim cites a hunted case and reads what it holds. A case
// whose replay does not reproduce its value comes back with its instance
// and Cite's *NotReproduced; other errors name the file.
func CiteInstance[T any](file string, raw []byte) (Case, T, error) {
	var in T
	c, err := Cite(file, raw)
	if _, other := Stale(err); other != nil {
		return c, in, err
	}
	if err := json.Unmarshal(c.Instance, &in); err != nil {
		return c, in, fmt.Errorf("%s: instance: %v", file, err)
	}
	return c, in, err
}

// NotReproduced is Cite's error for a case whose replay ran but did not
// reproduce it: the value it measured is not the recorded one, or (for a
// kind whose replayer runs two implementations) they disagreed. A claim
// judges Replayed against its bound: broken, the claim is violated (Note
// and Mark say on what); kept, the saved case is stale and the claim
// inconclusive (Inconclusive). Value, Note and Mark accept a nil receiver
// (the case reproduced), so a claim calls them on Stale's result without a
// branch.
type NotReproduced struct {
	// File names the case's bytes (Cite's file).
	File string
	// Metric is the case's metric; Recorded its value in the file,
	// Replayed the replay's (NaN for a kind registered with RegisterKind).
	Metric             string
	Recorded, Replayed float64
	// Report is the replay's report.
	Report string
}

// Error reads "<file>: the replay did not reproduce the recorded <metric> =
// <value>:" and the replay's report.
func (e *NotReproduced) Error() string {
	return fmt.Sprintf("%s: the replay did not reproduce the recorded %s = %g:\n%s", e.File, e.Metric, e.Recorded, strings.TrimSpace(e.Report))
}

// Stale splits an error of Cite or CiteInstance: a *NotReproduced comes
// back as nr with other nil (the case replayed, to another value: judge
// nr.Replayed); any other error as other with nr nil (the case could not be
// replayed: no verdict); nil as nil, nil.
func Stale(err error) (nr *NotReproduced, other error) {
	if errors.As(err, &nr) {
		return nr, nil
	}
	return nil, err
}

// Value is the value a claim judges: the replayed one, or recorded (the
// case's Value) when e is nil.
func (e *NotReproduced) Value(recorded float64) float64 {
	if e == nil {
		return recorded
	}
	return e.Replayed
}

// Note is the evidence ev of a verdict reached on the replayed value,
// followed, when e is not nil, by what the replay gave against what the
// case records.
func (e *NotReproduced) Note(ev string) string {
	if e == nil {
		return ev
	}
	return fmt.Sprintf("%s; the saved case did NOT reproduce: its replay gives %s = %.6g where it records %.6g, and the replayed value is the one judged", ev, e.Metric, e.Replayed, e.Recorded)
}

// Mark adds to a counterexample cx, when e is not nil, the recorded and
// the replayed value ("recorded", "replayed"); it returns cx.
func (e *NotReproduced) Mark(cx map[string]any) map[string]any {
	if e != nil {
		cx["recorded"], cx["replayed"] = e.Recorded, e.Replayed
	}
	return cx
}

// Inconclusive is the evidence of a claim whose judgement of the replayed
// value (ev) found nothing broken on a case that no longer reproduces: a
// stale case, to be hunted again, with the replay's report.
func (e *NotReproduced) Inconclusive(ev string) string {
	return fmt.Sprintf("%s no longer reproduces (a stale case): its replay gives %s = %.6g where it records %.6g; judged on the replayed value nothing is broken, but the claim holds only on a case that reproduces: hunt it again (routecheck hunt) and save it under testdata/hunt/ and as this copy. The judgement: %s. The replay:\n%s",
		e.File, e.Metric, e.Replayed, e.Recorded, ev, strings.TrimSpace(e.Report))
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
