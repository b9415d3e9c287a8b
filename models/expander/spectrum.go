package expander

import (
	"fmt"
	"sort"

	"gonum.org/v1/gonum/mat"
)

// SpectrumCert is Spectral that also returns every eigenvalue of M·Mᵀ in
// increasing order (NA of them; the largest is DA·DB). Same errors and the
// same O(NA³) cost as Spectral (one eigen-decomposition).
func SpectrumCert(g Graph) (Cert, []float64, error) {
	if err := g.Validate(); err != nil {
		return Cert{}, nil, err
	}
	dA, dB, ok := g.Biregular()
	if !ok || g.NA < 2 {
		return Cert{}, nil, fmt.Errorf("expander: SpectrumCert needs a biregular graph with NA ≥ 2")
	}
	m := mat.NewDense(g.NA, g.NB, nil)
	for a, l := range g.Adj {
		for _, b := range l {
			m.Set(a, int(b), m.At(a, int(b))+1)
		}
	}
	s := mat.NewSymDense(g.NA, nil)
	s.SymOuterK(1, m)
	var es mat.EigenSym
	if !es.Factorize(s, false) {
		return Cert{}, nil, fmt.Errorf("expander: eigen-decomposition did not converge")
	}
	v := es.Values(nil)
	sort.Float64s(v)
	return Cert{NA: g.NA, DA: dA, DB: dB, Lambda2: v[len(v)-2]}, v, nil
}

// MinMultiplicity groups the sorted values v into runs of consecutive values
// at most tol apart, takes one copy of the largest value out (the trivial
// eigenvalue) and returns the smallest size of a remaining non-empty run and
// that run's first value (0 and NaN-free 0 if no run remains). It panics if
// v is not sorted or empty.
func MinMultiplicity(v []float64, tol float64) (mult int, at float64) {
	if len(v) == 0 || !sort.Float64sAreSorted(v) {
		panic("expander: MinMultiplicity needs sorted, non-empty values")
	}
	v = v[:len(v)-1]
	mult = 0
	for i := 0; i < len(v); {
		j := i + 1
		for j < len(v) && v[j]-v[j-1] <= tol {
			j++
		}
		if mult == 0 || j-i < mult {
			mult, at = j-i, v[i]
		}
		i = j
	}
	return mult, at
}
