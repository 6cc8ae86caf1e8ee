"""Waiting in tests for something another thread or process does: one loop for all."""

from __future__ import annotations

import time
from typing import Callable, TypeVar

T = TypeVar("T")


def until(predicate: Callable[[], T], timeout: float, *, pause: float = 0.02,
          tick: Callable[[], object] | None = None) -> T | None:
    """Call ``predicate`` until it gives a truthy value (returned) or ``timeout`` seconds
    pass (None). ``tick``: run before each try (a Kivy window's event pump)."""
    deadline = time.monotonic() + timeout
    while True:
        if tick is not None:
            tick()
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            return None
        time.sleep(pause)
