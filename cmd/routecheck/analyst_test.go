package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"routecheck/internal/experiment"
)

// analystExp is a two-cell experiment with an Analysis, registered only in
// this test binary.
type analystExp struct{}

func (analystExp) Name() string  { return "test-analyst" }
func (analystExp) Title() string { return "a two-cell test experiment" }
func (analystExp) Cells(int) ([]experiment.Cell, []string) {
	return []experiment.Cell{{Params: []experiment.Param{{Name: "n", Value: 1}}, Size: 2}, {Params: []experiment.Param{{Name: "n", Value: 2}}, Size: 4}}, nil
}
func (analystExp) BytesPerWorker(experiment.Cell) int64 { return 1 << 10 }
func (analystExp) NewWorker() func(experiment.Cell, uint64, int) (experiment.Sample, error) {
	return func(c experiment.Cell, _ uint64, run int) (experiment.Sample, error) {
		return experiment.Sample{Run: run, Values: map[string]float64{"v": float64(c.Params[0].Value)}}, nil
	}
}
func (analystExp) Summarize(c experiment.Cell, s []experiment.Sample) experiment.Row {
	return experiment.Row{Cell: c, Runs: len(s), Ours: experiment.Stat{Mean: experiment.F(s[0].Values["v"])}}
}
func (analystExp) Charts([]experiment.Row) []experiment.NamedChart { return nil }
func (analystExp) Analysis(rows []experiment.Row) []string {
	return []string{fmt.Sprintf("ANALYSIS of %d rows", len(rows))}
}

func init() { experiment.Register(analystExp{}) }

// An Analyst's lines follow the table on stdout; with --json, stdout is the
// rows alone and the lines go to stderr (none with --quiet).
func TestReproduceAnalysis(t *testing.T) {
	out, _, st := runCLI("reproduce", "test-analyst", "--runs", "2", "--quiet", "--no-plot")
	if st != 0 {
		t.Fatalf("status %d", st)
	}
	i := strings.Index(out, "ANALYSIS of 2 rows")
	if i < 0 || !strings.Contains(out[:i], "a two-cell test experiment") {
		t.Errorf("text output: want the table, then the analysis line:\n%s", out)
	}
	out, errOut, st := runCLI("reproduce", "test-analyst", "--runs", "2", "--json", "--no-plot")
	if st != 0 {
		t.Fatalf("--json: status %d", st)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != 2 {
		t.Errorf("--json stdout is not the two rows alone (%v):\n%s", err, out)
	}
	if !strings.Contains(errOut, "ANALYSIS of 2 rows") {
		t.Errorf("--json: the analysis line is not on stderr:\n%s", errOut)
	}
	_, errOut, _ = runCLI("reproduce", "test-analyst", "--runs", "2", "--json", "--quiet", "--no-plot")
	if strings.Contains(errOut, "ANALYSIS") {
		t.Errorf("--json --quiet printed the analysis:\n%s", errOut)
	}
}
