"""The checkout's Python compiled once, before the test workers start.

``make test`` runs ``pytest -n 3``: each worker imports every test module while collecting,
and many tests start the kiosk's own programs (``python -m kiosk ...``, the organiser, the
kiosk itself). Where bytecode is not written (``PYTHONDONTWRITEBYTECODE``, as on the
machines the suite's time is measured on, or a fresh clone whose workers all start at
once), every one of those processes compiles the same sources again: each worker about
11 s of CPU for collection alone (the project's modules, and pytest rewriting the asserts
of the 166 test modules and conftests), each program started 0.06 s.

``precompile(config)``, called by the controller (tests/conftest.py) before its workers
start: the project's packages and the tests' helper modules by ``compileall`` (ordinary
pycs in ``__pycache__``, as Python writes them on import by default), and each test module
and conftest as pytest's assertion rewriting caches it (the same rewritten code: pytest's
own ``_rewrite_test``, under the name its import hook reads). Nothing is compiled that is
up to date already. Python reads a pyc only when it matches its source (timestamp and
size, or pytest's source hash), so an edited file is compiled again as usual. If pytest's
internals differ (another version), the test modules are left to the workers, as before.
"""

from __future__ import annotations

import compileall
import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("kiosk", "vision", "organiser", "clubwire", "hardware", "tests")
REWRITTEN = re.compile(r"(^|/)(conftest|test_[^/]*)\.py$")  # pytest's own to cache (below)


def precompile(config) -> None:
    """In two processes (the workers are not started yet: the machine's second core is idle),
    each half of the files."""
    rewrite = config.getoption("assertmode") == "rewrite"
    child = os.fork() if hasattr(os, "fork") else -1
    try:
        for name in PACKAGES[child == 0::2] if child >= 0 else PACKAGES:
            compileall.compile_dir(str(ROOT / name), quiet=2, rx=REWRITTEN, workers=1)
        if rewrite:
            try:
                _rewritten(config, (child == 0, 2) if child >= 0 else (0, 1))
            except Exception:  # pytest's internals changed (not its pinned version): the workers rewrite
                pass
    finally:
        if child == 0:
            os._exit(0)
    if child > 0:
        os.waitpid(child, 0)


def _rewritten(config, share: tuple[int, int]) -> None:
    try:
        from _pytest.assertion.rewrite import (PYC_TAIL, _read_pyc, _rewrite_test, _write_pyc, assertstate_key,
                                               get_cache_dir, try_makedirs)
        from _pytest.pathlib import fnmatch_ex
    except ImportError:
        return
    state = config.stash.get(assertstate_key, None)
    if state is None:
        return
    patterns = config.getini("python_files")
    files = [fn for fn in sorted((ROOT / "tests").rglob("*.py"))
             if fn.name == "conftest.py" or any(fnmatch_ex(p, fn) for p in patterns)]
    for fn in files[share[0]::share[1]]:
        cache = get_cache_dir(fn)
        pyc = cache / (fn.name[:-3] + PYC_TAIL)
        if _read_pyc(fn, pyc) is not None or not try_makedirs(cache):
            continue
        try:
            source_hash, co = _rewrite_test(fn, config)
        except (SyntaxError, ValueError, OSError):
            continue  # the worker's collection reports it
        _write_pyc(state, co, source_hash, pyc)
