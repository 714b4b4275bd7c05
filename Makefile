# Papershelf developer entry points.
#
#   make serve   build the site and serve it with live reload (PORT=8000)
#   make test    run the test suite (PYTEST_ARGS="-k search -x" to narrow)
#   make test-quick  the tests to run often: no browser, Java, Hugo or slow ones
#
# Needs only Python >= 3.11 (with venv), and for the tests Node.js >= 20 with npm
# (building and serving the site need no Node: lunr.js ships with Papershelf).
# `setup` is idempotent: pip re-runs only when pyproject.toml or setup.py change,
# `npm ci` only when package.json / package-lock.json change. The stamp
# files live inside .venv/ and node_modules/, so deleting either directory
# (or `make clean`) forces a fresh install.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

PYTHON      ?= python3
NPM         ?= npm
VENV        ?= .venv
PORT        ?= 8000
PYTEST_ARGS ?=
BUILD_ARGS  ?=

VENV_PY   := $(VENV)/bin/python
PIP_STAMP := $(VENV)/.papershelf-pip.stamp
NPM_STAMP := node_modules/.papershelf-npm.stamp

.PHONY: help setup build serve test test-quick check clean screenshots

help:
	@echo "Targets:"
	@echo "  setup   create $(VENV), pip install -e '.[test]', npm ci (no-op when up to date)"
	@echo "  build   build the site into site/        (BUILD_ARGS='--base-url https://host/sub/')"
	@echo "  serve   build and serve with live reload (PORT=$(PORT))"
	@echo "  test    run pytest                       (PYTEST_ARGS='...')"
	@echo "  test-quick  pytest without the browser, java, hugo and slow tests"
	@echo "  check   validate the content (papershelf check)"
	@echo "  clean   remove site/, $(VENV), node_modules and stamps"

setup: $(PIP_STAMP) $(NPM_STAMP)

# --- Python -----------------------------------------------------------------

$(VENV_PY):
	@command -v $(PYTHON) >/dev/null 2>&1 || { \
	  echo "error: '$(PYTHON)' not found; Papershelf needs Python >= 3.11 (set PYTHON=/path/to/python3.11)" >&2; exit 1; }
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { \
	  echo "error: Papershelf needs Python >= 3.11, but '$(PYTHON)' is $$($(PYTHON) -c 'import platform; print(platform.python_version())'); set PYTHON=/path/to/python3.11" >&2; exit 1; }
	$(PYTHON) -m venv $(VENV) || { \
	  rm -rf $(VENV); \
	  echo "error: '$(PYTHON) -m venv' failed (on Debian/Ubuntu: apt-get install python3-venv)" >&2; exit 1; }

$(PIP_STAMP): pyproject.toml setup.py | $(VENV_PY)
	@$(VENV_PY) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { \
	  echo "error: $(VENV) uses Python < 3.11; run 'make clean' (or rm -rf $(VENV)) and retry" >&2; exit 1; }
	$(VENV_PY) -m pip install --disable-pip-version-check -e '.[test]'
	@touch $@

# --- Node -------------------------------------------------------------------

$(NPM_STAMP): package.json package-lock.json
	@command -v node >/dev/null 2>&1 && command -v $(NPM) >/dev/null 2>&1 || { \
	  echo "error: Node.js >= 20 and npm are required (node or $(NPM) not found)" >&2; exit 1; }
	@node -e 'process.exit(Number(process.versions.node.split(".")[0]) < 20 ? 1 : 0)' || { \
	  echo "error: Node.js >= 20 is required, found $$(node --version)" >&2; exit 1; }
	$(NPM) ci --no-audit --no-fund
	@touch $@

# --- Everyday targets -----------------------------------------------------

build: $(PIP_STAMP)
	$(VENV)/bin/papershelf build $(BUILD_ARGS)

serve: $(PIP_STAMP)
	$(VENV)/bin/papershelf build --serve --port $(PORT) $(BUILD_ARGS)

# Two pytest-xdist workers (the machines have 2 cores); PYTEST_ARGS="-n 0" runs in one process.
# worksteal: a worker that runs out of tests takes half of the other's queue, so both finish
# together (with the default "load" one worker finished 35-95 s before the other, which was
# left with long tests at the end of its share).
# Compiled modules are cached in $(PYCACHE), even where PYTHONDONTWRITEBYTECODE is set: without
# a cache each worker, the marker test's collection and every build the tests start compile the
# generator and rewrite the tests' asserts again (collecting the suite: 7.5 CPU s cold, 3.2 s
# cached). The cache lives in the venv, so the checkout stays free of __pycache__ folders.
PYCACHE := $(abspath $(VENV))/pycache
PYTEST  := env -u PYTHONDONTWRITEBYTECODE PYTHONPYCACHEPREFIX=$(PYCACHE) $(VENV_PY) -m pytest -n 2 --dist worksteal
test: setup
	$(PYTEST) $(PYTEST_ARGS)

# The tests to run often: all but those that need Chromium, Java or Hugo, or take over ~3 s
# (markers written on the tests, checked as they run: tests/markers.py). Node tests stay in.
QUICK := not (browser or java or hugo or slow)
test-quick: setup
	$(PYTEST) -m "$(QUICK)" $(PYTEST_ARGS)

check: $(PIP_STAMP)
	$(VENV)/bin/papershelf check

clean:
	rm -rf site $(VENV) node_modules .pytest_cache $(PIP_STAMP) $(NPM_STAMP)

screenshots: setup
	$(VENV_PY) scripts/screenshots.py
