package butterfly

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"routecheck/internal/benchutil"
	mb "routecheck/models/butterfly"
	"routecheck/models/perm"
)

// refCase is one instance of the Engine/refEngine comparison.
type refCase struct {
	o  Options
	ps []mb.Packet
}

// refCases are instances at sizes the step model is too slow for (N up to
// 2^12), both node models and buffer readings, both disciplines, r ∈ {0,
// 2, n}, 1–8 pipelined permutations (some repeated, as §4's workload).
func refCases(t testing.TB) []refCase {
	var cs []refCase
	rng := rand.New(rand.NewPCG(14, 2))
	for _, logN := range []int{6, 10, 12} {
		for _, rr := range []int{0, 2, logN} {
			for _, rd := range []struct {
				m  mb.Mode
				st bool
			}{{mb.NodeQueue, false}, {mb.Buffered, true}, {mb.Buffered, false}} {
				for _, pr := range []Priority{PaperPriority, FIFO} {
					sh := mb.Shape{LogN: logN, R: rr, Mode: rd.m, StrictBuffers: rd.st}
					o := Options{Shape: sh, Priority: pr}
					p := 1 + rng.IntN(8)
					perms := make([][]int32, p)
					for l := range perms {
						if l > 0 && rng.IntN(2) == 0 {
							perms[l] = perms[l-1]
						} else {
							perms[l] = perm.Random(sh.N(), rng)
						}
					}
					ps, err := Packets(o, perms, rng)
					if err != nil {
						t.Fatal(err)
					}
					cs = append(cs, refCase{o, ps})
				}
			}
		}
	}
	return cs
}

// The Engine gives the same Result (every packet's delivery step, Steps,
// MaxQueue) as the engine before it (refEngine, itself compared with the
// step model by the same tests that now run the Engine), on 54 instances
// up to N = 2^12; one Engine and one refEngine are reused across them, as
// the claims reuse theirs.
func TestEngineMatchesRefEngine(t *testing.T) {
	var e Engine
	var ref refEngine
	for i, c := range refCases(t) {
		want, err := ref.Run(c.o, c.ps, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		got, err := e.Run(c.o, c.ps, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("case %d (%+v, %d packets): Engine and refEngine differ (steps %d vs %d, max queue %d vs %d)", i, c.o, len(c.ps), got.Steps, want.Steps, got.MaxQueue, want.MaxQueue)
		}
	}
}

// The comparison above can fail: with a planted difference on the
// Engine's side (strict buffers ignored, FaultIgnoreStrict; node queues
// sending two, FaultNodeSendsTwo) every strict-buffer and every node-queue
// instance with more than one packet per input differs from refEngine.
func TestEngineRefComparisonCatchesPlanted(t *testing.T) {
	var e Engine
	var ref refEngine
	caught, planted := 0, 0
	for _, c := range refCases(t) {
		f := NoFault
		switch {
		case c.o.Shape.StrictBuffers:
			f = FaultIgnoreStrict
		case c.o.Shape.Mode == mb.NodeQueue && len(c.ps) > c.o.Shape.N():
			f = FaultNodeSendsTwo
		default:
			continue
		}
		planted++
		want, err := ref.Run(c.o, c.ps, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		fo := c.o
		fo.Fault = f
		got, err := e.Run(fo, c.ps, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			caught++
		}
	}
	if planted < 10 || caught != planted {
		t.Fatalf("planted differences caught in %d of %d instances, want all (and ≥ 10)", caught, planted)
	}
}

// BenchmarkRefEngineThroughput is BenchmarkEngineThroughput's workload on
// refEngine (the engine before the renumbering), for the before/after in
// one binary.
func BenchmarkRefEngineThroughput(b *testing.B) {
	for _, m := range benchShapes {
		for _, logN := range []int{10, 12, 14, 16} {
			sh := mb.Shape{LogN: logN, R: 2, Mode: m.mode, StrictBuffers: m.st}
			o, ps := benchPackets(b, sh, 4)
			b.Run(fmt.Sprintf("%s/N=2^%d", m.name, logN), func(b *testing.B) {
				var e refEngine
				cpu0 := benchutil.CPUSeconds()
				for b.Loop() {
					if _, err := e.Run(o, ps, 1<<26); err != nil {
						b.Fatal(err)
					}
				}
				hops := float64(len(ps)) * float64(sh.Stages()) * float64(b.N)
				b.ReportMetric(hops/b.Elapsed().Seconds(), "packet-hops/s")
				if cpu := benchutil.CPUSeconds() - cpu0; cpu > 0 {
					b.ReportMetric(hops/cpu, "packet-hops/cpu-s")
				}
			})
		}
	}
}
