"""Every test run keeps the kiosk's redrawable files (the demo camera's loop) in its own
temporary folder, never in the home directory of whoever runs the tests.

The longest tests start first, one share of them on each worker: ``pytest -n N --dist
worksteal`` hands each worker one contiguous 1/N of the collection and lets an idle worker
steal the end of another's queue. A long test left at the end of a queue would run alone
while the other workers wait (the suite's tail); put at the front of a share, it runs while
the short tests are still there to balance the rest.
"""

from __future__ import annotations

import os

import pytest

# One thread for each library's own pool, in every test process and the programs the tests
# start (set before OpenCV or NumPy is imported: the conftest is read first). `make test` runs
# one worker more than the cores, so a frame split over OpenCV's threads waits for the share
# of a thread the other workers keep off a core: more CPU and more wall for the same pixels.
for _name in ("OPENCV_FOR_THREADS_NUM", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

# Seconds each takes on two loaded cores with a cold frame cache (a full run's --durations):
# only their order depends on these. A test not listed is short and keeps its place.
LONG_S = {
    # each size (the first takes the places and restarts each for real, about 65; the others
    # mostly put the kiosk back warm, about 35)
    "tests/ui/test_double_tap.py::test_double_tap_every_button_of_every_screen": 45,
    "tests/ui/test_tricks.py::test_tricks_read_by_the_trick_camera_from_rendered_frames": 60,
    "tests/ui/test_deck.py::test_a_pile_dealt_face_up_is_counted_and_goes_to_the_confirmation": 34,
    "tests/journal/test_crash.py::test_the_journal_survives_kill_9_hundreds_of_times": 25,
    "tests/ui/test_variant_deal.py::test_each_players_pile_dealt_face_up": 18,
    # (stop 32's durations: long enough to make the suite's tail if one is left at a queue's end)
    "tests/cli/test_seats.py::test_the_seats_are_learnt_from_four_cards_kept_and_checked_at_start": 20,
    "tests/ui/test_variants.py::test_four_each_for_himself_a_whole_match": 19,
    "tests/ui/test_variants.py::test_three_players_a_whole_match": 12,
    "tests/ui/test_rector.py::test_rector_i_vicari_to_the_end_by_points_then_by_cards": 16,
    "tests/ui/test_seats.py::test_the_seats_are_learnt_on_the_screen_and_kept": 16,
    "tests/vision/test_deck_deal.py::test_another_deck_style_is_never_read_as_wrong_cards": 15,
    "tests/deploy/test_organiser_install.py::test_the_organisers_lock_installs_an_organiser_without_kivy_opencv_or_gpio": 14,
    "tests/ui/test_readable.py::test_every_screen_whole_in_catalan_and_spanish": 12,
}


@pytest.fixture(autouse=True, scope="session")
def kiosk_cache_dir(tmp_path_factory):
    before = os.environ.get("BOTIFARRA_CACHE_DIR")
    os.environ["BOTIFARRA_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache"))
    yield
    if before is None:
        os.environ.pop("BOTIFARRA_CACHE_DIR", None)
    else:
        os.environ["BOTIFARRA_CACHE_DIR"] = before


def _long_s(item) -> float:
    return LONG_S.get(item.nodeid.split("[")[0], 0)


def long_first(items: list, workers: int) -> list:
    """``items`` reordered: the long ones shared out over ``workers`` a module at a time (a
    module's long tests on one worker: their module's fixtures are made once, the double-tap
    walk's places among them), the longest module to the share with least so
    far, each share's long ones at its front; the rest in the collection's order. Each share
    holds as many tests as worksteal first hands a worker."""
    modules: dict = {}
    for item in sorted((i for i in items if _long_s(i)), key=_long_s, reverse=True):
        modules.setdefault(item.module, []).append(item)
    if not modules or workers < 1:
        return items
    shares: list[list] = [[] for _ in range(workers)]
    for group in sorted(modules.values(), key=lambda g: sum(map(_long_s, g)), reverse=True):
        min(shares, key=lambda s: sum(map(_long_s, s))).extend(group)
    rest = [i for i in items if not _long_s(i)]
    out: list = []
    left = len(items)
    for k, share in enumerate(shares):
        size = left // (workers - k)  # worksteal's first hand-out: what is pending, split evenly
        left -= size
        take = max(0, size - len(share))
        out += share + rest[:take]
        rest = rest[take:]
    return out + rest


def pytest_collection_modifyitems(config, items):
    workers = getattr(config, "workerinput", {}).get("workercount", 1)
    items[:] = long_first(items, workers)


def pytest_configure(config):
    # the xdist controller, before it starts its workers: the checkout's Python compiled once
    # for them and for the programs the tests start (tests/precompile.py)
    if getattr(config.option, "numprocesses", None) and not hasattr(config, "workerinput"):
        from tests.precompile import precompile

        precompile(config)
