package popstest_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	ap "routecheck/algos/pops"
	"routecheck/models/pops"
	"routecheck/props/popstest"
)

// A failure's replay file is a routecheck case (kind pops-suite): it names
// the instance, and CheckFile re-runs it for the failing router.
//
// The relay that keeps its copies never finishes, so every instance runs to
// the slot bound: 400 slots (as in TestSuiteCatches) instead of the default
// 6,144 for POPS(2,2). The failures are the same seven (property, family,
// slot, instance) at either bound (checked when the bound was set), and the
// file then declares max_slots 400, which CheckFile applies.
func TestReplayFileIsACase(t *testing.T) {
	dir := t.TempDir()
	fs := popstest.Check(func() pops.Router { return ap.NewLocalRouter(ap.Options{Mutant: ap.MutantRelayKeeps}) },
		popstest.Options{Shapes: []pops.Shape{{D: 2, G: 2}}, MaxBuffer: 3, ReplayDir: dir, MaxSlots: func(pops.Shape, []int32) int { return 400 }})
	if len(fs) == 0 {
		t.Fatal("the relay that keeps its copies passed")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "popstest-*.json"))
	if len(files) == 0 {
		t.Fatal("no replay file written")
	}
	data, _ := os.ReadFile(files[0])
	for _, want := range []string{`"kind": "pops-suite"`, `"instance"`, `"max_buffer":3`, `"max_slots":400`, `"router": "*pops.LocalRouter"`, `"broke"`} {
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("replay file lacks %s:\n%s", want, data)
		}
	}
	if !strings.HasPrefix(fs[0].Replay, "routecheck replay "+dir) {
		t.Errorf("the failure does not say how to check the file: %s", fs[0].Replay)
	}
	again, err := popstest.CheckFile(func() pops.Router { return ap.NewLocalRouter(ap.Options{Mutant: ap.MutantRelayKeeps}) }, files[0], popstest.Options{MaxBuffer: 3})
	if err != nil || len(again) == 0 {
		t.Errorf("CheckFile: %v, %v", again, err)
	}
}
