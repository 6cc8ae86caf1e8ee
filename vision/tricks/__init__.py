"""Trick mode's camera side: each card read at its seat as it is played (issue 23)."""

from vision.tricks.reader import TrickAsk, TrickEvent, TrickPlay, TrickReader
from vision.tricks.seats import SeatLearner, check_seats

__all__ = ["SeatLearner", "TrickAsk", "TrickEvent", "TrickPlay", "TrickReader", "check_seats"]
