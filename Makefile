# routecheck — see README.md. Every target works on a fresh machine with Go ≥ 1.26
# (modules are fetched by the go command).
GO        ?= go
FUZZTIME  ?= 30s
BUDGET    ?= default
RUNS      ?= 100
MAXN      ?= 16777216

.PHONY: all claims test test-long props fuzz bench lint reproduce hunt clean

all: lint test

## claims: check and print the whole claims ledger (the main job)
claims:
	$(GO) run ./cmd/routecheck claims --budget $(BUDGET)

## test: the test suite CI runs (≈ 2 minutes on 2 cores)
test:
	$(GO) test ./...

## test-long: the tests with a long timeout, then the whole ledger at the large budget
test-long:
	$(GO) test -timeout 60m ./...
	$(GO) run ./cmd/routecheck claims --budget large

## props: only the property / claims suite
props:
	$(GO) test ./props

## fuzz: every native fuzz target in turn, FUZZTIME each
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
	  for t in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "== $$pkg $$t ($(FUZZTIME))"; \
	    $(GO) test $$pkg -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME); \
	  done; \
	done

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

clean:
	rm -rf out
