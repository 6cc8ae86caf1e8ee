"""``hand check`` on generated hands (run: python -m tests.bench.bench_hand [HANDS]).

10,000 whole hands dealt and played in code (tests/game/handgen.py), every third one with
one forbidden card; each checked hand is compared with the independent referee (winners,
points, renunci trick/seat/card/proof) and with the card that was injected. Then the same
file through the real command, and every card of 300 hands as the table sees them, one
card at a time (an unfinished hand must never accuse wrongly, and a proof it gives must
be the final one). One core: run under ``taskset -c 1``.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from kiosk.game.handcheck import check_hand, read_played_hand
from tests.game.handgen import Referee, deal_and_play

ROOT = Path(__file__).resolve().parents[2]


def _referee(doc: dict) -> dict:
    rules = doc["rules"]
    return Referee(doc["trump"], rules["play_rule"], rules["three_second"]).judge(doc["tricks"], doc["first_lead"])


def _key(renunci: dict | None) -> tuple | None:
    return None if renunci is None else (renunci["trick"], renunci["seat"], renunci["card"])


def whole_hands(n: int, seed: int = 23) -> tuple[list[str], list[dict]]:
    rng = random.Random(seed)
    drawn = [deal_and_play(rng, renunci=i % 3 == 0) for i in range(n)]
    t = time.perf_counter()
    results = [check_hand(read_played_hand(d.doc)).to_json() for d in drawn]
    spent = time.perf_counter() - t
    count = dict(hands=n, injected=0, caught=0, missed=0, false=0, wrong_proof=0, wrong_play=0)
    for d, got in zip(drawn, results):
        ref = _referee(d.doc)
        count["injected"] += d.renunci is not None
        if (got["winners"], got["points"]) != (ref["winners"], ref["points"]):
            count["wrong_play"] += 1
        if _key(got["renunci"]) != d.renunci or _key(ref["renunci"]) != d.renunci:
            count["missed" if got["renunci"] is None else "false"] += 1
        elif d.renunci is not None:
            if got["renunci"]["proof"] == ref["renunci"]["proof"]:
                count["caught"] += 1
            else:
                count["wrong_proof"] += 1
    print("| whole hands | hands | with one renunci | caught, proof right | missed | false renunci "
          "| wrong proof | wrong winners/points | check per hand |")
    print("|---|---|---|---|---|---|---|---|---|")
    print(f"| generated, seed {seed} | {n} | {count['injected']} | {count['caught']} | {count['missed']} "
          f"| {count['false']} | {count['wrong_proof']} | {count['wrong_play']} | {spent / n * 1000:.2f} ms |\n")
    return [json.dumps(d.doc) for d in drawn], results


def through_the_command(lines: list[str], results: list[dict]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "hands.jsonl"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        t = time.perf_counter()
        p = subprocess.run([sys.executable, "-m", "kiosk", "hand", "check", str(path)], cwd=ROOT,
                           capture_output=True, text=True, timeout=600)
        spent = time.perf_counter() - t
    same = p.returncode == 0 and [json.loads(x) for x in p.stdout.splitlines()] == results
    print("| `hand check FILE` (JSON lines) | hands | exit | same output as in-process | wall time |")
    print("|---|---|---|---|---|")
    print(f"| one file | {len(lines)} | {p.returncode} | {'yes' if same else 'NO'} | {spent:.1f} s |\n")


def card_by_card(n: int = 300, seed: int = 1923) -> None:
    rng = random.Random(seed)
    checks = shown = proven = false = wrong_proof = 0
    waits: list[tuple[int, int]] = []     # per renunci: cards from the one that shows it to the report, to the proof
    t = time.perf_counter()
    for i in range(n):
        drawn = deal_and_play(rng, renunci=i % 2 == 0)
        final = check_hand(read_played_hand(drawn.doc))
        whole = final.to_json()["renunci"]
        flat = [(k, c) for k, trick in enumerate(drawn.doc["tricks"]) for c in trick]
        reported = proof_at = None
        for cards in range(1, 48):
            tricks = [[c for k, c in flat[:cards] if k == j] for j in range(12)]
            got = check_hand(read_played_hand(dict(drawn.doc, tricks=[x for x in tricks if x]))).to_json()
            checks += 1
            r = got["renunci"]
            if r is None:
                continue
            shown += 1
            reported = cards if reported is None else reported
            if _key(r) != _key(whole):
                false += 1
            elif r["proof"] is not None:
                proven += 1
                proof_at = cards if proof_at is None else proof_at
                wrong_proof += r["proof"] != whole["proof"]
        if final.renunci is not None:
            at = [c for _, c in flat].index(final.renunci.shown_by.card.code) + 1
            waits.append(((reported or 48) - at, (proof_at or 48) - at))
    spent = time.perf_counter() - t
    print("| unfinished hands, after each card | checks | renunci shown | with its proof | false renunci "
          "| proof not the final one | per check |")
    print("|---|---|---|---|---|---|---|")
    print(f"| {n} hands, half with one renunci | {checks} | {shown} | {proven} | {false} | {wrong_proof} "
          f"| {spent / checks * 1000:.2f} ms |\n")
    at_once = sum(1 for w, _ in waits if w <= 0)   # < 0: known from the unplayed cards before it
    proof_at_once = sum(1 for _, w in waits if w <= 0)
    later = sorted(w for _, w in waits)
    print("| renuncis (whole hand) | reported by the card that shows it | proof given by that card "
          "| proof later: median / max cards |")
    print("|---|---|---|---|")
    late = [w for w in later if w > 0]
    print(f"| {len(waits)} | {at_once} | {proof_at_once} | "
          f"{(late[len(late) // 2] if late else 0)} / {(late[-1] if late else 0)} |\n")


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    n = int(argv[0]) if argv else 10_000
    lines, results = whole_hands(n)
    through_the_command(lines, results)
    card_by_card()


if __name__ == "__main__":
    main()
