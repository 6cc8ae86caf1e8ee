"""What an export of one match writes (the match JSON and what its PDF sheet prints), for
the pair game and for a game without pairs alike, read from a folded match. No Kivy.

A pair match: ``sheet`` (:class:`~kiosk.table.state.HandRow`), ``team_names`` and
``totals`` by pair, ``winner`` "A"/"B". A game without pairs (four each for himself, three,
rector i vicari) adds ``variant``, ``players`` (one label per seat: the typed name or
"Seat n") and ``seat_sheet`` (:class:`~kiosk.table.seatstate.SeatRow`); its ``totals`` is
one per seat (may be negative) and ``winner`` a seat or None. Both carry ``json``, the
match's ``to_json`` (what ``botifarra-kiosk export`` writes).
"""

from __future__ import annotations

from typing import Any

from kiosk.table.variants import seat_rows
from kiosk.table.pairstate import sheet_of
from kiosk.ui.i18n import _


def seat_label(players, seat: int) -> str:
    name = players[seat] if players and seat < len(players) else None
    return name or _("Seat {n}").format(n=seat + 1)


def seat_totals(players, totals) -> str:
    """ "Anna 12 · Pere −4 · Marta −8": a game without pairs, a minus sign for a loss."""
    return " · ".join(f"{seat_label(players, s)} {t if t >= 0 else chr(0x2212) + str(-t)}"
                      for s, t in enumerate(totals))


def seat_labels(match) -> list[str]:
    """One label per seat of a game without pairs ([] for a pair match or none)."""
    if match is None or match.variant == "pairs":
        return []
    return [seat_label(match.players, s) for s in range(len(match.totals))]


def match_payload(match, team_names: dict[str, str]) -> dict[str, Any]:
    """The match's part of an export payload (the caller adds date, table, file stem)."""
    if match.variant == "pairs":
        return {"json": match.to_json(), "sheet": sheet_of(match), "team_names": team_names,
                "totals": {k: int(match.totals.get(k, 0)) for k in "AB"}, "winner": match.winner}
    totals = [int(t) for t in match.totals]
    return {"json": match.to_json(), "variant": match.variant, "sheet": [],
            "seat_sheet": list(seat_rows(match)), "team_names": team_names,
            "players": seat_labels(match),
            "totals": totals, "winner": match.winner}
