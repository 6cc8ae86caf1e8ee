# Two commands for a fresh Debian 12 / Raspberry Pi OS Bookworm machine:
#   make run   - install what is missing, then start the kiosk
#   make test  - install what is missing, then run the whole test suite
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
ARTIFACTS := artifacts

# Runtime libraries (Kivy's GL/SDL stack, zbar for QR, fonts) and what the tests use
# (a virtual X screen, pdftoppm, shellcheck, systemd-analyze).
# The SDL2 inside Kivy's wheel loads the X11, KMS/DRM and ALSA (the speaker's cues) libraries
# at run time (dlopen).
DEBS_RUN := libzbar0 libgl1 libgl1-mesa-dri libegl1 libgbm1 libdrm2 libmtdev1 fonts-dejavu-core \
            libx11-6 libxext6 libxcursor1 libxi6 libxrandr2 libxss1 libxfixes3 libasound2
# Debian's python3 needs python3-venv for `python3 -m venv`; a python with ensurepip does not.
ifneq ($(shell $(PYTHON) -c 'import ensurepip, venv' 2>/dev/null && echo ok),ok)
DEBS_RUN += python3-venv
endif
DEBS_TEST := $(DEBS_RUN) xvfb xauth poppler-utils shellcheck systemd mosquitto chromium

.PHONY: run test bench setup setup-test clean
.DEFAULT_GOAL := run

setup:
	@bash deploy/ensure-debs.sh $(DEBS_RUN)
	@$(MAKE) --no-print-directory $(STAMP)

setup-test:
	@bash deploy/ensure-debs.sh $(DEBS_TEST)
	@$(MAKE) --no-print-directory $(STAMP)

# The venv sees the system's site packages only where Picamera2 comes from Debian (a Pi).
$(STAMP): pyproject.toml
	@if [ ! -x $(PY) ]; then \
	  if $(PYTHON) -c 'import picamera2' 2>/dev/null; then \
	    $(PYTHON) -m venv --system-site-packages $(VENV); \
	  else \
	    $(PYTHON) -m venv $(VENV); \
	  fi; \
	fi
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test,bench]'
	@touch $(STAMP)

run: setup
	$(VENV)/bin/botifarra-kiosk run

test: setup-test
	@mkdir -p $(ARTIFACTS)
	xvfb-run -a -s "-screen 0 1920x1080x24" $(PY) -m pytest -q -p no:cacheprovider -n auto

bench: setup-test
	@mkdir -p $(ARTIFACTS)
	xvfb-run -a -s "-screen 0 1920x1080x24" $(PY) -m tests.bench

clean:
	rm -rf $(VENV) $(ARTIFACTS) .pytest_cache
