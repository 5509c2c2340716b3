# Two commands on a fresh clone: `make run` serves the site, `make test` passes the tests.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
PYTEST_ARGS ?=
# Exact versions from the lock files (`make lock` writes them from pyproject.toml's ranges): the
# package's own for `make run`, and every extra but `readers` for `make test`.
LOCK := requirements.lock
TEST_LOCK := requirements-test.lock
TEST_EXTRAS := postgres,redis,granian,bench,dev,test

.PHONY: run test check fmt lock browser clean

# Said step by step, with pip's own output: the first run takes minutes (the dependencies), and a
# silent terminal looks like a hang. Compiled modules that earlier builds left beside the sources
# (the engine was compiled with mypyc once) are deleted: Python would import them first.
$(STAMP): pyproject.toml $(LOCK)
	@echo "==> [1/3] The virtual environment in $(VENV)"
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@echo "==> [2/3] pip, up to date"
	@$(BIN)/python -m pip install --upgrade pip
	@echo "==> [3/3] Codebreakers and its dependencies (minutes the first time)"
	@find src -name '*.so' -delete
	@$(BIN)/python -m pip install -r $(LOCK) -e .
	@touch $@

# One install for both: the test extras' install holds the package too.
$(TEST_STAMP): pyproject.toml $(TEST_LOCK)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	find src -name '*.so' -delete
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r $(TEST_LOCK) -e '.[$(TEST_EXTRAS)]'
	touch $@ $(STAMP)

run: $(STAMP)
	@echo "==> Starting the server (Ctrl-C stops it); it says when it is ready"
	@$(BIN)/codebreakers serve

browser:
	scripts/ensure-chromium.sh

# The non-browser run measures line and branch coverage (pyproject.toml, [tool.coverage.*]);
# scripts/check_coverage.py prints it per package and holds the floor, on a whole run only.
COV_ARGS := --cov --cov-report=term-missing:skip-covered --cov-report=json
# Each run names its slowest tests, so a CI log says where the time went (docs/testing.md).
DURATIONS := --durations=25

test: $(TEST_STAMP) browser
	$(BIN)/lint-imports
	mkdir -p test-artifacts
	$(BIN)/python -m pytest -n 2 -m "not browser" $(COV_ARGS) $(DURATIONS) $(PYTEST_ARGS)
	$(if $(PYTEST_ARGS),,$(BIN)/python scripts/check_coverage.py)
	$(BIN)/python -m pytest -n 2 -m browser $(DURATIONS) $(PYTEST_ARGS)

check: $(TEST_STAMP)
	$(BIN)/ruff format --check src tests scripts
	$(BIN)/ruff check src tests scripts
	$(BIN)/mypy --strict src/codebreakers
	$(BIN)/lint-imports

fmt: $(TEST_STAMP)
	$(BIN)/ruff format src tests scripts
	$(BIN)/ruff check --fix src tests scripts

# The lock files again after a change to pyproject.toml's dependencies: the test lock first,
# then the runtime lock held to the same versions. Pins that still fit are kept; to take newer
# releases: make lock LOCK_ARGS=--upgrade
LOCK_ARGS ?=
PIP_COMPILE = $(BIN)/pip-compile --quiet --strip-extras --allow-unsafe --no-emit-find-links \
	--no-emit-index-url --no-emit-trusted-host $(LOCK_ARGS)
lock: $(TEST_STAMP)
	$(PIP_COMPILE) --extra $(TEST_EXTRAS) -o $(TEST_LOCK) pyproject.toml
	$(PIP_COMPILE) -c $(TEST_LOCK) -o $(LOCK) pyproject.toml

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build
	find src -name '*.so' -delete
