"""The table loop: the only place that wires a game to a box.

A press becomes an action, the game checks and applies it, the table asks
the game what to show and whose move it is, and the ui draws it. The table
knows each game only through the contract and the game's ui module.

How the box talks to a table:
- Whenever it waits, the screen says for whom and for what; a seat that is
  not holding the box is first asked to take it ("Pass the box to seat 4").
- Open choices (picks, orders) run a cursor with Up/Down and OK; a refused
  one is explained on screen with the rule it breaks. Back undoes an open
  choice, but never crosses a secret choice or a reveal.
- Secret choices use the A and B buttons under the hood, then OK to commit
  (Back to choose again). Every accepted press gets the same blink and beep,
  and the screens never show what was chosen, so a neighbour learns nothing
  by watching, listening or timing.
- Presses made just before a new prompt appears are dropped, so a double
  press cannot answer a question nobody has read yet.
"""

from __future__ import annotations

import dataclasses
import importlib
import logging
from dataclasses import dataclass
from typing import Any

from companion.box import Box
from companion.box.inputs import Press
from companion.games import Game, IllegalMove, new_game, restore
from companion.store import Journal, JournalError
from companion.ui.canvas import Screen, preload_fonts, render, wrap
from companion.ui.i18n import LANGUAGES, translator

log = logging.getLogger("companion.table")

GUARD = 0.25  # seconds after a new prompt during which presses are dropped
NOTICE = 3.0  # seconds a refusal stays on screen
UI_MODULES = {
    "gulag": "companion.ui.gulag",
    "kolkhoz": "companion.ui.kolkhoz",
    "politburo": "companion.ui.politburo",
    "glasnost": "companion.ui.glasnost",
}


def game_ui(name: str) -> Any:
    return importlib.import_module(UI_MODULES[name])


@dataclass
class Settings:
    """What setup chose: the game, its options, the language."""

    game: str = "gulag"
    players: int = 7
    lang: str = "en"
    options: dict[str, Any] | None = None


class Table:
    """One box at one table, from setup to the last screen and the next game."""

    def __init__(
        self, box: Box, seed: int | None = None, lang: str = "en", journal: Journal | None = None
    ) -> None:
        self.box = box
        self.journal = journal
        preload_fonts()
        self.seed = seed
        self.lang = lang
        self.t = translator(lang)
        self.game: Game | None = None
        self.ui: Any = None
        self.mode = "setup"
        self.setup_rows: list[tuple[str, tuple[Any, ...]]] = []
        self.setup_values: dict[str, Any] = {}
        self.setup_row = 0
        self.holder: int | None = None
        self.cursor = 0
        self.pending: Any = None
        self.announcements: list[Screen] = []
        self.final_page = 0
        self.undo: list[dict[str, Any]] = []
        self.notice: tuple[Screen, float] | None = None
        self.guard_until = 0.0
        self.games_started = 0
        self.ballot_no = 0
        self.handset_seats: tuple[int, ...] = ()
        self.drawn: tuple[Screen, Any] | None = None
        self._begin_setup("gulag")

    # -- setup ---------------------------------------------------------------------
    def _begin_setup(self, name: str) -> None:
        self.ui = game_ui(name)
        self.setup_rows = [
            ("game", tuple(UI_MODULES)),
            *self.ui.SETTINGS.items(),
            ("lang", (self.lang, *(x for x in LANGUAGES if x != self.lang))),
        ]
        self.setup_values = {key: values[0] for key, values in self.setup_rows}
        self.setup_values["game"] = name
        self.setup_row = 0
        self.game = None
        self._enter("setup")

    def start(self, settings: Settings) -> None:
        """Start a game without the setup screens (the kiosk and the demo)."""
        self.lang = settings.lang
        self.t = translator(settings.lang)
        self.ui = game_ui(settings.game)
        options = dict(settings.options or {})
        # A seeded box (demos, tests) still deals each new game differently.
        seed = None if self.seed is None else self.seed + self.games_started
        self.games_started += 1
        self.game = new_game(settings.game, players=settings.players, seed=seed, **options)
        log.info("new %s game, %d players, options %s", settings.game, settings.players, options)
        if self.journal is not None:
            self._journal(
                self.journal.begin,
                settings.game,
                dataclasses.asdict(settings),
                self.game.to_record(),
            )
        self.holder = None
        self.undo = []
        self._next_decision()

    def resume(self) -> bool:
        """Carry on the journal's unfinished game after a power cut; False if there is none."""
        if self.journal is None or (found := self.journal.unfinished()) is None:
            return False
        settings, record = found
        self.lang = settings["lang"]
        self.t = translator(self.lang)
        self.ui = game_ui(settings["game"])
        self.game = restore(record)
        log.info("resumed a %s game from the journal", settings["game"])
        self.holder = None
        self.undo = []
        self._next_decision()
        return True

    def abandon(self) -> None:
        """Give up the game in progress: never resumed; the next setup starts afresh."""
        if self.journal is not None and self.game is not None and not self.game.over:
            self._journal(self.journal.abandon)
        log.info("game abandoned")
        self._begin_setup(self.setup_values.get("game", "gulag"))

    def _journal(self, write: Any, *args: Any) -> None:
        """Write to the journal; a failure is shown, and the game goes on in memory."""
        try:
            write(*args)
        except JournalError as exc:
            log.error("%s", exc)
            self._notice(self.t("Not saved"), str(exc))

    def _saved_step(self) -> None:
        game = self.game
        if self.journal is None or game is None:
            return
        if game.over:
            self._journal(self.journal.step, game.to_record())
            self._journal(self.journal.finish)
        elif game.saveable:
            self._journal(self.journal.step, game.to_record())

    def _setup_press(self, button: str) -> None:
        key, values = self.setup_rows[self.setup_row]
        step = {"up": 1, "down": -1}.get(button)
        if step is not None:
            index = values.index(self.setup_values[key])
            self.setup_values[key] = values[(index + step) % len(values)]
            if key == "game":
                self._begin_setup(self.setup_values["game"])
            elif key == "lang":
                self.t = translator(self.setup_values["lang"])
        elif button == "ok":
            if self.setup_row + 1 < len(self.setup_rows):
                self.setup_row += 1
            else:
                values = dict(self.setup_values)
                self.start(
                    Settings(
                        game=values.pop("game"),
                        players=values.pop("players"),
                        lang=values.pop("lang"),
                        options=values,
                    )
                )
        elif button == "back" and self.setup_row > 0:
            self.setup_row -= 1

    # -- moving through the game -----------------------------------------------------
    def _enter(self, mode: str) -> None:
        """A new prompt: drop presses that were meant for the last one."""
        self.mode = mode
        self.box.inputs.clear()
        self.guard_until = self.box.clock.now() + GUARD

    def _next_decision(self) -> None:
        assert self.game is not None
        d = self.game.decision
        if d is None:
            self.final_page = 0
            self._enter("over")
            log.info("game over: %s", self.game.public_view()["result"])
        elif self._on_handsets(d):
            self._enter_handsets(d)
        elif d.seats[0] != self.holder:
            self._enter("handoff")
        else:
            self._enter_choice()

    def _on_handsets(self, d: Any) -> bool:
        """A secret A/B choice whose every seat has a handset plugged in."""
        handsets = self.box.handsets
        return (
            handsets is not None
            and d.secret
            and d.kind != "peek"
            and self.ui.choice_buttons(d) is not None
            and set(d.seats) <= handsets.seats()
        )

    def _enter_handsets(self, d: Any) -> None:
        """Everyone asked votes at once on their own pad; the box only counts."""
        assert self.box.handsets is not None
        self.ballot_no = self.ballot_no % 255 + 1
        self.handset_seats = tuple(d.seats)
        self.box.handsets.ask(d.seats, self.ballot_no)
        self._enter("handsets")

    def _handset_votes(self) -> None:
        handsets = self.box.handsets
        if handsets is None:
            return
        for vote in handsets.poll():
            game = self.game
            d = game.decision if game is not None else None
            if self.mode != "handsets" or vote.ballot != self.ballot_no or d is None:
                continue
            if vote.seat not in d.seats:
                continue
            a, b = self.ui.choice_buttons(d)
            self.box.outputs.feedback()
            ballot, seats = self.ballot_no, self.handset_seats
            self._act(a if vote.button == 0 else b, seat=vote.seat)
            if self.mode != "handsets" or self.ballot_no != ballot:
                handsets.done(seats, ballot)

    def _enter_choice(self) -> None:
        assert self.game is not None
        d = self.game.decision
        assert d is not None
        self.pending = None
        if d.kind == "peek":
            self._enter("peek")
        elif d.secret and self.ui.choice_buttons(d) is not None:
            self._enter("choose")
        else:
            # Start on the first legal choice, not on a seat the rules refuse.
            self.cursor = self._candidates().index(d.options[0])
            self._enter("cursor")

    def _act(self, choice: Any, seat: int | None = None) -> bool:
        """Play a choice for the seat holding the box (or a handset's seat);
        False (and a notice) if refused."""
        game = self.game
        assert game is not None and game.decision is not None
        d = game.decision
        seat = d.seats[0] if seat is None else seat
        before = game.public_view()
        snapshot = game.to_record() if game.saveable and not d.secret else None
        try:
            game.act(seat, choice)
        except IllegalMove as exc:
            explain = getattr(self.ui, "refusal", None)
            self._refuse(explain(str(exc), self.t) if explain else str(exc), logged=str(exc))
            return False
        if d.secret:
            log.info("seat %d: %s recorded", seat + 1, d.kind)
        else:
            log.info("seat %d: %s %s", seat + 1, d.kind, self._label(d, before, choice, str))
        self._saved_step()
        self.announcements = self.ui.announcements(before, game.public_view(), self.t)
        if d.secret or self.announcements or snapshot is None:
            self.undo = []  # undo never crosses a secret choice or a reveal
        else:
            self.undo.append(snapshot)
        for screen in self.announcements:
            log.info("shown: %s", " / ".join((*screen.body, screen.big or "")))
        if self.announcements:
            self._enter("announce")
        elif self.mode == "handsets" and self._same_ballot(d, game.decision):
            pass  # more votes to come on the handsets
        else:
            self._next_decision()
        return True

    @staticmethod
    def _same_ballot(before: Any, after: Any) -> bool:
        """The decision after a vote is the same ballot with fewer seats left to vote."""
        return (
            after is not None and after.kind == before.kind and set(after.seats) < set(before.seats)
        )

    def _refuse(self, why: str, logged: str | None = None) -> None:
        """Show ``why`` a choice is refused; the log keeps the game's own words (``logged``)."""
        self._notice(self.t("Not allowed"), why)
        log.info("refused: %s", logged or why)

    def _notice(self, title: str, text: str) -> None:
        self.notice = (
            Screen(title, tuple(wrap(text)), self.t("OK")),
            self.box.clock.now() + NOTICE,
        )

    def _label(self, d: Any, view: dict[str, Any], option: Any, t: Any) -> str:
        """How ``option`` is shown: by the decision when the ui module tells options apart so."""
        label = getattr(self.ui, "choice_label", None)
        return label(d, view, option, t) if label else self.ui.option_label(option, t)

    def _undo(self) -> None:
        if not self.undo:
            self._refuse(self.t("Nothing to undo: secret choices and reveals are final."))
            return
        self.game = restore(self.undo.pop())
        self._saved_step()
        log.info("undone: back to %s", self.game.decision.kind if self.game.decision else "end")
        self.holder = self.game.decision.seats[0] if self.game.decision else None
        self._enter_choice()

    # -- presses ---------------------------------------------------------------------
    def handle(self, press: Press) -> None:
        if press.t < self.guard_until:
            return
        if press.kind == "release" and press.button == "peek":
            return  # the peek screen follows the button's level, read at drawing time
        if press.kind == "hold":
            if press.button == "ok" and self.mode == "over":
                self.box.outputs.feedback()
                self._begin_setup(self.setup_values.get("game", "gulag"))
            return
        if press.kind != "press":
            return
        self.box.outputs.feedback()
        if self.notice is not None:
            self.notice = None
            if press.button == "ok":
                return
        button = press.button
        mode = self.mode
        if mode == "setup":
            self._setup_press(button)
        elif mode == "handoff" and button == "ok":
            assert self.game is not None and self.game.decision is not None
            self.holder = self.game.decision.seats[0]
            self._enter_choice()
        elif mode == "choose" and button in ("choice_a", "choice_b"):
            assert self.game is not None and self.game.decision is not None
            a, b = self.ui.choice_buttons(self.game.decision)
            self.pending = a if button == "choice_a" else b
            self._enter("confirm")
        elif mode == "confirm":
            if button == "ok":
                choice, self.pending = self.pending, None
                self._act(choice)
            elif button == "back":
                self.pending = None
                self._enter("choose")
        elif mode == "peek" and button == "ok":
            self._act("seen")
        elif mode == "cursor":
            self._cursor_press(button)
        elif mode == "announce" and button == "ok":
            self.announcements.pop(0)
            if not self.announcements:
                self._next_decision()
            else:
                self._enter("announce")
        elif mode == "over" and button in ("up", "down"):
            self.final_page = (self.final_page + (1 if button == "down" else -1)) % len(
                self._final_screens()
            )

    def _cursor_press(self, button: str) -> None:
        items = self._candidates()
        if button in ("up", "down"):
            self.cursor = (self.cursor + (1 if button == "down" else -1)) % len(items)
        elif button == "ok":
            self._act(items[self.cursor])
        elif button == "back":
            self._undo()

    def _candidates(self) -> list[Any]:
        assert self.game is not None and self.game.decision is not None
        return self.ui.candidates(self.game.decision, self.game.public_view())

    # -- the loop ----------------------------------------------------------------------
    def step(self) -> None:
        """Handle every waiting press, run due blinks, and show the current screen."""
        self._handset_votes()
        while (press := self.box.inputs.take()) is not None:
            self.handle(press)
        now = self.box.clock.now()
        if self.notice is not None and now >= self.notice[1]:
            self.notice = None
        self.box.outputs.tick()
        self.refresh()

    def refresh(self) -> None:
        out = self.box.outputs
        screen = self.screen()
        if self.drawn is None or self.drawn[0] != screen:
            self.drawn = (screen, render(screen))  # an unchanged screen is not drawn again
        out.show(self.drawn[1])
        if self.game is not None:
            out.set_bar(self.ui.bar(self.game.public_view()))
        else:
            out.set_bar(0)
        waiting = self.mode in ("handoff", "choose", "confirm", "peek", "cursor", "handsets")
        out.set_led("status_b", 0.3 if waiting else 0.0)

    # -- screens -----------------------------------------------------------------------
    def screen(self) -> Screen:
        if self.notice is not None:
            return self.notice[0]
        t = self.t
        if self.mode == "setup":
            return self._setup_screen()
        game = self.game
        assert game is not None
        view = game.public_view()
        status = self.ui.status(view, t)
        if self.mode == "over":
            return self._final_screens()[self.final_page]
        if self.mode == "announce":
            return self.announcements[0]
        d = game.decision
        assert d is not None
        seat = d.seats[0]
        if self.mode == "handsets":
            return Screen(
                status,
                (
                    t("Vote on your handsets."),
                    t("Waiting for seat {seats}").format(
                        seats=" ".join(str(s + 1) for s in d.seats)
                    ),
                ),
                t("{n} of {m} in").format(
                    n=len(self.handset_seats) - len(d.seats), m=len(self.handset_seats)
                ),
            )
        if self.mode == "handoff":
            tracker = getattr(self.ui, "tracker", None)  # a track the status line has no room for
            return Screen(
                status,
                (
                    t("Box to seat {n}.").format(n=seat + 1),
                    self.ui.role_of(d, t),
                    *(tracker(view, t) if tracker else ()),
                ),
                t("Seat {n}: press OK").format(n=seat + 1),
            )
        if self.mode == "peek":
            if self.box.inputs.is_down("peek"):
                return self.ui.peek(game.view(seat), t)
            return Screen(status, tuple(self.ui.prompt(d, view, t)), t("Hold PEEK, then OK"))
        if self.mode == "choose":
            a, b = self.ui.choice_buttons(d)
            keys = t("A: {a}  B: {b}").format(
                a=self.ui.option_label(a, t), b=self.ui.option_label(b, t)
            )
            return Screen(status, tuple(self.ui.prompt(d, view, t)), keys)
        if self.mode == "confirm":
            return Screen(
                status,
                (
                    t("Seat {n}: chosen.").format(n=seat + 1),
                    t("OK: play it face down"),
                    t("Back: choose again"),
                ),
                t("OK  Back"),
            )
        items = self._candidates()
        option = items[self.cursor % len(items)]
        lines = list(self.ui.prompt(d, view, t))
        detail = getattr(self.ui, "option_detail", None)
        about = detail(d, view, option, t) if detail else None
        if about is not None:
            lines = [lines[0], about]  # the prompt's first line names the seat
        label = self._label(d, view, option, t)
        return Screen(status, (*lines, f"◄ {label} ►"), t("▲▼ choose  OK  Back"))

    def _setup_screen(self) -> Screen:
        t = self.t
        lines = []
        first = max(0, min(self.setup_row - 1, len(self.setup_rows) - 3))
        for i, (row_key, _) in enumerate(self.setup_rows[first : first + 3], start=first):
            marker = "►" if i == self.setup_row else " "
            value = self.setup_values[row_key]
            lines.append(
                f"{marker}{self._setting_label(row_key)}: {self._setting_value(row_key, value)}"
            )
        last = self.setup_row == len(self.setup_rows) - 1
        keys = t("▲▼ change  OK: start") if last else t("▲▼ change  OK: next")
        return Screen(t("New game"), tuple(lines), keys)

    def _setting_label(self, key: str) -> str:
        t = self.t
        if key == "game":
            return t("Game")
        if key == "lang":
            return t("Language")
        return self.ui.setting_label(key, t)

    def _setting_value(self, key: str, value: Any) -> str:
        if key == "game":
            return game_ui(value).TITLE
        if key == "lang":
            return {"en": "English", "fr": "Français"}[value]
        return self.ui.setting_value(key, value, self.t)

    def _final_screens(self) -> list[Screen]:
        assert self.game is not None
        return self.ui.final(self.game.public_view(), self.t)
