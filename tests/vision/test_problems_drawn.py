"""A failed check is drawn on the photo of the read: its cards outlined in red
(``ReadResult.annotate(image, problems=...)``, what the evidence photo shows)."""

from kiosk.game import DECK
from vision.result import Problem
from vision.scene import make_scene


def test_failed_checks_are_drawn_on_the_photo(reader):
    scene = make_scene(30, cards=list(DECK[:6]), rotation=0)
    result = reader.read(scene.image)
    problems = [Problem("in_both_piles", f"{DECK[4].code} {DECK[5].code} als dos munts", (DECK[4], DECK[5]))]
    plain = result.annotate(scene.image)
    marked = result.annotate(scene.image, problems=problems)
    assert (marked != plain).any()
    d = result.detections_of(DECK[4])[0]
    x, y = d.corners.mean(axis=0).astype(int)
    ring = marked[max(y - 40, 0):y + 40, max(x - 40, 0):x + 40].reshape(-1, 3)
    assert ((ring[:, 2] > 200) & (ring[:, 1] < 60) & (ring[:, 0] < 60)).any()  # red outline
