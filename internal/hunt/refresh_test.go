package hunt

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"routecheck/internal/seeds"
)

// refreshTestKind is a metric with coins for the refresh tests: the
// instance is a base b and seeds; one run with seed s gives b + (a hash of
// s and b) mod 4, an integer, so every mean below is exact. Its random
// baseline draws bases in [0, 10) from the hunt's seed.
const refreshTestKind = "refresh-test-coin"

type coinInstance struct {
	Base  int      `json:"base"`
	Seeds []uint64 `json:"seeds"`
}

func coin(b int, s uint64) float64 { return float64(b) + float64(seeds.Derive(s, uint64(b))%4) }

func coinMean(b int, sds []uint64) float64 {
	s := 0.0
	for _, sd := range sds {
		s += coin(b, sd)
	}
	return s / float64(len(sds))
}

// coinBaseline is the kind's random sampling: the best of evals bases drawn
// from seed, by their mean on sds (the first of equals).
func coinBaseline(seed uint64, evals int, sds []uint64) (float64, int) {
	rng := seeds.Rand(seed, 3)
	best, bestB := -1.0, -1
	for range evals {
		b := rng.IntN(10)
		if v := coinMean(b, sds); v > best {
			best, bestB = v, b
		}
	}
	return best, bestB
}

func init() {
	RegisterKind(refreshTestKind, func(c Case) (string, bool, error) {
		var in coinInstance
		if err := json.Unmarshal(c.Instance, &in); err != nil {
			return "", false, err
		}
		v := coinMean(in.Base, in.Seeds)
		return fmt.Sprintf("mean %g", v), v == c.Value, nil
	})
	RegisterRefresher(refreshTestKind, func(c Case) (RefreshPlan, error) {
		var in coinInstance
		if err := json.Unmarshal(c.Instance, &in); err != nil {
			return RefreshPlan{}, err
		}
		return RefreshPlan{
			SearchSeeds: in.Seeds,
			Run:         func(s uint64) (float64, error) { return coin(in.Base, s), nil },
			Random: func(evals int) (FreshInstance, error) {
				v, b := coinBaseline(c.Seed, evals, in.Seeds)
				return FreshInstance{Search: v, Run: func(s uint64) (float64, error) { return coin(b, s), nil }}, nil
			},
		}, nil
	})
}

var coinSeeds = []uint64{11, 12, 13, 14}

// coinCase is a saved case of the test kind as Save writes it: base b,
// hunt seed 5, the random baseline at 30 evaluations recorded (rb: the
// recorded best; nil: the true one), extra fields set by edit.
func coinCase(t *testing.T, b int, rb *float64, edit func(*Case)) []byte {
	t.Helper()
	inst, _ := json.Marshal(coinInstance{Base: b, Seeds: coinSeeds})
	best, _ := coinBaseline(5, 30, coinSeeds)
	if rb == nil {
		rb = &best
	}
	c := Case{Kind: refreshTestKind, Target: "coin", Command: "routecheck hunt coin --seed 5", Metric: "mean", Value: coinMean(b, coinSeeds),
		FoundBy: "annealing step 3", Seed: 5, RandomBest: rb, Evaluations: 30, Instance: inst}
	if edit != nil {
		edit(&c)
	}
	out, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(out, '\n')
}

// freshMember cuts the "fresh" member Refresh inserted out of out: what is
// left must be the original bytes.
func freshMember(t *testing.T, raw, out []byte) []byte {
	t.Helper()
	i := bytes.Index(out, []byte(`  "fresh": `))
	j := bytes.Index(out, []byte(`  "instance": `))
	if i < 0 || j < i {
		t.Fatalf("no fresh member before instance in\n%s", out)
	}
	if rest := append(append([]byte{}, out[:i]...), out[j:]...); !bytes.Equal(rest, raw) {
		t.Errorf("bytes other than the fresh member changed:\n%s\nvs\n%s", rest, raw)
	}
	return out[i:j]
}

// An unshrunk case gets the fresh figures its hunt would write: the
// instance as hunted, random sampling's best regenerated; the fresh means
// are those of the instance and of the baseline's best base computed here
// from the kind's definition on FreshSeeds(hunt seed, runs, the instance's
// seeds); nothing else in the file changes; refreshing again changes no
// byte (the figures are checked, not rewritten).
func TestRefreshAddsOnlyFresh(t *testing.T) {
	raw := coinCase(t, 7, nil, nil)
	out, f, st, err := Refresh("c.json", raw, 50, nil)
	if err != nil || st != Added {
		t.Fatalf("refresh: %v, %v", st, err)
	}
	freshMember(t, raw, out)
	fs := FreshSeeds(5, 50, coinSeeds)
	_, rb := coinBaseline(5, 30, coinSeeds)
	if f.Hunted == nil || f.Saved != nil || f.Random == nil || f.Note != "" || f.Runs != 50 {
		t.Fatalf("fresh %+v", f)
	}
	if f.Hunted.Search != coinMean(7, coinSeeds) || f.Hunted.Fresh != coinMean(7, fs) {
		t.Errorf("hunted %+v, want search %g fresh %g", *f.Hunted, coinMean(7, coinSeeds), coinMean(7, fs))
	}
	if best, _ := coinBaseline(5, 30, coinSeeds); f.Random.Search != best || f.Random.Fresh != coinMean(rb, fs) {
		t.Errorf("random %+v, want search %g fresh %g (base %d)", *f.Random, best, coinMean(rb, fs), rb)
	}
	again, f2, st, err := Refresh("c.json", out, 50, nil)
	if err != nil || st != Verified || !bytes.Equal(again, out) || f2.Hunted.Fresh != f.Hunted.Fresh {
		t.Errorf("second refresh: %v, %v; same bytes %v", st, err, bytes.Equal(again, out))
	}
	// Another number of runs replaces the member, and only it.
	other, f3, st, err := Refresh("c.json", out, 20, nil)
	if err != nil || st != Replaced || f3.Runs != 20 {
		t.Fatalf("runs 20: %v, %v", st, err)
	}
	freshMember(t, raw, other)
}

// A case whose file is one line (not Save's layout) still gets only the
// member: the rest parses back unchanged.
func TestRefreshCompactFile(t *testing.T) {
	var buf bytes.Buffer
	if err := json.Compact(&buf, coinCase(t, 3, nil, nil)); err != nil {
		t.Fatal(err)
	}
	raw := buf.Bytes()
	out, _, _, err := Refresh("c.json", raw, 10, nil)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(out, []byte(`"fresh": `))
	j := bytes.Index(out, []byte(`"instance":`))
	if i < 0 || j < i || !bytes.Equal(append(append([]byte{}, out[:i]...), out[j:]...), raw) {
		t.Errorf("compact file:\n%s\n→\n%s", raw, out)
	}
}

// A shrunk case's instance is not the search's best: its figure is
// "saved", there is no "hunted", and the note says why. A recorded random
// best the sampler does not give again is not re-run, and the note says
// what came out; a case without a baseline says it records none.
func TestRefreshShrunkAndBaselines(t *testing.T) {
	floor := 6.0
	raw := coinCase(t, 7, nil, func(c *Case) { c.ShrinkFloor = &floor })
	_, f, _, err := Refresh("s.json", raw, 10, nil)
	if err != nil {
		t.Fatal(err)
	}
	if f.Hunted != nil || f.Saved == nil || f.Random == nil || !strings.Contains(f.Note, "no hunted") {
		t.Errorf("shrunk: %+v", f)
	}
	wrong := 99.0
	_, f, _, err = Refresh("w.json", coinCase(t, 7, &wrong, nil), 10, nil)
	if err != nil {
		t.Fatal(err)
	}
	if f.Random != nil || f.Hunted == nil || !strings.Contains(f.Note, "no random: the case records a best of 99 over 30 random samples") {
		t.Errorf("unreproduced baseline: %+v", f)
	}
	_, f, _, err = Refresh("n.json", coinCase(t, 7, nil, func(c *Case) { c.RandomBest, c.Evaluations = nil, 0 }), 10, nil)
	if err != nil {
		t.Fatal(err)
	}
	if f.Random != nil || f.Note != "no random: the case records no random baseline" {
		t.Errorf("no baseline: %+v", f)
	}
	// A baseline recorded only in found_by (older cases), to 6 digits.
	best, _ := coinBaseline(5, 30, coinSeeds)
	old := coinCase(t, 7, nil, func(c *Case) {
		c.RandomBest, c.Evaluations = nil, 0
		c.FoundBy = fmt.Sprintf("annealing step 3; hunted %.6g vs best of 30 random bases %.6g", c.Value, best)
	})
	if _, f, _, err = Refresh("o.json", old, 10, nil); err != nil || f.Random == nil || f.Random.Search != best {
		t.Errorf("baseline from found_by: %+v, %v", f, err)
	}
}

// Refused: a case whose replay does not give its value (its instance
// tampered with), recorded fresh figures at these runs that are not
// reproduced, a hunt's fresh figures with the best before shrinking at
// other runs (the refresh cannot re-run it), a bad number of runs. A kind
// without coins is not refreshed, with ErrNoCoins.
func TestRefreshRefuses(t *testing.T) {
	raw := coinCase(t, 7, nil, nil)
	tampered := bytes.Replace(raw, []byte(`"base": 7`), []byte(`"base": 8`), 1)
	if bytes.Equal(tampered, raw) {
		t.Fatal("tampering did not change the case")
	}
	if _, _, _, err := Refresh("t.json", tampered, 10, nil); err == nil || !strings.Contains(err.Error(), "t.json: the replay did not reproduce the recorded mean") {
		t.Errorf("tampered instance: %v", err)
	}
	out, f, _, err := Refresh("c.json", raw, 10, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(f.Hunted.Fresh)
	bad := bytes.Replace(out, []byte(`"fresh": `+string(b)), []byte(`"fresh": 1234.5`), 1)
	if bytes.Equal(bad, out) {
		t.Fatal("tampering did not change the fresh figure")
	}
	if _, _, _, err := Refresh("c.json", bad, 10, nil); err == nil || !strings.Contains(err.Error(), "its fresh figures at 10 runs are not reproduced") {
		t.Errorf("tampered fresh figure: %v", err)
	}
	floor := 6.0
	hunted := coinCase(t, 7, nil, func(c *Case) {
		c.ShrinkFloor = &floor
		c.Fresh = &Fresh{Runs: 10, Hunted: &FreshValue{Search: 6, Fresh: 5}, Saved: &FreshValue{Search: c.Value, Fresh: 5}}
	})
	if _, _, _, err := Refresh("h.json", hunted, 20, nil); err == nil || !strings.Contains(err.Error(), "come from the hunt and include the search's best before shrinking") {
		t.Errorf("hunt's figures at other runs: %v", err)
	}
	for _, runs := range []int{0, -1, 1_000_001} {
		if _, _, _, err := Refresh("c.json", raw, runs, nil); err == nil || !strings.HasPrefix(err.Error(), fmt.Sprintf("--fresh-runs = %d: must be in [1, 1000000]", runs)) {
			t.Errorf("runs %d: %v", runs, err)
		}
	}
	if _, _, _, err := Refresh("d.json", []byte(`{"kind":"cite-test-sum","metric":"sum","value":6,"instance":[1,2,3]}`), 10, nil); !errors.Is(err, ErrNoCoins) {
		t.Errorf("kind without coins: %v", err)
	}
}

// Shrunk: a shrink_floor, or an older case's found_by saying so; a failed
// shrink (ShrinkFailed's text) or none keeps the search's best.
func TestShrunk(t *testing.T) {
	fl := 1.0
	for _, tc := range []struct {
		c    Case
		want bool
	}{
		{Case{ShrinkFloor: &fl}, true},
		{Case{FoundBy: "random sample 13, then shrunk from 8 to 7 packets (1 not fixed points) keeping mean steps ≥ 6.25"}, true},
		{Case{FoundBy: "random sampling, then shrinking to 0 non-fixed points"}, true},
		{Case{FoundBy: "annealing step 3" + ShrinkFailed(Options{}, errors.New("x"))}, false},
		{Case{FoundBy: "family identity; hunted 1 vs best of 9 random permutations 1"}, false},
	} {
		if got := tc.c.Shrunk(); got != tc.want {
			t.Errorf("%q (floor %v): Shrunk %v", tc.c.FoundBy, tc.c.ShrinkFloor, got)
		}
	}
}

// Baseline reads the fields first, then found_by's last clause.
func TestBaseline(t *testing.T) {
	rb := 3.5
	for _, tc := range []struct {
		c     Case
		evals int
		best  float64
		text  string
		ok    bool
	}{
		{Case{RandomBest: &rb, Evaluations: 12, FoundBy: "hunted 4 vs best of 9 random permutations 2"}, 12, 3.5, "", true},
		{Case{FoundBy: "family identity; hunted 7.875 vs best of 2548 random h-relations 5.875"}, 2548, 5.875, "5.875", true},
		{Case{FoundBy: "annealing step 1; hunted 1.87109 vs best of 2562 random h-relations 0.941406"}, 2562, 0.941406, "0.941406", true},
		{Case{RandomBest: &rb}, 0, 0, "", false},
		{Case{FoundBy: "random sample 13, then shrunk from 8 to 7 packets"}, 0, 0, "", false},
	} {
		evals, best, text, ok := tc.c.Baseline()
		if evals != tc.evals || best != tc.best || text != tc.text || ok != tc.ok {
			t.Errorf("%+v: %d, %g, %q, %v; want %d, %g, %q, %v", tc.c, evals, best, text, ok, tc.evals, tc.best, tc.text, tc.ok)
		}
	}
}
