"""The Kivy kiosk: thin screens (``screens/name.py`` + ``name.kv``) bound to view-models
(``viewmodels/``) that call the game core and the journal.

Importing this package does not import Kivy; ``kiosk.ui.app`` does.
"""
