"""Errors of the ordinary-deck reader (under :class:`vision.errors.VisionError`)."""

from vision.errors import VisionError


class DeckError(VisionError, ValueError):
    """A deck that cannot be learnt, stored or read."""


class DeckNotFoundError(DeckError, LookupError):
    """No deck stored under that name."""


class EnrolmentError(DeckError):
    """A card photo that cannot be learnt (missing, no card on the mat, too like another).

    ``reason`` says why a photo was refused ("no_card", "no_edge", "cut", "glare", "two_cards"; None for
    the other errors) and ``where`` where on the photo (a 4x2 quadrilateral, px), if known."""

    def __init__(self, message: str, *, code: str | None = None, reason: str | None = None,
                 where=None) -> None:
        super().__init__(message)
        self.code = code
        self.reason = reason
        self.where = where
