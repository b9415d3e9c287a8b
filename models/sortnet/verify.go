package sortnet

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// The limits of Verify and ParseNetwork.
const (
	// MaxVerifyN is the largest network ParseNetwork accepts.
	MaxVerifyN = 1 << 16
	// MaxExhaustiveN is the largest n the exhaustive 0-1 check runs at
	// (2^30 inputs: a few seconds per core for the best known networks).
	MaxExhaustiveN = 30
	// MaxRedundantN is the largest n at which redundant comparators are
	// found exactly (every 0-1 input, 2^24).
	MaxRedundantN = 24
)

// Declared is what a network file says about itself besides its
// comparators: the SorterHunter JSON's "L" (size) and "D" (depth), 0 when
// absent; and the file format ("sorterhunter-json" or "pairs").
type Declared struct {
	Size, Depth int
	Format      string
}

// sorterHunter is SorterHunter's output format: {"N": n, "L": size,
// "D": depth, "nw": [[i, j], …]}, 0-based pairs in order.
type sorterHunter struct {
	N  *int    `json:"N"`
	L  int     `json:"L"`
	D  int     `json:"D"`
	Nw [][]int `json:"nw"`
}

var (
	layerRE = regexp.MustCompile(`\[([^\[\]]*)\]`)
	pairRE  = regexp.MustCompile(`\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)`)
)

// ParseNetwork reads a comparator network in one of the formats researchers
// publish networks in:
//
//   - SorterHunter's JSON, {"N": n, "L": size, "D": depth, "nw": [[i, j], …]}
//     with 0-based pairs in the order they are applied;
//   - a plain list of pairs, one layer per bracket:
//     [(0,1),(2,3)],[(0,2),(1,3)],… (n is then the largest wire + 1).
//
// Comparators are laid out in stages by greedy layering (each goes into the
// first stage after the last one that touches either of its wires), so the
// returned network's Depth is the file's true depth whatever its brackets
// say. A pair (i, j) puts the minimum on wire i; only standard comparators
// (i < j) are accepted. Errors name what is wrong: not a network, a pair out
// of range, a comparator [i, i], a reversed comparator, n outside
// [1, MaxVerifyN].
func ParseNetwork(data []byte) (Network, Declared, error) {
	trim := bytes.TrimSpace(data)
	if len(trim) == 0 {
		return Network{}, Declared{}, fmt.Errorf("empty file: expected SorterHunter JSON {\"N\": n, \"nw\": [[i, j], …]} or pairs [(0,1),(2,3)],…")
	}
	var pairs [][2]int
	var n int
	var dec Declared
	if trim[0] == '{' {
		var f sorterHunter
		dj := json.NewDecoder(bytes.NewReader(trim))
		if err := dj.Decode(&f); err != nil {
			return Network{}, Declared{}, fmt.Errorf("not SorterHunter JSON: %v", err)
		}
		if f.N == nil {
			return Network{}, Declared{}, fmt.Errorf("SorterHunter JSON without \"N\" (the number of wires)")
		}
		n, dec = *f.N, Declared{Size: f.L, Depth: f.D, Format: "sorterhunter-json"}
		for k, p := range f.Nw {
			if len(p) != 2 {
				return Network{}, Declared{}, fmt.Errorf("comparator %d: %v is not a pair [i, j]", k, p)
			}
			pairs = append(pairs, [2]int{p[0], p[1]})
		}
	} else {
		dec.Format = "pairs"
		text := string(trim)
		layers := layerRE.FindAllStringSubmatch(text, -1)
		if len(layers) == 0 {
			return Network{}, Declared{}, fmt.Errorf("not a network: expected SorterHunter JSON or bracketed layers of pairs such as [(0,1),(2,3)],[(0,2)]")
		}
		rest := layerRE.ReplaceAllString(text, "")
		if strings.Trim(rest, " \t\r\n,") != "" {
			return Network{}, Declared{}, fmt.Errorf("not a network: text outside the bracketed layers: %q", short(strings.TrimSpace(rest)))
		}
		n = 0
		for _, l := range layers {
			body := l[1]
			ps := pairRE.FindAllStringSubmatch(body, -1)
			if strings.Trim(pairRE.ReplaceAllString(body, ""), " \t\r\n,") != "" {
				return Network{}, Declared{}, fmt.Errorf("layer [%s]: expected pairs (i,j) separated by commas", short(body))
			}
			for _, p := range ps {
				i, err1 := strconv.Atoi(p[1])
				j, err2 := strconv.Atoi(p[2])
				if err1 != nil || err2 != nil {
					return Network{}, Declared{}, fmt.Errorf("pair %s: wires must be integers", p[0])
				}
				pairs = append(pairs, [2]int{i, j})
				n = max(n, i+1, j+1)
			}
		}
	}
	if n < 1 || n > MaxVerifyN {
		return Network{}, Declared{}, fmt.Errorf("n = %d wires: allowed 1 ≤ n ≤ %d", n, MaxVerifyN)
	}
	cs := make([]Comparator, len(pairs))
	for k, p := range pairs {
		i, j := p[0], p[1]
		switch {
		case i < 0 || j < 0 || i >= n || j >= n:
			return Network{}, Declared{}, fmt.Errorf("comparator %d [%d, %d]: wire out of range, allowed 0 ≤ wire < n = %d", k, i, j, n)
		case i == j:
			return Network{}, Declared{}, fmt.Errorf("comparator %d [%d, %d]: both ends on one wire", k, i, j)
		case i > j:
			return Network{}, Declared{}, fmt.Errorf("comparator %d [%d, %d]: the first wire must be the smaller one (standard comparators only: the minimum goes to the first wire)", k, i, j)
		}
		cs[k] = Comparator{I: int32(i), J: int32(j)}
	}
	return Layer(n, cs), dec, nil
}

func short(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

// Layer lays the comparators out in stages by greedy layering: each goes
// into the first stage after the last stage that uses either of its wires,
// which keeps the order of comparators on every wire and gives the least
// depth of any layering that does. O(n + len(cs)).
func Layer(n int, cs []Comparator) Network {
	last := make([]int, n) // stage after the last one using the wire
	nw := Network{N: n}
	for _, c := range cs {
		s := max(last[c.I], last[c.J])
		if s == len(nw.Stages) {
			nw.Stages = append(nw.Stages, nil)
		}
		nw.Stages[s] = append(nw.Stages[s], c)
		last[c.I], last[c.J] = s+1, s+1
	}
	return nw
}

// Position is a comparator's place in a network: stage and index in it.
type Position struct{ Stage, Index int }

// VerifyReport is what Verify found.
type VerifyReport struct {
	// Sorts is false when Counterexample is an input the network leaves
	// unsorted.
	Sorts bool
	// Counterexample is a 0-1 input (wire 0 first) or a permutation of
	// 0…n−1 the network does not sort; nil when none was found.
	Counterexample []int
	// Exhaustive is true when every 0-1 input was run (n ≤ MaxExhaustiveN):
	// then Sorts is a proof by the 0-1 principle.
	Exhaustive bool
	// Redundant lists the comparators that never exchange on any input
	// (exact: every 0-1 input, by the 0-1 principle; only for
	// n ≤ MaxRedundantN — RedundantKnown says whether it was computed).
	Redundant      []Position
	RedundantKnown bool
	// Inputs is the number of inputs run; Covered says which.
	Inputs  int64
	Covered string
}

// VerifyOptions tune Verify. Zero values: GOMAXPROCS workers, 2^28
// comparator evaluations of random inputs beyond MaxExhaustiveN, seed 1.
type VerifyOptions struct {
	Workers    int
	RandomWork int64
	Seed       uint64
}

// Verify decides whether nw sorts. For n ≤ MaxExhaustiveN it runs every
// 0-1 input (bit-parallel, 64 inputs per word, split over Workers
// goroutines): cost 2^n/64 · (Size + n) word operations — about a second
// per core at n = 28 for a network of ~150 comparators. Beyond, it runs
// structured 0-1 inputs (every weight's sorted-descending input; for
// n ≤ 64 the probe inputs of ProbeInputs01) and random permutations and 0-1
// inputs up to RandomWork comparator evaluations, and Sorts = true then
// only means none of them failed. For n ≤ MaxRedundantN it also finds the
// redundant comparators exactly.
func Verify(nw Network, o VerifyOptions) VerifyReport {
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	if o.RandomWork <= 0 {
		o.RandomWork = 1 << 28
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	n := nw.N
	rep := VerifyReport{Sorts: true}
	if n <= MaxExhaustiveN {
		bad, found, red := exhaustive01(nw, o.Workers, n <= MaxRedundantN)
		rep.Exhaustive, rep.Inputs = true, int64(1)<<n
		rep.Covered = fmt.Sprintf("every 0-1 input (2^%d = %d): a proof by the 0-1 principle", n, rep.Inputs)
		if found {
			rep.Sorts, rep.Counterexample = false, bitsOf(bad, n)
			rep.Covered = fmt.Sprintf("0-1 inputs in order (bit i = wire i) up to the first that fails, x = %d of 2^%d", bad, n)
		}
		if n <= MaxRedundantN {
			rep.RedundantKnown = true
			k := 0
			for s, st := range nw.Stages {
				for i := range st {
					if !red[k] {
						rep.Redundant = append(rep.Redundant, Position{s, i})
					}
					k++
				}
			}
		}
		return rep
	}
	r := rand.New(rand.NewPCG(o.Seed, uint64(n)))
	// Structured 0-1 inputs: weight w with its ones on the lowest wires (the
	// reverse of sorted), and for n ≤ 64 the probe inputs.
	var inputs [][]int
	for w := 1; w < n; w++ {
		x := make([]int, n)
		for i := range w {
			x[i] = 1
		}
		inputs = append(inputs, x)
	}
	if n <= 64 {
		for _, b := range ProbeInputs01(n, r) {
			inputs = append(inputs, bitsOf(b, n))
		}
	}
	for _, x := range inputs {
		rep.Inputs++
		if !sortsInput(nw, x) {
			rep.Sorts, rep.Counterexample = false, x
			rep.Covered = fmt.Sprintf("%d structured 0-1 inputs (n > %d: not exhaustive)", rep.Inputs, MaxExhaustiveN)
			return rep
		}
	}
	structured := rep.Inputs
	perms := o.RandomWork / int64(max(1, nw.Size()+n))
	for range perms {
		p := r.Perm(n)
		rep.Inputs++
		if !sortsInput(nw, p) {
			rep.Sorts, rep.Counterexample = false, p
			break
		}
	}
	rep.Covered = fmt.Sprintf("%d structured 0-1 inputs and %d random permutations from PCG(%d, %d) (n > %d: not exhaustive, so 'holds' means none failed)", structured, rep.Inputs-structured, o.Seed, n, MaxExhaustiveN)
	return rep
}

func sortsInput(nw Network, x []int) bool {
	y := append([]int(nil), x...)
	Apply(nw, y)
	return Sorted(y)
}

func bitsOf(x uint64, n int) []int {
	out := make([]int, n)
	for i := range n {
		out[i] = int(x >> i & 1)
	}
	return out
}

// exhaustive01 runs every 0-1 input on workers goroutines and returns the
// smallest failing input (bit i = wire i) if any, and, when track is set,
// for every comparator (in stage order) whether it exchanged on some input.
func exhaustive01(nw Network, workers int, track bool) (bad uint64, found bool, exchanged []bool) {
	n := nw.N
	size := nw.Size()
	if n <= 1 {
		return 0, false, make([]bool, size)
	}
	low := min(6, n)
	var lowPat [6]uint64
	for i := range low {
		for b := range uint64(64) {
			if b>>i&1 == 1 {
				lowPat[i] |= 1 << b
			}
		}
	}
	lanes := uint64(1) << low
	laneMask := ^uint64(0)
	if lanes < 64 {
		laneMask = 1<<lanes - 1
	}
	words := (uint64(1) << n) / lanes
	chunk := max(1, words/uint64(workers*16))
	var next atomic.Uint64
	var mu sync.Mutex
	var best atomic.Uint64
	best.Store(^uint64(0))
	exchanged = make([]bool, size)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := make([]uint64, n)
			ex := make([]uint64, size)
			for {
				start := next.Add(chunk) - chunk
				// Chunks are handed out in increasing order: once one starts
				// above the smallest failure found, so do all later ones
				// (unless every input must run to track exchanges).
				if start >= words || !track && start*lanes > best.Load() {
					break
				}
				end := min(words, start+chunk)
				for k := start; k < end; k++ {
					base := k * lanes
					for i := range n {
						switch {
						case i < low:
							w[i] = lowPat[i] & laneMask
						case base>>i&1 == 1:
							w[i] = laneMask
						default:
							w[i] = 0
						}
					}
					c := 0
					for _, st := range nw.Stages {
						for _, cp := range st {
							a, b := w[cp.I], w[cp.J]
							if track {
								ex[c] |= a &^ b
								c++
							}
							w[cp.I], w[cp.J] = a&b, a|b
						}
					}
					if m := unsorted01(w) & laneMask; m != 0 {
						x := base + uint64(bits.TrailingZeros64(m))
						for {
							old := best.Load()
							if x >= old || best.CompareAndSwap(old, x) {
								break
							}
						}
						if !track {
							break
						}
					}
				}
			}
			if track {
				mu.Lock()
				for c, v := range ex {
					exchanged[c] = exchanged[c] || v != 0
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	b := best.Load()
	return b, b != ^uint64(0), exchanged
}
