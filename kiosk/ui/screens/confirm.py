"""Confirmation of a hand's score: card points + tricks, over 36, × multiplier = scored.
Optionally both pairs must confirm."""

from __future__ import annotations

from kivy.properties import BooleanProperty, ListProperty, StringProperty

from kiosk.ui.i18n import _, contracted, points_text, shown_names, tally
from kiosk.ui.screens.base import KioskScreen, load_kv, trump_name
from kiosk.ui.viewmodels.evidence import current_evidence

load_kv(__file__)


def breakdown_lines(session) -> list[dict]:
    lines = []
    for b in session.state.pending.breakdown:
        if b.card_points is not None and b.tricks is not None:
            source = tally(card_points=b.card_points, tricks=b.tricks, total=b.points)
        elif b.points is not None:
            source = points_text(b.points)
        else:
            source = ""
        if b.scored:
            result = _("{p} − 36 = {over} × {m} = {s}").format(p=b.points, over=b.over, m=b.multiplier, s=b.scored)
        elif b.points is not None and b.points == 36:
            result = _("36: nobody scores")
        else:
            result = _("scores 0")
        lines.append({"team": b.team, "source": source, "result": result, "scored": b.scored})
    return lines


class ConfirmScreen(KioskScreen):
    title = StringProperty("")
    line_a = StringProperty("")
    line_b = StringProperty("")
    result_a = StringProperty("")
    result_b = StringProperty("")
    scored_a = StringProperty("")
    scored_b = StringProperty("")
    both = BooleanProperty(False)
    confirmed = ListProperty([])
    name_a = StringProperty("")
    name_b = StringProperty("")
    has_photo = BooleanProperty(False)
    save_failed = BooleanProperty(False)  # the journal refused the last save: NOT saved
    owner = StringProperty("")            # whose pile was counted, shown big

    def refresh(self) -> None:
        session = self.session
        state = session.state
        if state.pending is None:
            return
        names = shown_names(session.state.team_names)
        self.name_a, self.name_b = names["A"], names["B"]
        c = session.state.contract
        self.title = _("Hand {n}: {trump} ×{m}").format(n=session.state.hand_number, trump=trump_name(c.trump),
                                                        m=c.multiplier)
        lines = {ln["team"]: ln for ln in breakdown_lines(session)}
        self.line_a, self.line_b = lines["A"]["source"], lines["B"]["source"]
        self.result_a, self.result_b = lines["A"]["result"], lines["B"]["result"]
        self.scored_a, self.scored_b = f"+{lines['A']['scored']}", f"+{lines['B']['scored']}"
        self.both = session.state.needs_both
        self.confirmed = list(session.state.draft.confirmed)
        self.has_photo = current_evidence(session) is not None
        self.save_failed = state.last_save.failed
        self.owner = self._owner(state)

    @staticmethod
    def _owner(state) -> str:
        piles = state.pending.result.piles or state.pending.result.points or {}
        team = next(iter(piles), None) if len(piles) == 1 else None
        if team not in ("A", "B"):
            return ""
        return contracted(_("Pile of {name}").format(name=shown_names(state.team_names)[team]))

    def confirm(self, team: str | None = None) -> None:
        self.app.save(self.session.confirm, team)  # the chord plays only once it was committed

    def on_confirm_button(self):
        if not self.both:
            self.confirm()
        return True
