"""The club tests' real processes as pytest fixtures, in one place: ``broker_factory``
(mosquitto with the shipped config) and ``organiser_factory`` (``botifarra-club serve``).
Every one started is stopped at the end of its test. tests/club/conftest.py and the kiosk's
round test (tests/ui) import these fixtures."""

from __future__ import annotations

import pytest

from tests.club.broker import Broker
from tests.club.organiser_proc import Organiser


@pytest.fixture
def broker_factory(tmp_path):
    """Real mosquitto processes (a missing mosquitto fails the test: `make test` installs it).
    ``make(tables, tls=False)``; ``tls=True`` adds an mqtts listener with a certificate made
    by openssl for the test."""
    started: list[Broker] = []

    def make(tables: list[str], **options) -> Broker:
        broker = Broker(tmp_path / f"broker{len(started)}", tables, **options).start()
        started.append(broker)
        return broker
    yield make
    for broker in started:
        broker.stop()


@pytest.fixture
def organiser_factory(tmp_path):
    """The organiser's app as a real process over a broker: ``make(broker, token=None,
    tls=False)``; ``tls=True`` connects to the broker's mqtts listener with its CA file."""
    started: list[Organiser] = []

    def make(broker: Broker, *, token: str | None = None, db_name: str = "club.sqlite",
             tls: bool = False) -> Organiser:
        organiser = Organiser(tmp_path / db_name, broker.tls_url if tls else broker.url,
                              log=tmp_path / f"organiser{len(started)}.log", token=token,
                              ca_file=broker.ca_file if tls else None).start()
        started.append(organiser)
        return organiser
    yield make
    for organiser in started:
        organiser.stop()
