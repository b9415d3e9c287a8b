package pops

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/commands"

	mpops "routecheck/models/pops"
	"routecheck/oracles/popsnaive"
)

var pmGopterSeed = flag.Int64("popsmodel.gopter.seed", 0,
	"seed of TestPopsModelCommands (0: a new one each run, printed on failure)")

// pmCmdModel is the gopter model state: the reference (popsnaive) state
// after the last command, the state before it, and the reference outcome of
// the last command.
type pmCmdModel struct {
	S, Prev mpops.State
	Out     PopsModelOutcome
}

func (m *pmCmdModel) String() string { return PopsModelFormatState(m.S) }

// pmCmdSUT is the system under test: a network state stepped by step.
type pmCmdSUT struct {
	s    mpops.State
	step pmStepFunc
}

// pmCmdResult is what running a command on the system under test gives.
type pmCmdResult struct {
	Out      PopsModelOutcome
	After    mpops.State // the SUT's state after the command
	Panicked any
}

// pmCmd is one slot: an action vector generated for the model state genFor.
type pmCmd struct {
	acts   []mpops.Action
	kind   PopsModelActionKind
	genFor mpops.State
}

func (c *pmCmd) Run(sut commands.SystemUnderTest) commands.Result {
	m := sut.(*pmCmdSUT)
	out, p := PopsModelStepOutcome(m.step, m.s, c.acts)
	if p == nil && out.Err == nil {
		m.s = out.State
	}
	return pmCmdResult{Out: out, After: m.s.Clone(), Panicked: p}
}

func (c *pmCmd) NextState(st commands.State) commands.State {
	m := st.(*pmCmdModel)
	out, p := PopsModelStepOutcome(popsnaive.Step, m.S, c.acts)
	if p != nil {
		panic(fmt.Sprintf("props: popsnaive.Step panicked: %v", p))
	}
	next := &pmCmdModel{S: m.S, Prev: m.S, Out: out}
	if out.Err == nil {
		next.S = out.State
	}
	return next
}

// PreCondition accepts every state: whatever state a (shrunk) sequence
// reaches, both implementations must agree on the command, legal or not.
func (c *pmCmd) PreCondition(commands.State) bool { return true }

func (c *pmCmd) PostCondition(st commands.State, res commands.Result) *gopter.PropResult {
	m, r := st.(*pmCmdModel), res.(pmCmdResult)
	fail := func(format string, args ...any) *gopter.PropResult {
		msg := fmt.Sprintf(format+"\n  state before: %s\n  command: %s", append(args, PopsModelFormatState(m.Prev), c)...)
		return &gopter.PropResult{Status: gopter.PropFalse, Labels: []string{msg}}
	}
	if r.Panicked != nil {
		return fail("models/pops.Step panicked: %v", r.Panicked)
	}
	// The legality the generator promised only holds in the state the
	// command was generated for (shrinking may replay it elsewhere).
	if m.Prev.Equal(c.genFor) {
		switch {
		case c.kind == PopsModelLegal && r.Out.Err != nil:
			return fail("legal actions rejected: %v", r.Out.Err)
		case c.kind == PopsModelIllegal && (r.Out.Err == nil || m.Out.Err == nil):
			return fail("illegal actions accepted (models/pops err %v, popsnaive err %v)", r.Out.Err, m.Out.Err)
		}
	}
	if d := PopsModelCompare(r.Out, m.Out); d != "" {
		return fail("%s", d)
	}
	if !r.After.Equal(m.S) {
		return fail("system state %s, reference state %s", PopsModelFormatState(r.After), PopsModelFormatState(m.S))
	}
	if r.Out.Err == nil {
		if err := mpops.CheckInvariants(r.After); err != nil {
			return fail("next state fails CheckInvariants: %v\n  next: %s", err, PopsModelFormatState(r.After))
		}
	}
	return &gopter.PropResult{Status: gopter.PropTrue}
}

func (c *pmCmd) String() string { return fmt.Sprintf("%s %s", c.kind, PopsModelFormatActions(c.acts)) }

// pmCommands is the gopter commands definition: random initial states of
// small POPS networks, and random legal (4/6), illegal (1/6) and raw (1/6)
// action vectors for the current reference state. The system under test
// steps with step.
func pmCommands(step pmStepFunc) *commands.ProtoCommands {
	choices := func(params *gopter.GenParameters) PopsModelChoices {
		return PopsModelRandChoices(rand.New(rand.NewPCG(params.NextUint64(), pmSeedSalt)))
	}
	return &commands.ProtoCommands{
		NewSystemUnderTestFunc: func(initial commands.State) commands.SystemUnderTest {
			return &pmCmdSUT{s: initial.(*pmCmdModel).S.Clone(), step: step}
		},
		InitialStateGen: func(params *gopter.GenParameters) *gopter.GenResult {
			s := PopsModelInitialStateWith(choices(params))
			return gopter.NewGenResult(&pmCmdModel{S: s, Prev: s}, gopter.NoShrinker)
		},
		GenCommandFunc: func(st commands.State) gopter.Gen {
			m := st.(*pmCmdModel)
			return func(params *gopter.GenParameters) *gopter.GenResult {
				acts, kind := PopsModelActionsWith(choices(params), m.S)
				var cmd commands.Command = &pmCmd{acts: acts, kind: kind, genFor: m.S.Clone()}
				return gopter.NewGenResult(cmd, gopter.NoShrinker)
			}
		},
	}
}

// pmRunCommands checks step against popsnaive with gopter and returns
// whether every sequence agreed, and the reporter's output.
func pmRunCommands(step pmStepFunc, seed int64, sequences, maxLen int) (bool, string) {
	params := gopter.DefaultTestParametersWithSeed(seed)
	params.MinSuccessfulTests = sequences
	params.MaxSize = maxLen
	params.MaxShrinkCount = 200
	properties := gopter.NewProperties(params)
	properties.Property("models/pops agrees with oracles/popsnaive slot by slot", commands.Prop(pmCommands(step)))
	var out strings.Builder
	ok := properties.Run(gopter.NewFormatedReporter(true, 120, &out))
	return ok, out.String()
}

// TestPopsModelCommands drives models/pops slot by slot against the
// reference model oracles/popsnaive: after every command the two must agree
// on acceptance, next state and events, and an accepted command's next state
// must pass pops.CheckInvariants (long sequences accept packets again at
// their destination, and those states must pass too).
func TestPopsModelCommands(t *testing.T) {
	seed := *pmGopterSeed
	if seed == 0 {
		seed = time.Now().UnixNano()
	}
	sequences, maxLen := 2000, 30
	if testing.Short() {
		sequences = 200
	}
	ok, out := pmRunCommands(mpops.Step, seed, sequences, maxLen)
	if !ok {
		t.Fatalf("%s\nreplay: go test ./props -run '^TestPopsModelCommands$' -popsmodel.gopter.seed=%d", out, seed)
	}
	t.Log(strings.TrimSpace(out))
}

// TestPopsModelCommandsCatchBrokenStep shows the commands test can fail: a
// step that forgets conflicts, or accepts illegal actions, is caught.
func TestPopsModelCommandsCatchBrokenStep(t *testing.T) {
	for _, m := range pmMutants() {
		if m.name != "forgets conflicts" && m.name != "accepts illegal actions" {
			continue
		}
		t.Run(m.name, func(t *testing.T) {
			ok, out := pmRunCommands(m.step(), 1, 100, 15)
			if ok {
				t.Fatalf("the commands test passed a broken step:\n%s", out)
			}
			t.Logf("caught:\n%s", pmFirstLines(out, 6))
		})
	}
}

func pmFirstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}
