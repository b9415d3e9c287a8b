#!/bin/bash -eu
# Runs .clusterfuzzlite/build.sh outside the OSS-Fuzz image, the way the
# image would, and then every fuzzer it built for FUZZTIME seconds: what
# `make fuzz-libfuzzer` does. It needs go-118-fuzz-build on PATH (or in
# $(go env GOPATH)/bin) and clang. The build rewrites sources and go.mod,
# so it works on a copy of the module in a temporary directory.
#
#	.clusterfuzzlite/local.sh [FUZZTIME]    (10, 10s, 2m or 1h; default 10s)
fuzztime=${1:-10s}
case $fuzztime in
*h) fuzztime=$((${fuzztime%h} * 3600)) ;;
*m) fuzztime=$((${fuzztime%m} * 60)) ;;
*s) fuzztime=${fuzztime%s} ;;
esac
[[ $fuzztime =~ ^[0-9]+$ ]] || { echo "local.sh: FUZZTIME must be N, Ns, Nm or Nh" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
export PATH="$PATH:$(go env GOPATH)/bin"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SRC="$work/src" OUT="$work/out"
mkdir -p "$SRC/routecheck" "$OUT"
(cd "$root" && tar --exclude=./.git --exclude=./out -cf - .) | tar -xf - -C "$SRC/routecheck"

# compile_native_go_fuzzer PACKAGE FUNCTION FUZZER, as in OSS-Fuzz's
# base-builder: find the file declaring func FUNCTION(f *testing.F) by
# grepping for the name (a name that prefixes another is ambiguous here),
# build it with go-118-fuzz-build and link it with libFuzzer.
compile_native_go_fuzzer() {
	local path=$1 function=$2 fuzzer=$3
	local dir files
	dir=$(go list -tags gofuzz -f '{{.Dir}}' "$path")
	files=$(grep -r -l --include='*.go' -s "$function" "$dir")
	# shellcheck disable=SC2086
	if [ "$(grep "func $function" $files | grep -c 'testing.F')" -ne 1 ]; then
		echo "compile_native_go_fuzzer: cannot find func $function(f *testing.F) in $path" >&2
		return 1
	fi
	echo "== building $fuzzer"
	go-118-fuzz-build -tags gofuzz -o "$work/$fuzzer.a" -func "$function" "$dir"
	clang -fsanitize=fuzzer "$work/$fuzzer.a" -o "$OUT/$fuzzer"
}

cd "$SRC/routecheck"
start=$(date +%s)
# shellcheck source=build.sh
source .clusterfuzzlite/build.sh
echo "== built $(ls "$OUT" | grep -vc '_seed_corpus.zip$') fuzzers in $(($(date +%s) - start)) s"

cd "$OUT"
for fz in $(ls | grep -v '_seed_corpus.zip$'); do
	corpus="$work/corpus/$fz"
	mkdir -p "$corpus"
	if [ -f "${fz}_seed_corpus.zip" ]; then
		(cd "$corpus" && unzip -qo "$OUT/${fz}_seed_corpus.zip")
	fi
	echo "== running $fz for ${fuzztime}s ($(ls "$corpus" | wc -l) seeds)"
	mkdir -p "$root/out/libfuzzer"
	if ! "./$fz" -max_total_time="$fuzztime" -print_final_stats=1 -artifact_prefix="$root/out/libfuzzer/$fz-" "$corpus" >"$work/$fz.log" 2>&1; then
		tail -40 "$work/$fz.log" >&2
		echo "== $fz failed; the input is in $root/out/libfuzzer/ (replay: go test ./fuzz -run=$fz after copying it into testdata as a go test fuzz v1 file, or rerun the binary on it)" >&2
		exit 1
	fi
	grep -E '^Done|stat::number_of_executed_units|stat::peak_rss_mb' "$work/$fz.log" || true
done
echo "== all fuzzers ran for ${fuzztime}s each; total $(($(date +%s) - start)) s"
