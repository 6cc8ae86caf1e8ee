"""Errors of club mode (one root; each also inherits the built-in it resembles)."""

from __future__ import annotations


class ClubError(Exception):
    """Root of the club mode's errors."""


class BadTableName(ClubError, ValueError):
    """A table name that cannot be one level of an MQTT topic (or is reserved)."""


class BadBrokerURL(ClubError, ValueError):
    """A broker address that is not ``mqtt://HOST[:PORT]`` or ``mqtts://HOST[:PORT]``."""


class BadMessage(ClubError, ValueError):
    """A club message that is not the JSON its topic carries."""
