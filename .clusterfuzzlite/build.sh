#!/bin/bash -eu
# Builds routecheck's libFuzzer targets for ClusterFuzzLite (run by the
# OSS-Fuzz Go base builder in $SRC/routecheck; `make fuzz-libfuzzer` runs
# it here with a local compile_native_go_fuzzer).
#
# Every native fuzz target whose body is f.Fuzz(func(t *testing.T, data
# []byte)) with its own decoding is listed exactly once below;
# fuzz.TestBuildShListsTargets checks that. compile_native_go_fuzzer finds
# a target by grepping for its name, so no target name may be a prefix of
# another (checked there too). Targets that run rapid.MakeFuzz, and the
# conformance suites' targets in props/*test (external test packages that
# hand *testing.F to a library), are for `go test -fuzz` only.

# the testing shim compile_native_go_fuzzer rewrites the targets to use
go get github.com/AdamKorcz/go-118-fuzz-build/testing@v0.0.0-20250520111509-a70c2aa677fa

compile_native_go_fuzzer routecheck/fuzz FuzzPopsStep FuzzPopsStep
compile_native_go_fuzzer routecheck/fuzz FuzzPopsRouter FuzzPopsRouter
compile_native_go_fuzzer routecheck/fuzz FuzzMeshStep FuzzMeshStep
compile_native_go_fuzzer routecheck/fuzz FuzzMeshEngine FuzzMeshEngine
compile_native_go_fuzzer routecheck/fuzz FuzzButterflyStep FuzzButterflyStep
compile_native_go_fuzzer routecheck/fuzz FuzzButterflyEngine FuzzButterflyEngine
compile_native_go_fuzzer routecheck/fuzz FuzzMultiButterflyStep FuzzMultiButterflyStep
compile_native_go_fuzzer routecheck/fuzz FuzzMultiButterflyEngine FuzzMultiButterflyEngine
compile_native_go_fuzzer routecheck/fuzz FuzzExpanderSpectral FuzzExpanderSpectral
compile_native_go_fuzzer routecheck/fuzz FuzzSortnetEval01 FuzzSortnetEval01
compile_native_go_fuzzer routecheck/fuzz FuzzAKS FuzzAKS

# seed corpora: fuzz/testdata/fuzz/<target>/ as <target>_seed_corpus.zip
go run ./.clusterfuzzlite/seedcorpus "$OUT" \
  FuzzPopsStep FuzzPopsRouter FuzzMeshStep FuzzMeshEngine FuzzButterflyStep FuzzButterflyEngine \
  FuzzMultiButterflyStep FuzzMultiButterflyEngine FuzzExpanderSpectral FuzzSortnetEval01 FuzzAKS
