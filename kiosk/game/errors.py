"""One exception root for the game core.

Every error also inherits a built-in, so callers that only know ``ValueError`` still
catch bad input (the gpiozero pattern: ``BadWaitTime(GPIOZeroError, ValueError)``).
Messages are written for a person: they say what is wrong and, where it helps, why.

An error keeps its message as a *template* plus *params*, so the kiosk can show it in the
patron's language (``kiosk.messages.explain``); ``str(exc)`` is the English text::

    IllegalBidError("{level} is not allowed when trump is botifarra (preset {preset})",
                    level="sant_vicenc", preset="reglament")

The template (an English ``str.format`` string, literal braces doubled) is the message id
of the translations. A parameter named in :data:`WORD_PARAMS` holds a game word as its
code (``level="sant_vicenc"``, ``trump="copes"``); the English text shows it as
:data:`WORDS` says. A parameter may also be a :class:`Message` (a phrase translated in its
turn, such as :func:`player`). Where an error happened (``hand 3``, ``trick 2, seat 1``)
is kept apart in ``exc.context`` (outermost first), shown as ``"hand 3: "`` in front.
"""

from __future__ import annotations


def N_(template: str) -> str:
    """Mark a message template that is not raised on the spot (a reason, a phrase)."""
    return template


# Parameters that hold a game word by its code -> the kind of word.
WORD_PARAMS: dict[str, str] = {"level": "doubling", "needed": "doubling", "trump": "trump",
                               "suit": "trump", "team": "team", "variant": "variant"}
# The English text of each code (also the message id its translation is found under; N_
# marks each one for Babel's extractor).
WORDS: dict[str, dict[str, str]] = {
    "doubling": {"contro": N_("contro"), "recontro": N_("recontro"), "sant_vicenc": N_("Sant Vicenç")},
    "trump": {"oros": N_("oros"), "copes": N_("copes"), "espases": N_("espases"), "bastos": N_("bastos"),
              "botifarra": N_("botifarra")},
    "team": {"A": N_("A"), "B": N_("B")},
    "variant": {"four individual": N_("four individual"), "three players": N_("three players"),
                "rector i vicari": N_("rector i vicari")},
}
HAND = N_("hand {number}")   # the context match.py adds: ``exc.hand`` is its number


def english_word(name: str, value: object) -> object:
    """How the English text shows parameter ``name`` = ``value``."""
    kind = WORD_PARAMS.get(name)
    if kind is not None and isinstance(value, str):
        return WORDS[kind].get(value, value)
    return value


def render(template: str, params: dict, word=english_word) -> str:
    """``template`` filled with ``params`` (``word(name, value)`` shows each one).

    Never fails: a template that does not fit its params is shown as it is.
    """
    try:
        return template.format(**{k: word(k, v) for k, v in params.items()})
    except (KeyError, IndexError, ValueError, AttributeError, TypeError):
        return template


class Message:
    """A template and its params: one translatable phrase (``str()`` = English)."""

    __slots__ = ("template", "params")

    def __init__(self, template: str, /, **params: object) -> None:
        self.template = template
        self.params = params

    def __str__(self) -> str:
        return render(self.template, self.params)

    def __repr__(self) -> str:
        return f"Message({self.template!r}, **{self.params!r})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Message) and self.template == other.template
                and self.params == other.params)

    def __hash__(self) -> int:
        return hash(self.template)


def player(seat: int, name: str | None = None) -> Message:
    """A player named in a message: ``Anna (seat 2)``, or ``seat 2`` when unnamed."""
    if name:
        return Message(N_("{name} (seat {seat})"), name=name, seat=seat)
    return Message(N_("seat {seat}"), seat=seat)


class BotifarraError(Exception):
    """Root of every error raised by :mod:`kiosk.game`.

    ``BotifarraError(template, *, context=(), **params)``; ``str(exc)`` is the English text.
    """

    def __init__(self, template: str = "", /, *, context: tuple[Message, ...] = (),
                 **params: object) -> None:
        self.message = Message(template, **params)
        self.context = tuple(context)
        super().__init__(self._text())

    def _text(self) -> str:
        return "".join(f"{c}: " for c in self.context) + str(self.message)

    def __str__(self) -> str:
        return self._text()

    @property
    def template(self) -> str:
        return self.message.template

    @property
    def params(self) -> dict:
        return self.message.params

    @property
    def hand(self) -> int | None:
        """The hand the error is about (the ``hand N: `` in front), or None."""
        for c in self.context:
            if c.template == HAND:
                return c.params.get("number")  # type: ignore[return-value]
        return None

    def within(self, template: str, /, **params: object) -> "BotifarraError":
        """The same error said about a place: ``hand 3: ...`` (a new exception)."""
        return type(self)(self.template, context=(Message(template, **params),) + self.context,
                          **self.params)

    @classmethod
    def from_error(cls, err: "BotifarraError") -> "BotifarraError":
        """``err``'s message as this kind of error."""
        return cls(err.template, context=err.context, **err.params)


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
