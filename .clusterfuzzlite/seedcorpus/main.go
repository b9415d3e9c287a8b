// Command seedcorpus packs native Go fuzz seed corpora for libFuzzer: for
// every target named on the command line it reads the "go test fuzz v1"
// files in fuzz/testdata/fuzz/<target>/ (one []byte argument each) and
// writes their raw bytes into <out>/<target>_seed_corpus.zip, the name
// OSS-Fuzz and ClusterFuzzLite look for beside the fuzzer binary.
//
//	go run ./.clusterfuzzlite/seedcorpus OUTDIR FuzzMeshStep ...
package main

import (
	"archive/zip"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: seedcorpus OUTDIR TARGET...")
		os.Exit(2)
	}
	out := os.Args[1]
	for _, t := range os.Args[2:] {
		if err := pack(out, t); err != nil {
			fmt.Fprintln(os.Stderr, "seedcorpus:", err)
			os.Exit(1)
		}
	}
}

func pack(out, target string) error {
	files, err := filepath.Glob(filepath.Join("fuzz", "testdata", "fuzz", target, "*"))
	if err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(out, target+"_seed_corpus.zip"))
	if err != nil {
		return err
	}
	defer f.Close()
	z := zip.NewWriter(f)
	for _, name := range files {
		data, err := decode(name)
		if err != nil {
			return err
		}
		w, err := z.Create(filepath.Base(name))
		if err != nil {
			return err
		}
		if _, err := w.Write(data); err != nil {
			return err
		}
	}
	fmt.Printf("%s: %d seeds\n", target, len(files))
	return z.Close()
}

// decode reads a corpus file holding one []byte value.
func decode(name string) ([]byte, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 2 || lines[0] != "go test fuzz v1" {
		return nil, fmt.Errorf("%s: not a one-value go test fuzz v1 file", name)
	}
	v, ok := strings.CutPrefix(lines[1], "[]byte(")
	v, ok2 := strings.CutSuffix(v, ")")
	if !ok || !ok2 {
		return nil, fmt.Errorf("%s: not a []byte value", name)
	}
	s, err := strconv.Unquote(v)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return []byte(s), nil
}
