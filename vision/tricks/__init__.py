"""Trick mode's camera side: each card read at its seat as it is played (issue 23)."""

from vision.tricks.reader import TrickAsk, TrickEvent, TrickPlay, TrickReader

__all__ = ["TrickAsk", "TrickEvent", "TrickPlay", "TrickReader"]
