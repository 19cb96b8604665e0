"""The setup screens: a game, its options and a language, one row at a time, before a game.

A form starts from the last settings the table played (or abandoned), so a
table that carries on with the same game only presses OK down the rows.
"""

from __future__ import annotations

import copy
from typing import Any

from companion.games import FIRST, GAMES
from companion.table.cursor import cursor_step
from companion.ui import game_ui
from companion.ui.canvas import Screen
from companion.ui.i18n import LANGUAGES, Translate, translator
from companion.valueclass import valueclass

LANGUAGE_NAMES = {"en": "English", "fr": "Français"}


@valueclass
class Settings:
    """What setup chose: the game, its options, the language."""

    game: str = FIRST
    players: int = 7
    lang: str = "en"
    options: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        """The settings as the journal keeps them (``from_json`` reads them back)."""
        options = copy.deepcopy(self.options)  # as ``dataclasses.asdict``: nothing shared
        return {"game": self.game, "players": self.players, "lang": self.lang, "options": options}

    @classmethod
    def from_json(cls, data: Any) -> Settings | None:
        """Settings as the journal keeps them, or None if they do not read as settings."""
        try:
            return cls(**data)
        except TypeError:
            return None


@valueclass
class SetupForm:
    """The rows of the setup screen and the value chosen on each."""

    rows: list[tuple[str, tuple[Any, ...]]]
    values: dict[str, Any]
    row: int = 0

    @classmethod
    def starting_from(cls, last: Settings) -> SetupForm:
        form = cls([], {})
        form._load(last.game if last.game in GAMES else next(iter(GAMES)), last)
        return form

    def _load(self, name: str, last: Settings) -> None:
        """The rows of game ``name``, each on its value in ``last`` if allowed, else the default."""
        ui = game_ui(name)
        self.rows = [("game", tuple(GAMES)), *ui.SETTINGS.items(), ("lang", LANGUAGES)]
        wanted = {"game": name, "players": last.players, "lang": last.lang, **(last.options or {})}
        self.values = {
            key: wanted[key] if wanted.get(key) in values else values[0]
            for key, values in self.rows
        }

    @property
    def t(self) -> Translate:
        return translator(self.values.get("lang", "en"))

    def press(self, button: str) -> Settings | None:
        """A press on the form; the settings when the last row is confirmed."""
        key, values = self.rows[self.row]
        if button in ("up", "down"):
            value = values[cursor_step(values.index(self.values[key]), len(values), button)]
            if key == "game":  # another game keeps the language and, if it can, the players
                self._load(value, Settings(value, self.values["players"], self.values["lang"]))
            else:
                self.values[key] = value
        elif button == "ok":
            if self.row + 1 < len(self.rows):
                self.row += 1
            else:
                options = dict(self.values)
                return Settings(
                    game=options.pop("game"),
                    players=options.pop("players"),
                    lang=options.pop("lang"),
                    options=options,
                )
        elif button == "back" and self.row > 0:
            self.row -= 1
        return None

    def screen(self) -> Screen:
        t = self.t
        lines = []
        first = max(0, min(self.row - 1, len(self.rows) - 3))
        for i, (key, _) in enumerate(self.rows[first : first + 3], start=first):
            marker = "►" if i == self.row else " "
            row = t("{label}: {value}").format(label=self._label(key, t), value=self._value(key, t))
            lines.append(marker + row)
        last = self.row == len(self.rows) - 1
        keys = t("▲▼ change  OK: start") if last else t("▲▼ change  OK: next")
        return Screen(t("New game"), tuple(lines), keys)

    def _label(self, key: str, t: Translate) -> str:
        if key == "game":
            return t("Game")
        if key == "lang":
            return t("Language")
        return game_ui(self.values["game"]).setting_label(key, t)

    def _value(self, key: str, t: Translate) -> str:
        value = self.values[key]
        if key == "game":
            return game_ui(value).TITLE
        if key == "lang":
            return LANGUAGE_NAMES[value]
        return game_ui(self.values["game"]).setting_value(key, value, t)
