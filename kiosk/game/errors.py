"""One exception root for the game core.

Every error also inherits a built-in, so callers that only know ``ValueError`` still
catch bad input (the gpiozero pattern: ``BadWaitTime(GPIOZeroError, ValueError)``).
Messages are written for a person: they say what is wrong and, where it helps, why.
"""


class BotifarraError(Exception):
    """Root of every error raised by :mod:`kiosk.game`."""


class InvalidCardError(BotifarraError, ValueError):
    """A card name that is not one of the deck's (e.g. ``"13O"``, ``"9X"``)."""


class InvalidPileError(BotifarraError, ValueError):
    """A pile that cannot have been captured: not whole tricks, a card twice,
    piles that overlap or do not make the whole deck."""


class IllegalBidError(BotifarraError, ValueError):
    """A bidding action the rules do not allow now (wrong player, wrong moment,
    a doubling the preset forbids)."""


class InvalidScoreError(BotifarraError, ValueError):
    """A hand result that is impossible (points over 72, negative, ...)."""


class IllegalPlayError(BotifarraError, ValueError):
    """A card that may not be played to the current trick."""


class RulesError(BotifarraError, ValueError):
    """Match settings that do not make sense (unknown preset, bad target, ...)."""


class MatchStateError(BotifarraError, RuntimeError):
    """An action that does not fit where the match is (a hand after the end,
    nothing to undo, editing a hand that does not exist)."""
