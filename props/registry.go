package props

import (
	"encoding/json"
	"fmt"
	"math"
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
	// Slack is, for a bound, the worst observed value divided by the bound
	// (≤ 1 when the bound held); nil when the check reports none. Use
	// SlackOf to set it.
	Slack *float64
}

// NotJudged is a check that runs check and reports what it found, but is
// Inconclusive whatever that is, with why (a sentence that cannot be
// judged from the seeds, a test weaker than the statement): the figures
// stay in the ledger without a verdict that could not have come out the
// other way.
func NotJudged(why string, check func(Env) Outcome) func(Env) Outcome {
	return func(env Env) Outcome {
		o := check(env)
		return Outcome{Verdict: Inconclusive, Evidence: fmt.Sprintf("not judged: %s. Reported (%s): %s", why, o.Verdict, o.Evidence)}
	}
}

// SlackOf returns worst/bound for Outcome.Slack (nil when bound is 0).
func SlackOf(worst, bound float64) *float64 {
	if bound == 0 {
		return nil
	}
	s := worst / bound
	return &s
}

// ScopeClass says how a claim relates to its paper's stated assumptions.
// Only Paper and Reading findings are errata of a paper.
type ScopeClass string

// The scope classes.
const (
	// Paper: the statement as the paper makes it, inside its stated assumptions.
	Paper ScopeClass = "paper"
	// Reading: one of several readings of ambiguous text or pseudo-code, or
	// of text that disagrees with itself.
	Reading ScopeClass = "reading"
	// Beyond: deliberately outside the stated assumptions (including our
	// repaired variants and corrected formulas).
	Beyond ScopeClass = "beyond"
	// Construction: a property of a component we built where the paper
	// cites one (substitute halvers, padded networks, fast engines).
	Construction ScopeClass = "construction"
)

// ScopeClasses lists the classes in the order the ledger groups them.
var ScopeClasses = []ScopeClass{Paper, Reading, Beyond, Construction}

// Fault is a planted fault: the claim's own checker, at the same budget, run
// against an alternative under which the claim is false and which differs
// from the real thing as little as the claim allows (a mutant router or
// model, a bound scaled by a factor fixed in advance, a published value
// shifted by an effect size fixed in advance, one printed digit changed).
// The fault is caught when its Check reaches Violated or Inconsistent; a
// panic, an error or any other verdict is not a catch.
type Fault struct {
	Name  string
	Check func(Env) Outcome
	// Group joins faults that are the directions of one effect size for a
	// two-sided check (a published mean raised and lowered 5 %): they
	// give the claim power only together, when every fault of the group is
	// caught. One direction alone is caught whenever our sample happens to
	// lie on the other side of the published value, so it says nothing
	// about the check's power. "" is a fault on its own.
	Group string
}

// Power is one planted fault's result, as the ledger prints it. Its JSON
// keys (fault, caught, evidence) are an interface.
type Power struct {
	Fault    string `json:"fault"`
	Caught   bool   `json:"caught"`
	Evidence string `json:"evidence"`
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
	// RecordedAt overrides Recorded at the budgets it lists, where power
	// (or the check itself) differs between budgets; nil for most claims.
	RecordedAt map[Budget]Verdict
	// Notes explain ambiguities, disagreements and counterexamples.
	Notes string
	// Class is the claim's scope class; empty means the class recorded
	// for its ID in scopeClassOf (scope_classes.go), else Paper.
	Class ScopeClass
	Check func(Env) Outcome
	// SlowInShort marks a claim too slow for `go test -short` (more than
	// a few seconds at the small budget): TestClaims skips it there.
	SlowInShort bool
	// Faults are the planted faults the same checker must catch for a
	// Holds or Consistent verdict to stand (see Run).
	Faults []Fault
	// Mem estimates the claim's peak heap at each budget (what `routecheck
	// claims --mem-limit` schedules by); see MemFor for the zero entries.
	Mem MemEstimate
	// Shares names a computation the claim shares with other claims
	// through a memo (e.g. one POPS table cell's runs, read by the Table I
	// and Table II claims of that cell); empty for most claims. `routecheck
	// claims` never checks two claims with the same Shares at once, so the
	// later ones find the memo filled instead of holding a worker while
	// they wait. It changes only when claims run, never what they find.
	Shares string
}

// MemEstimate is a claim's peak heap in bytes at each budget, measured by
// running the claim (check and planted faults) alone; 0 means unknown.
type MemEstimate struct{ Small, Default, Large int64 }

// DefaultMem is the estimate of a claim that records none: it covers every
// claim measured below it (most claims peak under 64 MiB).
const DefaultMem int64 = 64 << 20

// MemFor is the claim's memory estimate at budget b: the Mem entry for b,
// else the one declared for its ID (DeclareMem), else DefaultMem.
func (c Claim) MemFor(b Budget) int64 {
	pick := func(m MemEstimate) int64 {
		switch b {
		case Small:
			return m.Small
		case Large:
			return m.Large
		}
		return m.Default
	}
	if v := pick(c.Mem); v > 0 {
		return v
	}
	if v := pick(declaredMem(c.ID)); v > 0 {
		return v
	}
	return DefaultMem
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
	for b, v := range c.RecordedAt {
		if !validVerdict(v) {
			panic(fmt.Sprintf("props: claim %q: recorded verdict %q at budget %s unknown", c.ID, v, b))
		}
	}
	if _, dup := byID[c.ID]; dup {
		panic(fmt.Sprintf("props: claim %q registered twice", c.ID))
	}
	if c.Class == "" {
		c.Class = scopeClassOf(c.ID)
	}
	if !validClass(c.Class) {
		panic(fmt.Sprintf("props: claim %q: scope class %q unknown", c.ID, c.Class))
	}
	if len(c.Faults) == 0 && (c.Recorded == Holds || c.Recorded == Consistent) {
		// A verdict that could not have come out the other way is not a
		// verdict (issue 9): until a planted fault is written for this
		// checker, the ledger records it inconclusive and says so.
		c.Notes = strings.TrimSpace(c.Notes + " " + fmt.Sprintf(unpoweredNote, c.Recorded))
		c.Recorded = Inconclusive
	}
	if len(c.Faults) == 0 {
		for b, v := range c.RecordedAt {
			if v == Holds || v == Consistent {
				c.RecordedAt[b] = Inconclusive
			}
		}
	}
	byID[c.ID] = len(registry)
	registry = append(registry, c)
}

// unpoweredNote explains a recorded verdict changed by the power rule.
const unpoweredNote = "[2026-11-23] Recorded %s before verdicts had to carry power; no planted fault is written for this checker yet, so the ledger records it inconclusive (its check's own verdict is kept as check_verdict)."

// RecordedFor is the verdict recorded for the claim at budget b.
func (c Claim) RecordedFor(b Budget) Verdict {
	if v, ok := c.RecordedAt[b]; ok {
		return v
	}
	return c.Recorded
}

func validClass(c ScopeClass) bool {
	for _, k := range ScopeClasses {
		if c == k {
			return true
		}
	}
	return false
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
// budget, seed and seconds; and (issue 9) scope_class, check_verdict (the
// check's own verdict before the power rule), power (one entry per planted
// fault tried) and slack (bounds: worst observed ÷ bound).
type Result struct {
	ID             string     `json:"id"`
	Source         string     `json:"source"`
	Statement      string     `json:"statement"`
	Scope          string     `json:"scope"`
	ScopeClass     ScopeClass `json:"scope_class"`
	Kind           Kind       `json:"kind"`
	Verdict        Verdict    `json:"verdict"`
	CheckVerdict   Verdict    `json:"check_verdict"`
	Evidence       string     `json:"evidence"`
	Counterexample any        `json:"counterexample"`
	Replay         string     `json:"replay"`
	Power          []Power    `json:"power"`
	Slack          *float64   `json:"slack,omitempty"`
	Recorded       Verdict    `json:"recorded"`
	Matches        bool       `json:"matches"`
	Notes          string     `json:"notes,omitempty"`
	Budget         string     `json:"budget"`
	Seed           uint64     `json:"seed"`
	Seconds        float64    `json:"seconds"`
	// MemEstimate is the claim's memory estimate at this budget, in bytes
	// (Claim.MemFor), by which `routecheck claims` schedules it.
	MemEstimate int64 `json:"mem_estimate"`
	// SlowRank is, in a `routecheck claims` run, the claim's rank among
	// the ten slowest (1 = slowest); 0 (omitted) for the others.
	SlowRank int `json:"slow_rank,omitempty"`
}

// Caught counts the planted faults caught.
func (r Result) Caught() int {
	k := 0
	for _, p := range r.Power {
		if p.Caught {
			k++
		}
	}
	return k
}

// ReplayCommand is the shell command that re-checks one claim with the same
// budget and seed.
func ReplayCommand(id string, env Env) string {
	return fmt.Sprintf("go run ./cmd/routecheck claims --filter '^%s$' --budget %s --seed %d", regexp.QuoteMeta(id), env.Budget, env.Seed)
}

// Run checks one claim, then applies the power rule: a Holds or Consistent
// verdict stands only when at least one of the claim's planted faults, run
// by the same checker at the same budget, is caught (a fault of a Group
// counts only when every fault of its group is caught); otherwise the verdict
// is Inconclusive ("no power …"), with the check's own verdict kept in
// CheckVerdict. Faults are not run for other verdicts (a Violated or
// Inconsistent verdict has already come out the other way). A panic inside
// the check becomes an Inconclusive verdict carrying the panic (a bug to
// fix, never a pass); a panic inside a fault's check is not a catch.
func Run(c Claim, env Env) (r Result) {
	start := time.Now()
	if c.Class == "" {
		c.Class = scopeClassOf(c.ID)
	}
	r = Result{
		ID: c.ID, Source: c.Source, Statement: c.Statement, Scope: c.Scope, ScopeClass: c.Class, Kind: c.Kind,
		Recorded: c.RecordedFor(env.Budget), Notes: c.Notes, Budget: env.Budget.String(), Seed: env.Seed,
		Replay: ReplayCommand(c.ID, env), Power: []Power{}, MemEstimate: c.MemFor(env.Budget),
	}
	crashed := false
	defer func() {
		// A check that crashes never matches the ledger, even where the
		// ledger records inconclusive: it must not hide there.
		r.Matches = r.Verdict == r.Recorded && !crashed
		r.Seconds = time.Since(start).Seconds()
		if r.Counterexample != nil {
			if _, err := json.Marshal(r.Counterexample); err != nil {
				r.Counterexample = fmt.Sprint(r.Counterexample)
			}
		}
	}()
	var o Outcome
	o, crashed = runCheck(c.Check, env)
	r.Verdict, r.CheckVerdict = o.Verdict, o.Verdict
	r.Evidence, r.Counterexample, r.Slack = strings.TrimSpace(o.Evidence), o.Counterexample, o.Slack
	if o.Verdict != Holds && o.Verdict != Consistent {
		return r
	}
	if len(c.Faults) == 0 {
		r.Verdict = Inconclusive
		r.Evidence = fmt.Sprintf("no power: no planted fault is written for this checker yet, so its %s cannot be told from a check that cannot fail. The check: %s", o.Verdict, r.Evidence)
		return r
	}
	var tried []string
	for _, f := range c.Faults {
		fo, _ := runCheck(f.Check, env)
		caught := fo.Verdict == Violated || fo.Verdict == Inconsistent
		r.Power = append(r.Power, Power{Fault: f.Name, Caught: caught, Evidence: fmt.Sprintf("%s: %s", fo.Verdict, strings.TrimSpace(fo.Evidence))})
		tried = append(tried, fmt.Sprintf("%s (%s)", f.Name, fo.Verdict))
	}
	if r.Caught() == 0 {
		r.Verdict = Inconclusive
		r.Evidence = fmt.Sprintf("no power at budget %s: none of %d planted faults caught — %s. The check (%s): %s", env.Budget, len(c.Faults), strings.Join(tried, "; "), o.Verdict, r.Evidence)
	} else if ok, partial := groupPower(c.Faults, r.Power); !ok {
		r.Verdict = Inconclusive
		r.Evidence = fmt.Sprintf("no power at budget %s: only part of a group of planted faults was caught (%s); a group's faults are the directions of one effect size and count only together, since one direction is caught whenever our sample lies on the other side of the published value — %s. The check (%s): %s", env.Budget, strings.Join(partial, "; "), strings.Join(tried, "; "), o.Verdict, r.Evidence)
	}
	return r
}

// groupPower reads the faults' results (pw, in the order of fs): powered
// when a fault with no Group, or every fault of some Group, is caught; and
// the groups caught only in part, in the order they first appear.
func groupPower(fs []Fault, pw []Power) (powered bool, partial []string) {
	var names []string
	caught, all := map[string]int{}, map[string]int{}
	for i, f := range fs {
		if f.Group == "" {
			powered = powered || pw[i].Caught
			continue
		}
		if all[f.Group] == 0 {
			names = append(names, f.Group)
		}
		all[f.Group]++
		if pw[i].Caught {
			caught[f.Group]++
		}
	}
	for _, g := range names {
		switch c := caught[g]; {
		case c == all[g]:
			powered = true
		case c > 0:
			partial = append(partial, fmt.Sprintf("%s: %d of %d", g, c, all[g]))
		}
	}
	return powered, partial
}

// runCheck runs a check, turning a panic into an Inconclusive outcome that
// carries the panic (and, unless it is a FalsifyError, the stack). A slack
// that is not a finite number (NaN or ±Inf: an error inside the check, e.g.
// 0/0 after an underflow) is a crash too: never a pass, and never a value
// the JSON ledger cannot encode.
func runCheck(check func(Env) Outcome, env Env) (o Outcome, crashed bool) {
	defer func() {
		if p := recover(); p != nil {
			o, crashed = Outcome{Verdict: Inconclusive}, true
			if fe, ok := p.(*FalsifyError); ok {
				o.Evidence = "check could not decide: " + fe.Error()
				return
			}
			o.Evidence = fmt.Sprintf("check panicked: %v\n%s", p, debug.Stack())
		}
	}()
	o = check(env)
	if o.Slack != nil && (math.IsNaN(*o.Slack) || math.IsInf(*o.Slack, 0)) {
		return Outcome{Verdict: Inconclusive, Evidence: fmt.Sprintf("check error: its slack is %v, not a finite number (its own verdict was %s): %s", *o.Slack, o.Verdict, strings.TrimSpace(o.Evidence))}, true
	}
	return o, false
}
