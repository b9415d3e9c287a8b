package mesh

import (
	"bytes"
	"compress/gzip"
	"embed"
	"fmt"
	"io"
	"path"
	"strings"

	amesh "routecheck/algos/mesh"
)

// savedFS holds the saved k-k cases the claims replay: hunt results and
// the hand-built Theorem 1 case, as kkFiles, some gzipped.
//
//go:embed testdata
var savedFS embed.FS

// savedCase is a k-k case saved under testdata, named by the path the
// evidence gives it (props/mesh/testdata/…; Theorem 1's cases keep their
// older props/testdata/… names). The file read is testdata/ and the base
// name, gzipped when the name ends in .gz.
type savedCase struct {
	file string
}

// json is the case's JSON, gunzipped where the file is.
func (c savedCase) json() ([]byte, error) {
	raw, err := savedFS.ReadFile("testdata/" + path.Base(c.file))
	if err != nil || !strings.HasSuffix(c.file, ".gz") {
		return raw, err
	}
	z, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(z)
}

// parse is parseKKFile of the case's JSON; errors do not name the file.
func (c savedCase) parse() (n, k int, d [][]amesh.Dest, err error) {
	raw, err := c.json()
	if err != nil {
		return 0, 0, nil, err
	}
	return parseKKFile(raw)
}

// huntedKK is a saved hunted k-k distribution, parsed, and its file.
type huntedKK struct {
	file string
	n, k int
	dst  [][]amesh.Dest
}

// parseSaved parses every case in order; the first error is returned
// with its file.
func parseSaved(cases []savedCase) ([]huntedKK, error) {
	var out []huntedKK
	for _, c := range cases {
		n, k, d, err := c.parse()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", c.file, err)
		}
		out = append(out, huntedKK{c.file, n, k, d})
	}
	return out, nil
}
