"""Seats, teams and the roles of each hand.

Seats 0..3 are in playing order: the next player (to play, to deal) is ``seat + 1``, the
one on the right. Partners sit opposite: team A = seats 0 and 2, team B = seats 1 and 3.
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.game.cards import Card, Suit
from kiosk.game.errors import RulesError

SEATS: tuple[int, ...] = (0, 1, 2, 3)
TEAMS: tuple[str, str] = ("A", "B")


class Team:
    """The two pairs, as plain strings (``"A"`` / ``"B"``) so they go straight to JSON."""

    A = "A"
    B = "B"


def check_seat(seat: object) -> int:
    if seat is None:
        raise RulesError("say which seat (0, 1, 2 or 3)")
    if isinstance(seat, bool) or not isinstance(seat, int) or seat not in SEATS:
        raise RulesError("seat {seat!r} does not exist: seats are 0, 1, 2 and 3", seat=seat)
    return seat


def check_team(team: object) -> str:
    if team not in TEAMS:
        raise RulesError("team {team!r} does not exist: teams are 'A' and 'B'", team=team)
    return team  # type: ignore[return-value]


def team_of(seat: int) -> str:
    """Team A = seats 0 and 2, team B = seats 1 and 3."""
    return "A" if check_seat(seat) % 2 == 0 else "B"


def other(team: str) -> str:
    return "B" if check_team(team) == "A" else "A"


def partner(seat: int) -> int:
    return (check_seat(seat) + 2) % 4


def seats_of(team: str) -> tuple[int, int]:
    return (0, 2) if check_team(team) == "A" else (1, 3)


@dataclass(frozen=True, slots=True)
class Roles:
    """Who does what in one hand (repartidor, qui barreja, qui talla, qui surt)."""

    dealer: int
    shuffler: int
    cutter: int
    first_lead: int


def roles_for(dealer: int) -> Roles:
    """The previous dealer (on the dealer's left) shuffles, the dealer's partner cuts,
    the player on the dealer's right leads first."""
    d = check_seat(dealer)
    return Roles(dealer=d, shuffler=(d - 1) % 4, cutter=(d + 2) % 4, first_lead=(d + 1) % 4)


# Tournament mapping: the suit of the turned card names the first dealer, counted from
# the cutter (the player who turns the card).
_TOURNAMENT_DRAW = {Suit.OROS: 1, Suit.COPES: 2, Suit.ESPASES: 3, Suit.BASTOS: 0}


def first_dealer_by_draw(card: Card | Suit | str, *, cutter: int | None = None,
                         assignment: dict[Suit, int] | None = None) -> int:
    """The first dealer of a match from the turned card.

    Either ``assignment`` (each player was given a suit: ``{Suit.OROS: 2, ...}``) or the
    tournament mapping from the ``cutter``: oros -> the cutter's right, copes -> the
    cutter's partner, espases -> the cutter's left, bastos -> the cutter.
    """
    if isinstance(card, str):
        try:
            card = Card.parse(card)
        except ValueError:
            card = Suit.parse(card)
    suit = card.suit if isinstance(card, Card) else card
    if assignment is not None:
        if cutter is not None:
            raise RulesError("give either the suit assignment or the cutter, not both")
        if sorted(assignment.values()) != [0, 1, 2, 3] or set(assignment) != set(Suit):
            raise RulesError("the suit assignment must give each of the four players one suit")
        return assignment[suit]
    if cutter is None:
        raise RulesError("say who turned the card (cutter) or how the suits were assigned")
    return (check_seat(cutter) + _TOURNAMENT_DRAW[suit]) % 4


def holder_of(card: Card | str, hands: dict[int, list[Card]]) -> int:
    """The seat holding ``card`` (the '5 of espases deals' custom: ``holder_of("5E", hands)``)."""
    wanted = Card.parse(card) if isinstance(card, str) else card
    for seat, cards in hands.items():
        if wanted in cards:
            return check_seat(seat)
    raise RulesError("nobody holds {card}", card=wanted.code)
