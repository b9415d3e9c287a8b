// Package plotting renders simple line charts (one or more named series of
// X/Y points) to PNG and SVG files using gonum.org/v1/plot.
//
// The package is deliberately small: describe a figure with a [Chart] made
// of [Series] and call [Write]. Every figure has the same fixed size
// (16cm × 10cm), a light grid, a legend in the top-left corner of the data
// area and one distinct colour per series. Logarithmic axes are supported:
// a logarithmic X axis is ticked at powers of two, a logarithmic Y axis at
// powers of ten, and large tick values are labelled compactly (2²⁰, 10⁶,
// 1.5M). When the data would run under the legend, the Y axis is extended
// upwards to leave room for it (or, for a very tall legend, the legend gets
// a translucent white backdrop).
//
// [Write] validates its input and reports problems as errors rather than
// panicking.
package plotting
