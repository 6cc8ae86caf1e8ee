"""AppendLog: values never change, whichever value is appended to (branches copy)."""

from __future__ import annotations

import random

from kiosk.game.log import AppendLog


def test_appending_to_an_older_value_leaves_both_as_they_were():
    a = AppendLog([1])
    b = a + (2,)
    c = a + (3,)
    d = b + [4]
    e = b + [5]
    assert list(a) == [1] and list(b) == [1, 2] and list(c) == [1, 3]
    assert list(d) == [1, 2, 4] and list(e) == [1, 2, 5]
    assert b[-1] == 2 and b[:1] == (1,) and (0,) + b == [0, 1, 2]
    assert AppendLog() + () == () and not AppendLog()
    assert list(reversed(d)) == [4, 2, 1] and d == (1, 2, 4) and hash(d) == hash((1, 2, 4))


def test_a_random_tree_of_appends_matches_tuples():
    rng = random.Random(5)
    values = [(AppendLog(), ())]
    for i in range(3000):
        log, tup = rng.choice(values[-5:] if rng.random() < 0.8 else values)
        more = tuple(range(i, i + rng.randint(0, 2)))
        values.append((log + more, tup + more))
    for log, tup in values:
        assert tuple(log) == tup and len(log) == len(tup)
