"""The realistic camera on rough tables (issue 21): sloppy dealing, card shadows, a lamp's
reflection that moves, dim light at high gain, exposure jitter, a hand lingering at the edge,
bare felt, wood, white marble, checked cloths and menus.

A subpackage on purpose: ``tests.realcam.dataset.generator_version`` hashes only
``tests/realcam/*.py``, so adding these modules leaves the old benches' rendered frames valid.
These frames are rendered directly at the delivered size (a fast camera chain of its own,
:mod:`tests.realcam.rough.sensor`): a 12-card 720p sequence renders in seconds, no disk cache.

- :mod:`.nuisances`: what goes wrong, with its strength (``realistic_nuisances(rng)``, ``neat()``);
- :mod:`.dealing`: ``deal_sequence(seed, nuisances, resolution=...)`` -> frames + ground truth;
- :mod:`.surfaces`: ``table_surface(kind, rng)``: mat, felt, wood, marble, gingham, menus;
- :mod:`.learning`: overhead learning photos, one card, with the true reason to refuse one;
- :mod:`.marked`: piles of marked (sticker) cards on hard tables, for the sticker reader's speed.
"""
