"""Learning photos on real tables (issue 21), read by the product's learning entry point
(``vision.deck.store.learn_photo``: ``learnspot.find_card_on_mat`` then the edge fit).

Per surface (mat, bare felt, glossy wood, white marble; ``tests.realcam.rough.learning``): 48
photos that should all be learnt, one per card, about a third with the lamp's reflection beside
the card. A photo is accepted at the first take when ``learn_photo`` returns an outline whose
corners lie within ``OUTLINE_PX`` of the card's true corners (an outline further off counts
as "accepted, wrong outline"); else it is refused, and the reason given is counted.

Then photos that SHOULD be refused (the card across the photo's edge; the reflection on the
card), to check that a refusal names its true cause: the reason given against the truth.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from kiosk.game import DECK
from tests.realcam.rough.learning import CUT, REFLECTION_ON, SURFACES, learning_photo
from vision.deck.errors import EnrolmentError
from vision.deck.store import learn_photo
from vision.deck.views import order_quad

OUTLINE_PX = 6.0  # at 1080p a card is 230-300 px long
SEED0 = 23_000
# words the true cause's message should carry (the product's messages are English in code)
CAUSE_WORDS = {CUT: ("inside", "edge"), REFLECTION_ON: ("reflection",)}


def _try(image: np.ndarray, truth_quad: np.ndarray) -> tuple[str, str]:
    """("accepted" | "wrong outline" | "refused", the reason given)."""
    return _attempt(image, truth_quad)[:2]


def _attempt(image: np.ndarray, truth_quad: np.ndarray) -> tuple[str, str, bool]:
    """``_try``'s answer, and whether a refusal's place (``where``) overlaps the true card."""
    try:
        quad, _ = learn_photo(image)
    except EnrolmentError as e:
        return "refused", str(e), e.where is not None and _overlaps(np.asarray(e.where), truth_quad)
    err = np.linalg.norm(order_quad(quad) - order_quad(truth_quad), axis=1).max()
    return ("accepted", "", False) if err <= OUTLINE_PX else ("wrong outline", f"corner {err:.0f} px off", False)


def _overlaps(where: np.ndarray, quad: np.ndarray) -> bool:
    """The two outlines' boxes overlap (the card may lie partly outside the photo)."""
    return bool(where[:, 0].max() > quad[:, 0].min() and where[:, 0].min() < quad[:, 0].max()
                and where[:, 1].max() > quad[:, 1].min() and where[:, 1].min() < quad[:, 1].max())


def run(quick: bool, styles: tuple[str, ...]) -> None:
    n = 8 if quick else 48
    print(f"### Learning photos on real tables ({n} a surface, 1080p, gain 1-8, a third with a reflection "
          f"beside the card; `learn_photo`)\n")
    print("| surface | deck | photos | accepted at the first take | with a reflection: accepted | "
          "accepted, wrong outline | refused: reason given (count) |")
    print("|---|---|---|---|---|---|---|")
    for s, surface in enumerate(SURFACES):
        for d, style in enumerate(styles):
            got: Counter = Counter()
            reasons: Counter = Counter()
            refl = refl_ok = 0
            for i in range(n):
                code = DECK[(i * 7) % 48 if quick else i].code  # (quick: cards of every suit)
                photo = learning_photo(code, surface, SEED0 + 1000 * s + 100 * d + i, deck_style=style)
                verdict, reason = _try(photo.image, photo.truth.quad)
                got[verdict] += 1
                if reason and verdict == "refused":
                    reasons[reason] += 1
                if photo.truth.reflection is not None:
                    refl += 1
                    refl_ok += verdict == "accepted"
            why = "; ".join(f"{r} ({k})" for r, k in reasons.most_common()) or "—"
            print(f"| {surface} | {style} | {n} | {got['accepted']} | {refl_ok} of {refl} | {got['wrong outline']} "
                  f"| {why} |", flush=True)
    print("\n| should be refused because (truth) | photos | refused | reason given names the true cause | "
          "shown where the card is | reasons given |\n|---|---|---|---|---|---|")
    k = 2 if quick else 16
    for cause, kwargs in ((CUT, dict(cut=True)), (REFLECTION_ON, dict(reflection_on=True))):
        refused = named = shown = 0
        reasons = Counter()
        for i in range(k):
            photo = learning_photo("5O", SURFACES[i % len(SURFACES)], SEED0 + 9000 + i, **kwargs)
            assert photo.truth.refuse == cause, photo.truth
            verdict, reason, there = _attempt(photo.image, photo.truth.quad)
            if verdict == "refused":
                refused += 1
                shown += there
                reasons[reason] += 1
                named += any(w in reason.lower() for w in CAUSE_WORDS[cause])
        why = "; ".join(f"{r} ({c})" for r, c in reasons.most_common()) or "—"
        print(f"| {cause} | {k} | {refused} | {named} | {shown} | {why} |")
    print()
