"""Diagnostics of the kiosk and its machine, Kivy-free: see :mod:`kiosk.diagnostics.probes`."""
