# Two commands on a fresh clone: `make run` serves the site, `make test` passes the tests.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
PYTEST_ARGS ?=

.PHONY: run test check fmt browser clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(TEST_STAMP): $(STAMP) pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

run: $(STAMP)
	$(BIN)/codebreakers serve

browser:
	scripts/ensure-chromium.sh

test: $(TEST_STAMP) browser
	$(BIN)/lint-imports
	$(BIN)/python -m pytest -n 2 -m "not browser" $(PYTEST_ARGS)
	$(BIN)/python -m pytest -n 2 -m browser $(PYTEST_ARGS)

check: $(TEST_STAMP)
	$(BIN)/ruff format --check src tests scripts
	$(BIN)/ruff check src tests scripts
	$(BIN)/mypy src/codebreakers/games
	$(BIN)/lint-imports

fmt: $(TEST_STAMP)
	$(BIN)/ruff format src tests scripts
	$(BIN)/ruff check --fix src tests scripts

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
