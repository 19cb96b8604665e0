"""Screens: each game's public view drawn on the 128x64 canvas, in English or French.

Every game has a ui module here (``gulag.py`` is the model) that the table
(``companion/table.py``, registry ``UI_MODULES``) drives through these names,
reading the game's views only:

- ``TITLE``; ``SETTINGS``: option -> values, the first the default ("players"
  first); ``setting_label(key, t)``; ``setting_value(key, value, t)``.
- ``status(view, t)``: the top line (turn, score); ``bar(view)``: LEDs lit, 0-10.
- ``role_of(decision, t)``: what the seat asked is about to do (hand-over screen).
- ``tracker(view, t)`` (optional): one more line for the hand-over screen, for a
  track the status line has no room for (Politburo: every seat's influence).
- ``prompt(decision, view, t)``: up to three lines that name the seat and the question.
- ``candidates(decision, view)``: what the Up/Down cursor runs through for an
  open choice (may include refused values, so the refusal is explained);
  ``option_label(option, t)``: how one value is shown.
- ``choice_buttons(decision)``: the two options on the A and B buttons for a
  secret choice, or None.
- ``peek(view, t)``: the private screen shown while PEEK is held (a decision
  of kind "peek").
- ``announcements(before, after, t)``: screens the table must see after a move
  (reveals), each dismissed with OK.
- ``final(view, t)``: the pages of the last screen.

Optional, for games whose open choices need more than ``option_label``:

- ``choice_label(decision, view, option, t)``: the cursor's label (and the
  log's) when the same value means different things in different decisions
  (Glasnost: an int is a board seat when sitting, a player when naming).
- ``option_detail(decision, view, option, t)``: one line about the option
  under the cursor (or None), shown between the prompt's first line and the
  cursor.
- ``refusal(message, t)``: the game's refusal message as shown on screen
  (short enough to fit, translated, still naming the rule); the log keeps
  the game's own message.

``t`` translates an English message (gettext); every literal passed to it
needs an entry in ``locale/fr/LC_MESSAGES/companion.po``.
"""
