"""The table loop: the only place that wires a game to a box.

A press becomes an action, the game checks and applies it, the table asks
the game what to show and whose move it is, and the ui draws it. The table
knows each game only through the contract and the game's ui module; what it
waits for is one of the modes of ``companion.table.modes``.

How the box talks to a table:
- Whenever it waits, the screen says for whom and for what; a seat that is
  not holding the box is first asked to take it ("Box to seat 4"). Between
  two hand-overs nothing of another seat's private view is drawn.
- Open choices (picks, orders) run a cursor with Up/Down and OK, the legal
  options first; a refused one is explained on screen with the rule it
  breaks. Back undoes an open choice, but never crosses a secret choice, a
  reveal or a hand-over: at a seat's first prompt it says why it cannot.
- Secret choices use the A and B buttons under the hood, then OK to commit
  (the last of A or B counts; Back to choose again). Every accepted press
  gets the same blink and beep, and the screens never show what was chosen,
  so a neighbour learns nothing by watching, listening or timing.
- A notice (a refusal, a warning) stays until OK, and that OK does nothing
  else; any other press on it says "OK to go on".
- Back acts when it is let go: holding it (1.5 s) asks whether to abandon
  the game, so the gesture's first event does nothing on any screen.
- Presses made just before a new prompt appears are dropped, so a double
  press cannot answer a question nobody has read yet.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from PIL import Image

from companion.box import Box
from companion.box.inputs import Press
from companion.games import Choice, Decision, Game, IllegalMove, new_game, restore
from companion.table.answers import Answerer, Refusal
from companion.table.buttons import Buttons
from companion.table.countdown import ClaimDesk
from companion.table.handsets import HandsetDesk
from companion.table.modes import (
    WAITING,
    Abandon,
    Announce,
    Choose,
    Cursor,
    Handoff,
    Mode,
    Notice,
    Over,
    Peek,
    Setup,
)
from companion.table.record import Record
from companion.table.resume import last_settings
from companion.table.screens import (
    FINAL,
    HANDED_OVER,
    RESUMED,
    REVEALED,
    SECRET,
    abandon_screen,
    no_undo,
    notice_pages,
    unhooded,
)
from companion.table.setup import Settings, SetupForm
from companion.table.watchers import Audience, Step, Watcher
from companion.ui import game_ui
from companion.ui.canvas import Screen, preload_fonts, render
from companion.ui.contract import GameUI
from companion.ui.i18n import translator

if TYPE_CHECKING:  # the journal's module (sqlite3 and the record checks) loads with a journal
    from companion.store import Journal

__all__ = ["Table"]

UNSAVED = "! "  # marks the status line while the journal cannot be written

log = logging.getLogger("companion.table")

GUARD = 0.25  # seconds after a new prompt during which presses are dropped


def in_language(lang: str | None, settings: Settings) -> Settings:
    """``settings`` in the language the table chose at start (``lang``), if it chose one."""
    if lang is None:
        return settings
    return Settings(settings.game, settings.players, lang, settings.options)


def first_settings(lang: str | None, journal: Journal | None) -> Settings:
    """Where setup starts: the journal's last settings (checked), else the defaults; in
    ``lang`` when the table chose one."""
    saved = last_settings(journal) if journal is not None else None
    return in_language(lang, Settings.from_json(saved) or Settings())


def reveal_left(saved: list[dict[str, Any]] | None) -> tuple[Screen, ...]:
    """The reveal a power cut interrupted, to show again (skipped, said, if unreadable)."""
    try:
        return tuple(Screen.from_json(s) for s in saved or ())
    except ValueError as exc:
        log.warning("the reveal on show at the power cut is unreadable (%s): skipped", exc)
        return ()


class Table:
    """One box at one table, from setup to the last screen and the next game."""

    def __init__(
        self,
        box: Box,
        seed: int | None = None,
        lang: str | None = None,
        journal: Journal | None = None,
    ) -> None:
        """``lang``: the table's choice, over the journal's last (else that, else English)."""
        self.box = box
        self.record = Record(
            journal, lambda news: self._notice(self.t("Journal"), news.said(self.t))
        )
        preload_fonts()
        self.seed = seed
        self.lang = lang
        #: the settings of the last game started, resumed or abandoned: the next setup's start
        self.last_settings = first_settings(self.lang, journal)
        self.t = translator(self.last_settings.lang)
        self.game: Game | None = None
        self._now: Step | None = None  # the public view of this step, once worked out
        self.ui: GameUI = game_ui(self.last_settings.game)
        self.mode: Mode = Over()
        self.holder: int | None = None  # the seat that took the box at the last hand-over
        self.ask_to_look = True  # an OK on the first look without PEEK asks once more
        self.undo: list[dict[str, Any]] = []  # records to go back to, this holder's only
        self.undo_stop = HANDED_OVER  # why undo stops where it does: said when Back finds none
        self.notices: list[Screen] = []  # pages of warnings for the next screen
        self.back_down = False  # Back went down on this screen: its release is a press
        self.guard_until = 0.0
        self.games_started = 0
        self.drawn: tuple[Screen, Any] | None = None  # the last screen and its image
        self.check = ClaimDesk(self)  # a question asked in the open, on a countdown
        self.pads = HandsetDesk(self)  # a secret A/B choice on the wired handsets
        self.buttons = Buttons(self)  # the box itself: whoever takes it, for the seats left
        #: the ways of answering, asked in this order; the box's buttons take what is left
        self.answerers: list[Answerer] = [self.check, self.pads, self.buttons]
        self.watchers = Audience()  # the TV and whatever else only listens
        self.shown: Image.Image | None = None  # a picture on the panel until a press (a QR code)
        self._begin_setup()

    def join(self, answerer: Answerer) -> None:
        """Another way of answering: asked after those already here, before the box."""
        self.answerers.insert(len(self.answerers) - 1, answerer)

    def watch(self, watcher: Watcher) -> None:
        """A listener (the TV, a scoreboard): told of every event from the next refresh on."""
        self.watchers.add(watcher)

    # -- the public view of this step ------------------------------------------------
    def now(self) -> Step:
        """This step's public view, worked out once after the step and handed to every
        screen (the OLED, the LEDs, the countdown, the phones, the watchers)."""
        self._now = Step.of(self.game, self.ui, self.t, self._now)
        return self._now

    # -- starting, resuming, abandoning ------------------------------------------------
    def _begin_setup(self) -> None:
        self.game = None
        self.release()
        form = SetupForm.starting_from(self.last_settings)
        self.ui = game_ui(form.values["game"])
        self.enter(Setup(form))

    def start(self, settings: Settings) -> None:
        """Start a game without the setup screens (the kiosk and the demo)."""
        self.last_settings = settings
        self.t = translator(settings.lang)
        self.ui = game_ui(settings.game)
        options = dict(settings.options or {})
        # A seeded box (demos, tests) still deals each new game differently.
        seed = None if self.seed is None else self.seed + self.games_started
        self.games_started += 1
        self.game = new_game(settings.game, players=settings.players, seed=seed, **options)
        log.info("new %s game, %d players, options %s", settings.game, settings.players, options)
        self.record.begin(self.game, settings.to_json())
        self.watchers.began(self.record.key(), resumed=False)
        opening = self.ui.opening(self.now().public, self.t)  # e.g. the board to lay out
        if opening:
            self.holder = None
            self._saved_step(opening)
            self.enter(Announce(tuple(opening)))
        else:
            self.release()  # nobody holds the box yet: the first prompt needs a hand-over
            self._next_decision()

    def resume(self, stopped: tuple[int, str] | None = None) -> bool:
        """Carry on the journal's unfinished game; False if none (``stopped``: failed in play)."""
        found = self.record.resume(stopped)
        self.record.news()
        if found is None:
            if self.notices:
                self.enter(self.mode)  # what the journal said, over the setup screen
            return False
        saved = Settings.from_json(found.settings)
        self.last_settings = in_language(self.lang, saved) if saved else self.last_settings
        self.t = translator(self.last_settings.lang)
        self.ui = game_ui(found.game.name)
        self.game = found.game
        log.info("resumed a %s game from the journal at step %d", found.game.name, found.step)
        earlier = self.record.reveals() if self.watchers else ()
        self.watchers.began(self.record.key(), resumed=True, earlier=earlier)
        self.undo_stop = RESUMED  # until a step is played after the power cut
        shown = reveal_left(found.shown)
        if shown:
            self.release()
            self.enter(Announce(shown))
        else:
            d = found.game.decision  # a secret vote is never saved half cast: it starts again
            if d is not None and d.secret and self.ui.choice_buttons(d) is not None:
                self._notice(
                    self.t("Power cut"), self.t("The power went out: the vote starts again.")
                )
            self.release()  # nobody holds the box yet: the first prompt needs a hand-over
            self._next_decision()
        return True

    def open_journal(self, journal: Journal) -> bool:
        """The journal opened once the first frame is up (a slow or locked one never delays
        the setup form): setup from its last settings, then its unfinished game resumed."""
        self.journal = journal
        last = Settings.from_json(last_settings(journal))
        if last is not None and isinstance(self.mode, Setup):
            self.last_settings = in_language(self.lang, last)
            self.t = translator(self.last_settings.lang)
            self._begin_setup()
        return self.resume()

    def abandon(self) -> None:
        """Give the game up: never resumed, nothing of an open question written; setup again."""
        game = self.game
        if game is None:
            return
        for answerer in self.answerers:  # the pads and phones stop asking
            answerer.done()
        self.record.abandon(game)
        log.info("game abandoned")
        self._begin_setup()

    def _abandon_press(self, back: Mode, button: str) -> None:
        """On "Abandon?" Back carries on and OK abandons; a game over (its last reveal on
        screen) shows its result instead, so a Back held at the end never loses it."""
        if button == "back":
            self.enter(back)
        elif button == "ok" and self.game is not None and self.game.over:
            self.record.seen(self.game, ())  # the reveal read: the game is finished
            self._next_decision()  # the result pages; hold OK there for a new game
        elif button == "ok":
            self.abandon()

    def _saved_step(self, shown: Sequence[Screen] = ()) -> None:
        """The step into the journal; its reveals to the TV too, as they happen."""
        self.watchers.revealed(shown)
        self.record.step(self.game, shown)

    @property
    def journal(self) -> Journal | None:
        """The journal the table writes to (None: unsaved); its record holds it."""
        return self.record.journal

    @journal.setter
    def journal(self, journal: Journal | None) -> None:
        self.record.journal = journal

    # -- the port: what every way of answering may call ----------------------------------
    def enter(self, mode: Mode) -> None:
        """The one transition: a new screen, with any warning raised meanwhile first;
        presses meant for the last screen are dropped."""
        if self.notices and not isinstance(mode, Notice | Abandon):
            mode = Notice(tuple(self.notices), back=mode)
            self.notices = []
        if isinstance(mode, Handoff):
            self.undo = []  # undo never crosses a hand-over
            if self.undo_stop != RESUMED:  # nothing played since the power cut: that is why
                self.undo_stop = HANDED_OVER
        self.mode = mode
        self.back_down = False
        self.box.inputs.clear()
        self.guard_until = self.box.clock.now() + GUARD

    def decision(self) -> Decision | None:
        return None if self.game is None else self.game.decision

    def release(self) -> None:
        self.holder = None
        self.undo = []

    def move_on(self) -> None:
        if isinstance(self.mode, Notice):  # the notice on screen stays in front
            self.notices = [*self.mode.pages[self.mode.page :], *self.notices]
        self._next_decision()

    def remote_seats(self) -> set[int]:
        return set().union(*(answerer.seats() for answerer in self.answerers))

    def warn(self, title: str, lines: Sequence[str]) -> None:
        for line in lines:
            self._notice(title, line)
        if lines and not isinstance(self.mode, Notice):
            self.enter(self.mode)  # shown at once, over whatever is on screen

    def answer(self, seat: int, choice: Choice, by: Answerer) -> Refusal | None:
        game, d = self.game, self.decision()
        assert game is not None and d is not None
        before = self.now().public
        snapshot = game.to_record() if game.saveable and not d.secret else None
        try:
            game.act(seat, choice)
            self._now = None  # a new step: its public view is worked out once, below
        except IllegalMove as exc:
            why = self.ui.refusal(exc, self.t)
            log.info("refused: %s", exc)
            by.refused(seat, why)
            return why
        if d.secret:
            log.info("seat %d: %s recorded", seat + 1, d.kind)
        else:
            log.info(
                "seat %d: %s %s", seat + 1, d.kind, self.ui.choice_label(d, before, choice, str)
            )
        announcements = self.ui.announcements(before, self.now().public, self.t)
        self._saved_step(announcements)
        if d.secret or announcements or snapshot is None:
            self.undo = []  # undo never crosses a secret choice or a reveal
            self.undo_stop = SECRET if d.secret else REVEALED if announcements else FINAL
        else:
            if self.undo_stop == RESUMED:
                self.undo_stop = HANDED_OVER  # played since: this holder's turn bounds undo
            self.undo.append(snapshot)
        for screen in announcements:
            log.info("shown: %s", " / ".join((*screen.body, screen.big or "")))
        after = game.decision
        more = [answerer for answerer in self.answerers if answerer.settle(d, after)]
        if announcements:
            self.enter(Announce(tuple(announcements)))
        elif by not in more:
            self._next_decision()  # else the answerer waits for more of its seats
        return None

    # -- moving through the game -----------------------------------------------------
    def _next_decision(self) -> None:
        """Ask the decision of each answerer in turn, each taking the seats still free."""
        assert self.game is not None
        d = self.game.decision
        if d is None:
            self.enter(Over())
            log.info("game over: %s", self.now().public["result"])
            return
        free = d.seats
        for answerer in self.answerers:
            mode = answerer.ask(d, free)
            if mode is not None:
                self.enter(mode)
                return
            free = tuple(seat for seat in free if seat not in answerer.pending())
        raise AssertionError(f"nobody asked {d}")

    def _notice(self, title: str, text: str) -> None:
        """A warning for the next screen, whole: as many pages as its lines need."""
        self.notices += notice_pages(title, text, self.t)

    def _undo(self) -> None:
        if not self.undo:
            log.info("refused: %s", why := no_undo(self.undo_stop, self.t))
            self.warn(self.t("Not allowed"), [why])
            return
        self.game = restore(self.undo.pop())
        self._saved_step()
        d = self.decision()
        assert d is not None
        log.info("undone: back to %s", d.kind)
        self.enter(self.buttons.prompt(d, d.seats[0]))

    # -- presses ---------------------------------------------------------------------
    def handle(self, press: Press) -> None:
        if press.t < self.guard_until:
            return
        button, kind = press.button, press.kind
        if button == "back":
            # Back acts when let go: its first event begins the abandon gesture (hold Back).
            if kind == "press":
                self.back_down = True
                return
            if not self.back_down or kind not in ("hold", "release"):
                return
            self.back_down = False
            if kind == "hold":
                if self.game is not None and not isinstance(self.mode, Over | Setup | Abandon):
                    self.box.outputs.feedback()
                    self.enter(Abandon(self.mode))
                return
        elif kind == "hold":
            if button == "ok" and isinstance(self.mode, Over):
                self.box.outputs.feedback()
                self._begin_setup()
            return
        elif kind != "press":
            return  # the peek screen follows PEEK's level, read at drawing time
        self.box.outputs.feedback()
        if self.shown is not None:
            self.shown = None  # dismissed, never answered
        elif not any(answerer.chord(button) for answerer in self.answerers):
            self._press(button)

    def _press(self, button: str) -> None:
        """A short press of ``button`` on the current screen."""
        match self.mode:
            case Notice() as notice if button == "ok":
                self.enter(notice.turned())  # dismissed, never answered: nothing else
            case Notice() as notice:  # only OK dismisses: the keys line says so (no guard)
                self.mode = Notice(notice.pages, notice.back, notice.page, nudged=True)
            case Abandon(back):
                self._abandon_press(back, button)
            case Setup(form):
                self._setup_press(form, button)
            case Announce(screens) if button == "ok":
                self.record.seen(self.game, screens[1:])
                if len(screens) > 1:
                    self.enter(Announce(screens[1:]))
                else:
                    self._next_decision()
            case Over() as over if button in ("up", "down"):
                count = len(self.ui.final(self.now().public, self.t))
                over.page = (over.page + (1 if button == "down" else -1)) % count
            case Handoff() | Choose() | Peek() | Cursor() if button == "back":
                self._undo()
            case mode:
                for answerer in self.answerers:
                    if answerer.owns(mode):
                        answerer.press(button)
                        return

    def _setup_press(self, form: SetupForm, button: str) -> None:
        if (settings := form.press(button)) is not None:
            self.start(settings)
        else:
            self.t = form.t
            self.ui = game_ui(form.values["game"])

    # -- the loop ----------------------------------------------------------------------
    def step(self) -> None:
        """Answers in, presses handled, blinks run, the screen shown (a resume's watch too)."""
        try:
            for answerer in self.answerers:
                answerer.poll()
            while (press := self.box.inputs.take()) is not None:
                self.handle(press)
                self.record.watch.pressed = True
            self.record.retry()
            self.box.outputs.tick()
            self.refresh()
            self.record.watch.turned(self.journal, self.box.clock.now())
        except Exception as exc:
            self.record.watch.failed(self, exc)

    def refresh(self) -> None:
        out = self.box.outputs
        screen = self.screen()
        if self.drawn is None or self.drawn[0] != screen:
            self.drawn = (screen, render(screen))  # an unchanged screen is not drawn again
        out.show(self.shown if self.shown is not None else self.drawn[1])
        view = self.now().view
        out.set_bar(self.ui.bar(view) if view is not None else 0)
        out.set_led("status_b", 0.3 if isinstance(self.mode, WAITING) else 0.0)
        if self.watchers:  # what changed since they last heard
            self.watchers.tell(self.now(), self.holder, self.remote_seats(), self.record.named)

    # -- screens -----------------------------------------------------------------------
    def screen(self) -> Screen:
        """The OLED's screen: the public view, a seat's own at its prompt; marked if unsaved."""
        shown = self._screen()
        if not self.box.hooded and not self.box.inputs.is_down("peek"):
            shown = unhooded(shown, self.t)
        if self.journal is not None and not self.journal.saving:
            return dataclasses.replace(shown, status=UNSAVED + shown.status)
        return shown

    def _screen(self) -> Screen:
        mode = self.mode
        match mode:
            case Notice(pages, _, page, nudged):
                shown = pages[page]
                return dataclasses.replace(shown, keys=self.t("OK to go on")) if nudged else shown
            case Setup(form):
                return form.screen()
            case Announce(screens):
                return screens[0]
            case Over(page):
                return self.ui.final(self.now().public, self.t)[page]
        assert self.game is not None
        status = self.ui.status(self.now().public, self.t)
        if isinstance(mode, Abandon):
            return abandon_screen(status, self.game.over, self.t)
        owner = next(answerer for answerer in self.answerers if answerer.owns(mode))
        return owner.screen(status)
