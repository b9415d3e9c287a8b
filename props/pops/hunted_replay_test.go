package pops_test

import (
	"path/filepath"
	"testing"

	"routecheck/internal/hunt"
	_ "routecheck/internal/popshunt"
)

// TestHuntedRouterStepsIsTheReplay: the pops-router case that
// pops/cor-3.9/hunted-steps replays itself (this package cannot import
// internal/popshunt) is reproduced by popshunt's replayer too — the path of
// `routecheck replay` — from the same file.
func TestHuntedRouterStepsIsTheReplay(t *testing.T) {
	c, err := hunt.Load(filepath.Join("testdata", "pops-steps-d16-g4-time60s.json"))
	if err != nil {
		t.Fatal(err)
	}
	rep, ok, err := hunt.Replay(c)
	if err != nil || !ok {
		t.Fatalf("replay: %v, reproduced %v\n%s", err, ok, rep)
	}
}
