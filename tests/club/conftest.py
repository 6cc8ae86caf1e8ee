from __future__ import annotations

import pytest

from tests.club.broker import Broker


@pytest.fixture
def broker_factory(tmp_path):
    """Real mosquitto processes (a missing mosquitto fails the test: `make test` installs it)."""
    started = []

    def make(tables: list[str]) -> Broker:
        broker = Broker(tmp_path / f"broker{len(started)}", tables).start()
        started.append(broker)
        return broker
    yield make
    for broker in started:
        broker.stop()
