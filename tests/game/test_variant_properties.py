"""Property tests of the games without the pair game's teams (hypothesis):

- every hand's scores add up as the seeds say: four each for himself and three add up to 0
  (before the multiplier, and so after it); rector i vicari: only the player over 36 scores;
- the fold agrees with a hand-by-hand replay written here from the seeds' words;
- folding the events up to any point (a restart) gives the same state as playing them.
"""

from hypothesis import given, settings, strategies as st

from kiosk.game import DECK, DECK_36, Match, MatchStateError, match_from_json
from kiosk.game.variantmatch import VariantMatch

FAST = settings(max_examples=60, deadline=None)
GAMES = {"four_individual": (4, 18, DECK, 4), "three": (3, 24, DECK_36, 3), "two": (2, 36, DECK, 2)}


@st.composite
def dealt_piles(draw, game):
    """The game's deck shared out as captured piles of whole tricks."""
    n, _, deck, size = GAMES[game]
    order = draw(st.permutations([c.code for c in deck]))
    tricks = len(deck) // size
    cuts = sorted(draw(st.lists(st.integers(0, tricks), min_size=n - 1, max_size=n - 1)))
    bounds = [0, *cuts, tricks]
    return [order[bounds[i] * size:bounds[i + 1] * size] for i in range(n)]


@st.composite
def points_72(draw, n):
    cuts = sorted(draw(st.lists(st.integers(0, 72), min_size=n - 1, max_size=n - 1)))
    bounds = [0, *cuts, 72]
    return [bounds[i + 1] - bounds[i] for i in range(n)]


def seed_points(game, piles):
    """Each player's points from his pile as the seeds count them (not the core's code)."""
    n, _, deck, size = GAMES[game]
    value = {9: 5, 1: 4, 12: 3, 11: 2, 10: 1}
    cards = [sum(value.get(int(c[:-1]), 0) for c in p) for p in piles]
    tricks = [len(p) // size for p in piles]
    if game != "two":
        return [c + t for c, t in zip(cards, tricks)]
    trick_points = [t // 2 for t in tricks]
    trick_points[min(range(n), key=lambda i: tricks[i])] += 12 - sum(trick_points)
    return [c + t for c, t in zip(cards, trick_points)]


def seed_scores(game, points, multiplier):
    n, baseline, _, _ = GAMES[game]
    if game == "two":
        return [max(0, p - 36) * multiplier for p in points]
    return [(p - baseline) * multiplier for p in points]


@FAST
@given(st.sampled_from(sorted(GAMES)), st.data())
def test_a_hand_adds_up_as_the_seeds_say(game, data):
    n = GAMES[game][0]
    piles = data.draw(dealt_piles(game))
    trump = data.draw(st.sampled_from(["oros", "copes", "botifarra"]))
    m = VariantMatch.create(game).apply({"type": "trump", "seat": 0, "trump": trump})
    m = m.apply({"type": "hand_scored", "piles": piles})
    h = m.hands[-1]
    assert sum(h.points) == 72 and list(h.points) == seed_points(game, piles)
    if game == "two":
        assert sum(1 for s in h.scored if s > 0) <= 1
    else:
        assert sum(p - GAMES[game][1] for p in h.points) == 0 and sum(h.scored) == 0
    assert len(h.scored) == n


def random_step(data, m):
    """One thing a table could do now (a legal bid, a result, a correction, undo, ...)."""
    n = m.game.players
    options = list(m.legal_bids())
    if m.phase in ("doubling", "playing"):
        options.append({"type": "hand_scored", "points": data.draw(points_72(n)), "source": "points"})
        options.append({"type": "penalty", "offender": data.draw(st.integers(0, n - 1))})
    if m.phase != "over":
        options.append({"type": "misdeal"})
        if not m.time_up and data.draw(st.integers(0, 9)) == 0:
            options.append({"type": "time_up"})
        if data.draw(st.integers(0, 29)) == 0:
            options.append({"type": "match_ended", "reason": "abandoned"})
    if m.can_undo:
        options.append({"type": "undo"})
    if m.can_redo:
        options.append({"type": "redo"})
    if m.hands and m.phase != "over":
        options.append({"type": "edit", "hand": data.draw(st.integers(0, len(m.hands) - 1)),
                        "data": {"trump": "copes", "points": data.draw(points_72(n))}})
    return data.draw(st.sampled_from(options))


def replay(m):
    """The totals and the multipliers hand by hand from the finished hands as entered
    (trump, doubling, points or offender), by the seeds' words."""
    game, rules = m.variant, m.rules
    n, baseline, _, _ = GAMES[game]
    totals = [0] * n
    for h in m.hands:
        if h.kind == "misdeal":
            continue
        mult = (2 if h.trump.value == "botifarra" else 1) * {0: 1, 1: 2, 2: 4, 3: 8}[int(h.doubling)]
        assert h.multiplier == mult
        if h.kind == "penalty":
            if game == "two":
                scored = [0 if s == h.offender else 36 * mult for s in range(n)]
            elif rules.renunci == "share":
                scored = [-baseline * mult if s == h.offender else baseline * mult // (n - 1)
                          for s in range(n)]
            else:
                scored = [-(n - 1) * baseline * mult if s == h.offender else baseline * mult
                          for s in range(n)]
        else:
            scored = seed_scores(game, h.points, mult)
        totals = [t + s for t, s in zip(totals, scored)]
        assert list(h.totals) == totals
    return totals


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(sorted(GAMES)), st.sampled_from(["share", "each"]),
       st.sampled_from([{"target": 73}, {"target": 101}, {"target": None, "max_hands": 4}]),
       st.data())
def test_fold_agrees_with_a_replay_and_a_restart_after_any_event(game, renunci, ends, data):
    m = VariantMatch.create(game, {"renunci": renunci, **ends})
    seen = [m]
    for _ in range(data.draw(st.integers(1, 40))):
        if m.phase == "over" and not m.can_undo:
            break
        step = random_step(data, m)
        try:
            m = m.apply(step)
        except MatchStateError:  # an edit that would end the match before hands played
            assert step["type"] == "edit"
            continue
        seen.append(m)
        assert list(m.totals) == replay(m)
        if m.variant != "two":
            assert all(sum(h.scored) == 0 for h in m.hands) or m.rules.base.points_cap
    events = m.events
    for k, expected in enumerate(seen, start=1):  # a restart after event k
        resumed = Match.from_events(events[:k])
        assert resumed == expected and resumed.phase == expected.phase
        assert resumed.legal_bids() == expected.legal_bids()
    assert match_from_json(m.to_json()).totals == m.totals
