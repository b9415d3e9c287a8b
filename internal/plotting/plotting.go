package plotting

import (
	"bytes"
	"errors"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Size of every figure written by Write.
const (
	figWidth  = 16 * vg.Centimeter
	figHeight = 10 * vg.Centimeter
	pngDPI    = 200 // 1260 × 787 pixels
)

// Series is one line: Y[i] at X[i]; NaN Y values are gaps (skipped).
//
// Points are joined in the order given (X is not sorted by Write). A NaN in Y breaks
// the line; a point that ends up isolated between gaps is drawn as a marker
// so that it stays visible. X values and non-NaN Y values must be finite.
// A series with an empty Name is drawn but gets no legend entry.
type Series struct {
	Name   string
	X, Y   []float64
	Dashed bool // draw dashed (e.g. a paper's published values or a formula)
	Points bool // draw point markers as well
}

// Chart describes a figure.
//
// On a logarithmic X axis, ticks are placed at powers of two; every power,
// every second one (4, 16, 64, …) or a sparser subset is labelled so that at
// most 12 labels appear, and values from 2¹⁰ up are labelled as powers (2²⁰,
// drawn with a real superscript). On a logarithmic Y axis, ticks are placed
// at powers of ten (at most 8 labelled; 1, 2 and 5 times powers of ten when
// the range spans less than two decades), labelled 0.001 … 10000 literally
// and as 10ⁿ beyond. Linear axes get about six labels at multiples of 1, 2
// or 5 times a power of ten, large values abbreviated with decimal SI
// suffixes (10k, 2.5M, 1G).
type Chart struct {
	Title, XLabel, YLabel string
	LogX, LogY            bool // logarithmic axes
	Series                []Series
}

// Write renders the chart to base+".png" and base+".svg" (creating the
// parent directory), 16cm × 10cm (the PNG at 200 dpi), with a legend in the
// top-left corner of the data area. Each series gets its own colour (and,
// with Points, its own marker shape).
//
// Write returns an error, and never panics, if the chart has no series or no
// plottable point, if a series is empty or its X and Y lengths differ, if a
// value is infinite (or NaN in X), if a value on a logarithmic axis is not
// positive, or if rendering or writing fails. The error names the series and
// index or the file concerned. Both images are rendered before either file
// is written, so a rendering failure leaves no new files behind.
func Write(base string, c Chart) error {
	if base == "" {
		return errors.New("plotting: empty output path")
	}
	p, err := safeBuild(c)
	if err != nil {
		return err
	}
	var out [2][]byte // PNG, SVG
	for i, format := range []string{"png", "svg"} {
		if out[i], err = render(p, format); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(filepath.Dir(base), 0o755); err != nil {
		return fmt.Errorf("plotting: creating output directory: %w", err)
	}
	for i, ext := range []string{".png", ".svg"} {
		if err := os.WriteFile(base+ext, out[i], 0o644); err != nil {
			return fmt.Errorf("plotting: writing %s: %w", base+ext, err)
		}
	}
	return nil
}

// render draws p in the given format, turning any panic from the plot
// library into an error.
func render(p *plot.Plot, format string) (data []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("plotting: rendering %s failed: %v", format, r)
		}
	}()
	var c vg.CanvasWriterTo
	switch format {
	case "png":
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(figWidth, figHeight), vgimg.UseDPI(pngDPI))}
	case "svg":
		c = vgsvg.New(figWidth, figHeight)
	default:
		return nil, fmt.Errorf("plotting: unsupported format %q", format)
	}
	p.Draw(figureArea(draw.New(c)))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("plotting: encoding %s: %w", format, err)
	}
	return buf.Bytes(), nil
}

// figureArea is the part of a whole-figure canvas the plot is drawn in:
// gonum/plot draws right up to the edges, so leave a small margin.
func figureArea(c draw.Canvas) draw.Canvas {
	m := vg.Points(4)
	return draw.Crop(c, m, -m, m, -m)
}

// seriesID identifies series i in error messages.
func seriesID(i int, s Series) string {
	return fmt.Sprintf("series %d (%q)", i, s.Name)
}

// validate checks c against the rules documented on Write.
func validate(c Chart) error {
	if len(c.Series) == 0 {
		return fmt.Errorf("plotting: chart %q is empty: it has no series", c.Title)
	}
	finite := 0
	for i, s := range c.Series {
		id := seriesID(i, s)
		if len(s.X) != len(s.Y) {
			return fmt.Errorf("plotting: %s: mismatched lengths: len(X) = %d but len(Y) = %d", id, len(s.X), len(s.Y))
		}
		if len(s.X) == 0 {
			return fmt.Errorf("plotting: %s is empty: it has no points", id)
		}
		for j, x := range s.X {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("plotting: %s: X[%d] = %v is not finite", id, j, x)
			}
			if c.LogX && x <= 0 {
				return fmt.Errorf("plotting: %s: non-positive value X[%d] = %v on a logarithmic X axis", id, j, x)
			}
		}
		for j, y := range s.Y {
			switch {
			case math.IsNaN(y):
				continue // gap
			case math.IsInf(y, 0):
				return fmt.Errorf("plotting: %s: Y[%d] = %v is not finite (use NaN for a gap)", id, j, y)
			case c.LogY && y <= 0:
				return fmt.Errorf("plotting: %s: non-positive value Y[%d] = %v on a logarithmic Y axis", id, j, y)
			}
			finite++
		}
	}
	if finite == 0 {
		return fmt.Errorf("plotting: chart %q is empty: every Y value is NaN", c.Title)
	}
	return nil
}

// segments splits s into runs of consecutive points with non-NaN Y.
func segments(s Series) []plotter.XYs {
	var segs []plotter.XYs
	var cur plotter.XYs
	for i := range s.X {
		if math.IsNaN(s.Y[i]) {
			if len(cur) > 0 {
				segs = append(segs, cur)
				cur = nil
			}
			continue
		}
		cur = append(cur, plotter.XY{X: s.X[i], Y: s.Y[i]})
	}
	if len(cur) > 0 {
		segs = append(segs, cur)
	}
	return segs
}

// palette is the tab10 palette: distinct, print-friendly line colours.
var palette = []color.Color{
	color.RGBA{0x1f, 0x77, 0xb4, 0xff}, // blue
	color.RGBA{0xff, 0x7f, 0x0e, 0xff}, // orange
	color.RGBA{0x2c, 0xa0, 0x2c, 0xff}, // green
	color.RGBA{0xd6, 0x27, 0x28, 0xff}, // red
	color.RGBA{0x94, 0x67, 0xbd, 0xff}, // purple
	color.RGBA{0x8c, 0x56, 0x4b, 0xff}, // brown
	color.RGBA{0xe3, 0x77, 0xc2, 0xff}, // pink
	color.RGBA{0x7f, 0x7f, 0x7f, 0xff}, // grey
	color.RGBA{0xbc, 0xbd, 0x22, 0xff}, // olive
	color.RGBA{0x17, 0xbe, 0xcf, 0xff}, // cyan
}

// seriesColor returns the colour of series i: the palette first, then hues
// spread by the golden angle so that colours stay distinct.
func seriesColor(i int) color.Color {
	if i < len(palette) {
		return palette[i]
	}
	h := math.Mod(float64(i-len(palette))*137.508+15, 360)
	return hsv(h, 0.75, 0.7)
}

// hsv converts a hue in degrees and saturation/value in [0,1] to RGB.
func hsv(h, s, v float64) color.Color {
	c := v * s
	x := c * (1 - math.Abs(math.Mod(h/60, 2)-1))
	m := v - c
	var r, g, b float64
	switch {
	case h < 60:
		r, g = c, x
	case h < 120:
		r, g = x, c
	case h < 180:
		g, b = c, x
	case h < 240:
		g, b = x, c
	case h < 300:
		r, b = x, c
	default:
		r, b = c, x
	}
	u := func(f float64) uint8 { return uint8(math.Round((f + m) * 255)) }
	return color.RGBA{u(r), u(g), u(b), 0xff}
}

const (
	lineWidth   = 1.5 // points
	glyphRadius = 2.5 // points
)

// safeBuild is build, turning any panic from the plot library into an
// error.
func safeBuild(c Chart) (p *plot.Plot, err error) {
	defer func() {
		if r := recover(); r != nil {
			p, err = nil, fmt.Errorf("plotting: building chart %q failed: %v", c.Title, r)
		}
	}()
	return build(c)
}

// build validates c and assembles the plot.
func build(c Chart) (*plot.Plot, error) {
	if err := validate(c); err != nil {
		return nil, err
	}
	p := plot.New()
	p.Title.Text = c.Title
	p.X.Label.Text = c.XLabel
	p.Y.Label.Text = c.YLabel
	if c.LogX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = log2Ticks{}
		p.X.Tick.Label.Handler = powText{text.Plain{Fonts: font.DefaultCache}}
	} else {
		p.X.Tick.Marker = linearTicks{}
	}
	if c.LogY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = log10Ticks{}
		p.Y.Tick.Label.Handler = powText{text.Plain{Fonts: font.DefaultCache}}
	} else {
		p.Y.Tick.Marker = linearTicks{}
	}

	grid := plotter.NewGrid()
	grid.Vertical.Color = color.Gray{Y: 0xdd}
	grid.Horizontal.Color = color.Gray{Y: 0xdd}
	grid.Vertical.Width = vg.Points(0.5)
	grid.Horizontal.Width = vg.Points(0.5)
	p.Add(grid)

	p.Legend.Top = true
	p.Legend.Left = true
	p.Legend.TextStyle.Font.Size = vg.Points(10)
	p.Legend.ThumbnailWidth = vg.Points(28)
	p.Legend.Padding = vg.Points(2)
	p.Legend.XOffs = vg.Points(6)
	p.Legend.YOffs = -vg.Points(4)

	var all []segInfo
	for i, s := range c.Series {
		ls := draw.LineStyle{Color: seriesColor(i), Width: vg.Points(lineWidth)}
		if s.Dashed {
			ls.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
		}
		gs := draw.GlyphStyle{Color: seriesColor(i), Radius: vg.Points(glyphRadius), Shape: plotutil.Shape(i)}
		for _, seg := range segments(s) {
			if len(seg) > 1 {
				l, err := plotter.NewLine(seg)
				if err != nil {
					return nil, fmt.Errorf("plotting: %s: %w", seriesID(i, s), err)
				}
				l.LineStyle = ls
				p.Add(l)
			}
			if s.Points || len(seg) == 1 {
				sc, err := plotter.NewScatter(seg)
				if err != nil {
					return nil, fmt.Errorf("plotting: %s: %w", seriesID(i, s), err)
				}
				sc.GlyphStyle = gs
				p.Add(sc)
			}
			all = append(all, segInfo{seg, s.Points || len(seg) == 1})
		}
		if s.Name != "" {
			thumbs := []plot.Thumbnailer{&plotter.Line{LineStyle: ls}}
			if s.Points {
				thumbs = append(thumbs, &plotter.Scatter{GlyphStyle: gs})
			}
			p.Legend.Add(s.Name, thumbs...)
		}
	}

	if c.LogX {
		widenDegenerateLog(&p.X)
	}
	if c.LogY {
		widenDegenerateLog(&p.Y)
	}
	makeRoomForLegend(p, c, all)
	return p, nil
}

// widenDegenerateLog gives a log axis whose data is a single value a range
// of one factor of two either side (the library's default widening by ±1
// could reach zero or below).
func widenDegenerateLog(a *plot.Axis) {
	if a.Min == a.Max {
		a.Min /= 2
		a.Max *= 2
	}
}

// segInfo is one drawn run of points.
type segInfo struct {
	pts    plotter.XYs
	glyphs bool
}

// makeRoomForLegend raises the top of the Y axis when data would be drawn
// underneath the legend (top-left corner of the data area), so that the
// legend does not hide it. If the legend is so tall that this would squash
// the data into less than 40% of the height, the legend is instead drawn on
// a translucent white backdrop over the data.
func makeRoomForLegend(p *plot.Plot, c Chart, segs []segInfo) {
	named := 0
	var textW, entryH vg.Length
	for _, s := range c.Series {
		if s.Name == "" {
			continue
		}
		named++
		r := p.Legend.TextStyle.Rectangle(" " + s.Name)
		textW = max(textW, r.Max.X)
		entryH = max(entryH, p.Legend.TextStyle.Rectangle(s.Name).Max.Y)
	}
	if named == 0 {
		return
	}
	margin := vg.Points(6)
	legW := p.Legend.XOffs + p.Legend.ThumbnailWidth + textW + margin
	legH := -p.Legend.YOffs + vg.Length(named)*entryH + vg.Length(named-1)*p.Legend.Padding + margin

	da := p.DataCanvas(figureArea(draw.NewCanvas(new(recorder.Canvas), figWidth, figHeight)))
	dw, dh := da.Max.X-da.Min.X, da.Max.Y-da.Min.Y
	if dw <= 0 || dh <= 0 {
		return
	}
	wf, hf := float64(legW/dw), float64(legH/dh)

	// top is the highest normalised Y of anything drawn at normalised
	// X in [0, wf].
	top := math.Inf(-1)
	for _, s := range segs {
		pad := float64(vg.Points(lineWidth) / dh)
		xpad := 0.0
		if s.glyphs {
			pad = float64(vg.Points(glyphRadius+1) / dh)
			xpad = float64(vg.Points(glyphRadius+1) / dw)
		}
		for i, pt := range s.pts {
			x, y := p.X.Norm(pt.X), p.Y.Norm(pt.Y)
			if x <= wf+xpad {
				top = max(top, y+pad)
			}
			if i == 0 {
				continue
			}
			x0, y0 := p.X.Norm(s.pts[i-1].X), p.Y.Norm(s.pts[i-1].Y)
			// Clip the segment (x0,y0)-(x,y) to x <= wf; its highest
			// point there is at an end of the clipped part.
			if x0 > wf && x > wf || x0 == x {
				continue
			}
			if x0 > wf || x > wf {
				top = max(top, y0+(y-y0)*(wf-x0)/(x-x0)+pad)
			}
		}
	}
	if top <= 1-hf {
		return // nothing under the legend
	}
	if hf >= 0.6 {
		p.Add(legendBackdrop{w: legW - margin/2, h: legH - margin/2})
		return
	}
	// Scale normalised Y by r so that top lands at 1-hf.
	r := (1 - hf) / top
	if !(r > 0) {
		return
	}
	if _, isLog := p.Y.Scale.(plot.LogScale); isLog {
		p.Y.Max = p.Y.Min * math.Pow(p.Y.Max/p.Y.Min, 1/r)
	} else {
		p.Y.Max = p.Y.Min + (p.Y.Max-p.Y.Min)/r
	}
}

// legendBackdrop is a plotter, added after the data, that whitens the
// top-left w × h of the data area so the legend stays readable over data.
type legendBackdrop struct{ w, h vg.Length }

// Plot implements plot.Plotter.
func (b legendBackdrop) Plot(c draw.Canvas, _ *plot.Plot) {
	r := vg.Rectangle{
		Min: vg.Point{X: c.Min.X, Y: c.Max.Y - b.h},
		Max: vg.Point{X: c.Min.X + b.w, Y: c.Max.Y},
	}
	c.SetColor(color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xd8})
	c.Fill(r.Path())
}
