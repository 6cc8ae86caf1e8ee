# Two commands for a fresh Debian 12 / Raspberry Pi OS Bookworm machine:
#   make run   - install what is missing, then start the kiosk
#   make test  - install what is missing, then run the whole test suite
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
ARTIFACTS := artifacts

# Runtime libraries (Kivy's GL/SDL stack, zbar for QR, fonts) and what the tests use
# (a virtual X screen, pdftoppm, shellcheck, systemd-analyze, mkfs.vfat and losetup for a
# USB stick on a loop device).
# The SDL2 inside Kivy's wheel loads the X11, KMS/DRM and ALSA (the speaker's cues) libraries
# at run time (dlopen).
DEBS_RUN := libzbar0 libgl1 libgl1-mesa-dri libegl1 libgbm1 libdrm2 libmtdev1 fonts-dejavu-core \
            libx11-6 libxext6 libxcursor1 libxi6 libxrandr2 libxss1 libxfixes3 libasound2
# Debian's python3 needs python3-venv for `python3 -m venv`; a python with ensurepip does not.
ifneq ($(shell $(PYTHON) -c 'import ensurepip, venv' 2>/dev/null && echo ok),ok)
DEBS_VENV := python3-venv
endif
DEBS_RUN += $(DEBS_VENV)
DEBS_TEST := $(DEBS_RUN) xvfb xauth poppler-utils shellcheck systemd dosfstools mount mosquitto chromium openssl

# Locked dependency sets (requirements/*.txt, with hashes; `make lock` makes them again):
# run = what the kiosk imports (no web server); organiser = what `botifarra-club` imports (no
# Kivy, OpenCV or GPIO; deploy/install-organiser.sh installs it); test = both apps + the test
# tools (the club tests run the organiser too); bench = test + the benchmarks'.
PIP := $(PY) -m pip install -q --disable-pip-version-check

.PHONY: run test bench setup setup-test setup-bench lock pi-check clean
.DEFAULT_GOAL := run

# $(call install,DEBS,SET): the Debian packages DEBS and the venv's locked wheels of
# requirements/SET.txt, fetched and installed side by side (on a fresh machine both are mostly
# downloads); only python3-venv, when the python lacks it, first. Either failing fails.
define install
	@bash deploy/ensure-debs.sh $(DEBS_VENV)
	+@bash deploy/ensure-debs.sh $(1) & debs=$$!; \
	  $(MAKE) --no-print-directory $(VENV)/.installed-$(2); venv=$$?; \
	  wait $$debs && exit $$venv
endef

setup:
	$(call install,$(DEBS_RUN),run)

setup-test:
	$(call install,$(DEBS_TEST),test)

setup-bench: setup-test
	@$(MAKE) --no-print-directory $(VENV)/.installed-bench

# The venv sees the system's site packages only where Picamera2 comes from Debian (a Pi).
$(VENV)/.created:
	@if [ ! -x $(PY) ]; then \
	  if $(PYTHON) -c 'import picamera2' 2>/dev/null; then \
	    $(PYTHON) -m venv --system-site-packages $(VENV); \
	  else \
	    $(PYTHON) -m venv $(VENV); \
	  fi; \
	fi
	@touch $@

# Exactly the locked versions, each checked against its hash; then the project itself,
# built with the locked setuptools (no build isolation: nothing unlocked is fetched).
# The locked uv installs them (requirements/tools.txt, put in by pip): it fetches the wheels
# side by side and compiles their bytecode on both cores, where pip fetches one after the
# other (a fresh machine's set-up: the wheels 43 s of wall with pip, 8 s with uv; docs/perf.md).
UV := $(VENV)/bin/uv pip install --quiet --python $(PY)
$(VENV)/.installed-%: requirements/%.txt requirements/tools.txt pyproject.toml $(VENV)/.created
	$(PIP) --require-hashes -r requirements/tools.txt
	$(UV) --require-hashes --compile-bytecode -r $<
	$(UV) --no-deps --no-build-isolation -e .
	@touch $@

# Make the lock files again after a change of pyproject.toml's dependencies (needs PyPI).
lock:
	bash deploy/lock.sh

# An emulated Raspberry Pi OS (arm64 Debian bookworm) installs and runs the kiosk.
# Its root gets the run-time libraries of `make run` and a virtual screen.
pi-check:
	PI_CHECK_DEBS="$(DEBS_RUN) xvfb xauth" bash deploy/pi-check/run.sh

run: setup
	$(VENV)/bin/botifarra-kiosk run

# One test worker more than the cores: the UI tests wait on the virtual screen and on the
# programs they start (the CLI, mosquitto, Chromium), leaving a core idle a tenth of the time
# with one worker a core (docs/perf.md, stop 35: 179 % -> 188 % of 2 cores, 11:01 -> 9:39).
TEST_WORKERS ?= $(shell echo $$(( $$(nproc) + 1 )))

test: setup-test
	@mkdir -p $(ARTIFACTS)
	xvfb-run -a -s "-screen 0 1920x1080x24" $(PY) -m pytest -q -p no:cacheprovider -n $(TEST_WORKERS) --dist worksteal

bench: setup-bench
	@mkdir -p $(ARTIFACTS)
	xvfb-run -a -s "-screen 0 1920x1080x24" $(PY) -m tests.bench

clean:
	rm -rf $(VENV) $(ARTIFACTS) .pytest_cache
