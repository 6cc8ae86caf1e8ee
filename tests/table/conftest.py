"""The view-model tests read English messages: each starts in English whatever ran before it."""

from tests.english import english  # noqa: F401  (autouse in this folder)
