package plotting

import (
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
)

// Most labelled ticks wanted on an axis.
const (
	maxXLabels = 12
	maxYLabels = 8
)

// linearTicks places labelled ticks at multiples of a "nice" step
// (1, 2 or 5 times a power of ten, about six labels per axis) with minor
// ticks in between, labelled compactly.
type linearTicks struct{}

// Ticks implements plot.Ticker.
func (linearTicks) Ticks(min, max float64) []plot.Tick {
	span := max - min
	if !(span > 0) || math.IsInf(span, 0) {
		ts := plot.DefaultTicks{}.Ticks(min, max)
		for i := range ts {
			if !ts[i].IsMinor() {
				ts[i].Label = compact(ts[i].Value)
			}
		}
		return ts
	}
	raw := span / 6
	mag := math.Pow10(int(math.Floor(math.Log10(raw))))
	step, per := 10*mag, 2 // label step and minor ticks per label step
	for _, m := range []struct {
		mult float64
		per  int
	}{{1, 2}, {2, 2}, {5, 5}} {
		if m.mult*mag >= raw*(1-1e-9) {
			step, per = m.mult*mag, m.per
			break
		}
	}
	minor := step / float64(per)
	var ts []plot.Tick
	for k := math.Ceil(min/minor - 1e-9); k <= math.Floor(max/minor+1e-9); k++ {
		v := k * minor
		if math.Mod(k, float64(per)) == 0 {
			ts = append(ts, plot.Tick{Value: v, Label: compact(v)})
		} else {
			ts = append(ts, plot.Tick{Value: v})
		}
	}
	return ts
}

// positiveLinearTicks is the fallback for log axes spanning too small a
// range for power ticks: linear ticks, keeping only positive values.
func positiveLinearTicks(min, max float64) []plot.Tick {
	var out []plot.Tick
	for _, t := range (linearTicks{}).Ticks(min, max) {
		if t.Value > 0 {
			out = append(out, t)
		}
	}
	return out
}

// log2Ticks marks powers of two on a log X axis.
type log2Ticks struct{}

// Ticks implements plot.Ticker.
func (log2Ticks) Ticks(min, max float64) []plot.Tick {
	if !(min > 0) || !(max >= min) {
		return nil
	}
	lo := int(math.Ceil(math.Log2(min) - 1e-9))
	hi := int(math.Floor(math.Log2(max) + 1e-9))
	n := hi - lo + 1
	if n < 2 {
		return positiveLinearTicks(min, max)
	}
	stride := chooseStride(n, maxXLabels)
	var ts []plot.Tick
	for e := lo; e <= hi; e++ {
		v := math.Ldexp(1, e)
		switch {
		case mod(e, stride) == 0:
			ts = append(ts, plot.Tick{Value: v, Label: pow2Label(e)})
		case n <= 64:
			ts = append(ts, plot.Tick{Value: v})
		}
	}
	return ts
}

// log10Ticks marks powers of ten on a log Y axis.
type log10Ticks struct{}

// Ticks implements plot.Ticker.
func (log10Ticks) Ticks(min, max float64) []plot.Tick {
	if !(min > 0) || !(max >= min) {
		return nil
	}
	lo := int(math.Ceil(math.Log10(min) - 1e-9))
	hi := int(math.Floor(math.Log10(max) + 1e-9))
	n := hi - lo + 1
	in := func(v float64) bool { return v >= min*(1-1e-9) && v <= max*(1+1e-9) }
	first := int(math.Floor(math.Log10(min)))
	if n >= 2 {
		var ts []plot.Tick
		stride := chooseStride(n, maxYLabels)
		for e := first; e <= hi; e++ {
			v := math.Pow10(e)
			switch {
			case e >= lo && mod(e, stride) == 0:
				ts = append(ts, plot.Tick{Value: v, Label: pow10Label(e)})
			case e >= lo:
				ts = append(ts, plot.Tick{Value: v})
			}
			if stride == 1 && n <= 10 {
				for m := 2; m <= 9; m++ {
					if w := float64(m) * v; in(w) {
						ts = append(ts, plot.Tick{Value: w})
					}
				}
			}
		}
		return ts
	}
	// Less than two powers of ten in range: label 1, 2 and 5 times powers
	// of ten, or every multiple if that is still too few.
	for _, all := range []bool{false, true} {
		var cand []plot.Tick
		labelled := 0
		for e := first; e <= hi+1; e++ {
			for m := 1; m <= 9; m++ {
				w := float64(m) * math.Pow10(e)
				if !in(w) {
					continue
				}
				if all || m == 1 || m == 2 || m == 5 {
					cand = append(cand, plot.Tick{Value: w, Label: compact(w)})
					labelled++
				} else {
					cand = append(cand, plot.Tick{Value: w})
				}
			}
		}
		if labelled >= 2 {
			return cand
		}
	}
	return positiveLinearTicks(min, max)
}

// chooseStride returns the smallest "nice" step between labelled exponents
// that keeps the number of labels among n consecutive exponents at most
// limit.
func chooseStride(n, limit int) int {
	for _, s := range []int{1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50} {
		if (n+s-1)/s <= limit {
			return s
		}
	}
	return (n + limit - 1) / limit
}

// mod is the non-negative remainder of a/b.
func mod(a, b int) int { return ((a % b) + b) % b }

// pow2Label labels 2^e: literally for 1/16 … 512, otherwise as "2^e",
// which powText draws with a superscript exponent.
func pow2Label(e int) string {
	if e >= -4 && e < 10 {
		return strconv.FormatFloat(math.Ldexp(1, e), 'f', -1, 64)
	}
	return "2^" + strconv.Itoa(e)
}

// pow10Label labels 10^e: literally for 0.001 … 10000, otherwise as
// "10^e", which powText draws with a superscript exponent.
func pow10Label(e int) string {
	if e >= -3 && e <= 4 {
		return strconv.FormatFloat(math.Pow10(e), 'f', -1, 64)
	}
	return "10^" + strconv.Itoa(e)
}

// compact formats a tick value briefly: decimal SI suffixes from 10k up
// (10k, 2.5M, 1G, 3T), plain %g-style otherwise.
func compact(v float64) string {
	// Drop floating-point noise such as 0.30000000000000004.
	v, _ = strconv.ParseFloat(strconv.FormatFloat(v, 'g', 12, 64), 64)
	a := math.Abs(v)
	for _, u := range []struct {
		from, scale float64
		suffix      string
	}{{1e12, 1e12, "T"}, {1e9, 1e9, "G"}, {1e6, 1e6, "M"}, {1e4, 1e3, "k"}} {
		if a >= u.from && a < 1e15 {
			return strconv.FormatFloat(v/u.scale, 'g', 6, 64) + u.suffix
		}
	}
	if a == 0 {
		return "0"
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}

// powText is a text.Handler that draws "B^E" (a single line with one caret)
// as B followed by a superscript E, and any other text as text.Plain does.
// The bundled Liberation fonts lack a superscript zero, and gonum's LaTeX
// handler does not support superscripts, hence this small handler.
type powText struct{ text.Plain }

// Superscript size and baseline shift, relative to the font size.
const (
	supScale = 0.7
	supRaise = 0.4
)

// splitPow splits "B^E" into B and E.
func splitPow(txt string) (b, e string, ok bool) {
	i := strings.IndexByte(txt, '^')
	if i <= 0 || i == len(txt)-1 || strings.ContainsAny(txt, "\n") || strings.Count(txt, "^") != 1 {
		return "", "", false
	}
	return txt[:i], txt[i+1:], true
}

func supFont(f font.Font) font.Font {
	f.Size = vg.Length(supScale) * f.Size
	return f
}

// Box implements text.Handler.
func (h powText) Box(txt string, fnt font.Font) (width, height, depth vg.Length) {
	b, e, ok := splitPow(txt)
	if !ok {
		return h.Plain.Box(txt, fnt)
	}
	wb, hb, db := h.Plain.Box(b, fnt)
	we, he, _ := h.Plain.Box(e, supFont(fnt))
	return wb + we, max(hb, vg.Length(supRaise)*fnt.Size+he), db
}

// Draw implements text.Handler, placing the text as text.Plain would.
func (h powText) Draw(c vg.Canvas, txt string, sty text.Style, pt vg.Point) {
	b, e, ok := splitPow(txt)
	if !ok {
		h.Plain.Draw(c, txt, sty, pt)
		return
	}
	face := h.Fonts.Lookup(sty.Font, sty.Font.Size)
	small := h.Fonts.Lookup(supFont(sty.Font), supFont(sty.Font).Size)
	c.SetColor(sty.Color)
	if sty.Rotation != 0 {
		c.Push()
		defer c.Pop()
		c.Rotate(sty.Rotation)
	}
	sin64, cos64 := math.Sincos(sty.Rotation)
	sin, cos := vg.Length(sin64), vg.Length(cos64)
	pt.X, pt.Y = pt.Y*sin+pt.X*cos, pt.Y*cos-pt.X*sin

	w, ht, dp := h.Box(txt, sty.Font)
	base := vg.Point{
		X: pt.X + vg.Length(sty.XAlign)*w,
		Y: pt.Y + (ht+dp)*vg.Length(sty.YAlign) - face.Extents().Ascent + sty.Font.Size,
	}
	c.FillString(face, base, b)
	c.FillString(small, vg.Point{X: base.X + face.Width(b), Y: base.Y + vg.Length(supRaise)*sty.Font.Size}, e)
}
