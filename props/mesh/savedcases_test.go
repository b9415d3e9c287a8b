package mesh

import (
	"io/fs"
	"path"
	"slices"
	"testing"
)

// Every saved case of the claims' tables parses, and every file under
// testdata is one of them (none embedded for nothing); a case whose file
// is missing does not parse.
func TestSavedCasesParse(t *testing.T) {
	var used []string
	for _, cs := range [][]savedCase{lemma7Cases, thm1Cases, huntedFiles, huntedTimeCases} {
		for _, c := range cs {
			if n, k, d, err := c.parse(); err != nil || n < 1 || k < 1 || len(d) != n*n {
				t.Errorf("%s: n = %d, k = %d, %d PUs, %v", c.file, n, k, len(d), err)
			}
			used = append(used, path.Base(c.file))
		}
	}
	files, err := fs.Glob(savedFS, "testdata/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !slices.Contains(used, path.Base(f)) {
			t.Errorf("%s is embedded but no claim reads it", f)
		}
	}
	if _, _, _, err := (savedCase{"props/mesh/testdata/no-such-case.json"}).parse(); err == nil {
		t.Error("a missing file parsed")
	}
}
