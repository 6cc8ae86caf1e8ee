"""The sizes of the images a :class:`vision.reader.PileReader` searches, watched from outside:
its own detector wrapped, every call passed on unchanged."""

from __future__ import annotations


def watch_searches(reader) -> list[tuple[int, int]]:
    """Wrap ``reader``'s detector; the returned list gets the (width, height) of every image it
    searches from now on (clear it between reads)."""
    real = reader._detector
    searched: list[tuple[int, int]] = []

    class Watching:  # the reader's own detector, the size of every image it searches kept
        def __getattr__(self, name):
            return getattr(real, name)

        def detectMarkers(self, image):
            searched.append(image.shape[1::-1])
            return real.detectMarkers(image)

    reader._detector = Watching()
    return searched
