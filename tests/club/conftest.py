from __future__ import annotations

from tests.club.processes import broker_factory, organiser_factory  # noqa: F401  (fixtures)
