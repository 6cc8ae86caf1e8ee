"""Which screen shows: the table's step, unless the people at the table opened an overlay.

The session's state names the step the table is on (``TableState.step``); the app follows it
in its one subscription. The screens the state does not name (the settings, the history, a
hand's photo, the bids before a trump is chosen...) are an overlay the app owns: a tap opens
one, its Back closes it, and any session action closes it (the table is then where the state
says). So the rule is one line: the overlay if any, else the step.
"""

from __future__ import annotations

from enum import StrEnum


class Overlay(StrEnum):
    """A screen shown over the table's step; its value is the screen's name."""
    SCOREBOARD = "scoreboard"    # the sheet, looked at while the bids are open (or after an error)
    BIDDING = "bidding"          # the bids, opened before a trump is chosen
    HISTORY = "history"
    SETTINGS = "settings"
    DIAGNOSTICS = "diagnostics"
    LEARN_DECK = "learn_deck"
    SEATS = "seats"              # trick mode's set-up: where each seat plays
    EVIDENCE = "evidence"        # the photo of the hand being confirmed or edited
    REPLAY = "replay"            # a past hand replayed trick by trick (from the history)


def screen_for(step: str, overlay: Overlay | None, *, reads_deck: bool) -> str:
    """The screen to show. An ordinary deck (``camera.marks = deck:...``) is read by dealing
    it face up: its camera step shows the deal screen."""
    name = overlay.value if overlay is not None else step
    return "deal" if name == "score_camera" and reads_deck else name
