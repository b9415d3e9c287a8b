// Package sortnettest is the conformance suite for comparator networks: hand
// it a builder of your sorting network and one call checks it the way
// routecheck checks Batcher's and the AKS-family networks — the way
// testing/fstest.TestFS checks a file system.
//
//	func TestMySorter(t *testing.T) {
//		sortnettest.Run(t, mysorter.Build, sortnettest.Options{
//			MaxDepth: func(n int) int { return 2 * bits.Len(uint(n)) * bits.Len(uint(n)) },
//		})
//	}
//
// For every size in Options.Sizes it builds the network and checks, one
// subtest per property: the network is well formed on exactly n wires
// (valid), its depth and size are within the bounds you declare (bounds),
// it sorts every 0-1 input for n ≤ 24 — a proof by the 0-1 principle — and
// structured and random inputs beyond (sorts-01), it sorts random keys with
// repeats and leaves a permutation of them (keys, rapid, shrinking to a
// minimal input), and it sorts the standard traffic patterns of
// models/perm used as key orders (traffic). A network given as data is
// checked with CheckNetwork; a fuzz target is three lines with Fuzz.
//
// A failure names the property, the size and the input, and writes a
// replay file: a routecheck case (kind sortnet-network, metric "property
// failures") whose instance is the network in SorterHunter's JSON plus the
// declared bounds, and which records every property the network broke.
// `routecheck replay FILE` re-runs this suite on the network itself (a
// network is data: the CLI needs nothing of yours), and CheckFile does the
// same from Go; CheckFile also reads the bare SorterHunter files of earlier
// versions (which `routecheck sortnet verify FILE` reads too).
package sortnettest

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"routecheck/internal/falsify"
	"routecheck/internal/hunt"
	"routecheck/models/perm"
	"routecheck/models/sortnet"
	"routecheck/props/internal/suite"
)

// Builder returns a comparator network on n wires.
type Builder func(n int) (sortnet.Network, error)

// Options tune the suite; the zero value is ready to use (see fill).
type Options struct {
	// Sizes are the wire counts built; nil means 0…16, 20, 24, 32, 64, 100.
	Sizes []int
	// MaxDepth and MaxSize, when set, are bounds the network must meet
	// (a value ≤ 0 means no bound at that n).
	MaxDepth, MaxSize func(n int) int
	// Checks is the number of rapid cases per size for random keys; 0
	// means 100.
	Checks int
	// Seed makes every random choice reproducible; 0 means 1.
	Seed uint64
	// ReplayDir receives the replay file of a failing network; "" means
	// os.TempDir(). Set it to "-" to write none.
	ReplayDir string
}

func (o Options) fill() Options {
	if o.Sizes == nil {
		for n := 0; n <= 16; n++ {
			o.Sizes = append(o.Sizes, n)
		}
		o.Sizes = append(o.Sizes, 20, 24, 32, 64, 100)
	}
	suite.Fill(&o.Checks, 100, &o.Seed, &o.ReplayDir)
	return o
}

// Failure is one property a network broke.
type Failure struct {
	Property string // valid, bounds, sorts-01, keys, traffic, build
	N        int
	Message  string
	Input    []int  // an input left unsorted, when there is one
	Replay   string // the command that re-checks the network, when written
}

func (f Failure) String() string {
	s := fmt.Sprintf("%s at n = %d: %s", f.Property, f.N, f.Message)
	if f.Input != nil {
		s += fmt.Sprintf("; input %v", f.Input)
	}
	if f.Replay != "" {
		s += "; replay: " + f.Replay
	}
	return s
}

// The properties, in the order Run runs them.
var properties = []string{"valid", "bounds", "sorts-01", "keys", "traffic"}

// Check runs the suite on build for every size and returns the failures
// (nil when the network passes everything).
func Check(build Builder, o Options) []Failure {
	o = o.fill()
	var out []Failure
	for _, n := range o.Sizes {
		nw, err := build(n)
		if err != nil {
			out = append(out, Failure{Property: "build", N: n, Message: err.Error()})
			continue
		}
		for _, p := range properties {
			out = append(out, checkProperty(p, n, nw, o)...)
		}
	}
	return out
}

// CheckNetwork runs the suite on one network given as data (its N is the
// size).
func CheckNetwork(nw sortnet.Network, o Options) []Failure {
	o.Sizes = []int{nw.N}
	return Check(func(int) (sortnet.Network, error) { return nw, nil }, o)
}

// Run runs the suite as subtests of t, one per size and property, and
// reports each failure with its replay command. t may be a *testing.T or
// *testing.B; other testing.TB values get the failures without subtests.
func Run(t testing.TB, build Builder, o Options) {
	t.Helper()
	o = o.fill()
	for _, n := range o.Sizes {
		nw, err := build(n)
		if err != nil {
			t.Errorf("n = %d: build: %v", n, err)
			continue
		}
		for _, p := range properties {
			suite.Sub(t, fmt.Sprintf("n=%d/%s", n, p), func(t testing.TB, _ bool) {
				for _, f := range checkProperty(p, n, nw, o) {
					t.Error(f.String())
				}
			})
		}
	}
}

// Fuzz adds a fuzz target over sizes and 0-1 inputs: f.Fuzz(n, input bits)
// builds the network on n (mod 65) wires and checks that it sorts that
// input. A user's fuzz test is
//
//	func FuzzMySorter(f *testing.F) { sortnettest.Fuzz(f, mysorter.Build) }
func Fuzz(f *testing.F, build Builder) {
	for _, n := range []uint8{2, 5, 8, 13} {
		f.Add(n, uint64(0b1010_1010_1010))
	}
	f.Fuzz(func(t *testing.T, n uint8, x uint64) {
		size := int(n) % 65
		nw, err := build(size)
		if err != nil {
			t.Skipf("build(%d): %v", size, err)
		}
		if nw.N != size || nw.Validate() != nil {
			t.Fatalf("build(%d) returned a malformed network (N = %d): %v", size, nw.N, nw.Validate())
		}
		in := make([]int, size)
		for i := range in {
			in[i] = int(x >> i & 1)
		}
		out := slices.Clone(in)
		sortnet.Apply(nw, out)
		if !sortnet.Sorted(out) {
			t.Fatalf("n = %d: input %v left as %v; %s", size, in, out, replay(nw, size, os.TempDir(), Options{}))
		}
	})
}

func checkProperty(p string, n int, nw sortnet.Network, o Options) []Failure {
	fail := func(msg string, in []int) []Failure {
		f := Failure{Property: p, N: n, Message: msg, Input: in}
		if o.ReplayDir != "-" {
			f.Replay = replay(nw, n, o.ReplayDir, o)
		}
		return []Failure{f}
	}
	switch p {
	case "valid":
		if nw.N != n {
			return fail(fmt.Sprintf("the network has %d wires", nw.N), nil)
		}
		if err := nw.Validate(); err != nil {
			return fail(err.Error(), nil)
		}
	case "bounds":
		if o.MaxDepth != nil {
			if b := o.MaxDepth(n); b > 0 && nw.Depth() > b {
				return fail(fmt.Sprintf("depth %d > the declared %d", nw.Depth(), b), nil)
			}
		}
		if o.MaxSize != nil {
			if b := o.MaxSize(n); b > 0 && nw.Size() > b {
				return fail(fmt.Sprintf("size %d > the declared %d", nw.Size(), b), nil)
			}
		}
	case "sorts-01":
		if nw.N != n || nw.Validate() != nil {
			return nil // reported by valid
		}
		v := sortnet.Verify(nw, sortnet.VerifyOptions{Seed: o.Seed, RandomWork: 1 << 24})
		if !v.Sorts {
			return fail("leaves an input unsorted ("+v.Covered+")", v.Counterexample)
		}
	case "keys":
		if nw.N != n || nw.Validate() != nil || n == 0 {
			return nil
		}
		cex := func() (c any) {
			defer func() {
				if r := recover(); r != nil {
					c = fmt.Sprintf("the check could not run: %v", r)
				}
			}()
			c, _ = falsify.Falsify(o.Seed, o.Checks, func(t *rapid.T) any {
				in := rapid.SliceOfN(rapid.IntRange(0, max(1, n/2)), n, n).Draw(t, "keys")
				out := slices.Clone(in)
				sortnet.Apply(nw, out)
				want := slices.Clone(in)
				slices.Sort(want)
				if !slices.Equal(out, want) {
					return in
				}
				return nil
			})
			return c
		}()
		switch c := cex.(type) {
		case nil:
		case []int:
			return fail("does not sort these keys (shrunk by rapid)", c)
		default:
			return fail(fmt.Sprint(c), nil)
		}
	case "traffic":
		if nw.N != n || nw.Validate() != nil || n == 0 {
			return nil
		}
		r := rand.New(rand.NewPCG(o.Seed, uint64(n)))
		for _, f := range perm.FamiliesFor(n) {
			p := f.Perm(n, r)
			in := make([]int, n)
			for i, x := range p {
				in[i] = int(x)
			}
			out := slices.Clone(in)
			sortnet.Apply(nw, out)
			if !sortnet.Sorted(out) {
				return fail(fmt.Sprintf("does not sort the %s pattern used as keys", f.Name), in)
			}
		}
	}
	return nil
}

// CaseNetwork is the instance of a sortnet-network case that this suite
// writes: the network in SorterHunter's JSON (N wires, L comparators,
// depth D, the pairs in order) and the options it was checked with
// (bounds 0: none; Seed and Checks as in Options).
type CaseNetwork struct {
	N        int        `json:"N"`
	L        int        `json:"L"`
	D        int        `json:"D"`
	NW       [][2]int32 `json:"nw"`
	MaxDepth int        `json:"max_depth,omitempty"`
	MaxSize  int        `json:"max_size,omitempty"`
	Seed     uint64     `json:"seed,omitempty"`
	Checks   int        `json:"checks,omitempty"`
}

// Options are the options that re-check the network as it was checked.
func (c CaseNetwork) Options() Options {
	o := Options{Seed: c.Seed, Checks: c.Checks, ReplayDir: "-"}
	if c.MaxDepth > 0 {
		o.MaxDepth = func(int) int { return c.MaxDepth }
	}
	if c.MaxSize > 0 {
		o.MaxSize = func(int) int { return c.MaxSize }
	}
	return o
}

// replay writes nw as a routecheck case (kind sortnet-network) under dir,
// with every property it breaks at n under o, and returns how to re-check
// it (or why it could not be written).
func replay(nw sortnet.Network, n int, dir string, o Options) string {
	o = o.fill()
	c := CaseNetwork{N: nw.N, L: nw.Size(), D: nw.Depth(), NW: [][2]int32{}, Seed: o.Seed, Checks: o.Checks}
	if o.MaxDepth != nil {
		c.MaxDepth = max(0, o.MaxDepth(n))
	}
	if o.MaxSize != nil {
		c.MaxSize = max(0, o.MaxSize(n))
	}
	for _, st := range nw.Stages {
		for _, cmp := range st {
			c.NW = append(c.NW, [2]int32{cmp.I, cmp.J})
		}
	}
	var broke []hunt.Broken
	for _, p := range properties {
		for _, f := range checkProperty(p, n, nw, c.Options().fill()) {
			msg := f.Message
			if f.Input != nil {
				msg += fmt.Sprintf("; input %v", f.Input)
			}
			broke = append(broke, hunt.Broken{Property: f.Property, Step: -1, Message: msg})
		}
	}
	return suite.WriteReplay(dir, "sortnettest", "sortnet-network", "", fmt.Sprintf("sortnettest, n = %d", n), c, broke, "sortnettest.CheckFile(%q)")
}

// CheckFile re-checks the network of a replay file with the options it
// was checked with: a sortnet-network case (what failures write) or a bare
// network file (SorterHunter's JSON or a list of pairs, what earlier
// versions wrote; checked with the default options).
func CheckFile(path string) ([]Failure, error) {
	data, c, err := hunt.ReadSuiteFile(path, "sortnet-network")
	if err != nil {
		return nil, err
	}
	nw, _, err := sortnet.ParseNetwork(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	o := Options{ReplayDir: "-"}
	if c != nil {
		var cn CaseNetwork
		if err := json.Unmarshal(data, &cn); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		o = cn.Options()
	}
	return CheckNetwork(nw, o), nil
}
