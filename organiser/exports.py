"""The standings as CSV and as a printable PDF (fpdf2)."""

from __future__ import annotations

import csv
import io
import time

from organiser.tournament import StandingRow

COLUMNS = ("rank", "pair", "name", "played", "won", "drawn", "lost", "score", "points_for",
           "points_against", "diff", "byes", "provisional")


def standings_csv(rows: list[StandingRow]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(COLUMNS)
    for r in rows:
        writer.writerow([getattr(r, c) if c != "provisional" else ("yes" if r.provisional else "no")
                         for c in COLUMNS])
    return out.getvalue()


def standings_pdf(rows: list[StandingRow], *, title: str, rounds: int, labels: dict[str, str]) -> bytes:
    """A4 portrait, one line per pair; provisional results marked with an asterisk."""
    from fpdf import FPDF

    pdf = FPDF(orientation="P", unit="mm", format="A4")
    pdf.set_auto_page_break(auto=True, margin=15)
    pdf.add_page()
    font = _font(pdf)
    pdf.set_font(font, size=16)
    pdf.cell(0, 10, title, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(font, size=9)
    pdf.cell(0, 6, f"{labels['rounds']}: {rounds} · {time.strftime('%Y-%m-%d %H:%M')}",
             new_x="LMARGIN", new_y="NEXT")
    widths = (10, 62, 14, 14, 14, 14, 18, 18, 16)
    heads = ("#", labels["pair"], labels["won"], labels["drawn"], labels["lost"], labels["score"],
             labels["diff"], labels["points_for"], "")
    pdf.set_font(font, size=10)
    for w, h in zip(widths, heads):
        pdf.cell(w, 7, h, border="B")
    pdf.ln()
    for r in rows:
        cells = (str(r.rank), f"{r.pair}. {r.name}"[:34], str(r.won), str(r.drawn), str(r.lost),
                 f"{r.score:g}", f"{r.diff:+d}", str(r.points_for), "*" if r.provisional else "")
        for w, text in zip(widths, cells):
            pdf.cell(w, 6, text)
        pdf.ln()
    if any(r.provisional for r in rows):
        pdf.ln(3)
        pdf.cell(0, 6, f"* {labels['provisional']}")
    return bytes(pdf.output())


def _font(pdf) -> str:
    """DejaVu (Debian's fonts-dejavu-core) for Catalan letters; the core font otherwise."""
    from pathlib import Path
    path = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    if path.exists():
        pdf.add_font("DejaVu", fname=str(path))
        return "DejaVu"
    return "helvetica"
