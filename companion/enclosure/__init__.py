"""The printed case: base, lid and privacy hood for the box, and a case for each handset.

``layout`` reads ``hardware/panel.toml`` and needs nothing beyond the standard library.
``solids`` (and what builds on it) needs the ``cad`` extra (build123d); nothing the box runs
imports it, so a Pi without the extra plays and checks its wiring as before.
"""
