package meshtest

import (
	"fmt"
	"math/rand/v2"
)

// KKFamilies names the k-k families of the suite (and of routecheck's mesh
// claims, which draw their k-k instances from KK): uniformly random, and
// the three structured adversaries.
var KKFamilies = []string{"uniform", "transpose", "reflect", "row-to-col"}

// KK returns the k-k relation of family on the n×n mesh (PU p = i·n + j;
// packet t of PU p is the packet p·k + t): "uniform" shuffles the n²·k
// destination slots with rng (the only family that reads rng);
// "transpose" sends all k packets of (i, j) to (j, i); "reflect" to
// (n−1−i, n−1−j); "row-to-col" sends k/n packets to each PU of row j and
// needs n | k. An unknown family or a bad n, k is an error.
func KK(family string, n, k int, rng *rand.Rand) (Instance, error) {
	if n < 1 || k < 1 {
		return Instance{}, fmt.Errorf("meshtest: k-k with n = %d, k = %d: allowed n, k ≥ 1", n, k)
	}
	switch family {
	case "uniform":
		return kkUniform(n, k, rng), nil
	case "transpose":
		return kkMap(n, k, func(i, j, _ int) (int, int) { return j, i }), nil
	case "reflect":
		return kkMap(n, k, func(i, j, _ int) (int, int) { return n - 1 - i, n - 1 - j }), nil
	case "row-to-col":
		if k%n != 0 {
			return Instance{}, fmt.Errorf("meshtest: k-k row-to-col with n = %d, k = %d: k must be a multiple of n", n, k)
		}
		return kkMap(n, k, func(_, j, t int) (int, int) { return j, t / (k / n) }), nil
	}
	return Instance{}, fmt.Errorf("meshtest: k-k family %q: allowed %v", family, KKFamilies)
}
