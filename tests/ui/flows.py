"""Steps a table does, as touches (shared by the per-screen test files)."""

from __future__ import annotations

from kiosk.game import DECK, Card
from tests.polling import until


def start_match(d, *, dealer: int = 0, target_taps: int = 0) -> None:
    d.tap("new_match")
    for _ in range(target_taps):
        d.tap("target")
    d.tap(f"dealer_{dealer}")
    d.tap("start")
    assert d.screen == "scoreboard"


def bid(d, trump: str, *, delegate: bool = False, levels=(), play: bool = True) -> None:
    """From the scoreboard: choose trump (maybe delegated), say the doublings, start play."""
    d.tap("bidding")
    assert d.screen == "bidding"
    if delegate:
        d.tap("delegate")
        assert d.app.session.state.phase == "delegated"
    d.tap(trump)
    for level in levels:
        d.tap(level)
    if play:
        d.tap("play")
        assert d.screen == "scoreboard" and d.app.session.state.phase == "playing"


def score_points(d, team: str, points: int) -> None:
    d.tap("score_points")
    assert d.screen == "score_points"
    d.tap(f"team_{team}")
    for ch in str(points):
        d.tap(ch)
    d.tap("ok")
    assert d.screen == "confirm"


def score_cards(d, team: str, cards: list[str]) -> None:
    d.tap("score_cards")
    assert d.screen == "score_cards"
    d.tap(f"team_{team}")
    for code in cards:
        d.tap(code, shot=False)
    d.tap("ok")
    assert d.screen == "confirm", d.app.banner.text


def confirm(d) -> None:
    assert d.screen == "confirm"
    d.tap("confirm")


def pile(points_wanted: int) -> list[str]:
    """Some whole tricks whose points (cards + tricks) are at least ``points_wanted``."""
    cards = sorted(DECK, key=lambda c: -c.points)
    chosen: list[Card] = []
    for c in cards:
        chosen.append(c)
        if len(chosen) % 4 == 0 and sum(x.points for x in chosen) + len(chosen) // 4 >= points_wanted:
            break
    return [c.code for c in chosen]


def wait_for(d, condition, timeout: float = 60.0) -> bool:
    """Pump the kiosk until ``condition()`` holds (True) or ``timeout`` seconds pass (False)."""
    return bool(until(condition, timeout, tick=lambda: d.pump(1)))
