# Data Connect for Swift on Linux: the developer's entry points.
# `make` (or `make help`) lists the targets.

SHELL := /bin/bash
SWIFT ?= swift
KIT := Packages/DataConnectKit
EMU := Packages/DataConnectEmulator
SDK := Packages/DataConnect
GEN := Packages/DataConnectCodegen
CACHE := Packages/DataConnectCache
TESTING := Packages/DataConnectTesting
SUPPORT := Packages/DataConnectTestSupport
BACKEND ?= Backend/movies
# What building and running the toolkit, the demo and the apps need (`make bootstrap`, `make demo`).
APT_PACKAGES := libsqlite3-dev libyaml-dev libncursesw5-dev libmicrohttpd-dev libnghttp2-dev libwebsockets-dev libssl-dev libpq-dev postgresql pkg-config git curl \
  libcurl4-openssl-dev dpkg-dev  # the last two: `make install` links Foundation statically; `make package`
# What only the tests and benchmarks need on top (`make bootstrap-test`, which `make test` runs): tmux for the TUI's
# end-to-end test, the browser and node for the console's, python3-venv for the Python test clients, wrk and h2load
# (nghttp2-client) for benchmarks,
# the openssl command for the outbound HTTPS tests' throwaway CA (served by python3's ssl module).
TEST_APT_PACKAGES := tmux wrk nghttp2-client chromium chromium-driver nodejs python3-venv openssl
# The Python test clients, pinned, in a virtual environment made from Debian's Python (never the system site-packages).
VENV := .build/venv
PYTHON_TEST_REQUIREMENTS := Tests/python-requirements.txt
PREFIX ?= /usr/local

.DEFAULT_GOAL := help

# The toolchain's SwiftPM reuses a build directory's cached plan (`.build/<triple>/<configuration>/description.json`)
# when only the set of source files has changed: a file added to a local package is not compiled ("cannot find … in
# scope") and a removed one stops the build ("missing inputs"), e.g. after a `git pull`. Whenever the set of Swift
# files differs from the one the last `make` saw, the plans are dropped, and the next build plans again.
SWIFT_FILE_SET := $(shell find . -name '*.swift' -not -path '*/.build/*' -not -path './.git/*' | LC_ALL=C sort | cksum)
ifneq ($(SWIFT_FILE_SET),$(shell cat .build/swift-file-set 2>/dev/null))
$(shell find . -path ./.git -prune -o -name description.json -path '*/.build/*' -print | xargs -r rm -f; \
  mkdir -p .build && echo '$(SWIFT_FILE_SET)' > .build/swift-file-set)
endif
# Every package builds into the root's .build (`--scratch-path`): a library is compiled once for all the packages
# that use it (the emulator's, the SDK's, the toolkit's, the consumer's tests), not once per package. SwiftPM keeps
# what another root package built when the module's command is the same.
SCRATCH := --scratch-path $(CURDIR)/.build
# How many test cases Swift Testing runs at once in each test process (the toolchain's Swift Testing reads this
# variable; unbounded otherwise). The emulator's suites start an emulator, or a PostgreSQL-backed one, per test: run
# all at once they held 4,000 threads and 460 PostgreSQL backends, and on a loaded machine a new connection waited
# past its timeout behind hundreds of starting backends. Eight at a time on 2 cores is also faster (76 s against 103 s
# for the emulator's 899 tests, quiet).
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH ?= $(shell echo $$(( $$(nproc) * 4 )))
GENERATED_BACKENDS := Backend/movies Tests/Backends/library Tests/Backends/search Tests/Backends/ledger \
  Benchmarks/testsuite/backend
CONSUMER := Tests/GeneratedConsumer
# Everything `make lint` checks and `make fmt` formats: our Swift, not the templates (they hold {{placeholders}}).
FORMATTED := Package.swift Tools Tests Apps/MoviesCLI Apps/MoviesTUI Apps/MoviesDemo Apps/MoviesAppModels \
  $(foreach p,$(KIT) $(EMU) $(CACHE) $(SDK) $(TESTING) $(GEN) $(SUPPORT),$(p)/Package.swift $(p)/Sources $(p)/Tests)

.PHONY: tui help bootstrap bootstrap-test apt-install venv install uninstall package test-install test-doc-snippets build release test test-busy fuzz test-support test-kit test-emulator test-cache test-sdk test-testing test-codegen test-root test-consumer test-upstream-shaped test-console test-auth-admin test-grpc generate check-generated demo bench bench-emulator bench-sdk bench-codegen bench-cache bench-realtime bench-postgres bench-search bench-shapes bench-shapes-postgres bench-compare bench-grpc bench-instructions bench-cpu-split bench-pg-split bench-testsuite probe-slow-queries emulator lint fmt clean validate postgres postgres-stop demo-postgres

help: ## List the targets
	@grep -hE '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-16s %s\n", $$1, $$2}'

bootstrap: ## Install the Debian packages building and running need, when missing (idempotent; needs root)
	@$(MAKE) --no-print-directory apt-install PACKAGES="$(APT_PACKAGES)"

bootstrap-test: bootstrap ## Also install what the tests need (browser, node, tmux, wrk) and the Python test clients' venv
	@$(MAKE) --no-print-directory apt-install PACKAGES="$(TEST_APT_PACKAGES)"
	@$(MAKE) --no-print-directory venv

venv: $(VENV)/.installed ## The Python test clients (pinned in Tests/python-requirements.txt) in .build/venv

$(VENV)/.installed: $(PYTHON_TEST_REQUIREMENTS)
	rm -rf $(VENV)
	/usr/bin/python3 -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r $(PYTHON_TEST_REQUIREMENTS)
	touch $@

apt-install:
	@missing=""; for p in $(PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	else echo "all Debian packages present"; fi

build: ## Build everything (debug)
	$(SWIFT) build --package-path $(KIT) $(SCRATCH)
	$(SWIFT) build --package-path $(EMU) $(SCRATCH)
	$(SWIFT) build --package-path $(CACHE) $(SCRATCH)
	$(SWIFT) build --package-path $(SDK) $(SCRATCH)
	$(SWIFT) build --package-path $(TESTING) $(SCRATCH)
	$(SWIFT) build --package-path $(GEN) $(SCRATCH)
	$(SWIFT) build

release: ## Build the CLI in release mode
	$(SWIFT) build -c release --product dataconnect

test: bootstrap-test test-support test-kit test-emulator test-cache test-sdk test-testing test-codegen test-root check-generated test-consumer test-doc-snippets test-upstream-shaped test-console test-auth-admin test-grpc test-install ## Run every test suite

test-busy: ## Run `make test` while two busy loops load both cores, and print its wall time (not part of CI)
	@sh -c 'while :; do :; done' & first=$$!; sh -c 'while :; do :; done' & second=$$!; \
	  trap 'kill $$first $$second 2>/dev/null; wait $$first $$second 2>/dev/null' EXIT; trap 'exit 130' INT TERM; \
	  echo "== make test with two busy loops (pids $$first $$second) loading both cores"; \
	  start=$$(date +%s); $(MAKE) --no-print-directory test; status=$$?; elapsed=$$(( $$(date +%s) - start )); \
	  echo "== make test under load: exit status $$status, wall time $$(( elapsed / 60 )) min $$(( elapsed % 60 )) s"; \
	  exit $$status

FUZZ_CASES ?= 5000
fuzz: ## Send the emulator FUZZ_CASES (5,000) random requests from seed FUZZ_SEED (random when unset), then hostile HTTP/2 with a probe's latency
	$(SWIFT) build --product dataconnect
	DATACONNECT_FUZZ_CASES=$(FUZZ_CASES) \
	  DATACONNECT_FUZZ_SEED=$(if $(FUZZ_SEED),$(FUZZ_SEED),$$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')) \
	  $(SWIFT) test --filter "EmulatorFuzzTests|HTTP2AttackTests"

test-support: ## The shared test support itself: the posix_spawn runner, ChildProcess, loopback sockets
	$(SWIFT) test --package-path $(SUPPORT) $(SCRATCH)

test-kit:
	$(SWIFT) test --package-path $(KIT) $(SCRATCH)

test-emulator: ## The emulator's suites; those marked .onBothDatabases run on SQLite, then on PostgreSQL
	$(SWIFT) test --package-path $(EMU) $(SCRATCH)

test-cache:
	$(SWIFT) test --package-path $(CACHE) $(SCRATCH)

test-sdk:
	$(SWIFT) test --package-path $(SDK) $(SCRATCH)

test-testing: ## The SDK against the emulator, in-process and on a port
	$(SWIFT) test --package-path $(TESTING) $(SCRATCH)

test-codegen:
	$(SWIFT) test --package-path $(GEN) $(SCRATCH)

test-root:
	$(SWIFT) build --product dataconnect
	$(SWIFT) test

test-consumer: ## Compile the generated packages and run every operation against a live emulator, on SQLite and on PostgreSQL
	$(SWIFT) test --package-path $(CONSUMER) $(SCRATCH)

test-upstream-shaped: ## Compile code shaped like Google's generated Swift (warnings as errors) and run it against a live emulator
	$(SWIFT) build --build-tests --package-path Tests/UpstreamShaped -Xswiftc -warnings-as-errors
	$(SWIFT) test --skip-build --package-path Tests/UpstreamShaped

test-console: ## The emulator's console: its JavaScript unit tests (node), then end to end in headless Chromium
	$(SWIFT) build --product dataconnect
	node --test $(EMU)/ConsoleTests/*.test.mjs
	$(VENV)/bin/python Tests/Console/console_e2e.py

test-auth-admin: ## Google's Admin SDK (firebase-admin for Python, pinned in .build/venv) against the Auth emulator
	$(SWIFT) build --product dataconnect
	$(VENV)/bin/python Tests/AuthAdmin/admin_sdk_test.py

test-grpc: ## Google's grpcio against the emulator's gRPC service, then the REST/gRPC differential; each on SQLite, then PostgreSQL
	$(SWIFT) build --product dataconnect
	$(SWIFT) build --product pg-cluster  # from the root package, so the libraries are compiled once
	$(VENV)/bin/python Tests/GRPC/grpc_client_test.py
	$(VENV)/bin/python Tests/GRPC/differential_test.py

install: ## Install the toolkit under PREFIX (/usr/local; PREFIX=~/.local needs no root): CLI, templates, SDK sources by version
	bash Tools/distribution/install.sh $(PREFIX)

uninstall: ## Remove what `make install` put under PREFIX (VERSION=x.y.z for one version; all by default)
	bash Tools/distribution/uninstall.sh $(PREFIX) $(VERSION)

package: ## Build the Debian package .build/dataconnect_<version>_<arch>.deb (dpkg-deb)
	bash Tools/distribution/package.sh .build

test-doc-snippets: ## Compile every Swift snippet of README.md and docs/*.md against the packages (markers: Tests/DocSnippets)
	python3 Tests/DocSnippets/compile_doc_snippets.py --swift "$(SWIFT)"

test-install: ## Install into a temporary prefix and as a .deb; in each, a new project builds and passes its tests with the clone hidden
	bash Tests/Install/install_test.sh

generate: ## Regenerate the checked-in Swift packages (Apps/FirebaseDataConnectGenerated, Tests/Generated/*, Benchmarks/testsuite/ShopConnector)
	$(SWIFT) build --product dataconnect
	@for backend in $(GENERATED_BACKENDS); do .build/debug/dataconnect generate --backend $$backend || exit 1; done
	$(KIT)/Protos/generate_descriptors.sh

check-generated: ## Fail when the checked-in generated packages differ from a fresh generation
	$(SWIFT) build --product dataconnect
	@for backend in $(GENERATED_BACKENDS); do .build/debug/dataconnect generate --backend $$backend --check || exit 1; done
	$(KIT)/Protos/generate_descriptors.sh --check

POSTGRES_DIR ?= .dataconnect/postgres
POSTGRES_PORT ?= 5432
postgres: ## Start a PostgreSQL server for manual use (data in POSTGRES_DIR, port POSTGRES_PORT) and print its URL
	$(SWIFT) build --package-path $(KIT) --product pg-cluster
	$(KIT)/.build/debug/pg-cluster start $(POSTGRES_DIR) --port $(POSTGRES_PORT)

postgres-stop: ## Stop the server `make postgres` started
	$(SWIFT) build --package-path $(KIT) --product pg-cluster
	$(KIT)/.build/debug/pg-cluster stop $(POSTGRES_DIR)

validate: ## Validate $(BACKEND)
	$(SWIFT) run dataconnect validate --backend $(BACKEND)

demo: bootstrap ## The walkthrough: build, serve Backend/movies, then create, list, cache, subscribe and sign in
	@echo "== Building the CLI, the emulator and the sample apps (release)"
	$(SWIFT) build -c release --product dataconnect
	$(SWIFT) build -c release --product movies
	$(SWIFT) build -c release --product movies-demo
	@echo
	@echo "== The schema and the connector operations compile and type-check"
	.build/release/dataconnect validate --backend $(BACKEND)
	@echo
	@echo "== A mistake is reported like a compiler error"
	@tmp=$$(mktemp -d) && cp -r $(BACKEND)/. $$tmp && \
	  sed -i 's/^    title$$/    titel/' $$tmp/connector/queries.gql && \
	  (.build/release/dataconnect validate --backend $$tmp --quiet 2>&1 | head -1 | sed "s|$$tmp|$(BACKEND)|"; true) && rm -rf $$tmp
	@echo
	@echo "== The generated Swift SDK (Apps/FirebaseDataConnectGenerated) is up to date with the backend"
	.build/release/dataconnect generate --backend $(BACKEND) --check
	@echo
	@echo "== Serving Backend/movies with its seed data on a free port"
	@out=$$(mktemp); .build/release/dataconnect emulator --backend $(BACKEND) --port 0 --no-watch \
	    --seed $(BACKEND)/seed_data.gql > $$out 2>/dev/null & pid=$$!; \
	  trap 'kill -TERM $$pid 2>/dev/null; wait $$pid 2>/dev/null; rm -f $$out' EXIT; \
	  for i in $$(seq 200); do grep -q '^ready ' $$out && break; sleep 0.05; done; \
	  url=$$(sed -n 's/^ready //p' $$out); address=$${url#http://}; \
	  test -n "$$address" || { echo "the emulator did not start"; exit 1; }; \
	  echo "   emulator ready at $$url; its console (schema, data, operations, GraphQL, realtime, requests) is $$url/"; \
	  .build/release/movies-demo --emulator $$address || exit 1; \
	  cfg=$$(mktemp -d); tag=$$(date +%s); \
	  echo; echo "== The movies CLI on the same generated SDK: movies --emulator $$address list --genre Sci-Fi --limit 5"; \
	  MOVIES_CONFIG_DIR=$$cfg NO_COLOR=1 .build/release/movies --emulator $$address list --genre Sci-Fi --limit 5 || exit 1; \
	  echo; echo "== A real account from the CLI: movies signup --email cli-$$tag@example.com --password-stdin, then whoami"; \
	  echo cli-password | MOVIES_CONFIG_DIR=$$cfg NO_COLOR=1 .build/release/movies --emulator $$address signup \
	    --email cli-$$tag@example.com --password-stdin --name cli-$$tag || exit 1; \
	  MOVIES_CONFIG_DIR=$$cfg NO_COLOR=1 .build/release/movies --emulator $$address whoami || exit 1; rm -rf $$cfg; \
	  kill -TERM $$pid; wait $$pid; trap - EXIT; rm -f $$out; echo; echo "== The emulator stopped cleanly. Next: make emulator and open http://127.0.0.1:9399/ (the console), make tui, make test, docs/walkthrough.md"

demo-postgres: bootstrap ## The walkthrough on PostgreSQL: two emulators on one throwaway server, the demo through one, the CLI through the other
	@echo "== Building the CLI, the demo app and pg-cluster (release)"
	$(SWIFT) build -c release --product dataconnect
	$(SWIFT) build -c release --product movies
	$(SWIFT) build -c release --product movies-demo
	$(SWIFT) build -c release --package-path $(KIT) --product pg-cluster
	@echo
	@dir=$$(mktemp -d /tmp/dataconnect-demo-pg-XXXXXX); chmod 755 $$dir; first=$$(mktemp); second=$$(mktemp); \
	  port=$$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'); \
	  trap 'kill -TERM $$one $$two 2>/dev/null; wait $$one $$two 2>/dev/null; $(KIT)/.build/release/pg-cluster stop $$dir/cluster > /dev/null; rm -rf $$dir $$first $$second' EXIT; \
	  echo "== A throwaway PostgreSQL server (pg-cluster start $$dir/cluster --port $$port)"; \
	  db=$$($(KIT)/.build/release/pg-cluster start $$dir/cluster --port $$port) || exit 1; \
	  db=$$(echo "$$db" | tail -1); echo "   $$db"; \
	  echo; echo "== Two emulators on it: the first migrates and seeds, the second finds the schema up to date"; \
	  .build/release/dataconnect emulator --backend $(BACKEND) --port 0 --no-watch --postgres "$$db" \
	    --seed $(BACKEND)/seed_data.gql > $$first 2>$$first.log & one=$$!; \
	  for i in $$(seq 400); do grep -q '^ready ' $$first && break; sleep 0.05; done; \
	  .build/release/dataconnect emulator --backend $(BACKEND) --port 0 --no-watch --postgres "$$db" \
	    > $$second 2>$$second.log & two=$$!; \
	  for i in $$(seq 400); do grep -q '^ready ' $$second && break; sleep 0.05; done; \
	  a=$$(sed -n 's|^ready http://||p' $$first); b=$$(sed -n 's|^ready http://||p' $$second); \
	  test -n "$$a" && test -n "$$b" || { cat $$first.log $$second.log; echo "an emulator did not start"; exit 1; }; \
	  grep -h '^database:' $$first.log | sed 's/^/   /'; echo "   emulators ready at $$a and $$b"; \
	  echo; echo "== The walkthrough through the first ($$a); its subscription is served by the same emulator"; \
	  .build/release/movies-demo --emulator $$a || exit 1; \
	  echo; echo "== The movies CLI through the second ($$b) reads what the first wrote"; \
	  MOVIES_CONFIG_DIR=$$(mktemp -d) NO_COLOR=1 .build/release/movies --emulator $$b list --genre Sci-Fi --limit 5 || exit 1; \
	  kill -TERM $$one $$two; wait $$one $$two; echo; echo "== Both emulators stopped; the server is removed. See docs/postgres.md"

tui: ## Open the movies TUI against an emulator on 127.0.0.1:9399 (started here with the seed if none is running)
	$(SWIFT) build -c release --product dataconnect
	$(SWIFT) build -c release --product movies-tui
	@if curl -s -o /dev/null http://127.0.0.1:9399/; then \
	  .build/release/movies-tui --emulator 127.0.0.1:9399; \
	else \
	  .build/release/dataconnect emulator --backend $(BACKEND) --seed $(BACKEND)/seed_data.gql --no-watch \
	    > /dev/null 2>&1 & pid=$$!; sleep 1; \
	  .build/release/movies-tui --emulator 127.0.0.1:9399; status=$$?; kill -TERM $$pid; wait $$pid; exit $$status; \
	fi

emulator: release ## Serve Backend/movies with its seed data on 127.0.0.1:9399 (console at http://127.0.0.1:9399/)
	.build/release/dataconnect emulator --backend $(BACKEND) --seed $(BACKEND)/seed_data.gql

bench: ## Foundations benchmarks (parser, validation, JSON; release); see also the bench-* targets
	$(SWIFT) run -c release --package-path $(KIT) kit-bench $(abspath $(BACKEND))

bench-emulator: bootstrap-test ## Benchmark the emulator against its HTTP ceiling, SQLite and a Python peer (wrk, ~3 min)
	Benchmarks/emulator/run.sh

bench-postgres: bootstrap-test ## Benchmark the emulator on PostgreSQL (throwaway cluster): floor, SQLite, two emulators, inserts, realtime across emulators (wrk, ~6 min)
	Benchmarks/emulator/run-postgres.sh

bench-search: bootstrap-test ## Benchmark search and vector similarity on SQLite and PostgreSQL: 10,000 movies, list vs search vs similarity (wrk, ~2 min)
	Benchmarks/search/run.sh

bench-shapes: bootstrap-test ## Benchmark five query shapes with and without entity ids against their limit L (HTTP ceiling C, fastest C floor F), with server CPU per request; writes the table into docs/performance.md (wrk, ~15 min)
	BENCH_COMMAND="make bench-shapes" Benchmarks/shapes/run.sh --write-docs

bench-shapes-postgres: bootstrap-test ## Benchmark the five query shapes on PostgreSQL (throwaway cluster) against their libpq floors on the pool's 4 connections; writes the table into docs/performance.md (wrk, ~10 min)
	BENCH_COMMAND="make bench-shapes-postgres" Benchmarks/shapes/run.sh --postgres --write-docs

bench-pg-split: bootstrap-test ## Where a get-by-key request's time goes on PostgreSQL (OPERATION=listByIndex: the index-served list's): the libpq floor on 1, 2 and 4 connections, the emulator's and PostgreSQL's CPU, transactions and context switches per request, a perf profile (throwaway cluster, ~2 min)
	SPLIT_OPERATION=$(or $(OPERATION),getMovie) Benchmarks/shapes/run.sh --postgres --split

bench-cpu-split: bootstrap-test ## Where the emulator's CPU goes per request on a shape (perf, wrk; SHAPE=getMovie CONNECTOR=shapes; run bench-shapes once first for the data)
	@$(MAKE) --no-print-directory apt-install PACKAGES="linux-perf"
	$(SWIFT) build -c release --product dataconnect
	Benchmarks/shapes/cpu-split.sh $(or $(SHAPE),getMovie) $(or $(CONNECTOR),shapes)

bench-instructions: bootstrap-test ## Instructions per request under callgrind for get-by-key and the 20-row list, with and without ids (BUILDS="a/.build/release/dataconnect b/…" compares builds; run bench-shapes once first for the data)
	@$(MAKE) --no-print-directory apt-install PACKAGES="valgrind"
	$(SWIFT) build -c release --product dataconnect
	Benchmarks/shapes/instructions.sh $(or $(BUILDS),$(CURDIR)/.build/release/dataconnect)

bench-grpc: bootstrap-test ## Benchmark gRPC (h2load) against REST (wrk) on one emulator: get-by-key and the 20-row list, OK calls only (~3 min after the build)
	Benchmarks/grpc/run.sh

bench-compare: bootstrap-test ## Before and after: bench-shapes' emulator rows and bench-realtime on two checkouts' release builds, interleaved, medians of 5 (BEFORE=dir AFTER=dir; ~15 min after the builds)
	@[ -n "$(BEFORE)" ] && [ -n "$(AFTER)" ] || { echo "usage: make bench-compare BEFORE=checkout AFTER=checkout"; exit 2; }
	BENCH_COMMAND="make bench-compare BEFORE=$(BEFORE) AFTER=$(AFTER)" Benchmarks/compare/compare.sh $(BEFORE) $(AFTER)

probe-slow-queries: release ## Time limits and the slow lane against four expensive shapes (limit vs answer time; cheap latency while slow requests run; ~3 min)
	python3 Benchmarks/slow-queries/probe.py .build/release/dataconnect

bench-codegen: release ## Time `dataconnect generate` (movies, 500 operations) and build the movies SDK with warnings as errors
	$(SWIFT) run -c release --package-path $(GEN) codegen-bench $(abspath $(BACKEND)) $(abspath .build/release/dataconnect)
	@rm -rf /tmp/dataconnect-generated-build && start=$$(date +%s%N) && \
	  $(SWIFT) build --package-path Apps/FirebaseDataConnectGenerated --scratch-path /tmp/dataconnect-generated-build \
	    -Xswiftc -warnings-as-errors > /tmp/dataconnect-generated-build.log 2>&1 || { cat /tmp/dataconnect-generated-build.log; exit 1; }; \
	  echo "Apps/FirebaseDataConnectGenerated (with the core SDK) builds from clean with -warnings-as-errors in $$(( ($$(date +%s%N) - start) / 1000000 )) ms"

bench-cache: ## Benchmark the cache engine: reads, writes, a 10,000-query workload under a size cap (release)
	$(SWIFT) run -c release --package-path $(CACHE) cache-bench

bench-realtime: ## Fan-out over the WebSocket stream: 2,000 subscribers (1 and 50 per connection), then 10,000 in 100 groups and in 1; then 10,000 on 100 gRPC streams (release)
	$(SWIFT) build -c release --package-path $(EMU) --product realtime-bench
	$(EMU)/.build/release/realtime-bench --transport websocket --per-connection 1
	$(EMU)/.build/release/realtime-bench --transport websocket --per-connection 50
	ulimit -n $$(ulimit -Hn) && $(EMU)/.build/release/realtime-bench --subscribers 10000 --groups 100
	ulimit -n $$(ulimit -Hn) && $(EMU)/.build/release/realtime-bench --subscribers 10000 --groups 1
	$(EMU)/.build/release/realtime-bench --subscribers 10000 --groups 100 --per-connection 100 --grpc
	$(EMU)/.build/release/realtime-bench --subscribers 10000 --groups 1 --per-connection 100 --grpc
	@# the same with each message decoded after its round: the server's fan-out without the one client thread's decoding
	$(EMU)/.build/release/realtime-bench --subscribers 10000 --groups 100 --per-connection 100 --grpc --grpc-decode deferred

bench-sdk: ## Benchmark SDK execute() against a bare URLSession POST of the same request (release)
	$(SWIFT) run -c release --package-path $(TESTING) sdk-bench

TESTSUITE_RUNS ?= 15
TESTSUITE_ROUNDS ?= 5
bench-testsuite: ## What a user's full-stack test suite pays: in-process emulator start (20 tables), first answer, 1,000 operations through the generated SDK (release)
	$(SWIFT) build -c release --package-path Benchmarks/testsuite --product testsuite-bench
	Benchmarks/testsuite/.build/release/testsuite-bench --runs $(TESTSUITE_RUNS) --rounds $(TESTSUITE_ROUNDS) \
	  --command "make bench-testsuite"

lint: ## Check formatting
	$(SWIFT) format lint --recursive --strict $(FORMATTED)

fmt: ## Format the sources in place
	$(SWIFT) format --in-place --recursive $(FORMATTED)

clean: ## Remove build products
	rm -rf .build $(KIT)/.build $(SUPPORT)/.build $(EMU)/.build $(SDK)/.build $(TESTING)/.build $(CACHE)/.build $(GEN)/.build $(CONSUMER)/.build Tests/UpstreamShaped/.build Apps/*/.build Tests/Generated/*/.build Benchmarks/emulator/tools/.build Benchmarks/testsuite/.build Benchmarks/emulator/.out Benchmarks/shapes/.out
