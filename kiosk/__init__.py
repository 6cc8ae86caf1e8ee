"""Botifarra table kiosk: scores a botifarra match played with real cards.

Layout (the dependency rule):

- ``kiosk.game``: the pure game core (standard library only).
- ``vision`` and ``hardware``: camera reading and GPIO; they may import ``kiosk.game``.
- the rest of ``kiosk`` (journal, CLI, Kivy UI) composes them.

This module imports nothing heavy, so the CLI and vision start fast.
"""

__version__ = "0.1.0"
APP_NAME = "botifarra-kiosk"
