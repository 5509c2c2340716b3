# Two commands on a fresh clone: `make run` serves the site, `make test` passes the tests.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
PYTEST_ARGS ?=
# setup.py compiles the engine in place (mypyc): a change to it means building again.
BUILD_INPUTS := pyproject.toml setup.py $(wildcard src/codebreakers/games/decrypto/*.py)

.PHONY: run test check fmt browser clean

# Said step by step, with pip's own output: the first run takes minutes (the dependencies, then
# the engine compiled), and a silent terminal looks like a hang.
$(STAMP): $(BUILD_INPUTS)
	@echo "==> [1/3] The virtual environment in $(VENV)"
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@echo "==> [2/3] pip, up to date"
	@$(BIN)/python -m pip install --upgrade pip
	@echo "==> [3/3] Codebreakers and its dependencies; the game engine is compiled (minutes the first time)"
	@$(BIN)/python -m pip install -e .
	@touch $@

# One build for both: the test extras' install builds the package too.
$(TEST_STAMP): $(BUILD_INPUTS)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(STAMP)

run: $(STAMP)
	@echo "==> Starting the server (Ctrl-C stops it); it says when it is ready"
	@$(BIN)/codebreakers serve

browser:
	scripts/ensure-chromium.sh

test: $(TEST_STAMP) browser
	$(BIN)/lint-imports
	$(BIN)/python -m pytest -n 2 -m "not browser" $(PYTEST_ARGS)
	$(BIN)/python -m pytest -n 2 -m browser $(PYTEST_ARGS)

check: $(TEST_STAMP)
	$(BIN)/ruff format --check src tests scripts setup.py
	$(BIN)/ruff check src tests scripts setup.py
	$(BIN)/mypy src/codebreakers/games
	$(BIN)/lint-imports

fmt: $(TEST_STAMP)
	$(BIN)/ruff format src tests scripts setup.py
	$(BIN)/ruff check --fix src tests scripts setup.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build
	find src -name '*.so' -delete
