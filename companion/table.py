"""The table loop: the only place that wires a game to a box.

A press becomes an action, the game checks and applies it, the table asks
the game what to show and whose move it is, and the ui draws it. The table
knows each game only through the contract and the game's ui module; what it
waits for is one of the modes of ``companion.modes``.

How the box talks to a table:
- Whenever it waits, the screen says for whom and for what; a seat that is
  not holding the box is first asked to take it ("Box to seat 4"). Between
  two hand-overs nothing of another seat's private view is drawn.
- Open choices (picks, orders) run a cursor with Up/Down and OK, the legal
  options first; a refused one is explained on screen with the rule it
  breaks. Back undoes an open choice, but never crosses a secret choice, a
  reveal or a hand-over: at a seat's first prompt it says why it cannot.
- Secret choices use the A and B buttons under the hood, then OK to commit
  (Back to choose again). Every accepted press gets the same blink and beep,
  and the screens never show what was chosen, so a neighbour learns nothing
  by watching, listening or timing.
- A notice (a refusal, a warning) stays until a press, and that press does
  nothing else.
- Back acts when it is let go: holding it (1.5 s) asks whether to abandon
  the game, so the gesture's first event does nothing on any screen.
- Presses made just before a new prompt appears are dropped, so a double
  press cannot answer a question nobody has read yet.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from typing import Any

from companion.box import Box
from companion.box.inputs import Press
from companion.claims import ClaimDesk
from companion.games import Choice, Decision, Game, IllegalMove, new_game, restore
from companion.games.base import same_choice
from companion.handset_vote import RoomBallot
from companion.modes import (
    WAITING,
    Abandon,
    Announce,
    Choose,
    Confirm,
    Cursor,
    Handoff,
    Handsets,
    Mode,
    Notice,
    Over,
    Peek,
    Phones,
    Setup,
)
from companion.phone_desk import PhoneDesk
from companion.setup import Settings, SetupForm
from companion.store import Journal
from companion.ui import game_ui
from companion.ui.canvas import BODY_LINES, Screen, preload_fonts, render, wrap
from companion.ui.contract import GameUI
from companion.ui.i18n import translator

__all__ = ["Settings", "Table"]

UNSAVED = "! "  # marks the status line while the journal cannot be written

log = logging.getLogger("companion.table")

GUARD = 0.25  # seconds after a new prompt during which presses are dropped


class Table:
    """One box at one table, from setup to the last screen and the next game."""

    def __init__(
        self, box: Box, seed: int | None = None, lang: str = "en", journal: Journal | None = None
    ) -> None:
        self.box = box
        self.journal = journal
        preload_fonts()
        self.seed = seed
        self.t = translator(lang)
        #: the settings of the last game started, resumed or abandoned: the next setup's start
        self.last_settings = Settings(lang=lang)
        if journal is not None:
            self.last_settings = Settings.from_json(journal.last_settings()) or self.last_settings
        self.game: Game | None = None
        self.ui: GameUI = game_ui(self.last_settings.game)
        self.mode: Mode = Over()
        self.holder: int | None = None  # the seat that took the box at the last hand-over
        self.undo: list[dict[str, Any]] = []  # records to go back to, this holder's only
        self.handed_over = False  # nothing acted since the last hand-over
        self.notices: list[Screen] = []  # pages of warnings for the next screen
        self.back_down = False  # Back went down on this screen: its release is a press
        self.guard_until = 0.0
        self.games_started = 0
        self.ballot_no = 0
        self.vote: RoomBallot | None = None  # a secret A/B choice open on the handsets
        self.drawn: tuple[Screen, Any] | None = None  # the last screen and its image
        self.desk = PhoneDesk(self)  # phones and the spectator page, once companion.web is on
        self.check = ClaimDesk(self)  # a question asked in the open, on a countdown
        self._begin_setup()

    # -- starting, resuming, abandoning ------------------------------------------------
    def _begin_setup(self) -> None:
        self.game = None
        self.holder = None
        self.undo = []
        form = SetupForm.starting_from(self.last_settings)
        self.ui = game_ui(form.values["game"])
        self._enter(Setup(form))

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
        if self.journal is not None:
            record = self.game.to_record()
            self._journal(self.journal.begin, settings.game, dataclasses.asdict(settings), record)
        self.desk.begin(resumed=False)
        opening = self.ui.opening(self.game.public_view(), self.t)  # e.g. the board to lay out
        if opening:
            self.holder = None
            self._saved_step(opening)
            self._enter(Announce(tuple(opening)))
        else:
            self._first_decision()

    def resume(self) -> bool:
        """Carry on the journal's unfinished game after a power cut; False if there is none."""
        found = None if self.journal is None else self.journal.unfinished()
        self._journal_news()
        if found is None:
            if self.notices:
                self._enter(self.mode)  # what the journal said, over the setup screen
            return False
        self.last_settings = Settings.from_json(found.settings) or self.last_settings
        self.t = translator(self.last_settings.lang)
        self.ui = game_ui(found.game.name)
        self.game = found.game
        log.info("resumed a %s game from the journal", found.game.name)
        self.desk.begin(resumed=True)
        try:  # the reveal the power cut interrupted is shown again
            shown = tuple(Screen.from_json(s) for s in found.shown or ())
        except ValueError as exc:
            log.warning("the reveal on show at the power cut is unreadable (%s): skipped", exc)
            shown = ()
        if shown:
            self.holder = None
            self.undo = []
            self._enter(Announce(shown))
        else:
            d = found.game.decision  # a secret vote is never saved half cast: it starts again
            if d is not None and d.secret and self.ui.choice_buttons(d) is not None:
                self._notice(
                    self.t("Power cut"), self.t("The power went out: the vote starts again.")
                )
            self._first_decision()
        return True

    def _first_decision(self) -> None:
        self.holder = None  # nobody holds the box yet: the first prompt needs a hand-over
        self.undo = []
        self._next_decision()

    def abandon(self) -> None:
        """Give the game up: the journal never resumes it, nothing of an open ballot is
        written, and setup starts again from its settings."""
        game = self.game
        if game is None:
            return
        if self.vote is not None:  # the pads stop asking; no vote of it is written
            self.vote.close()
            self.vote = None
        if isinstance(self.mode.back if isinstance(self.mode, Abandon) else self.mode, Phones):
            self.desk.phones.done()  # the phones stop asking too
        if self.journal is not None and not game.over:
            self._journal(self.journal.abandon)
        log.info("game abandoned")
        self._begin_setup()

    def _journal(self, write: Callable[..., Any], *args: Any) -> None:
        """Write to the journal; what it has to say is shown once, and the game goes on."""
        write(*args)
        self._journal_news()

    def _journal_news(self) -> None:
        if self.journal is not None and self.journal.news:
            news = self.journal.news[0]
            self.journal.news.clear()  # the log has every line; the screen the first
            self._notice(self.t("Journal"), self.t(news.screen))

    def _saved_step(self, shown: list[Screen] | None = None) -> None:
        """The step into the journal; its reveals to the TV too, as they happen."""
        if self.desk.web is not None and shown:
            self.desk.web.reveal(shown)
        game = self.game
        if self.journal is None or game is None:
            return
        reveal = [screen.to_json() for screen in shown or ()]
        if game.over or game.saveable:
            self._journal(self.journal.step, game.to_record(), reveal)
        if game.over and not reveal:  # else finished once the last reveal is dismissed
            self._journal(self.journal.finish)

    def _reveal_seen(self, left: tuple[Screen, ...]) -> None:
        """The journal keeps the reveal screens still to show, for a power cut meanwhile."""
        game = self.game
        if self.journal is None or game is None:
            return
        if not left and game.over:
            self._journal(self.journal.finish)
        else:
            self._journal(self.journal.showing, [s.to_json() for s in left])

    # -- moving through the game -----------------------------------------------------
    def _enter(self, mode: Mode) -> None:
        """The one transition: a new screen, with any warning raised meanwhile first;
        presses meant for the last screen are dropped."""
        if self.notices and not isinstance(mode, Notice | Abandon):
            mode = Notice(tuple(self.notices), back=mode)
            self.notices = []
        if isinstance(mode, Handoff):
            self.undo = []  # undo never crosses a hand-over
            self.handed_over = True
        self.mode = mode
        self.back_down = False
        self.box.inputs.clear()
        self.guard_until = self.box.clock.now() + GUARD

    def _decision(self) -> Decision:
        assert self.game is not None and self.game.decision is not None
        return self.game.decision

    def _next_decision(self) -> None:
        assert self.game is not None
        d = self.game.decision
        if d is None:
            self._enter(Over())
            log.info("game over: %s", self.game.public_view()["result"])
        elif self.check.due(d):
            self.check.open()
        else:
            self._open_ballot(d)
            if (seat := self._seat()) is None:
                assert self.vote is not None  # everyone left votes on a handset
                self._enter(Handsets(self.vote.seats, self.vote.number))
            elif self.desk.due(d):
                self.desk.ask(d)
            elif seat != self.holder:
                self._enter(Handoff(seat))
            else:
                self._enter_choice()

    def _seat(self) -> int | None:
        """The seat the box serves: with a ballot on the handsets, the next one without."""
        seats = self._decision().seats
        return seats[0] if self.vote is None else self.vote.box_seat(seats)

    def _ballot_due(self, d: Decision) -> bool:
        """A secret A/B choice, not open yet, with a pad answering for one of its seats."""
        room = self.box.handsets
        if self.vote is not None or room is None or not d.secret or d.kind == "peek":
            return False
        return self.ui.choice_buttons(d) is not None and bool(room.seats() & set(d.seats))

    def _open_ballot(self, d: Decision) -> None:
        """The ballot opens on the handsets of the seats whose pad answers."""
        if self._ballot_due(d):
            assert self.box.handsets is not None
            self.ballot_no = self.ballot_no % 255 + 1
            self.vote = RoomBallot(self.box.handsets, d.kind, d.seats, self.ballot_no)

    def _handset_votes(self) -> None:
        """Play the votes from the handsets; move the box on when seats moved."""
        room = self.box.handsets
        if room is None:
            return
        news = room.news()
        for line in news:
            self._notice(self.t("Handset refused"), line)
        if news and not isinstance(self.mode, Notice):
            self._enter(self.mode)  # shown at once, over whatever is on screen
        game = self.game
        if self.vote is None or game is None or game.decision is None:
            room.poll()  # no ballot open: the links still answer and keep their pads
            d = game.decision if game is not None else None
            mode = self.mode
            waiting = mode.back if isinstance(mode, Notice) else mode
            if isinstance(waiting, Handoff) and d is not None and self._ballot_due(d):
                if isinstance(mode, Notice):  # the notice (a power cut) stays in front
                    self.notices = [*mode.pages[mode.page :], *self.notices]
                self._next_decision()  # pads just found (the box started): they take the vote
            return
        holder = self.holder if isinstance(self.mode, Choose | Confirm) else None
        votes, moved = self.vote.poll(game.decision.seats, holder)
        for vote in votes:
            d = game.decision
            if self.vote is None or d is None or vote.seat not in d.seats:
                continue
            buttons = self.ui.choice_buttons(d)
            if buttons is None:
                continue
            self.box.outputs.feedback()
            self._act(buttons[vote.button != 0], seat=vote.seat)
        if moved and self.vote is not None and isinstance(self.mode, Handsets | Handoff):
            self._next_decision()

    def _enter_choice(self) -> None:
        d = self._decision()
        seat = self._seat()
        assert seat is not None
        if d.kind == "peek":
            self._enter(Peek(seat))
        elif d.secret and self.ui.choice_buttons(d) is not None:
            self._enter(Choose(seat))
        else:
            options = self._cursor_options(d)
            self._enter(Cursor(seat, options, self.ui.cursor_start(d, options)))

    def _cursor_options(self, d: Decision) -> tuple[Choice, ...]:
        """The ui's candidates, the legal ones first: the cursor starts on the first, and a
        refused one (there to hear why) is never the default nor one slip away from it."""
        assert self.game is not None
        items = self.ui.candidates(d, self.game.view(d.seats[0]))  # the seat's own view
        legal = [x for x in items if any(same_choice(x, o) for o in d.options)]
        return (*legal, *(x for x in items if x not in legal))

    def _act(self, choice: Choice, seat: int | None = None) -> bool:
        """Play a choice for the seat holding the box (or a handset's seat);
        False (and a notice) if refused."""
        game = self.game
        d = self._decision()
        assert game is not None
        by_box = seat is None
        seat = self._seat() if seat is None else seat
        assert seat is not None
        before = game.public_view()
        snapshot = game.to_record() if game.saveable and not d.secret else None
        try:
            game.act(seat, choice)
        except IllegalMove as exc:
            self._refuse(self.ui.refusal(exc, self.t), logged=str(exc))
            return False
        if d.secret:
            log.info("seat %d: %s recorded", seat + 1, d.kind)
        else:
            label = self.ui.choice_label(d, before, choice, str)
            log.info("seat %d: %s %s", seat + 1, d.kind, label)
        announcements = self.ui.announcements(before, game.public_view(), self.t)
        self._saved_step(announcements)
        self.handed_over = False
        if d.secret or announcements or snapshot is None:
            self.undo = []  # undo never crosses a secret choice or a reveal
        else:
            self.undo.append(snapshot)
        for screen in announcements:
            log.info("shown: %s", " / ".join((*screen.body, screen.big or "")))
        after = game.decision
        if self.vote is not None and (
            after is None or not self.vote.covers(after.seats, after.kind)
        ):
            self.vote.close()
            self.vote = None
        if announcements:
            self._enter(Announce(tuple(announcements)))
        elif self.vote is not None and not by_box:
            pass  # a handset's vote: whoever holds the box carries on
        elif self.desk.after_act(d, after):
            pass  # more answers to come on the phones
        else:
            self._next_decision()
        return True

    def _refuse(self, why: str, logged: str | None = None) -> None:
        """Show ``why`` a choice is refused; the log keeps the game's own words (``logged``)."""
        self._notice(self.t("Not allowed"), why)
        log.info("refused: %s", logged or why)
        self._enter(self.mode)

    def _notice(self, title: str, text: str) -> None:
        """A warning for the next screen, whole: as many pages as its lines need."""
        lines = wrap(text)
        chunks = [lines[i : i + BODY_LINES] for i in range(0, len(lines), BODY_LINES)]
        for i, chunk in enumerate(chunks):
            keys = self.t("OK") if i == len(chunks) - 1 else self.t("OK: more")
            self.notices.append(Screen(title, tuple(chunk), keys))

    def _undo(self) -> None:
        if not self.undo:
            if self.handed_over:
                self._refuse(self.t("Nothing to undo: undo stops where the box changed hands."))
            else:
                self._refuse(self.t("Nothing to undo: secret choices and reveals are final."))
            return
        self.game = restore(self.undo.pop())
        self._saved_step()
        log.info("undone: back to %s", self._decision().kind)
        self._enter_choice()

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
                    self._enter(Abandon(self.mode))
                return
        elif kind == "hold":
            if button == "ok" and isinstance(self.mode, Over):
                self.box.outputs.feedback()
                self._begin_setup()
            return
        elif kind != "press":
            return  # the peek screen follows PEEK's level, read at drawing time
        self.box.outputs.feedback()
        if self.desk.qr is not None:
            self.desk.qr = None  # dismissed, never answered
        elif not (button == "up" and self.desk.show_qr()):
            self._press(button)

    def _press(self, button: str) -> None:
        """A short press of ``button`` on the current screen."""
        if self.check.owns(self.mode):
            return self.check.press(button)
        match self.mode:
            case Notice(pages, back, page):
                # Dismissed, never answered: the press does nothing else.
                self._enter(Notice(pages, back, page + 1) if page + 1 < len(pages) else back)
            case Abandon(back):
                if button == "ok":
                    self.abandon()
                elif button == "back":
                    self._enter(back)
            case Setup(form):
                if (settings := form.press(button)) is not None:
                    self.start(settings)
                else:
                    self.t = form.t
                    self.ui = game_ui(form.values["game"])
            case Handoff(seat) if button == "ok":
                self.holder = seat
                self._enter_choice()
            case Choose(seat) if button in ("choice_a", "choice_b"):
                buttons = self.ui.choice_buttons(self._decision())
                assert buttons is not None
                self._enter(Confirm(seat, buttons[button == "choice_b"]))
            case Confirm(pending=pending) if button == "ok":
                self._act(pending)
            case Confirm(seat) if button == "back":
                self._enter(Choose(seat))
            case Peek() if button == "ok":
                self._act("seen")
            case Cursor() as cursor if button in ("up", "down"):
                # No wrap: a slip past either end stays put.
                step = 1 if button == "down" else -1
                cursor.at = max(0, min(len(cursor.options) - 1, cursor.at + step))
            case Cursor(options=options, at=at) if button == "ok":
                self._act(options[at])
            case Announce(screens) if button == "ok":
                self._reveal_seen(screens[1:])
                if len(screens) > 1:
                    self._enter(Announce(screens[1:]))
                else:
                    self._next_decision()
            case Over() as over if button in ("up", "down"):
                count = len(self._final_screens())
                over.page = (over.page + (1 if button == "down" else -1)) % count
            case Handoff() | Choose() | Peek() | Cursor() if button == "back":
                self._undo()

    # -- the loop ----------------------------------------------------------------------
    def step(self) -> None:
        """Handle every waiting press, run due blinks, and show the current screen."""
        self._handset_votes()
        self.desk.poll()
        self.check.tick()
        while (press := self.box.inputs.take()) is not None:
            self.handle(press)
        self.box.outputs.tick()
        self.refresh()

    def refresh(self) -> None:
        out = self.box.outputs
        screen = self.screen()
        if self.drawn is None or self.drawn[0] != screen:
            self.drawn = (screen, render(screen))  # an unchanged screen is not drawn again
        out.show(self.desk.qr if self.desk.qr is not None else self.drawn[1])
        out.set_bar(self.ui.bar(self.game.public_view()) if self.game is not None else 0)
        out.set_led("status_b", 0.3 if isinstance(self.mode, WAITING) else 0.0)
        self.desk.publish()

    # -- screens -----------------------------------------------------------------------
    def screen(self) -> Screen:
        """What the OLED shows now: read from the public view and, on a seat's prompt,
        that seat's own view only; marked while the journal cannot be written."""
        shown = self._screen()
        if self.journal is not None and not self.journal.saving:
            return dataclasses.replace(shown, status=UNSAVED + shown.status)
        return shown

    def _screen(self) -> Screen:
        mode = self.mode
        match mode:
            case Notice(pages, _, page):
                return pages[page]
            case Setup(form):
                return form.screen()
            case Announce(screens):
                return screens[0]
            case Over(page):
                return self._final_screens()[page]
        assert self.game is not None
        view = self.game.public_view()
        status = self.ui.status(view, self.t)
        if self.check.owns(mode):
            return self.check.screen(status)
        return self._seat_screen(mode, self._decision(), view, status)

    def _seat_screen(self, mode: Mode, d: Decision, view: dict[str, Any], status: str) -> Screen:
        """The screen of a mode waiting on ``d`` (a claim draws a seat's prompt with it)."""
        t, game = self.t, self.game
        assert game is not None
        seat = mode.seat if isinstance(mode, Choose | Confirm | Cursor) else None
        if seat is not None and seat == self.holder and self.box.inputs.is_down("peek"):
            return self.ui.peek(game.view(seat), t)  # the holder's own; a claimant names a seat
        match mode:
            case Abandon():
                question = (t("Abandon this game?"), t("OK: abandon it"), t("Back: carry on"))
                return Screen(status, question, t("OK  Back"))
            case Phones():
                waiting = t("Waiting for seat {seats}").format(
                    seats=" ".join(str(s + 1) for s in d.seats)
                )
                answer = t("Answer on your phones.")
                return Screen(status, (answer, waiting), t("Others pass the box"))
            case Handsets(seats):
                waiting = t("Waiting for seat {seats}").format(
                    seats=" ".join(str(s + 1) for s in d.seats)
                )
                done = t("{n} of {m} in").format(n=len(seats) - len(d.seats), m=len(seats))
                return Screen(status, (t("Vote on your handsets."), waiting), done)
            case Handoff(seat):
                lines = (
                    t("Box to seat {n}.").format(n=seat + 1),
                    self.ui.role_of(d, view, t),
                    *self.ui.tracker(view, t),  # a track the status line has no room for
                )
                return Screen(status, lines, t("Seat {n}: press OK").format(n=seat + 1))
            case Peek(seat):
                if self.box.inputs.is_down("peek"):
                    return self.ui.peek(game.view(seat), t)
                return Screen(status, tuple(self.ui.prompt(d, view, t)), t("Hold PEEK, then OK"))
            case Choose():
                buttons = self.ui.choice_buttons(d)
                assert buttons is not None
                a, b = (self.ui.option_label(x, t) for x in buttons)
                keys = t("A: {a}  B: {b}").format(a=a, b=b)
                return Screen(status, tuple(self.ui.prompt(d, view, t)), keys)
            case Confirm(seat):
                lines = (
                    t("Seat {n}: chosen.").format(n=seat + 1),
                    t("OK: play it face down"),
                    t("Back: choose again"),
                )
                return Screen(status, lines, t("OK  Back"))
            case Cursor(seat, options=options, at=at):
                option = options[at]
                view = game.view(seat)  # the seat that took the box may see its own
                prompt = list(self.ui.prompt(d, view, t))
                about = self.ui.option_detail(d, view, option, t)
                if about is not None:
                    prompt = [prompt[0], about]  # the prompt's first line names the seat
                label = self.ui.choice_label(d, view, option, t)
                return Screen(status, (*prompt, f"◄ {label} ►"), t("▲▼ choose  OK  Back"))
        raise AssertionError(f"no screen for {mode}")

    def _final_screens(self) -> list[Screen]:
        assert self.game is not None
        return self.ui.final(self.game.public_view(), self.t)
