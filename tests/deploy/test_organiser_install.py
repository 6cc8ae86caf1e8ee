"""The organiser's install as deploy/install-organiser.sh does it, into a fresh venv: its
lock with hashes, then the project without dependencies. ``botifarra-club`` then imports
and answers without Kivy, OpenCV or gpiozero installed (pip's cache keeps a second run
fast; the first one downloads the organiser's few wheels).

The venv is made without a pip of its own and filled by the test venv's pip
(``pip --python``): the same pip, installing the same lock into the same fresh venv, without
ensurepip copying and compiling a second pip first (about 8 s of CPU). Nothing is compiled
to .pyc ahead (``--no-compile``): the imports below compile what they load."""

from __future__ import annotations

import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ("pyproject.toml", "README.md", "kiosk", "vision", "hardware", "clubwire", "organiser")

pytestmark = pytest.mark.slow

CHECK = """
import importlib.util, sys
import organiser.cli, organiser.exports, organiser.link, organiser.tournament, organiser.web
absent = [m for m in ("kivy", "cv2", "gpiozero", "numpy") if importlib.util.find_spec(m) is not None]
loaded = [m for m in ("kivy", "cv2", "gpiozero", "numpy") if m in sys.modules]
print("installed:", absent, "loaded:", loaded)
sys.exit(1 if absent or loaded else 0)
"""


def test_the_organisers_lock_installs_an_organiser_without_kivy_opencv_or_gpio(tmp_path):
    # a copy of the sources, so that the build leaves nothing in the checkout
    src = tmp_path / "src"
    for name in SOURCE:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        else:
            src.mkdir(exist_ok=True)
            shutil.copy2(path, src / name)
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    py = str(env_dir / "bin" / "python")
    pip = [sys.executable, "-m", "pip", "--python", py, "install", "-q", "--disable-pip-version-check",
           "--no-compile"]
    subprocess.run([*pip, "--require-hashes", "-r", str(ROOT / "requirements" / "organiser.txt")],
                   check=True, capture_output=True, timeout=600)
    subprocess.run([*pip, "--no-deps", "--no-build-isolation", str(src)], check=True, capture_output=True,
                   timeout=300)
    checked = subprocess.run([py, "-c", CHECK], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    helped = subprocess.run([str(env_dir / "bin" / "botifarra-club"), "--help"], capture_output=True, text=True,
                            timeout=60, cwd=tmp_path)
    assert helped.returncode == 0 and "serve" in helped.stdout, helped.stderr
