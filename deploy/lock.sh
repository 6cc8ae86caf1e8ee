#!/usr/bin/env bash
# Make requirements/{run,organiser,test,bench}.txt again from pyproject.toml: exact versions
# with the hashes of every file of each version, resolved for CPython 3.11 on Linux
# (Raspberry Pi OS bookworm arm64 and Debian 12 x86_64 resolve alike; `make pi-check`
# installs the lock on arm64). numpy is held at Debian bookworm's own version
# (requirements/pi-numpy.txt). Each set also holds setuptools (requirements/build.in), which
# builds the project itself at install time without fetching anything unlocked.
#   run.txt       the kiosk (extra `kiosk`): no web server
#   organiser.txt the tournament organiser's app (extra `organiser`): no Kivy, OpenCV or GPIO
#   test.txt      both apps and the test tools; bench.txt: test + the benchmarks'
#   tools.txt     uv, which installs the sets (make setup)
# A version already in a file is kept unless the new constraints refuse it (uv prefers it).
set -euo pipefail
cd "$(dirname "$0")/.."
tools=.venv-lock
if [ ! -x "$tools/bin/uv" ]; then
    python3 -m venv "$tools"
    "$tools/bin/python" -m pip install -q --disable-pip-version-check "uv>=0.5"
fi
common=(--quiet --python-platform aarch64-manylinux_2_36 --python-version 3.11
        --generate-hashes -c requirements/pi-numpy.txt pyproject.toml requirements/build.in)
# a new organiser.txt starts from the kiosk's versions of what they share
[ -s requirements/organiser.txt ] || cp requirements/run.txt requirements/organiser.txt
"$tools/bin/uv" pip compile "${common[@]}" --extra kiosk -o requirements/run.txt
"$tools/bin/uv" pip compile "${common[@]}" --extra organiser -o requirements/organiser.txt
"$tools/bin/uv" pip compile "${common[@]}" --extra kiosk --extra organiser --extra test -o requirements/test.txt
"$tools/bin/uv" pip compile "${common[@]}" --extra kiosk --extra organiser --extra test --extra bench \
    -o requirements/bench.txt
# uv itself, which `make setup` installs the sets with (requirements/tools.in)
"$tools/bin/uv" pip compile "${common[@]:0:6}" requirements/tools.in -o requirements/tools.txt
echo "requirements/run.txt, organiser.txt, test.txt, bench.txt, tools.txt written"
