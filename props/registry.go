package props

import (
	"encoding/json"
	"fmt"
	"regexp"
	"runtime/debug"
	"strings"
	"sync"
	"time"
)

// Kind says how a claim is checked.
type Kind string

// The kinds of the design's claims table.
const (
	Invariant   Kind = "invariant"
	Exact       Kind = "exact"
	Bound       Kind = "bound"
	Statistical Kind = "statistical"
	LowerBound  Kind = "lower-bound"
)

// Verdict is the outcome of checking a claim.
type Verdict string

// The verdicts. Holds/Violated answer invariants, exact values, bounds and
// lower bounds; Consistent/Inconsistent answer statistical claims;
// Inconclusive means the check could not decide at this budget.
const (
	Holds        Verdict = "holds"
	Violated     Verdict = "violated"
	Consistent   Verdict = "consistent"
	Inconsistent Verdict = "inconsistent"
	Inconclusive Verdict = "inconclusive"
)

// Budget scales the work a check does.
type Budget int

// The budgets: Small for `go test ./props` (seconds per claim at most),
// Default for `routecheck claims`, Large for long runs.
const (
	Small Budget = iota
	Default
	Large
)

var budgetNames = []string{"small", "default", "large"}

func (b Budget) String() string {
	if int(b) < len(budgetNames) && b >= 0 {
		return budgetNames[b]
	}
	return fmt.Sprintf("Budget(%d)", int(b))
}

// ParseBudget parses small, default or large.
func ParseBudget(s string) (Budget, error) {
	for i, n := range budgetNames {
		if s == n {
			return Budget(i), nil
		}
	}
	return 0, fmt.Errorf("budget %q: allowed values are small, default, large", s)
}

// Pick returns the value for the budget.
func (b Budget) Pick(small, def, large int) int {
	switch b {
	case Small:
		return small
	case Large:
		return large
	}
	return def
}

// DefaultSeed is the ledger's seed: every recorded verdict is the one the
// checks reach from it (go test ./props uses it too).
const DefaultSeed = 20261122

// Env is what a check may use: its budget, a seed from which every random
// choice derives, and an optional progress sink (stderr in the CLI).
type Env struct {
	Budget   Budget
	Seed     uint64
	Progress func(format string, args ...any)
}

// Logf reports progress when a sink is set.
func (e Env) Logf(format string, args ...any) {
	if e.Progress != nil {
		e.Progress(format, args...)
	}
}

// Outcome is what a check found.
type Outcome struct {
	Verdict  Verdict
	Evidence string
	// Counterexample is nil or the minimal instance (JSON-marshalable).
	Counterexample any
}

// Claim is one checkable statement.
type Claim struct {
	ID        string
	Source    string // seed file and statement, e.g. "000_de3be866f009217f.txt Proposition 3.2"
	Statement string
	Scope     string
	Kind      Kind
	// Recorded is the verdict written in the ledger; Check must reproduce it.
	Recorded Verdict
	// Notes explain ambiguities, disagreements and counterexamples.
	Notes string
	Check func(Env) Outcome
}

var (
	regMu    sync.Mutex
	registry []Claim
	byID     = map[string]int{}
)

// Register adds a claim; it panics on a duplicate or malformed claim (a
// programmer error at init time).
func Register(c Claim) {
	regMu.Lock()
	defer regMu.Unlock()
	switch {
	case c.ID == "" || c.Check == nil || c.Source == "" || c.Statement == "" || c.Kind == "":
		panic(fmt.Sprintf("props: claim %q is missing a field", c.ID))
	case !validVerdict(c.Recorded):
		panic(fmt.Sprintf("props: claim %q: recorded verdict %q unknown", c.ID, c.Recorded))
	}
	if _, dup := byID[c.ID]; dup {
		panic(fmt.Sprintf("props: claim %q registered twice", c.ID))
	}
	byID[c.ID] = len(registry)
	registry = append(registry, c)
}

func validVerdict(v Verdict) bool {
	switch v {
	case Holds, Violated, Consistent, Inconsistent, Inconclusive:
		return true
	}
	return false
}

// Claims returns the registered claims whose ID matches the regular
// expression filter (all for ""), in registration order.
func Claims(filter string) ([]Claim, error) {
	re, err := regexp.Compile(filter)
	if err != nil {
		return nil, fmt.Errorf("filter %q: not a regular expression: %v", filter, err)
	}
	regMu.Lock()
	defer regMu.Unlock()
	var out []Claim
	for _, c := range registry {
		if re.MatchString(c.ID) {
			out = append(out, c)
		}
	}
	return out, nil
}

// Result is a checked claim, as the ledger prints it. Its JSON keys are an
// interface (see cmd/routecheck): id, source, statement, scope, kind,
// verdict, evidence, counterexample, replay; plus recorded, matches, notes,
// budget, seed and seconds.
type Result struct {
	ID             string  `json:"id"`
	Source         string  `json:"source"`
	Statement      string  `json:"statement"`
	Scope          string  `json:"scope"`
	Kind           Kind    `json:"kind"`
	Verdict        Verdict `json:"verdict"`
	Evidence       string  `json:"evidence"`
	Counterexample any     `json:"counterexample"`
	Replay         string  `json:"replay"`
	Recorded       Verdict `json:"recorded"`
	Matches        bool    `json:"matches"`
	Notes          string  `json:"notes,omitempty"`
	Budget         string  `json:"budget"`
	Seed           uint64  `json:"seed"`
	Seconds        float64 `json:"seconds"`
}

// ReplayCommand is the shell command that re-checks one claim with the same
// budget and seed.
func ReplayCommand(id string, env Env) string {
	return fmt.Sprintf("go run ./cmd/routecheck claims --filter '^%s$' --budget %s --seed %d", regexp.QuoteMeta(id), env.Budget, env.Seed)
}

// Run checks one claim. A panic inside the check becomes an Inconclusive
// verdict carrying the panic and stack (a bug to fix, never a pass).
func Run(c Claim, env Env) (r Result) {
	start := time.Now()
	r = Result{
		ID: c.ID, Source: c.Source, Statement: c.Statement, Scope: c.Scope, Kind: c.Kind,
		Recorded: c.Recorded, Notes: c.Notes, Budget: env.Budget.String(), Seed: env.Seed,
		Replay: ReplayCommand(c.ID, env),
	}
	defer func() {
		if p := recover(); p != nil {
			r.Verdict = Inconclusive
			r.Evidence = fmt.Sprintf("check panicked: %v\n%s", p, debug.Stack())
		}
		r.Matches = r.Verdict == r.Recorded
		r.Seconds = time.Since(start).Seconds()
		if r.Counterexample != nil {
			if _, err := json.Marshal(r.Counterexample); err != nil {
				r.Counterexample = fmt.Sprint(r.Counterexample)
			}
		}
	}()
	o := c.Check(env)
	r.Verdict, r.Evidence, r.Counterexample = o.Verdict, strings.TrimSpace(o.Evidence), o.Counterexample
	return r
}
