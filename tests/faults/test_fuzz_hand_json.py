"""Property-based fuzz of the played-hand JSON of ``hand check``: 3,000 mutated hands (one
object, or JSON lines of a few) through the CLI's main() in-process: no traceback, exit 0
with one JSON line per hand (a file of one array: one per element), or exit 2 with exactly one printable line on stderr and
nothing on stdout."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings, strategies as st

from tests.faults.test_fuzz_match_json import NASTY, _nodes, _set, run
from tests.game.handgen import deal_and_play

KEYS = ["rules", "trump", "first_lead", "tricks", "preset", "play_rule", "three_second", "target",
        "dealer", "unknown"]
SEED_HANDS = [deal_and_play(random.Random(seed), renunci=seed % 2 == 0).doc for seed in range(6)]


def mutate(rng: random.Random) -> object:
    doc = json.loads(json.dumps(rng.choice(SEED_HANDS)))
    for _ in range(rng.randint(0, 4)):
        path, node = rng.choice(list(_nodes(doc)))
        action = rng.randrange(6)
        if action == 0:
            doc = _set(doc, path, rng.choice(NASTY + ["1O", "9C", "obligat", "lliure", 3, 4, 12]))
        elif action == 1 and isinstance(node, dict) and node:
            del node[rng.choice(list(node))]
        elif action == 2 and isinstance(node, dict):
            node[rng.choice(KEYS)] = rng.choice(NASTY)
        elif action == 3 and isinstance(node, list):
            node.append(json.loads(json.dumps(rng.choice(node) if node else rng.choice(NASTY))))
        elif action == 4 and isinstance(node, list) and node:
            node.pop(rng.randrange(len(node)))
        elif action == 5 and isinstance(node, str) and node:
            i = rng.randrange(len(node))
            doc = _set(doc, path, node[:i] + rng.choice("²９0\x00\u202e\ud800 1") + node[i + 1:])
    return doc


def mutate_bytes(rng: random.Random, text: bytes) -> bytes:
    choice = rng.randrange(4)
    if choice == 0:  # cut short
        return text[:rng.randrange(len(text))]
    if choice == 1:  # invalid UTF-8
        i = rng.randrange(len(text))
        return text[:i] + bytes([rng.choice([0x80, 0xC3, 0xFF, 0xED])]) + text[i:]
    if choice == 2:  # a key twice, deep nesting
        return text.replace(b'"trump":', rng.choice([b'"trump": "oros", "trump":', b'"x": ' + b"[" * 40
                                                     + b"]" * 40 + b', "trump":']), 1)
    i = rng.randrange(len(text))
    return text[:i] + bytes([rng.randrange(256)]) + text[i + 1:]


@settings(max_examples=300, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1))
def test_3000_mutated_hands_exit_0_or_2_with_one_line(seed):
    rng = random.Random(seed)
    for _ in range(10):
        hands = [mutate(rng) for _ in range(rng.choice([1, 1, 3]))]
        text = "\n".join(json.dumps(h, ensure_ascii=rng.random() < 0.5) for h in hands)
        data = text.encode("utf-8", "surrogatepass")
        if rng.random() < 0.3:
            data = mutate_bytes(rng, data)
        rc, out, err = run(["hand", "check", "-"], data)
        assert rc in (0, 2), (rc, err, data[:300])
        if rc == 2:
            assert out == "" and len(err.splitlines()) == 1 and err.endswith("\n"), (err, data[:300])
            assert err[:-1].isprintable(), err
        else:
            assert err == ""
            results = [json.loads(line) for line in out.splitlines()]
            count = len(hands[0]) if len(hands) == 1 and isinstance(hands[0], list) else len(hands)
            assert len(results) == count and all(set(r) == {"winners", "points", "renunci"} for r in results)
