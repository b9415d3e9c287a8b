package fuzz

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// fuzzDecl is a native fuzz target found in the module's sources.
type fuzzDecl struct {
	name, pkg, file string
	// byteBody: the file's package is not an external test package and the
	// target calls f.Fuzz with a func(*testing.T, []byte), a literal or a
	// function of the same file, not rapid.MakeFuzz or a library helper:
	// what compile_native_go_fuzzer (go-118-fuzz-build) can build.
	byteBody bool
}

// TestBuildShListsTargets checks .clusterfuzzlite/build.sh against the
// module: it lists every fuzz target the libFuzzer build path can compile
// (see fuzzDecl.byteBody) exactly once, with its own package and the
// target's name as the fuzzer's, and nothing else; the seed corpus line
// packs the same targets, each with a non-empty testdata/fuzz/<target>/;
// and no fuzz target name in the module is a prefix of another (the build
// finds a target by grepping for its name).
func TestBuildShListsTargets(t *testing.T) {
	decls := moduleFuzzTargets(t, "..")
	if len(decls) == 0 {
		t.Fatal("no fuzz targets found in the module")
	}
	var names []string
	buildable := map[string]fuzzDecl{}
	for _, d := range decls {
		names = append(names, d.name)
		if d.byteBody {
			buildable[d.name] = d
		}
	}
	sort.Strings(names)
	for i, a := range names {
		for _, b := range names[i+1:] {
			if strings.HasPrefix(b, a) {
				t.Errorf("fuzz target %s is a prefix of %s", a, b)
			}
		}
	}

	listed, seeded := parseBuildSh(t, filepath.Join("..", ".clusterfuzzlite", "build.sh"))
	seen := map[string]bool{}
	for _, l := range listed {
		fn, pkg, fuzzer := l[1], l[0], l[2]
		if seen[fn] {
			t.Errorf("build.sh lists %s twice", fn)
		}
		seen[fn] = true
		d, ok := buildable[fn]
		switch {
		case !ok && slices.Contains(names, fn):
			t.Errorf("build.sh lists %s, which the libFuzzer build cannot compile (not a []byte body in a non-external test package)", fn)
		case !ok:
			t.Errorf("build.sh lists %s, not a fuzz target of the module", fn)
		case d.pkg != pkg:
			t.Errorf("build.sh builds %s from %s, declared in %s", fn, pkg, d.pkg)
		case fuzzer != fn:
			t.Errorf("build.sh names the fuzzer of %s %q (want the target's name)", fn, fuzzer)
		}
	}
	for fn, d := range buildable {
		if !seen[fn] {
			t.Errorf("build.sh does not list %s (%s)", fn, d.file)
		}
	}
	want := slices.Sorted(func(yield func(string) bool) {
		for fn := range buildable {
			if !yield(fn) {
				return
			}
		}
	})
	got := slices.Clone(seeded)
	sort.Strings(got)
	if !slices.Equal(got, want) {
		t.Errorf("build.sh packs seed corpora for %v, want %v", got, want)
	}
	for _, fn := range want {
		dir := filepath.Join("..", strings.TrimPrefix(buildable[fn].pkg, "routecheck/"), "testdata", "fuzz", fn)
		if es, err := os.ReadDir(dir); err != nil || len(es) == 0 {
			t.Errorf("%s: no seed corpus in %s", fn, dir)
		}
	}
}

// parseBuildSh returns build.sh's compile_native_go_fuzzer lines as
// (package, function, fuzzer) and the targets of its seedcorpus command.
func parseBuildSh(t *testing.T, path string) (listed [][3]string, seeded []string) {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(string(b), "\\\n", " ")
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 0 || strings.HasPrefix(f[0], "#"):
		case f[0] == "compile_native_go_fuzzer":
			if len(f) != 4 {
				t.Fatalf("build.sh: %q: want compile_native_go_fuzzer PACKAGE FUNCTION FUZZER", line)
			}
			listed = append(listed, [3]string{f[1], f[2], f[3]})
		case len(f) > 3 && f[0] == "go" && f[1] == "run" && f[2] == "./.clusterfuzzlite/seedcorpus":
			seeded = append(seeded, f[4:]...)
		}
	}
	return listed, seeded
}

// moduleFuzzTargets parses every _test.go file of the module rooted at
// root and returns its fuzz targets.
func moduleFuzzTargets(t *testing.T, root string) []fuzzDecl {
	var out []fuzzDecl
	err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			if n := e.Name(); path != root && (strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_") || n == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := "routecheck"
		if rel != "." {
			pkg += "/" + filepath.ToSlash(rel)
		}
		funcs := map[string]*ast.FuncDecl{}
		for _, d := range file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
				funcs[fd.Name.Name] = fd
			}
		}
		for name, fd := range funcs {
			if !strings.HasPrefix(name, "Fuzz") || !isParam(fd.Type, 0, "*testing.F") || fd.Type.Params.NumFields() != 1 {
				continue
			}
			d := fuzzDecl{name: name, pkg: pkg, file: path}
			d.byteBody = !strings.HasSuffix(file.Name.Name, "_test") && fuzzesBytes(fd, funcs)
			out = append(out, d)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// fuzzesBytes reports whether fd calls f.Fuzz with a func(*testing.T,
// []byte): a function literal or a function declared in the same file.
func fuzzesBytes(fd *ast.FuncDecl, funcs map[string]*ast.FuncDecl) bool {
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) != 1 {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Fuzz" {
			return true
		}
		var ft *ast.FuncType
		switch a := call.Args[0].(type) {
		case *ast.FuncLit:
			ft = a.Type
		case *ast.Ident:
			if g := funcs[a.Name]; g != nil {
				ft = g.Type
			}
		}
		if ft != nil && ft.Params.NumFields() == 2 && isParam(ft, 0, "*testing.T") && isParam(ft, 1, "[]byte") {
			found = true
		}
		return true
	})
	return found
}

// isParam reports whether parameter i of ft has type typ (as written).
func isParam(ft *ast.FuncType, i int, typ string) bool {
	k := 0
	for _, field := range ft.Params.List {
		n := max(len(field.Names), 1)
		if i < k+n {
			return exprString(field.Type) == typ
		}
		k += n
	}
	return false
}

func exprString(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.StarExpr:
		return "*" + exprString(e.X)
	case *ast.SelectorExpr:
		return exprString(e.X) + "." + e.Sel.Name
	case *ast.ArrayType:
		if e.Len == nil {
			return "[]" + exprString(e.Elt)
		}
	}
	return "?"
}
