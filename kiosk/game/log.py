"""``AppendLog``: an immutable sequence whose ``+`` is O(1) along one line of history.

A ``Match`` is never mutated: every event gives a new one with one more event, entry and
hand record. With tuples each of those copies the whole history, so folding a match is
quadratic in its hands (100,000 hands: minutes). An AppendLog shares one list between the
old value and the new one: a value sees only its first ``len`` items, so appending to the
newest value just extends the list. Appending to an older value (a branch: undo, an edit,
a second ``apply`` on the same match) copies its items first, so values never change.
"""

from __future__ import annotations

from itertools import islice
from operator import is_
from typing import Any, Iterable, Iterator

class AppendLog:
    __slots__ = ("_items", "_n")

    def __init__(self, items: Iterable[Any] = ()) -> None:
        self._items = list(items)
        self._n = len(self._items)

    @classmethod
    def _view(cls, items: list, n: int) -> "AppendLog":
        log = cls.__new__(cls)
        log._items, log._n = items, n
        return log

    def __len__(self) -> int:
        return self._n

    def __iter__(self) -> Iterator[Any]:
        return islice(self._items, self._n)  # from the start: no skipping

    def __reversed__(self) -> Iterator[Any]:
        return (self._items[i] for i in range(self._n - 1, -1, -1))

    def __getitem__(self, index):
        if isinstance(index, slice):
            return AppendLog(self._items[:self._n][index])
        if index < 0:
            index += self._n
        if not 0 <= index < self._n:
            raise IndexError("AppendLog index out of range")
        return self._items[index]

    def __add__(self, other: Iterable[Any]) -> "AppendLog":
        more = list(other)
        items, n = self._items, self._n
        if n and len(items) == n:
            # the newest value: extend the shared list (one step under the GIL), then make
            # sure no other thread extended it first; if one did, fall back to a copy
            items.extend(more)
            if all(map(is_, items[n:n + len(more)], more)):  # O(len(more)), at C speed
                return AppendLog._view(items, n + len(more))
        return AppendLog._view(items[:n] + more, n + len(more))

    def __radd__(self, other: Iterable[Any]) -> "AppendLog":
        return AppendLog([*other, *self])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, (AppendLog, tuple, list)):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other))

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"AppendLog({list(self)!r})"
