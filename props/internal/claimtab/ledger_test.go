package claimtab

import (
	"strings"
	"testing"

	"routecheck/props"
)

const sample = `# Claims of a made-up paper

Free text before the first record is a preamble: "- notes: x" here is not read.

## net/a
- source: 000.txt Lemma 1 ("quoted", with: a colon)
- statement: Every packet arrives.
- scope: n ≤ 8, trailing words kept exactly
- kind: bound
- class: reading
- recorded: violated

## net/b
- notes:  two leading spaces stay
`

// TestLedgerText: Text fills exactly the fields a record gives, keeps the
// claim's other fields, and Unused lists the records no claim took.
func TestLedgerText(t *testing.T) {
	l, err := Parse("sample.md", sample)
	if err != nil {
		t.Fatal(err)
	}
	if got := l.Unused(); strings.Join(got, ",") != "net/a,net/b" {
		t.Fatalf("Unused before any Text = %v, want [net/a net/b]", got)
	}
	a := l.Text(props.Claim{ID: "net/a", Notes: "computed in Go", SlowInShort: true})
	want := props.Claim{ID: "net/a", Source: `000.txt Lemma 1 ("quoted", with: a colon)`, Statement: "Every packet arrives.",
		Scope: "n ≤ 8, trailing words kept exactly", Notes: "computed in Go", Kind: props.Bound, Class: props.Reading, Recorded: props.Violated, SlowInShort: true}
	if a.ID != want.ID || a.Source != want.Source || a.Statement != want.Statement || a.Scope != want.Scope || a.Notes != want.Notes ||
		a.Kind != want.Kind || a.Class != want.Class || a.Recorded != want.Recorded || !a.SlowInShort {
		t.Errorf("Text(net/a) = %+v, want %+v", a, want)
	}
	if got := l.Unused(); strings.Join(got, ",") != "net/b" {
		t.Errorf("Unused after net/a = %v, want [net/b]", got)
	}
	if b := l.Text(props.Claim{ID: "net/b", Statement: "in Go", Recorded: props.Holds}); b.Notes != " two leading spaces stay" || b.Statement != "in Go" || b.Source != "" || b.Recorded != props.Holds || b.Kind != "" {
		t.Errorf("Text(net/b) = %+v", b)
	}
	if got := l.Unused(); len(got) != 0 {
		t.Errorf("Unused after both = %v, want none", got)
	}
}

// TestLedgerCRLF: a ledger checked out with CRLF line ends reads as the
// same records (a CR would otherwise end every ID and value).
func TestLedgerCRLF(t *testing.T) {
	l, err := Parse("crlf.md", strings.ReplaceAll(sample, "\n", "\r\n"))
	if err != nil {
		t.Fatal(err)
	}
	a := l.Text(props.Claim{ID: "net/a"})
	if a.Statement != "Every packet arrives." || a.Recorded != props.Violated {
		t.Errorf("CRLF ledger: %+v", a)
	}
}

// TestLedgerTextPanics: a claim with no record, or a field given both in Go
// and in the file, is a programmer error.
func TestLedgerTextPanics(t *testing.T) {
	l, err := Parse("sample.md", sample)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []props.Claim{{ID: "net/none"}, {ID: "net/a", Scope: "also in Go"}, {ID: "net/a", Recorded: props.Holds}} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.HasPrefix(r.(string), "claimtab: ") {
					t.Errorf("Text(%+v) recovered %v, want a claimtab panic", c, r)
				}
			}()
			l.Text(c)
		}()
	}
}

// TestParseErrors: each malformed file is refused with its line number.
func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"## a\n- verdict: holds\n", "f.md:2: want"},
		{"## a\n- notes x\n", "f.md:2: want"},
		{"## a\n- notes: x\n- notes: y\n", "f.md:3: field notes given twice"},
		{"## a\n\n## a\n", "f.md:3: claim a has two records"},
		{"## a\nstray\n", "f.md:2: inside a record"},
		{"##  a\n", "f.md:1: a record's heading"},
		{"## a\n- recorded: true\n", `f.md:2: recorded "true": want one of holds, violated`},
		{"## a\n- kind: Bound\n", `f.md:2: kind "Bound": want one of invariant`},
		{"## a\n- class: papers\n", `f.md:2: class "papers": want one of paper`},
	} {
		_, err := Parse("f.md", tc.text)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("Parse(%q) error %v, want prefix %q", tc.text, err, tc.want)
		}
	}
}
