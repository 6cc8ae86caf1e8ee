"""Scale and refusal figures of issue 12, each through the real CLI in its own process
(``python -m tests.bench faults``): ``score`` of 100,000 hands, ``import`` of 10,000 hands
into a new journal and ``export`` of it, ``read`` of a valid 20000x20000 PNG (refused from
its header).

Inputs are the hard realistic ones: the doubling ladder up to Sant Vicenç, delegated or
not, penalties and misdeals, a third of the hands with both piles written out card by card
(the biggest hands there are), the rest by points. The PNG is a real one (its 1.2 GB of
pixels compressed), not just a header.

Times: wall clock, and the child's CPU time (user + system; one core: the CLI is
single-threaded), also per hand; on a loaded machine the CPU time is the steadier figure.
Peak RSS is the child's ``ru_maxrss``. The rows with a target are the best of 3 runs.
"""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

from kiosk.game import DECK

ROOT = Path(__file__).resolve().parents[2]
CARDS = [c.code for c in DECK]


def match_json(hands: int) -> dict:
    """A match of ``hands`` hands that ends exactly on its last one, mixing every kind of
    hand the kiosk writes: a third with both piles card by card (the biggest hands), the
    doubling ladder up to Sant Vicenç, delegated choices, penalties and misdeals."""
    out = []
    for i in range(hands):
        trump = ("oros", "copes", "espases", "bastos", "botifarra")[i % 5]
        doubling = ("none", "contro", "recontro", "sant_vicenc")[i % 4]
        if trump == "botifarra" and doubling == "sant_vicenc":
            doubling = "recontro"  # girona: no Sant Vicenç on botifarra
        hand: dict = {"trump": trump, "delegated": i % 7 == 0, "doubling": doubling}
        if i % 23 == 11:
            hand = {"misdeal": True}
        elif i % 17 == 5:
            hand["penalty"] = "AB"[i % 3 == 0]  # B offends more: A stays ahead
        elif i % 3 == 0:
            k = 4 * (6 + i % 4)  # pair A took 6-9 tricks
            hand["piles"] = {"A": CARDS[:k], "B": CARDS[k:]}
        else:
            hand["points"] = {"A": 37 + i % 20}  # A always ahead: no tie at the end
        out.append(hand)
    if out[-1].get("misdeal"):  # the match ends on a counted hand
        out[-1] = {"trump": "oros", "points": {"A": 50}}
    counted = sum(not h.get("misdeal") for h in out)
    return {"rules": {"preset": "girona", "max_hands": counted}, "first_dealer": 0,
            "players": ["Anna", "Pere", "Marta", "Joan"],
            "team_names": {"A": "Nosaltres", "B": "Vosaltres"}, "hands": out}


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def big_png(path: Path, width: int, height: int, *, rows_per_block: int = 256) -> None:
    """A valid RGB PNG of ``width`` x ``height`` (a grey gradient, the same on every row).

    Made in well under a second however big: one block of rows is compressed once and its
    bytes written again and again. It is a complete deflate block of its own that ends on
    a byte boundary (``Z_FULL_FLUSH`` of a fresh raw stream: no reference before its
    start), so the copies follow one another in one valid zlib stream; only the stream's
    Adler-32 checksum runs over all the pixels (combined per block, not recomputed).
    """
    row = b"\0" + (bytes(range(256)) * (width * 3 // 256 + 1))[:width * 3]
    block = row * min(rows_per_block, height)
    full, rest = divmod(height, len(block) // len(row))
    packer = zlib.compressobj(1, zlib.DEFLATED, -15)
    packed = _chunk(b"IDAT", packer.compress(block) + packer.flush(zlib.Z_FULL_FLUSH))
    closer = zlib.compressobj(1, zlib.DEFLATED, -15)
    tail = row * rest
    last = closer.compress(tail) + closer.flush()  # the final block (BFINAL set)
    check, one = 1, zlib.adler32(block)
    for _ in range(full):
        check = _adler32_combine(check, one, len(block))
    check = zlib.adler32(tail, check)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)))
        f.write(_chunk(b"IDAT", b"\x78\x01"))  # zlib header: deflate, 32 KB window
        for _ in range(full):
            f.write(packed)
        f.write(_chunk(b"IDAT", last + struct.pack(">I", check)) + _chunk(b"IEND", b""))


def _adler32_combine(first: int, second: int, second_len: int) -> int:
    """The Adler-32 of two byte strings one after the other, from theirs (zlib's
    ``adler32_combine``, which Python does not expose)."""
    base = 65521
    rem = second_len % base
    s1 = (first & 0xFFFF) + (second & 0xFFFF) + base - 1
    s2 = ((rem * (first & 0xFFFF)) % base + (first >> 16) + (second >> 16) + base - rem)
    return ((s2 % base) << 16) | (s1 % base)


def cli(*args: str) -> tuple[int, float, float, float, str]:
    """(exit status, wall s, CPU s, peak RSS MB, last stderr line) of ``botifarra-kiosk ARGS``."""
    t = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "kiosk", *args], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = proc.stderr.read().decode("utf-8", "replace")
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    proc.returncode = os.waitstatus_to_exitcode(status)
    return (proc.returncode, wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024,
            (err.strip().splitlines() or [""])[-1][:90])


def main() -> None:
    print("| CLI, one process | exit | wall s | CPU s | CPU µs per hand | peak RSS MB | target |")
    print("|---|---|---|---|---|---|---|")

    def row(what: str, hands: int | None, target: str, *runs: list[str]) -> str:
        # the rows with a target: the best of 3 runs by wall time (a busy machine only adds)
        rc, wall, cpu, rss, err = min((cli(*args) for args in runs), key=lambda r: r[1])
        what += f" (best of {len(runs)})" if len(runs) > 1 else ""
        per_hand = f"{cpu / hands * 1e6:.0f}" if hands else ""
        print(f"| {what} | {rc} | {wall:.2f} | {cpu:.2f} | {per_hand} | {rss:.0f} | {target} |",
              flush=True)
        return err

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for hands in (10_000, 100_000):
            f = tmp / f"m{hands}.json"
            f.write_text(json.dumps(match_json(hands)))
            args = ["score", str(f)]
            row(f"score {hands:,} hands ({f.stat().st_size / 2**20:.0f} MB)", hands,
                "<= 5 s" if hands == 100_000 else "", *[args] * (3 if hands == 100_000 else 1))
        dbs = [str(tmp / f"journal{n}.sqlite") for n in range(3)]  # each import: a new journal
        row("import 10,000 hands (new journal)", 10_000, "<= 5 s",
            *[["import", str(tmp / "m10000.json"), "--db", db] for db in dbs])
        row("export that match (10,000 hands)", 10_000, "",
            ["export", "--match", "1", "--db", dbs[0], "-o", str(tmp / "out.json")])
        png = tmp / "big.png"
        start = time.perf_counter()
        big_png(png, 20000, 20000)
        made = time.perf_counter() - start
        err = row(f"read 20000x20000 PNG ({png.stat().st_size / 2**20:.1f} MB file), refused", None,
                  "< 1 s, <= 300 MB", ["read", str(png)])
        print(f"\nread says: `{err}`\n\n(the PNG was written in {made:.2f} s)\n")


if __name__ == "__main__":
    main()
