# Two commands: `make run` opens the box (the virtual board off a Pi), `make test` runs every check.
# Both set up their own virtual environment on first use.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python

.PHONY: run test lint bench clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

run: $(VENV)/.installed
	$(PY) -m companion run $(ARGS)

test: $(VENV)/.installed
	$(PY) -m ruff check .
	$(PY) -m pytest

bench: $(VENV)/.installed
	$(PY) -m companion bench

clean:
	rm -rf $(VENV) build *.egg-info
