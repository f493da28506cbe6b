# Autoscheduler. `make demo` runs the product on embedded defaults; `make test`
# runs the checks CI runs (.ci/run calls it).

export GOTOOLCHAIN := local

BIN := bin/autoscheduler
# Pure packages (no servers): tested with the race detector.
PURE := ./internal/schedule/... ./internal/interchange/... ./internal/render/...
FUZZTIME ?= 30s

.PHONY: all build demo test bench fuzz clean

all: build

build:
	go build -o $(BIN) ./starter

# For now: the CPM report of the example building (the durable-dispatch
# issue turns this into the full demo).
demo: build
	$(BIN) schedule --file examples/building.json

test:
	go vet ./...
	go test -race -count=1 $(PURE)
	go test -count=1 $$(go list ./... | grep -v -e /internal/schedule -e /internal/interchange -e /internal/render)

# Go benchmarks and the NetworkX peer in one run; writes BENCHMARKS.md.
bench:
	python3 bench/run.py

# Every fuzz target for FUZZTIME each.
fuzz:
	go test -run '^$$' -fuzz '^FuzzParseDuration$$' -fuzztime $(FUZZTIME) ./internal/schedule/
	go test -run '^$$' -fuzz '^FuzzParseJSON$$' -fuzztime $(FUZZTIME) ./internal/interchange/
	go test -run '^$$' -fuzz '^FuzzDecoder$$' -fuzztime $(FUZZTIME) ./internal/interchange/

clean:
	rm -rf bin bench/out
