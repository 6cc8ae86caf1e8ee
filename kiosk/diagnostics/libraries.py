"""The libraries' section of the diagnostics: each library imported, its version read, in a
child process, so that a library that cannot load (or crashes: "Illegal instruction" on an
old Pi) is reported, not fatal. Kivy-free.

One child imports them all in turn (as the kiosk does), saying after each what it found: a
Python interpreter and the libraries they share (NumPy under OpenCV) started once, not once
a library (eight on a Pi took seconds of its CPU each time the screen opened). A library whose
import kills the child or hangs is reported so, and the libraries after it are probed again
in a new child, so one broken library never hides another.
"""

from __future__ import annotations

import os
import selectors
import subprocess
import sys
import tempfile
import time
from typing import NamedTuple


class Library(NamedTuple):
    label: str      # as the report names it
    module: str     # what is imported
    dist: str       # the distribution, for its version when the module has no __version__


LIBRARIES = (
    Library("kivy", "kivy", "kivy"),
    Library("opencv", "cv2", "opencv-python-headless"),
    Library("numpy", "numpy", "numpy"),
    Library("gpiozero", "gpiozero", "gpiozero"),
    Library("lgpio", "lgpio", "lgpio"),
    Library("pyzbar", "pyzbar.pyzbar", "pyzbar"),
    Library("picamera2", "picamera2", "picamera2"),
    Library("pillow", "PIL", "pillow"),
)
TIMEOUT_S = 30  # one library's import

# One line a library, written as soon as it is known: "label<TAB>version" or
# "label<TAB>!<TAB>the exception's last line" (what a traceback ends with).
_PROBE = r"""
import importlib, importlib.metadata as md, os, sys, traceback
report = os.fdopen(os.dup(1), "w")
os.dup2(2, 1)  # what a library prints (Python or C) goes with its errors, not into the report
sys.stdout = sys.stderr
for spec in sys.argv[1:]:
    label, module, dist = spec.split(",")
    try:
        importlib.import_module(module)
        top = importlib.import_module(module.split(".")[0])
        version = getattr(top, "__version__", None)
        if not version:
            try:
                version = md.version(dist)
            except md.PackageNotFoundError:
                version = "?"
        line = f"{label}\t{version}"
    except Exception as exc:
        line = f"{label}\t!\t" + traceback.format_exception_only(exc)[-1].strip()
    print(line.replace("\n", " "), file=report, flush=True)
"""

ENV = {"KIVY_NO_ARGS": "1", "KIVY_NO_CONSOLELOG": "1", "KIVY_NO_FILELOG": "1", "KIVY_NO_CONFIG": "1"}


def probe(libraries: tuple[Library, ...] = LIBRARIES, *, timeout: float = TIMEOUT_S,
          env: dict[str, str] | None = None) -> dict[str, str]:
    """Each library's version, else why it cannot be imported (label -> text), in order."""
    env = dict(os.environ if env is None else env, **ENV)
    found: dict[str, str] = {}
    left = list(libraries)
    while left:
        found.update(_one_child(left, timeout, env))
        left = [lib for lib in left if lib.label not in found]
    return {lib.label: found[lib.label] for lib in libraries}


def _one_child(libraries: list[Library], timeout: float, env: dict[str, str]) -> dict[str, str]:
    """What one child says of ``libraries``, in order, up to the first it cannot finish (that
    one named too: crashed, timed out or failed); the rest are left for another child."""
    found: dict[str, str] = {}
    with tempfile.TemporaryFile() as err:
        child = subprocess.Popen([sys.executable, "-c", _PROBE, *(",".join(lib) for lib in libraries)],
                                 stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=err, env=env)
        try:
            lines, timed_out = _lines(child, timeout, len(libraries))
        finally:
            if child.poll() is None:
                child.kill()
            child.wait()
            child.stdout.close()
        for line in lines:
            label, _, rest = line.partition("\t")
            version, _, error = rest.partition("\t")
            found[label] = f"not importable: {error}" if version == "!" else (version or "?")
        if len(found) < len(libraries):  # the child stopped at this one
            stuck = libraries[len(found)].label
            if timed_out:
                found[stuck] = f"import timed out ({timeout:.0f} s)"
            elif child.returncode < 0:
                found[stuck] = f"import crashed (signal {-child.returncode})"
            else:
                err.seek(0)
                last = (err.read().decode(errors="replace").strip().splitlines() or ["?"])[-1]
                found[stuck] = f"not importable: {last}"
    return found


def _lines(child: subprocess.Popen, timeout: float, count: int) -> tuple[list[str], bool]:
    """The child's lines (up to ``count``), each awaited at most ``timeout`` seconds; and
    whether one did not come in time."""
    lines: list[str] = []
    buf = b""
    fd = child.stdout.fileno()
    with selectors.DefaultSelector() as sel:
        sel.register(fd, selectors.EVENT_READ)
        deadline = time.monotonic() + timeout
        while len(lines) < count:
            if b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                lines.append(line.decode(errors="replace"))
                deadline = time.monotonic() + timeout
                continue
            left = deadline - time.monotonic()
            if left <= 0 or not sel.select(left):
                return lines, True
            chunk = os.read(fd, 65536)
            if not chunk:  # the child ended (crashed, or exited before the last)
                break
            buf += chunk
    return lines, False
