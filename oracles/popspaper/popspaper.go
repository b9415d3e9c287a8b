// Package popspaper holds the published numbers of Mei & Rizzi
// (000_de3be866f009217f.txt) as data, and the closed forms of §III–§IV.
// Nothing here is computed by the code under test.
package popspaper

import "math"

// Cell is one row/column of Tables I and II: a network of n = d·g processors
// with d = Ratio·g. Zero fields mean the paper prints "-".
type Cell struct {
	N     int
	Ratio int // d/g: 1, 4 or 16
	// Table I: number of slots (A: randomized algorithm, B: algorithm of [8]).
	A float64
	B int
	// Table II: steps of the randomized algorithm over 100 runs.
	Mu, Sigma float64
	Max       int
}

// Runs is the number of runs behind Table II ("over one hundred runs").
const Runs = 100

// TableIRunsAssumed is the number of runs assumed behind Table I column A.
// The paper says only "a large number of experiments"; every A value times
// 100 is a multiple of 5, which is what 100 runs of 5-slot steps give (and
// A ≠ 5μ, so Table I and Table II are separate sets of runs). Used only to
// size the paper's own standard error; stated in the ledger.
const TableIRunsAssumed = 100

// G returns g = sqrt(n/ratio) and whether the shape exists.
func (c Cell) G() (g int, ok bool) {
	if c.N%c.Ratio != 0 {
		return 0, false
	}
	g = int(math.Round(math.Sqrt(float64(c.N / c.Ratio))))
	return g, g >= 1 && g*g*c.Ratio == c.N
}

// D returns d = Ratio·g.
func (c Cell) D() int { g, _ := c.G(); return c.Ratio * g }

// HasPaper reports whether the paper prints values for the cell.
func (c Cell) HasPaper() bool { return c.B != 0 }

// Ns are the twelve network sizes of Tables I and II: 4^1 … 4^12.
var Ns = []int{4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216}

// Ratios are the three columns d = g, 4g, 16g.
var Ratios = []int{1, 4, 16}

type row struct {
	a    [3]float64
	b    [3]int
	mu   [3]float64
	sd   [3]float64
	maxv [3]int
}

// Transcribed from TABLE I and TABLE II; -1 stands for "-".
var rows = map[int]row{
	4:        {[3]float64{14.75, -1, -1}, [3]int{37, -1, -1}, [3]float64{3.15, -1, -1}, [3]float64{1.94, -1, -1}, [3]int{12, -1, -1}},
	16:       {[3]float64{20.90, 71.40, -1}, [3]int{54, 118, -1}, [3]float64{4.43, 14.33, -1}, [3]float64{1.03, 4.22, -1}, [3]int{8, 35, -1}},
	64:       {[3]float64{27.35, 82.80, 317.90}, [3]int{79, 177, 442}, [3]float64{5.39, 16.13, 56.88}, [3]float64{0.79, 2.81, 4.52}, [3]int{7, 27, 82}},
	256:      {[3]float64{30.10, 87.15, 322.45}, [3]int{112, 268, 669}, [3]float64{6.10, 18.06, 62.58}, [3]float64{0.57, 1.54, 3.86}, [3]int{8, 23, 81}},
	1024:     {[3]float64{32.50, 92.60, 343.10}, [3]int{153, 391, 1024}, [3]float64{6.50, 18.45, 66.26}, [3]float64{0.53, 0.86, 5.16}, [3]int{8, 20, 94}},
	4096:     {[3]float64{34.50, 94.00, 345.60}, [3]int{202, 546, 1507}, [3]float64{6.82, 18.81, 68.21}, [3]float64{0.46, 0.64, 3.94}, [3]int{8, 21, 86}},
	16384:    {[3]float64{35.20, 94.95, 339.25}, [3]int{259, 733, 2118}, [3]float64{7.04, 18.95, 67.65}, [3]float64{0.20, 0.46, 1.76}, [3]int{8, 20, 73}},
	65536:    {[3]float64{35.55, 95.15, 336.45}, [3]int{324, 952, 2857}, [3]float64{7.16, 19.06, 67.12}, [3]float64{0.37, 0.34, 0.89}, [3]int{8, 20, 71}},
	262144:   {[3]float64{36.55, 95.35, 334.30}, [3]int{397, 1203, 3724}, [3]float64{7.30, 19.09, 66.88}, [3]float64{0.46, 0.29, 0.59}, [3]int{8, 20, 69}},
	1048576:  {[3]float64{38.25, 95.65, 333.55}, [3]int{478, 1486, 4719}, [3]float64{7.59, 19.15, 66.70}, [3]float64{0.49, 0.36, 0.50}, [3]int{8, 20, 68}},
	4194304:  {[3]float64{39.70, 96.25, 333.05}, [3]int{567, 1801, 5842}, [3]float64{7.92, 19.21, 66.59}, [3]float64{0.27, 0.41, 0.49}, [3]int{8, 20, 67}},
	16777216: {[3]float64{40.05, 97.05, 333.60}, [3]int{664, 2148, 7093}, [3]float64{8.00, 19.41, 66.79}, [3]float64{0.00, 0.49, 0.41}, [3]int{8, 20, 67}},
}

// Cells returns all 36 (n, ratio) cells in table order (by ratio, then n),
// including the three the paper leaves blank ("-").
func Cells() []Cell {
	var out []Cell
	for j, r := range Ratios {
		for _, n := range Ns {
			x := rows[n]
			c := Cell{N: n, Ratio: r}
			if x.b[j] > 0 {
				c.A, c.B, c.Mu, c.Sigma, c.Max = x.a[j], x.b[j], x.mu[j], x.sd[j], x.maxv[j]
			}
			out = append(out, c)
		}
	}
	return out
}

// Lookup returns the cell for (n, ratio).
func Lookup(n, ratio int) (Cell, bool) {
	for _, c := range Cells() {
		if c.N == n && c.Ratio == ratio {
			return c, true
		}
	}
	return Cell{}, false
}

// Baseline is the corrected slot count of the algorithm of [8] used in §IV:
// (4d/g)·log²g + (2d/g)·log g + 21d/g + 3·log g + 7, logs base 2.
func Baseline(d, g int) float64 {
	r := float64(d) / float64(g)
	l := math.Log2(float64(g))
	return 4*r*l*l + 2*r*l + 21*r + 3*l + 7
}

// C is the constant exp(1 + 1/e) ≈ 3.927 of Theorem 3.8.
func C() float64 { return math.Exp(1 + 1/math.E) }

// Corollary39Slots is 20·d/g, the leading term of Corollary 3.9.
func Corollary39Slots(d, g int) float64 { return 20 * float64(d) / float64(g) }

// BaselineSortTerm is the part of Baseline that §IV attributes to sorting:
// d/g sorts of g² items, each log m(1 + log m)/2 steps for m = g² (the
// corrected count, ≈ 2 log²g) at 2 slots a step, i.e. (4d/g)·log²g +
// (2d/g)·log g, logs base 2.
func BaselineSortTerm(d, g int) float64 {
	r := float64(d) / float64(g)
	l := math.Log2(float64(g))
	return 4*r*l*l + 2*r*l
}

// BaselineRest is Baseline minus BaselineSortTerm: 21d/g + 3 log g + 7, the
// part of [8]'s running time the seed gives only as a lump.
func BaselineRest(d, g int) float64 {
	return 21*float64(d)/float64(g) + 3*math.Log2(float64(g)) + 7
}
