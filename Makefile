# routecheck — see README.md. Every target works on a fresh machine with Go ≥ 1.26
# (modules are fetched by the go command).
GO        ?= go
FUZZTIME  ?= 30s
BUDGET    ?= default
RUNS      ?= 100
MAXN      ?= 16777216
# gremlins: v0.6.0 is the only version the Go module proxy lists; pinned so a
# new release cannot change the mutators (and the scores) silently.
GREMLINS_VERSION ?= v0.6.0
MUTATION_WORKERS ?= 1
MUTATION_TIMEOUT ?= 20m
MUTATION_COEFF   ?= 10
# The build tag "mutation" makes slow test packages run at their -short sizes
# (gremlins v0.6.0 passes build tags to the tests, not -short): algos/sortnet,
# algos/aks and algos/popsdet.
MUTATION_TAGS    ?= mutation
MUTATION_PKGS    ?= ./models/... ./algos/...
GREMLINS_BIN     := $(firstword $(subst :, ,$(shell $(GO) env GOPATH)))/bin
GREMLINS         := $(GREMLINS_BIN)/gremlins

.PHONY: all claims test test-long props fuzz bench lint reproduce hunt mutation clean

all: lint test

## claims: check and print the whole claims ledger (the main job)
claims:
	$(GO) run ./cmd/routecheck claims --budget $(BUDGET)

## test: the test suite CI runs (≈ 2 minutes on 2 cores)
test:
	$(GO) test ./...

## test-long: the tests with a long timeout (+ algos/aks's n = 2^14 findings rows and n = 25, 26 exhaustive sorts, algos/sortnet's random sortedness tests up to n = 2^16, props/meshtest's n = 8, k = 16 k-k phases, algos/popsds's rigid repair on all 40 320 permutations of POPS(4,2)), then the whole ledger at the large budget
test-long:
	$(GO) test -timeout 60m ./...
	$(GO) test -timeout 60m ./algos/aks -run 'TestExpanderFindings|TestExactSortsExhaustive' -aks.long
	$(GO) test -timeout 60m ./algos/sortnet -run 'TestSortsRandomAndStructured|TestSortsRandom01EveryWeight' -sortnet.long
	$(GO) test -timeout 60m ./props/meshtest -run TestKKPhases -meshtest.long
	$(GO) test -timeout 60m ./algos/popsds -run TestRigidDeliversWithOnePattern -popsds.long
	$(GO) run ./cmd/routecheck claims --budget large

## props: only the property / claims suite
props:
	$(GO) test ./props/...

## fuzz: every native fuzz target in turn, FUZZTIME each
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
	  for t in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "== $$pkg $$t ($(FUZZTIME))"; \
	    $(GO) test $$pkg -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME); \
	  done; \
	done

## fuzz-libfuzzer: the ClusterFuzzLite build here: every target of .clusterfuzzlite/build.sh as a libFuzzer binary (go-118-fuzz-build, clang; installed if missing), each run FUZZTIME (default 10s)
.PHONY: fuzz-libfuzzer
fuzz-libfuzzer: FUZZTIME = 10s
fuzz-libfuzzer:
	@command -v go-118-fuzz-build >/dev/null || test -x "$$($(GO) env GOPATH)/bin/go-118-fuzz-build" || \
	  $(GO) install github.com/AdamKorcz/go-118-fuzz-build@v0.0.0-20250520111509-a70c2aa677fa
	@command -v clang >/dev/null || { s=$$([ "$$(id -u)" = 0 ] || echo sudo); $$s apt-get update && $$s apt-get install -y clang; }
	.clusterfuzzlite/local.sh $(FUZZTIME)

## bench: benchmarks (the fast engine at n = 2^24 is the issue's target)
bench:
	$(GO) test -run '^$$' -bench . -benchtime 3x -benchmem ./algos/... ./oracles/...

## lint: go vet and gofmt
lint:
	$(GO) vet ./...
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

## reproduce: Tables I and II of the POPS paper at full scale (CSV, JSON, plots in out/)
reproduce:
	mkdir -p out
	$(GO) run ./cmd/routecheck reproduce pops-table2 --runs $(RUNS) --max-n $(MAXN) --csv out/pops-table2.csv --out out
	$(GO) run ./cmd/routecheck reproduce pops-table1 --runs $(RUNS) --max-n $(MAXN) --csv out/pops-table1.csv --out out

## hunt: search for bad POPS permutations and a shrunk packet-loss case
hunt:
	$(GO) run ./cmd/routecheck hunt pops-steps --d 8 --g 8 --iters 2000
	$(GO) run ./cmd/routecheck hunt pops-loss --d 6 --g 3 --iters 10000

## mutation: gremlins mutation testing, each package of models/ and algos/ against its own tests (reports in out/mutation/)
# Paths given to --exclude-files are relative to the package directory, so "/"
# leaves out subpackages (algos/sortnet/hillclimb is measured on its own).
# GOFLAGS=-count=1: gremlins sets each mutant's time limit from its coverage
# run; a coverage run served from Go's test cache takes ~0.2 s and would make
# every mutant "time out".
mutation: export GOFLAGS := -count=1
mutation:
	GOBIN=$(GREMLINS_BIN) $(GO) install github.com/go-gremlins/gremlins/cmd/gremlins@$(GREMLINS_VERSION)
	mkdir -p out/mutation
	@mod=$$($(GO) list -m); to=$$(command -v timeout >/dev/null && echo "timeout $(MUTATION_TIMEOUT)"); \
	for pkg in $$($(GO) list $(MUTATION_PKGS) | sed "s|^$$mod/|./|"); do \
	  name=$$(echo $$pkg | sed 's|^\./||; s|/|_|g'); start=$$(date +%s); \
	  echo "== $$pkg: $$to $(GREMLINS) unleash --workers $(MUTATION_WORKERS) --timeout-coefficient $(MUTATION_COEFF) --tags $(MUTATION_TAGS) --exclude-files / $$pkg"; \
	  $$to $(GREMLINS) unleash --workers $(MUTATION_WORKERS) --timeout-coefficient $(MUTATION_COEFF) --tags $(MUTATION_TAGS) --exclude-files / \
	    -o out/mutation/$$name.json $$pkg > out/mutation/$$name.txt 2>&1 || echo "   gremlins stopped with status $$? (124 = timeout)"; \
	  grep -E '^(Killed|Timed out|Test efficacy|Mutator coverage):' out/mutation/$$name.txt | sed 's/^/   /'; \
	  echo "   $$(( $$(date +%s) - start )) s, details in out/mutation/$$name.txt"; \
	done

clean:
	rm -rf out
