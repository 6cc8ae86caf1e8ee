"""What the commands that fold whole matches at once (``score``, ``import``, ``export``)
share."""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def cycle_collector_paused() -> Iterator[None]:
    """Run the block without Python's cyclic garbage collector. Folding a match makes a
    few small objects per event and no reference cycles: the collector would only walk
    them again and again (a third of the time of a 100,000-hand match). Reference counting
    still frees everything; the collector runs again after the block."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
