"""The printed case: base, lid, privacy hood and A's riser for the box, a case for each handset,
and a coupon to test the fit of the holes.

``layout`` reads ``hardware/panel.toml`` and needs nothing beyond the standard library.
``solids`` (and what builds on it) needs the ``cad`` extra (build123d); nothing the box runs
imports it, so a Pi without the extra plays and checks its wiring as before.
"""
