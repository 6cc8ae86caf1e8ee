"""Errors of the ordinary-deck reader (under :class:`vision.errors.VisionError`)."""

from vision.errors import VisionError


class DeckError(VisionError, ValueError):
    """A deck that cannot be learnt, stored or read."""


class DeckNotFoundError(DeckError, LookupError):
    """No deck stored under that name."""


class EnrolmentError(DeckError):
    """A card photo that cannot be learnt (missing, no card on the mat, too like another)."""

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.code = code
