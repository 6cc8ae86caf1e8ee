#!/usr/bin/env bash
# Make requirements/{run,test,bench}.txt again from pyproject.toml: exact versions with the
# hashes of every file of each version, resolved for CPython 3.11 on Linux (Raspberry Pi OS
# bookworm arm64 and Debian 12 x86_64 resolve alike; `make pi-check` installs the lock on
# arm64). numpy is held at Debian bookworm's own version (requirements/pi-numpy.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
tools=.venv-lock
if [ ! -x "$tools/bin/uv" ]; then
    python3 -m venv "$tools"
    "$tools/bin/python" -m pip install -q --disable-pip-version-check "uv>=0.5"
fi
common=(--quiet --python-platform aarch64-manylinux_2_36 --python-version 3.11
        --generate-hashes -c requirements/pi-numpy.txt pyproject.toml)
"$tools/bin/uv" pip compile "${common[@]}" -o requirements/run.txt
"$tools/bin/uv" pip compile "${common[@]}" --extra test -o requirements/test.txt
"$tools/bin/uv" pip compile "${common[@]}" --extra test --extra bench -o requirements/bench.txt
echo "requirements/run.txt, test.txt, bench.txt written"
