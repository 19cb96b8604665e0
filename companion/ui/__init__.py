"""Screens: each game's public view drawn on the 128x64 canvas, in English or French."""
