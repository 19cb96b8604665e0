"""Screens and drawings of a game's public view."""
