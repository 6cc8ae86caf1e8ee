"""Run every ``tests/bench/bench_*.py`` module's ``main()`` (each prints a markdown table)."""

from __future__ import annotations

import importlib
import pkgutil
import sys
import time
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    here = Path(__file__).parent
    names = sorted(m.name for m in pkgutil.iter_modules([str(here)]) if m.name.startswith("bench_"))
    if argv:
        names = [n for n in names if any(a in n for a in argv)]
    status = 0
    for name in names:
        start = time.monotonic()
        print(f"## {name}\n", flush=True)
        try:
            importlib.import_module(f"tests.bench.{name}").main()
        except Exception as exc:  # one broken bench must not hide the others
            print(f"{name} failed: {exc!r}\n")
            status = 1
        print(f"_{name}: {time.monotonic() - start:.1f} s_\n", flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
