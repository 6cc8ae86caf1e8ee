"""The printable score sheet of one match: an A4 PDF (fpdf2), like the paper sheet.

The table's name (a tournament's "Taula 7", when the kiosk has one), the team names, one
row a hand (trump, doubling, points, scored, running totals), the final totals, the winner
and the date. A game without pairs (the payload has ``"players"``, one label per seat, and
``"seat_sheet"``, its :class:`~kiosk.table.seatstate.SeatRow` list) gets one column per
player: the running total, what the hand scored in brackets, a real minus sign for a loss.
Labels are in the kiosk's current language. No Kivy.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kiosk.table.seatstate import SeatRow
from kiosk.table.state import HandRow
from kiosk.ui.i18n import _
from kiosk.ui.words import LEVELS, level_name, trump_name
FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"),)


def _font_files() -> tuple[Path, Path] | None:
    """DejaVu Sans (fonts-dejavu-core) or Kivy's Roboto: any team name prints. None = core font."""
    for folder in FONT_DIRS:
        regular, bold = folder / "DejaVuSans.ttf", folder / "DejaVuSans-Bold.ttf"
        if regular.exists() and bold.exists():
            return regular, bold
    import importlib.util
    spec = importlib.util.find_spec("kivy")
    if spec and spec.origin:
        fonts = Path(spec.origin).parent / "data" / "fonts"
        regular, bold = fonts / "Roboto-Regular.ttf", fonts / "Roboto-Bold.ttf"
        if regular.exists() and bold.exists():
            return regular, bold
    return None


def _hand_cells(row: HandRow) -> list[str]:
    if row.kind == "misdeal":
        trump = _("Misdeal")
    else:
        trump = trump_name(row.trump)
        if row.delegated:
            trump += " (" + _("delegated") + ")"
    doubling = ""
    if row.doubling in LEVELS:
        doubling = f"{level_name(row.doubling)} ×{row.multiplier}"
    elif row.multiplier > 1:
        doubling = f"×{row.multiplier}"
    if row.kind == "penalty":
        points = _("Penalty")
    elif row.kind == "misdeal":
        points = ""
    else:
        pa, pb = row.points.get("A"), row.points.get("B")
        points = f"{pa if pa is not None else '–'} – {pb if pb is not None else '–'}"
    scored, totals = row.scored, row.totals
    return [str(row.number), trump, doubling, points,
            str(scored.get("A", 0) or ""), str(scored.get("B", 0) or ""),
            str(totals.get("A", 0)), str(totals.get("B", 0))]


def signed(n: int) -> str:
    """−12 with a real minus sign (U+2212), never a bare 12."""
    return f"\u2212{-n}" if n < 0 else str(n)


def _seat_cells(row: SeatRow) -> list[str]:
    """A hand of a game without pairs: #, trump, doubling, then per seat "total (+scored)"."""
    trump = _("Misdeal") if row.kind == "misdeal" else trump_name(row.trump)
    if row.kind == "penalty":
        trump += " · " + _("Penalty")
    doubling = ""
    if row.doubling in LEVELS:
        doubling = f"{level_name(row.doubling)} ×{row.multiplier}"
    elif row.multiplier > 1:
        doubling = f"×{row.multiplier}"
    per_seat = [signed(t) + (f" ({'+' if s > 0 else ''}{signed(s)})" if s else "")
                for s, t in zip(row.scored, row.totals)]
    return [str(row.number), trump, doubling, *per_seat]


def _layout(payload: dict[str, Any]) -> tuple[tuple[float, ...], list[str], list[list[str]], str, str]:
    """The sheet's columns (widths in mm), header, rows, totals line and winner line."""
    winner = payload.get("winner")
    players = payload.get("players")
    if players is not None:  # a game without pairs: one column per player
        width = min(40.0, (190 - 12 - 38 - 24) / max(1, len(players)))
        widths = (12, 38, 24) + (width,) * len(players)
        header = ["#", _("Trump"), "×", *players]
        rows = [_seat_cells(r) for r in payload["seat_sheet"]]
        total = _("Total") + ": " + " · ".join(f"{name} {signed(t)}"
                                               for name, t in zip(players, payload["totals"]))
        won = (_("{name} won").format(name=players[winner])
               if isinstance(winner, int) and 0 <= winner < len(players) else _("The match is not over"))
        return widths, header, rows, total, won
    names, totals = payload["team_names"], payload["totals"]
    widths = (12, 38, 24, 24, 27, 27, 19, 19)
    header = ["#", _("Trump"), "×", _("Points"), f"{names['A']}", f"{names['B']}",
              _("Total") + " A", _("Total") + " B"]
    total = _("Total: {a} {ta} – {tb} {b}").format(a=names["A"], ta=totals["A"], tb=totals["B"], b=names["B"])
    won = _("{name} won").format(name=names[winner]) if winner in ("A", "B") else _("The match is not over")
    return widths, header, [_hand_cells(r) for r in payload["sheet"]], total, won


def sheet_pdf(payload: dict[str, Any]) -> bytes:
    """The PDF bytes for an export payload (see ``HistoryViewModel.export_payload``)."""
    from fpdf import FPDF

    widths, header, rows, total_line, winner_line = _layout(payload)
    pdf = FPDF(orientation="portrait", unit="mm", format="A4")
    pdf.set_auto_page_break(auto=True, margin=15)
    pdf.set_title(_("Botifarra score sheet"))
    fonts = _font_files()
    if fonts:
        pdf.add_font("Sheet", "", str(fonts[0]))
        pdf.add_font("Sheet", "B", str(fonts[1]))
        family = "Sheet"
    else:  # pragma: no cover - every kiosk has Kivy's fonts
        family = "Helvetica"
    pdf.add_page()

    def text(value: str) -> str:
        return value if fonts else value.encode("latin-1", "replace").decode("latin-1")

    pdf.set_font(family, "B", 20)
    pdf.cell(0, 12, text(_("Botifarra score sheet")), new_x="LMARGIN", new_y="NEXT")
    table = str(payload.get("table") or "").strip()
    if table:  # the tournament's table, on its own line: a long name wraps rather than runs off
        pdf.set_font(family, "B", 16)
        pdf.multi_cell(0, 8, text(table), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(family, "", 12)
    pdf.cell(0, 7, text(_("Date: {date}").format(date=payload.get("date") or "")), new_x="LMARGIN", new_y="NEXT")
    sides = payload["players"] if payload.get("players") is not None else \
        [payload["team_names"]["A"], payload["team_names"]["B"]]
    pdf.multi_cell(0, 7, text("  –  ".join(sides)), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(3)

    pdf.set_font(family, "B", 10)
    pdf.set_fill_color(220, 220, 220)
    def fit(value: str, width: float) -> str:
        """Shorten a cell's text (a long team name) to its column, with an ellipsis."""
        value = text(value)
        if pdf.get_string_width(value) <= width - 2:
            return value
        while value and pdf.get_string_width(value + "…") > width - 2:
            value = value[:-1]
        return value + "…"

    for w, h in zip(widths, header):
        pdf.cell(w, 8, fit(h, w), border=1, align="C", fill=True)
    pdf.ln()
    pdf.set_font(family, "", 10)
    for row in rows:
        for i, (w, cell) in enumerate(zip(widths, row)):
            pdf.cell(w, 7, fit(cell, w), border=1, align="L" if i == 1 else "C")
        pdf.ln()
    if not rows:
        pdf.cell(sum(widths), 7, text(_("No hands yet")), border=1, align="C")
        pdf.ln()

    pdf.ln(4)
    pdf.set_font(family, "B", 14)
    pdf.multi_cell(0, 9, text(total_line), new_x="LMARGIN", new_y="NEXT")
    pdf.cell(0, 9, text(winner_line), new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())
