package popstest

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"routecheck/models/pops"
	"routecheck/props/internal/suite"
)

// The locality property: a run with one Router shared by every processor
// (as every other property runs it) and a run of the same instance with a
// fresh Router per processor (newRouter() once per processor, processor
// i's Act going to its own value) must choose the same actions, slot by
// slot, from the same random stream. Each per-processor router's Start is
// called as the shared one's is (before the first slot, with the shape) and
// sees the same random bits the shared one's Start drew: the first gets the
// run's generator, the others a copy of it taken before Start, so Start's
// draws never shift the stream Act draws from. A router that keeps only
// per-processor memory (what the slot model lets a processor know) cannot
// tell the runs apart; one that reads, in processor i's Act, what it kept
// from processor j's is caught.

// taped is the shared router of the locality check, noting its actions.
type taped struct {
	r    pops.Router
	tape *suite.Tape[pops.Action]
}

func (t taped) Start(sh pops.Shape, rng *rand.Rand) { t.r.Start(sh, rng) }
func (t taped) Act(v pops.Local, rng *rand.Rand) pops.Action {
	a := t.r.Act(v, rng)
	t.tape.Note(v.Slot(), int(v.Proc()), a)
	return a
}

// perProc runs a fresh router per processor; pcg is the run's generator
// (the source of the rng Drive passes), copied for the Starts after the
// first.
type perProc struct {
	newRouter func() pops.Router
	pcg       *rand.PCG
	rs        []pops.Router
	tape      *suite.Tape[pops.Action]
}

func (p *perProc) Start(sh pops.Shape, rng *rand.Rand) {
	snap := *p.pcg
	p.rs = make([]pops.Router, sh.N())
	for i := range p.rs {
		p.rs[i] = p.newRouter()
		if i == 0 {
			p.rs[i].Start(sh, rng)
		} else {
			c := snap
			p.rs[i].Start(sh, rand.New(&c))
		}
	}
}

func (p *perProc) Act(v pops.Local, rng *rand.Rand) pops.Action {
	a := p.rs[v.Proc()].Act(v, rng)
	p.tape.Note(v.Slot(), int(v.Proc()), a)
	return a
}

func actionEq(a, b pops.Action) bool {
	return a.Send == b.Send && a.Ack == b.Ack && a.Listen == b.Listen && a.Keep == b.Keep &&
		slices.Equal(a.To, b.To) && slices.Equal(a.Drop, b.Drop)
}

func actionClone(a pops.Action) pops.Action {
	a.To, a.Drop = slices.Clone(a.To), slices.Clone(a.Drop)
	return a
}

// checkLocality runs in with a shared router and with a router per
// processor and returns the locality failure, or nil.
func checkLocality(newRouter func() pops.Router, in Instance, fam string, o Options) *Failure {
	sh := pops.Shape{D: in.D, G: in.G}
	tape := suite.NewTape(actionEq, actionClone, func(slot, i int) string { return fmt.Sprintf("slot %d, processor %d", slot+1, i) })
	drive := func(r func(pcg *rand.PCG) pops.Router) (outcome string) {
		defer func() {
			if x := recover(); x != nil {
				outcome = fmt.Sprintf("panic: %v", x)
			}
		}()
		pcg := rand.NewPCG(in.Seed, 0x9095) // the stream checkInstance's runs use
		if _, err := pops.Drive(sh, in.Perm, r(pcg), rand.New(pcg), pops.DriveOptions{MaxSlots: o.MaxSlots(sh, in.Perm)}); err != nil {
			return err.Error()
		}
		return ""
	}
	shared := drive(func(*rand.PCG) pops.Router { return taped{newRouter(), tape} })
	tape.PerNode()
	local := drive(func(pcg *rand.PCG) pops.Router { return &perProc{newRouter: newRouter, pcg: pcg, tape: tape} })
	if d := tape.Diff(shared, local); d != "" {
		return &Failure{Property: "locality", Family: fam, Instance: in, Slot: tape.Step() + 1, Message: d}
	}
	return nil
}

// localityFamily runs the locality check on every listed instance of sh
// (the exhaustive, traffic and partial families; rapid's random instances
// are not re-run) and returns the first failure.
func localityFamily(newRouter func() pops.Router, sh pops.Shape, o Options) []Failure {
	for _, f := range families() {
		for k, p := range f.instances(sh, o) {
			in := Instance{Kind: "popstest", D: sh.D, G: sh.G, Perm: p, Seed: o.Seed + uint64(k)}
			if x := checkLocality(newRouter, in, f.name, o); x != nil {
				// The replay file records every property the instance
				// breaks, as a replay re-checks them all.
				quiet := o
				quiet.ReplayDir = "-"
				all := append(checkInstance(newRouter, in, f.name, quiet), *x)
				x.Replay = writeReplay(in, all, routerName(o, newRouter), o)
				return []Failure{*x}
			}
		}
	}
	return nil
}
