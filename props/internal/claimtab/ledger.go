package claimtab

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"routecheck/props"
)

// A Ledger holds what a network's ledger says of its claims — source,
// statement, scope, kind, scope class, recorded verdict and notes — read
// from a text file that sits beside the checks (each network package
// embeds its ledger.md), so that the Go files hold what runs and a reader
// of a paper finds its claims, with their verdicts, in one place. Text
// fills a claim's empty fields from the record of its ID; claims whose
// words are computed (sizes, tables, formatted numbers) keep them in Go.
// Every record must be used by some claim: Unused lists those that are
// not, and the ledger's test fails on them.
//
// The file format: anything before the first line that starts with "## " is
// a preamble for human readers. Each record starts with a line "## ID" and
// is followed by lines "- FIELD: VALUE" with FIELD one of source,
// statement, scope, notes (each at most once); VALUE is the rest of the
// line, kept exactly (no trimming, no escapes; a value never holds a line
// break). Blank lines may separate records. Anything else is an error.
type Ledger struct {
	name string
	recs map[string]map[string]string
	ids  []string // in file order

	mu   sync.Mutex
	used map[string]bool
}

var fields = []string{"source", "statement", "scope", "kind", "class", "recorded", "notes"}

// allowed lists the values of the fields that name a props constant.
var allowed = map[string][]string{
	"kind":     {string(props.Invariant), string(props.Exact), string(props.Bound), string(props.Statistical), string(props.LowerBound)},
	"class":    {string(props.Paper), string(props.Reading), string(props.Beyond), string(props.Construction)},
	"recorded": {string(props.Holds), string(props.Violated), string(props.Consistent), string(props.Inconsistent), string(props.Inconclusive)},
}

// Parse reads a ledger file's text; name (the file's path) prefixes errors.
func Parse(name, text string) (*Ledger, error) {
	l := &Ledger{name: name, recs: map[string]map[string]string{}, used: map[string]bool{}}
	var cur map[string]string
	for i, line := range strings.Split(text, "\n") {
		ln := i + 1
		line = strings.TrimSuffix(line, "\r") // a checkout with CRLF line ends
		switch {
		case strings.HasPrefix(line, "## "):
			id := line[3:]
			if id == "" || strings.TrimSpace(id) != id {
				return nil, fmt.Errorf("%s:%d: a record's heading must be \"## ID\" with no surrounding spaces", name, ln)
			}
			if _, dup := l.recs[id]; dup {
				return nil, fmt.Errorf("%s:%d: claim %s has two records", name, ln, id)
			}
			cur = map[string]string{}
			l.recs[id] = cur
			l.ids = append(l.ids, id)
		case cur == nil || line == "":
			// preamble, or a blank line between records
		case strings.HasPrefix(line, "- "):
			k, v, ok := strings.Cut(line[2:], ": ")
			if !ok || !isField(k) {
				return nil, fmt.Errorf("%s:%d: want \"- FIELD: VALUE\" with FIELD one of %s", name, ln, strings.Join(fields, ", "))
			}
			if _, dup := cur[k]; dup {
				return nil, fmt.Errorf("%s:%d: field %s given twice in record %s", name, ln, k, l.ids[len(l.ids)-1])
			}
			if vs, ok := allowed[k]; ok && !slices.Contains(vs, v) {
				return nil, fmt.Errorf("%s:%d: %s %q: want one of %s", name, ln, k, v, strings.Join(vs, ", "))
			}
			cur[k] = v
		default:
			return nil, fmt.Errorf("%s:%d: inside a record only \"- FIELD: VALUE\" lines and blank lines are allowed", name, ln)
		}
	}
	return l, nil
}

func isField(k string) bool {
	for _, f := range fields {
		if f == k {
			return true
		}
	}
	return false
}

var (
	ledgersMu sync.Mutex
	ledgers   []*Ledger
)

// MustParse is Parse for a package's embedded ledger: a malformed file is a
// programmer error and panics. The ledger is remembered for Ledgers.
func MustParse(name, text string) *Ledger {
	l, err := Parse(name, text)
	if err != nil {
		panic("claimtab: " + err.Error())
	}
	ledgersMu.Lock()
	ledgers = append(ledgers, l)
	ledgersMu.Unlock()
	return l
}

// Ledgers returns every ledger MustParse has read, in the order read.
func Ledgers() []*Ledger {
	ledgersMu.Lock()
	defer ledgersMu.Unlock()
	return append([]*Ledger(nil), ledgers...)
}

// Name is the ledger file's path as given to Parse.
func (l *Ledger) Name() string { return l.name }

// Text returns c with its empty Source, Statement, Scope, Kind, Class,
// Recorded and Notes filled from the record of c.ID. It panics (a programmer error) when the ledger
// has no record for c.ID or when a field is set both in c and in the
// record: a claim's words live in one place.
func (l *Ledger) Text(c props.Claim) props.Claim {
	rec, ok := l.recs[c.ID]
	if !ok {
		panic(fmt.Sprintf("claimtab: %s has no record for claim %s", l.name, c.ID))
	}
	l.mu.Lock()
	l.used[c.ID] = true
	l.mu.Unlock()
	fill := func(name string, dst *string) {
		v, ok := rec[name]
		if !ok {
			return
		}
		if *dst != "" {
			panic(fmt.Sprintf("claimtab: claim %s sets %s both in Go and in %s", c.ID, name, l.name))
		}
		*dst = v
	}
	fill("source", &c.Source)
	fill("statement", &c.Statement)
	fill("scope", &c.Scope)
	fill("notes", &c.Notes)
	kind, class, recorded := string(c.Kind), string(c.Class), string(c.Recorded)
	fill("kind", &kind)
	fill("class", &class)
	fill("recorded", &recorded)
	c.Kind, c.Class, c.Recorded = props.Kind(kind), props.ScopeClass(class), props.Verdict(recorded)
	return c
}

// Unused lists, sorted, the IDs of records no claim has taken with Text.
func (l *Ledger) Unused() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, id := range l.ids {
		if !l.used[id] {
			out = append(out, id)
		}
	}
	sort.Strings(out)
	return out
}
