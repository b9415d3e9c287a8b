package mbfly

import (
	"fmt"
	"strings"

	amb "routecheck/algos/multibutterfly"
	"routecheck/internal/seeds"
	"routecheck/models/bipartite"
	"routecheck/models/expander"
	"routecheck/props"
)

// Theorem 4.2 of 004_8aa7b4c265a7324b.txt: degree 3 by cycle simulation
// (algos/multibutterfly.SimulateCycles).

func init() {
	registerThm42()
}

// thm42Graphs are the H the claims simulate: random d-regular bipartite
// graphs (d = 2, 4, 8, 16; 8 or 16 vertices a side) and the explicit MGG
// splitter on 32 inputs as a 16-regular graph (inputs against both output
// sets), each with a König colouring.
func thm42Graphs(env props.Env) ([]string, []expander.Graph, [][][]int32, error) {
	var names []string
	var gs []expander.Graph
	var cols [][][]int32
	add := func(name string, g expander.Graph) error {
		mg := bipartite.Multigraph{L: g.NA, R: g.NB}
		for a, l := range g.Adj {
			for _, b := range l {
				mg.Edges = append(mg.Edges, bipartite.Edge{U: int32(a), V: b})
			}
		}
		col, err := bipartite.Colour(mg)
		if err != nil {
			return err
		}
		c := make([][]int32, g.NA)
		k := 0
		for a, l := range g.Adj {
			c[a] = col[k : k+len(l)]
			k += len(l)
		}
		names, gs, cols = append(names, name), append(gs, g), append(cols, c)
		return nil
	}
	for _, d := range []int{2, 4, 8, 16} {
		for _, h := range []int{8, 16}[:env.Budget.Pick(1, 2, 2)] {
			if err := add(fmt.Sprintf("random d=%d h=%d", d, h), expander.RandomRegular(h, d, seeds.Rand(env.Seed, 0x4242, uint64(d), uint64(h)))); err != nil {
				return nil, nil, nil, err
			}
		}
	}
	sp, err := expander.MGGSplitter(32)
	if err != nil {
		return nil, nil, nil, err
	}
	g := expander.Graph{NA: 32, NB: 32, Adj: make([][]int32, 32)}
	for _, e := range sp.Edges() {
		b := e.Out
		if e.Lower {
			b += 16
		}
		g.Adj[e.In] = append(g.Adj[e.In], b)
	}
	if err := add("MGG splitter m=32 (2d = 16)", g); err != nil {
		return nil, nil, nil, err
	}
	return names, gs, cols, nil
}

// thm42Check simulates sched on every graph and checks the theorem's
// promises: degree 3, 2 steps per phase (2d per iteration), at most one
// active line per vertex per step, every process meeting each neighbour
// once.
func thm42Check(sched amb.CycleSchedule) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		names, gs, cols, err := thm42Graphs(env)
		if err != nil {
			return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
		}
		var ev []string
		for i, g := range gs {
			r, err := amb.SimulateCycles(g, cols[i], sched)
			if err != nil {
				return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("%s, %s schedule: %v", names[i], sched.Name, err), Counterexample: map[string]any{"graph": names[i], "schedule": sched.Name}}
			}
			dA, _, _ := g.Biregular()
			if r.Degree > 3 || r.Steps != 2*dA || r.MaxLines > 1 || r.Missed != "" {
				return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("%s, %s schedule: degree %d, %d steps for d = %d, up to %d active lines at a vertex in one step, %s", names[i], sched.Name, r.Degree, r.Steps, dA, r.MaxLines, r.Missed), Counterexample: map[string]any{"graph": names[i], "schedule": sched.Name, "max_lines": r.MaxLines, "missed": r.Missed}}
			}
			ev = append(ev, fmt.Sprintf("%s: %d steps", names[i], r.Steps))
		}
		return props.Outcome{Verdict: props.Holds, Evidence: sched.Name + " schedule: " + strings.Join(ev, "; ")}
	}
}

func registerThm42() {
	props.Register(ledger.Text(props.Claim{
		ID:    "mbfly/thm-4.2/cycle-simulation-literal",
		Check: thm42Check(amb.RotateSchedule),
	}))
	props.Register(ledger.Text(props.Claim{
		ID:    "mbfly/thm-4.2/cycle-simulation-zigzag",
		Check: thm42Check(amb.ZigzagSchedule),
		Faults: []props.Fault{
			{Name: "the literal rotation v_j → v_{j+1}", Check: thm42Check(amb.RotateSchedule)},
			{Name: "processes never move", Check: thm42Check(amb.CycleSchedule{Name: "stay", Lines: func(int, int) [][2]int { return nil }})},
		},
	}))
}
