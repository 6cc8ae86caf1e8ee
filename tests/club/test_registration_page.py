"""Registration in the organiser's page, in a real headless Chromium against the organiser's
app as a real process: pairs, a late entry and a withdrawal through plain HTML forms, with
the organiser's token, in ca/es/en; a screenshot goes to artifacts/."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.club.chromium import Chromium
from tests.polling import until

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
TOKEN = "s3cret"

pytestmark = pytest.mark.slow


def _until(read, timeout: float = 10.0):
    def settled():
        try:
            return read()
        except RuntimeError:  # the page is navigating: its context is being replaced
            return None

    return until(settled, timeout, pause=0.05)


def _submit(browser: Chromium, form: str, fields: dict) -> None:
    """Fill ``form`` (a CSS selector) as a person would type, then press its button."""
    browser.evaluate(f"""(() => {{
        const f = document.querySelector({json.dumps(form)});
        for (const [k, v] of Object.entries({json.dumps(fields)})) f.elements[k].value = v;
        f.querySelector('button').click(); return true; }})()""")


def _message(browser: Chromium):
    return browser.evaluate("(document.getElementById('message') || {}).textContent")


def _note(browser: Chromium, pair: int):
    return browser.evaluate(f"(document.querySelector('[data-pair=\"{pair}\"] .note') || {{}}).textContent")


def test_pairs_late_entries_and_withdrawals_through_the_page(tmp_path, broker_factory, organiser_factory):
    organiser = organiser_factory(broker_factory([]), token=TOKEN)
    browser = Chromium(tmp_path / "chromium-profile", organiser.base + "/register?lang=ca")
    try:
        assert _until(lambda: browser.evaluate("document.querySelector('h1').textContent")) == \
            "Inscripció de parelles"
        for name, p1, p2 in (("Can Pruna", "Anna", "Pere"), ("Els Tigres", "Joan", "Marta"),
                             ("La Penya", "", "")):
            _submit(browser, "form.add", {"name": name, "player1": p1, "player2": p2, "token": TOKEN})
            assert _until(lambda: _message(browser) == f"Inscrita: {name}."), _message(browser)
        _submit(browser, "form.add", {"name": "Intrús", "token": "wrong"})
        assert _until(lambda: _message(browser) == "La clau de l'organitzador no és correcta.")
        pairs = organiser.get("/api/pairs")
        assert [(p["name"], p["players"]) for p in pairs] == [
            ("Can Pruna", ["Anna", "Pere"]), ("Els Tigres", ["Joan", "Marta"]), ("La Penya", [])]

        assert organiser.post("/api/rounds", {"target": 101, "max_hands": 12, "time_limit_min": 60,
                                              "points_cap": 121})[0] == 201
        browser.navigate(organiser.base + "/register?lang=ca")
        _until(lambda: browser.evaluate("document.readyState === 'complete' && !!document.querySelector('form.add')"))
        _submit(browser, "form.add", {"name": "Cal Rovira", "player1": "Rosa", "token": TOKEN})
        assert _until(lambda: _message(browser) == "Inscrita: Cal Rovira.")
        assert _note(browser, 4) == "inscripció tardana: juga des de la ronda 2"
        _submit(browser, '[data-pair="3"] form', {"token": TOKEN})
        assert _until(lambda: _message(browser) == "Retirada: La Penya.")
        assert _note(browser, 3) == "retirada des de la ronda 2"
        assert not browser.evaluate("!!document.querySelector('[data-pair=\"3\"] form')")

        by_id = {p["id"]: p for p in organiser.get("/api/pairs")}
        assert (by_id[4]["entered_round"], by_id[3]["withdrawn_round"]) == (2, 2)
        plan = organiser.get("/api/rounds/next")
        paired = {x for t in plan["tables"] for x in t} | ({plan["bye"]} if plan["bye"] else set())
        assert paired == {1, 2, 4}  # the late entry plays, the withdrawn pair does not

        for lang, heading in (("es", "Inscripción de parejas"), ("en", "Pair registration")):
            browser.navigate(organiser.base + f"/register?lang={lang}")
            assert _until(lambda: browser.evaluate("(document.querySelector('h1') || {}).textContent") == heading)
        assert _note(browser, 4) == "late entry: plays from round 2"
        shot = browser.screenshot(ARTIFACTS / "club-register-en-1280x720.png", 1280, 720)
        browser.navigate(organiser.base + "/register?lang=ca")
        _until(lambda: browser.evaluate("(document.querySelector('h1') || {}).textContent") == "Inscripció de parelles")
        browser.screenshot(ARTIFACTS / "club-register-ca-1920x1080.png", 1920, 1080)
        assert shot.stat().st_size > 10_000
        assert browser.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    finally:
        browser.close()
