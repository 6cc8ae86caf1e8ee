"""Trick mode's camera side: each card read at its seat as it is played (issue 23)."""

from vision.tricks.events import TrickAsk, TrickEvent, TrickPlay
from vision.tricks.reader import TrickReader
from vision.tricks.seats import SeatLearner, check_seats
from vision.tricks.service import TrickService

__all__ = ["SeatLearner", "TrickAsk", "TrickEvent", "TrickPlay", "TrickReader", "TrickService", "check_seats"]
