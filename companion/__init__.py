"""Companion: the table box for Gulag, Politburo, Glasnost and Kolkhoz."""

__version__ = "0.1.0"
