package plotting

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// exampleChart has three series over X = 4, 16, …, 2²⁴ on a log X axis:
// a measured line with markers and a gap, a dashed formula, and a plain line.
func exampleChart(logY bool) Chart {
	var xs, measured, formula, other []float64
	for x := 4.0; x <= 1<<24; x *= 4 {
		xs = append(xs, x)
		lg := math.Log2(x)
		measured = append(measured, 1.2*lg+0.3*math.Sin(lg))
		formula = append(formula, lg)
		other = append(other, 2+0.5*lg)
	}
	measured[5] = math.NaN() // a gap
	return Chart{
		Title:  "Example: probes per lookup",
		XLabel: "n (elements)",
		YLabel: "probes",
		LogX:   true,
		LogY:   logY,
		Series: []Series{
			{Name: "measured", X: xs, Y: measured, Points: true},
			{Name: "paper: log₂ n", X: xs, Y: formula, Dashed: true},
			{Name: "baseline", X: xs, Y: other},
		},
	}
}

func checkFiles(t *testing.T, base string) {
	t.Helper()
	png, err := os.ReadFile(base + ".png")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("%s.png does not start with the PNG signature (%d bytes)", base, len(png))
	}
	svg, err := os.ReadFile(base + ".svg")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(svg, []byte("<svg")) {
		t.Errorf("%s.svg does not contain <svg (%d bytes)", base, len(svg))
	}
}

func TestWriteLogX(t *testing.T) {
	base := filepath.Join(t.TempDir(), "sub", "dir", "chart")
	if err := Write(base, exampleChart(false)); err != nil {
		t.Fatal(err)
	}
	checkFiles(t, base)
}

// variantCharts exercises log/linear axes, gaps, degenerate ranges, data
// under the legend and more series than the fixed palette has colours.
func variantCharts() map[string]Chart {
	nan := math.NaN()
	return map[string]Chart{
		"logxy": exampleChart(true),
		"linear": {Series: []Series{
			{Name: "a", X: []float64{0, 1e6, 2e6}, Y: []float64{-1, 0.3, 2.5}},
		}},
		"nangaps": {Series: []Series{
			{Name: "gappy", X: []float64{1, 2, 3, 4, 5, 6}, Y: []float64{nan, 1, nan, 3, 4, nan}, Points: true},
			{Name: "all gaps", X: []float64{1, 2}, Y: []float64{nan, nan}},
		}},
		"singlepoint-log": {LogX: true, LogY: true, Series: []Series{
			{X: []float64{8}, Y: []float64{3}},
		}},
		"narrow-log": {LogX: true, LogY: true, Series: []Series{
			{Name: "n", X: []float64{100, 120, 150}, Y: []float64{3.1, 3.5, 3.9}},
		}},
		"many": func() Chart {
			var c Chart
			for i := range 14 {
				c.Series = append(c.Series, Series{Name: strings.Repeat("s", i+1), X: []float64{0, 1}, Y: []float64{float64(i), float64(i + 1)}})
			}
			return c
		}(),
		"decreasing": {Title: "Falling", XLabel: "x", YLabel: "y", Series: []Series{
			{Name: "falls from the top-left", X: []float64{0, 1, 2, 3, 4}, Y: []float64{100, 40, 20, 10, 5}, Points: true},
			{Name: "flat", X: []float64{0, 4}, Y: []float64{50, 50}, Dashed: true},
		}},
		"decreasing-log": {LogX: true, LogY: true, Series: []Series{
			{Name: "1/x", X: []float64{1, 4, 16, 64, 256, 1024}, Y: []float64{1, 0.25, 1.0 / 16, 1.0 / 64, 1.0 / 256, 1.0 / 1024}, Points: true},
			{Name: "1e7/x", X: []float64{1, 1024}, Y: []float64{1e7, 1e7 / 1024}},
		}},
	}
}

func TestWriteVariants(t *testing.T) {
	dir := t.TempDir()
	for name, c := range variantCharts() {
		t.Run(name, func(t *testing.T) {
			base := filepath.Join(dir, name)
			if err := Write(base, c); err != nil {
				t.Fatal(err)
			}
			checkFiles(t, base)
		})
	}
}

func TestWriteErrors(t *testing.T) {
	dir := t.TempDir()
	// A regular file where a directory is needed makes MkdirAll fail.
	blocker := filepath.Join(dir, "blocker")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	ok := []Series{{Name: "ok", X: []float64{1, 2}, Y: []float64{1, 2}}}
	for _, tc := range []struct {
		name string
		base string
		c    Chart
		want []string // substrings of the error
	}{
		{"no series", "", Chart{}, []string{"empty", "no series"}},
		{"empty series", "", Chart{Series: []Series{{Name: "e"}}}, []string{`"e"`, "no points"}},
		{"all NaN", "", Chart{Series: []Series{{Name: "n", X: []float64{1}, Y: []float64{math.NaN()}}}}, []string{"empty", "NaN"}},
		{"mismatch", "", Chart{Series: []Series{ok[0], {Name: "bad", X: []float64{1, 2, 3}, Y: []float64{1, 2}}}}, []string{"series 1", `"bad"`, "mismatched", "len(X) = 3", "len(Y) = 2"}},
		{"log X zero", "", Chart{LogX: true, Series: []Series{{Name: "z", X: []float64{0, 1}, Y: []float64{1, 1}}}}, []string{"non-positive", "X[0] = 0", "logarithmic X"}},
		{"log Y negative", "", Chart{LogY: true, Series: []Series{{Name: "z", X: []float64{1, 2}, Y: []float64{1, -3}}}}, []string{"non-positive", "Y[1] = -3", "logarithmic Y"}},
		{"infinite Y", "", Chart{Series: []Series{{Name: "i", X: []float64{1, 2}, Y: []float64{1, math.Inf(1)}}}}, []string{"Y[1]", "not finite"}},
		{"NaN X", "", Chart{Series: []Series{{Name: "i", X: []float64{math.NaN(), 2}, Y: []float64{1, 1}}}}, []string{"X[0]", "not finite"}},
		{"empty path", "-", Chart{Series: ok}, []string{"empty output path"}},
		{"I/O", filepath.Join(blocker, "chart"), Chart{Series: ok}, []string{"output directory", "blocker"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := tc.base
			switch base {
			case "":
				base = filepath.Join(dir, "x")
			case "-":
				base = ""
			}
			err := Write(base, tc.c)
			if err == nil {
				t.Fatalf("Write succeeded, want error mentioning %q", tc.want)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "x.png")); !os.IsNotExist(err) {
		t.Errorf("invalid charts left a file behind (stat: %v)", err)
	}
}

func TestLog2Ticks(t *testing.T) {
	var labels []string
	for _, tk := range (log2Ticks{}).Ticks(4, 1<<24) {
		if !tk.IsMinor() {
			labels = append(labels, tk.Label)
		}
	}
	got := strings.Join(labels, " ")
	want := "4 16 64 256 2^10 2^12 2^14 2^16 2^18 2^20 2^22 2^24"
	if got != want {
		t.Errorf("log2 tick labels = %q, want %q", got, want)
	}
}

func TestCompact(t *testing.T) {
	for v, want := range map[float64]string{
		0: "0", 0.1 + 0.2: "0.3", 1234: "1234", 1e4: "10k", 2.5e6: "2.5M", -3e9: "-3G", 1e-5: "1e-05",
	} {
		if got := compact(v); got != want {
			t.Errorf("compact(%v) = %q, want %q", v, got, want)
		}
	}
}

// TestRenderExample writes exampleChart to $PLOTTING_EXAMPLE (a base path,
// without extension) for visual inspection; it is skipped otherwise.
func TestRenderExample(t *testing.T) {
	base := os.Getenv("PLOTTING_EXAMPLE")
	if base == "" {
		t.Skip("set PLOTTING_EXAMPLE=/tmp/plot-example to render an example chart")
	}
	if err := Write(base, exampleChart(false)); err != nil {
		t.Fatal(err)
	}
	if err := Write(base+"-logy", exampleChart(true)); err != nil {
		t.Fatal(err)
	}
	for name, c := range variantCharts() {
		if err := Write(base+"-"+name, c); err != nil {
			t.Fatal(err)
		}
	}
}
