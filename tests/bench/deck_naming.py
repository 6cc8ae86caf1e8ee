"""The ordinary-deck classifier alone on rough tables (issue 21): each card of a rough dealing
sequence (tests/realcam/rough) is cut out at its TRUE outline (``FrameTruth.quad``) in one
still frame while it lies on top, and named by ``DeckModel.identify`` as the tracker does
(``views_around``). The tracker's part (finding the outline) is left out, so what is counted
is the classifier's: named right, WRONG, refused and why (``Naming.why``: "score", "suit",
"rank"), and the margin of the true card over its closest rival (whole card, first look).

Under the lamp's reflection (truth ``glare`` >= ``DARK_FROM``) the card is also named in the
darker frame the tracker would ask for (``DARKER_SCALE``), and "either" counts a card named
in one of the two (the tracker tries the darker frame, then the normal one).

``python -m tests.bench.deck_naming [dev|sweep|all|ROW]``: the development set (seeds
31000-31011, 12 cards each, 720p and 1080p in turn, both styles), the sweep's reflection 1.2 and
2.0 on the pile and gain 10 (2 sequences of 12 cards at 720p each), gain 10 at 1080p too; ROW:
the rows whose name starts so ("reflection 1.2"). About 5 minutes in all on a free core.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import sys  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from tests.realcam.rough.dealing import DealSequence, deal_sequence  # noqa: E402
from tests.realcam.rough.nuisances import pushed, realistic_nuisances  # noqa: E402
from vision.deck.darker import DARKER_SCALE  # noqa: E402
from vision.deck.views import local_contrast, views_around  # noqa: E402

DARK_FROM = 0.6  # truth glare on the card from which the tracker takes a darker frame
STYLES = ("fournier", "moderna")


@dataclass
class Tally:
    cards: int = 0
    right: int = 0
    wrong: int = 0
    refused: Counter = field(default_factory=Counter)
    dark_cards: int = 0
    dark_right: int = 0
    dark_wrong: int = 0
    either: int = 0
    margins: list = field(default_factory=list)  # true card's best score - best rival's (normal frame)
    wrong_margins: list = field(default_factory=list)
    wrong_leads: list = field(default_factory=list)  # a refused naming whose best card was wrong: its lead
    ms: list = field(default_factory=list)

    def add(self, other: "Tally") -> None:
        for k in ("cards", "right", "wrong", "dark_cards", "dark_right", "dark_wrong", "either"):
            setattr(self, k, getattr(self, k) + getattr(other, k))
        self.refused.update(other.refused)
        for k in ("margins", "wrong_margins", "wrong_leads", "ms"):
            getattr(self, k).extend(getattr(other, k))


def _true_margin(model, views, code: str) -> float:
    s = (local_contrast(np.stack([v.whole for v in views])) @ model.local.T).max(axis=0)
    per = np.maximum(s[0::2], s[1::2])
    i = model.codes.index(code)
    return float(per[i] - np.delete(per, i).max())


def _name(model, image: np.ndarray, quad: np.ndarray, code: str, t: Tally, dark: bool) -> bool:
    c0 = time.process_time()
    views = views_around(image, quad)
    naming = model.identify(views)
    t.ms.append(1000 * (time.process_time() - c0))
    got = naming.card.code if naming.card is not None else None
    if got is not None and got != code:
        t.wrong_margins.append((code, got, round(naming.margin, 3)))
    if not dark:
        t.margins.append(_true_margin(model, views, code))
    if got is None and naming.best.code != code:
        t.wrong_leads.append(naming.margin)
    if got is None:
        glare = "glare" if views[0].glare > 0 else "clear"
        t.refused[f"{'dark ' if dark else ''}{naming.why} ({glare})"] += 1
    return got == code if got is not None else None


def run_sequence(seq: DealSequence, model, t: Tally, verbose: bool = False, *, post=None, outline=None) -> None:
    """``post(image)``: what the delivered frame goes through first; ``outline(quad, n)``: the
    outline named instead of the true one (both None: as rendered, at the truth)."""
    for i, code in enumerate(seq.truth):
        ns = [n for n in seq.lying_frames(i) if seq.frame_truth[n].still and not seq.frame_truth[n].hand]
        ns = ns or [n for n in seq.lying_frames(i) if seq.frame_truth[n].still]
        if not ns:
            continue
        n = ns[min(1, len(ns) - 1)]  # (the tracker looks once two frames agree)
        ft = seq.frame_truth[n]
        t.cards += 1
        post = post or (lambda image: image)
        quad = outline(ft.quad, n) if outline is not None else ft.quad
        ok = _name(model, post(seq.frame(n).image), quad, code, t, False)
        t.right += ok is True
        t.wrong += ok is False
        ok_dark = None
        if ft.glare >= DARK_FROM:
            t.dark_cards += 1
            ok_dark = _name(model, post(seq.frame(n, exposure_scale=DARKER_SCALE).image), quad, code, t, True)
            t.dark_right += ok_dark is True
            t.dark_wrong += ok_dark is False
        t.either += ok is True or ok_dark is True
        if verbose:
            print(f"<!-- seed {seq.seed} card {i} {code} frame {n} glare {ft.glare:.2f}: {ok} dark {ok_dark} -->")


def dev_set() -> list[DealSequence]:
    out = []
    for k in range(12):
        seed = 31_000 + k
        nu = realistic_nuisances(np.random.default_rng([seed, 1]))
        out.append(deal_sequence(seed, nu, resolution=("720p", "1080p")[k % 2], cards=12,
                                 deck_style=STYLES[k // 2 % 2]))
    return out


def sweep_set() -> dict[str, list[DealSequence]]:
    out = {}
    for name, level, res in (("reflection", 1.2, "720p"), ("reflection", 2.0, "720p"), ("gain", 10.0, "720p"),
                             ("gain", 10.0, "1080p")):
        out[f"{name} {level:g}, {res}"] = [deal_sequence(32_000 + k + 10 * int(level) + 100 * (level == 1.2), pushed(name, level),
                                                         resolution=res, cards=12, deck_style=STYLES[k % 2])
                                           for k in range(2)]
    return out


def row(name: str, t: Tally) -> str:
    if not t.cards:
        return f"| {name} | 0 | | | | | | | | | |"
    m = np.asarray(t.margins) if t.margins else np.zeros(1)
    refused = ", ".join(f"{k} {v}" for k, v in sorted(t.refused.items())) or "—"
    return (f"| {name} | {t.cards} | {t.right} | {t.wrong} | {t.cards - t.right - t.wrong} | {refused} "
            f"| {t.dark_right} of {t.dark_cards} ({t.dark_wrong} wrong) | {t.either} "
            f"| {m.min():.3f} / {np.percentile(m, 5):.3f} / {np.median(m):.3f} "
            f"| {(f'{max(t.wrong_leads):.3f}' if t.wrong_leads else '—')} "
            f"| {np.median(t.ms):.0f} / {np.percentile(t.ms, 99):.0f} |")


HEAD = ("| set | cards | named right | wrong | refused | refused: why (reflection on it?) | darker frame: named "
        "| named in either | true card's margin over the closest rival min / p5 / median "
        "| closest wrong lead (refused) | ms median / p99 |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|")


def start(argv: list[str] | None) -> tuple[str, bool, dict]:
    """A naming bench's start: which set (the first argument, "all" without one), whether to
    print every card (``BENCH_NAMING_VERBOSE=1``), one OpenCV thread, and the learnt decks."""
    from tests.bench.bench_rough import models

    argv = sys.argv[1:] if argv is None else argv
    cv2.setNumThreads(1)
    return (argv[0] if argv else "all"), os.environ.get("BENCH_NAMING_VERBOSE", "0") == "1", models(STYLES)


def main(argv: list[str] | None = None) -> None:
    which, verbose, learnt = start(argv)
    sets: dict[str, list[DealSequence]] = {}
    if which in ("dev", "all"):
        sets["development set (31000-31011)"] = dev_set()
    if which in ("sweep", "all"):
        sets.update(sweep_set())
    if which.startswith("reflection") or which.startswith("gain"):
        sets = {k: v for k, v in sweep_set().items() if k.startswith(which)}
    print(HEAD, flush=True)
    everything = Tally()
    for name, seqs in sets.items():
        t = Tally()
        for seq in seqs:
            run_sequence(seq, learnt[seq.deck_style], t, verbose)
        print(row(name, t), flush=True)
        if t.wrong_margins:
            print(f"<!-- wrong: {t.wrong_margins} -->")
        everything.add(t)
    print(row("**all**", everything))


if __name__ == "__main__":
    main()
