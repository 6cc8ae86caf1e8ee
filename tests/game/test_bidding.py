"""Bidding legality, exhaustively: every sequence of actions up to the end of bidding."""


import pytest

from kiosk.game import PRESETS, Contract, Doubling, IllegalBidError, Trump, team_of

TRUMPS = [t.value for t in Trump]
LEVELS = ["contro", "recontro", "sant_vicenc"]


def all_actions():
    """Every bid event anybody could attempt (legal or not)."""
    acts = [{"type": "play"}]
    for seat in range(4):
        acts.append({"type": "delegate", "seat": seat})
        acts += [{"type": "trump", "seat": seat, "trump": t} for t in TRUMPS]
        acts += [{"type": "double", "seat": seat, "level": lv} for lv in LEVELS]
    return acts


ACTIONS = all_actions()




def oracle(history, action, dealer, rules):
    """Is ``action`` legal after ``history``? Written from RULES.md, not from bidding.py."""
    trump = None
    delegated = False
    level = 0
    closed = False
    for h in history:
        if h["type"] == "delegate":
            delegated = True
        elif h["type"] == "trump":
            trump = h["trump"]
        elif h["type"] == "double":
            level += 1
        elif h["type"] == "play":
            closed = True
    trump_team = team_of(dealer)
    a = action
    if closed:
        return False
    if a["type"] == "play":
        return trump is not None
    if a["type"] == "delegate":
        return trump is None and not delegated and a["seat"] == dealer
    if a["type"] == "trump":
        chooser = (dealer + 2) % 4 if delegated else dealer
        return trump is None and a["seat"] == chooser
    # double
    if trump is None:
        return False
    wanted = LEVELS.index(a["level"]) + 1
    if wanted != level + 1:
        return False
    seat_team = team_of(a["seat"])
    if a["level"] == "recontro":
        return seat_team == trump_team
    if seat_team == trump_team:
        return False
    if a["level"] == "sant_vicenc":
        if rules.sant_vicenc == "never":
            return False
        if rules.sant_vicenc == "not_on_botifarra" and trump == "botifarra":
            return False
    return True


def explore(dealer, rules):
    """Walk every reachable bidding state; check every action against the oracle."""
    count = 0
    stack = [(Contract(dealer), [])]
    while stack:
        c, hist = stack.pop()
        legal = c.legal_bids(rules)
        for a in ACTIONS:
            ok = oracle(hist, a, dealer, rules)
            assert (a in legal) == ok, (hist, a)
            if ok:
                stack.append((c.bid(a, rules), hist + [a]))
                count += 1
            else:
                with pytest.raises(IllegalBidError) as e:
                    c.bid(a, rules)
                assert str(e.value) and isinstance(e.value, ValueError)
    return count


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("dealer", range(4))
def test_every_bidding_sequence_matches_the_rules(preset, dealer):
    assert explore(dealer, PRESETS[preset]) > 100


def test_multiplier_follows_the_bids():
    r = PRESETS["reglament"]
    c = Contract(0).bid({"type": "trump", "seat": 0, "trump": "botifarra"}, r)
    assert (c.multiplier, c.phase, c.trump_team) == (2, "doubling", "A")
    c = c.bid({"type": "double", "seat": 3, "level": "contro"}, r)
    c = c.bid({"type": "double", "seat": 2, "level": "recontro"}, r)
    assert c.multiplier == 8 and c.doubling is Doubling.RECONTRO and c.doubled_by == (3, 2)
    assert c.legal_bids(r) == [{"type": "play"}]
    assert c.bid({"type": "play"}, r).phase == "playing"


def test_delegate_then_partner_chooses():
    r = PRESETS["reglament"]
    c = Contract(1).bid({"type": "delegate", "seat": 1}, r)
    assert c.phase == "delegated" and c.chooser == 3
    assert {b["seat"] for b in c.legal_bids(r)} == {3}
    with pytest.raises(IllegalBidError, match="partner"):
        c.bid({"type": "trump", "seat": 1, "trump": "oros"}, r)


@pytest.mark.parametrize("preset,words", [
    ("reglament", "Sant Vicenç is not allowed when trump is botifarra \\(preset reglament\\)"),
    ("torrefarrera", "not played"),
])
def test_sant_vicenc_messages(preset, words):
    r = PRESETS[preset]
    c = Contract(0)
    for ev in ({"type": "trump", "seat": 0, "trump": "botifarra"},
               {"type": "double", "seat": 1, "level": "contro"},
               {"type": "double", "seat": 0, "level": "recontro"}):
        c = c.bid(ev, r)
    with pytest.raises(IllegalBidError, match=words):
        c.bid({"type": "double", "seat": 1, "level": "sant_vicenc"}, r)


def test_butinet_sant_vicenc_on_botifarra_is_16():
    r = PRESETS["butinet"]
    c = Contract(2)
    for ev in ({"type": "trump", "seat": 2, "trump": "botifarra"},
               {"type": "double", "seat": 3, "level": "contro"},
               {"type": "double", "seat": 0, "level": "recontro"},
               {"type": "double", "seat": 1, "level": "sant_vicenc"}):
        c = c.bid(ev, r)
    assert c.multiplier == 16


@pytest.mark.parametrize("event,words", [
    ({"type": "double", "seat": 0, "level": "contro"}, "after trump"),
    ({"type": "trump", "seat": 1, "trump": "oros"}, "dealer"),
    ({"type": "trump", "seat": 0, "trump": "hearts"}, "unknown trump"),
    ({"type": "trump", "seat": 7, "trump": "oros"}, "seat"),
    ({"type": "play"}, "trump has not been chosen"),
])
def test_illegal_bids_say_why(event, words):
    with pytest.raises(IllegalBidError, match=words):
        Contract(0).bid(event, PRESETS["reglament"])


def test_contro_by_own_team_is_refused():
    r = PRESETS["reglament"]
    c = Contract(0).bid({"type": "trump", "seat": 0, "trump": "oros"}, r)
    with pytest.raises(IllegalBidError, match="other pair"):
        c.bid({"type": "double", "seat": 2, "level": "contro"}, r)
    c = c.bid({"type": "double", "seat": 1, "level": "contro"}, r)
    with pytest.raises(IllegalBidError, match="already"):
        c.bid({"type": "double", "seat": 3, "level": "contro"}, r)
    with pytest.raises(IllegalBidError, match="pair that chose trump"):
        c.bid({"type": "double", "seat": 3, "level": "recontro"}, r)


def test_action_count_is_what_we_think():
    # 1 play + 4 seats x (1 delegate + 5 trumps + 3 doubles)
    assert len(ACTIONS) == 1 + 4 * 9
