# racedeck: make run (the main job), make test (the whole suite), make bench, make strength, make golden.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# The extras `make test` adds (Ray, matplotlib, the RL stack, pytest, ruff, mypy);
# `make run` installs racedeck alone, which is all the main job needs.
EXTRAS ?= dev
DEV := $(VENV)/.installed-$(EXTRAS)

.PHONY: run test lint type bench strength golden clean

$(BIN)/racedeck: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $(BIN)/racedeck

$(DEV): $(BIN)/racedeck
	$(BIN)/python -m pip install --quiet -e ".[$(EXTRAS)]"
	touch $(DEV)

## run: install, then run a tournament of the built-in bots and print the standings
run: $(BIN)/racedeck
	$(BIN)/racedeck tournament lacorsa --bot heuristic --bot random --players 4 --seed 1

## test: install (with the system packages the browser test needs), then lint, type-check, test
test: $(DEV)
	bash .ci/system-deps
	$(BIN)/ruff check src tests benchmarks plugins tools
	$(BIN)/ruff format --check src tests benchmarks plugins tools
	$(BIN)/mypy src tools
	$(BIN)/python -m pytest

lint: $(DEV)
	$(BIN)/ruff check src tests benchmarks plugins tools
	$(BIN)/ruff format --check src tests benchmarks plugins tools

type: $(DEV)
	$(BIN)/mypy src tools

## bench: speed figures (medians of repeated runs; see benchmarks/)
bench: $(DEV)
	$(BIN)/python -m benchmarks.run

## strength: the strength ladder of the built-in bots, written into docs/bots.md (the hour's plan: see docs/bots.md)
strength: $(BIN)/racedeck
	$(BIN)/python -m tools.ladder --workers 2 --write docs/bots.md

## fuzz: mutated logs of every game through every log command, hostile bots through play
## and tournaments; prints tried / caught / equivalent / silently accepted / crashed / hung
fuzz: $(BIN)/racedeck
	$(BIN)/python -m tools.fuzz

## golden: rewrite tests/golden/ on purpose, after a deliberate change of rules or format
golden: $(DEV)
	$(BIN)/python -m tests.golden.regenerate

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
