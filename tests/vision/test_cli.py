import json
import subprocess
import sys
from pathlib import Path

from kiosk.game import DECK
from vision.scene import make_scene

ROOT = Path(__file__).resolve().parents[2]


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "kiosk", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_read_json_lists_each_photo_and_all_cards(tmp_path):
    a = make_scene(60, cards=list(DECK[:8]), blur=0.4, glare=0)
    b = make_scene(61, cards=list(DECK[4:12]), blur=0.4, glare=0)
    a.write(tmp_path / "a.jpg")
    b.write(tmp_path / "b.jpg")
    p = _cli("read", tmp_path / "a.jpg", tmp_path / "b.jpg", "--json", "--annotate", tmp_path / "ann")
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert [i["file"] for i in data["images"]] == [str(tmp_path / "a.jpg"), str(tmp_path / "b.jpg")]
    assert set(data["images"][0]["cards"]) == {c.code for c in a.cards}
    assert data["cards"] == [c.code for c in DECK[:12]]
    assert (tmp_path / "ann" / "a_read.jpg").is_file()
    text = _cli("read", tmp_path / "a.jpg")
    assert text.returncode == 0 and text.stdout.startswith(f"{tmp_path / 'a.jpg'}: 8 cards")


def test_read_unreadable_file_is_exit_2_with_one_line(tmp_path):
    bad = tmp_path / "notes.jpg"
    bad.write_text("not a photo")
    for path in (bad, tmp_path / "missing.jpg"):
        p = _cli("read", path)
        assert p.returncode == 2
        assert len(p.stderr.strip().splitlines()) == 1 and str(path) in p.stderr
        assert p.stdout == ""


def test_read_qr_route(tmp_path):
    s = make_scene(62, cards=6, marks="qr", px_per_mm=7.0, blur=0.4, glare=0, rotation=3, offset_mm=(0, 0))
    s.write(tmp_path / "q.jpg")
    p = _cli("read", tmp_path / "q.jpg", "--json", "--marks", "qr")
    assert p.returncode == 0, p.stderr
    got = set(json.loads(p.stdout)["cards"])
    assert got <= {c.code for c in s.allowed} and len(got) >= len(s.cards) - 1


def test_kit_command(tmp_path):
    p = _cli("kit", "--out", tmp_path / "kit")
    assert p.returncode == 0, p.stderr
    kit = json.loads((tmp_path / "kit" / "kit.json").read_text())
    assert kit["sticker_mm"] == 14.0 and len(kit["cards"]) == 48
    for name in ("stickers.pdf", "mat_A3.pdf", "mat_A4.pdf"):
        assert (tmp_path / "kit" / name).read_bytes()[:5] == b"%PDF-"
    bad = _cli("kit", "--out", tmp_path / "k2", "--sticker-mm", "30")
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1


def test_read_with_a_darker_exposure_reads_what_the_glare_hid(tmp_path):
    """The realistic camera under a harsh lamp: the photo alone loses cards to the
    reflection; with the same pile at 0.4x the exposure (--darker) it is read as the kiosk
    reads it, every visible card and none wrong. A --darker count that does not match: exit 2."""
    from tests.realcam.render import render

    kw = dict(mode="1080p", cards=14, layout="spread", lighting="harsh", glare=1.6, distractors=(), height_cm=55)
    shot, dark = render(1, **kw), render(1, exposure_scale=0.4, **kw)
    (tmp_path / "pile.jpg").write_bytes(shot.jpeg)
    (tmp_path / "darker.jpg").write_bytes(dark.jpeg)
    alone = json.loads(_cli("read", tmp_path / "pile.jpg", "--json").stdout)["cards"]
    p = _cli("read", tmp_path / "pile.jpg", "--darker", tmp_path / "darker.jpg", "--json")
    assert p.returncode == 0, p.stderr
    entry = json.loads(p.stdout)["images"][0]
    assert entry["darker"] is True
    assert set(entry["cards"]) == shot.visible and not shot.wrong(set(entry["cards"]))
    assert len(set(alone) & shot.visible) < len(shot.visible)
    bad = _cli("read", tmp_path / "pile.jpg", "--darker", tmp_path / "darker.jpg", tmp_path / "darker.jpg")
    assert bad.returncode == 2 and "--darker" in bad.stderr and len(bad.stderr.strip().splitlines()) == 1
