# Two commands: `make run` opens the box (the virtual board off a Pi), `make test` runs every check.
# Both set up their own virtual environment on first use.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
# On a Pi: VENV_FLAGS=--system-site-packages lets gpiozero find apt's python3-lgpio.
VENV_FLAGS ?=

.PHONY: install run test tools bench clean

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml setup.py companion/locale/*/LC_MESSAGES/*.po
	$(PYTHON) -m venv $(VENV_FLAGS) $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

run: $(VENV)/.installed
	$(PY) -m companion run $(ARGS)

test: $(VENV)/.installed tools
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m pytest

# systemd-analyze checks the kiosk's unit; Debian images have it, a bare one may not.
tools:
	@command -v systemd-analyze >/dev/null || { apt-get update -qq && apt-get install -y -qq systemd >/dev/null; } || echo "systemd-analyze unavailable: its unit tests will be skipped"
# Chromium runs the web pages' browser tests (Playwright drives Debian's build: no download).
	@command -v chromium >/dev/null || { apt-get update -qq && apt-get install -y -qq chromium >/dev/null; } || echo "chromium unavailable: the browser tests will be skipped"

bench: $(VENV)/.installed
	$(PY) -m companion bench

clean:
	rm -rf $(VENV) build *.egg-info
