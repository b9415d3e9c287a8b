package pops

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHuntedCasesAreCopies: every case this package's hunted claims embed
// (under testdata/) is a byte-for-byte copy of the saved case under the
// module's testdata/hunt/, which `go test ./cmd/routecheck` replays and
// `routecheck replay` runs: a re-hunted case must be copied again.
func TestHuntedCasesAreCopies(t *testing.T) {
	for _, file := range []string{huntedStepsFile, huntedSortFile, huntedSortAKSFile} {
		f := filepath.Join("testdata", filepath.Base(file))
		got, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join("..", "..", "testdata", "hunt", filepath.Base(f)))
		if err != nil {
			t.Fatalf("%s has no original under testdata/hunt: %v", f, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from testdata/hunt/%s", f, filepath.Base(f))
		}
	}
}

// huntedRouterSteps reproduces the saved case's mean on its seeds and
// refuses a case whose recorded mean or seeds were changed.
func TestHuntedRouterStepsRefusesTampering(t *testing.T) {
	c, _, steps, err := huntedRouterSteps(huntedStepsFile, huntedStepsCase)
	if err != nil || len(steps) != 16 {
		t.Fatalf("the saved case: %d runs, %v", len(steps), err)
	}
	sum := 0
	for _, s := range steps {
		sum += s
	}
	if float64(sum)/16 != c.Value {
		t.Errorf("runs average %g, recorded %g", float64(sum)/16, c.Value)
	}
	raw := string(huntedStepsCase)
	for name, bad := range map[string]string{
		"value": strings.Replace(raw, `"value": 23.5625`, `"value": 23.5`, 1),
		"seed":  strings.Replace(raw, `"seeds": [`, `"seeds": [7, `, 1),
	} {
		if bad == raw {
			t.Fatalf("%s: the tampering did not apply", name)
		}
		if _, _, _, err := huntedRouterSteps("tampered.json", []byte(bad)); err == nil || !strings.Contains(err.Error(), "the replay gives mean steps") {
			t.Errorf("%s tampered: error %v, want a replay mismatch", name, err)
		}
	}
}
