"""What the TV says to the room: status in words, who the table waits on, the end of a game.

The box's OLED has 21 columns, so its status line is a code ("Ch2 E· M· S· Coup 1")
and its prompts speak to the seat holding the box ("hold PEEK to see your card").
The TV is read by the whole table from across the room: here every line is written
for the table, in words, from the public view alone, through the same catalog as
the box (``t``).
"""

from __future__ import annotations

from typing import Any

from companion.games import game_record
from companion.games.base import Decision
from companion.table.names import seat_option as seat_option  # each game's tv: a seat on a phone
from companion.ui.canvas import Screen
from companion.ui.i18n import Translate


def game_tv(view: dict[str, Any]) -> Any:
    """The TV part of the view's game (its folder's ``tv``: ``status_words``,
    ``for_the_table``, ``picture``, ``private_card``)."""
    return game_record(view["game"]).load("tv")


def seats_words(seats: list[int] | tuple[int, ...], t: Translate) -> str:
    """Seats (0-based) as the table says them: "seat 3", "seats 2, 4 and 6"."""
    numbers = [str(s + 1) for s in sorted(seats)]
    if len(numbers) == 1:
        return t("seat {n}").format(n=numbers[0])
    listed = t("{some} and {last}").format(some=", ".join(numbers[:-1]), last=numbers[-1])
    return t("seats {list}").format(list=listed)


def status_words(view: dict[str, Any], ui: Any, t: Translate) -> str:
    """The OLED's status line said in words, for the room (by the game's ``tv``)."""
    said: str = game_tv(view).status_words(view, ui, t)
    return said


def waiting_lines(view: dict[str, Any], ui: Any, t: Translate) -> list[str]:
    """Who the table waits on, every seat named, and what they are doing."""
    waiting = view["waiting"]
    if waiting is None:
        return []
    d = Decision(
        waiting["kind"], tuple(waiting["seats"]), tuple(waiting["options"] or ()), waiting["secret"]
    )
    tv = game_tv(view)
    doing = getattr(tv, "doing_words", None)
    action = (
        (doing(d, view, t) if doing is not None else None)
        or tv.for_the_table(d.kind, t)
        or " ".join(ui.role_of(d, view, t).split())
    )
    who = t("Waiting for {seats}").format(seats=seats_words(d.seats, t))
    return [who, action]


def screen_lines(screen: Screen) -> list[str]:
    """A screen of the box as lines: body and big word. Its status line is the box's
    21-column code, said in words in the TV's own status; its keys are the box's own."""
    return [line for line in (*screen.body, screen.big) if line]


def reveal_words(
    before: dict[str, Any] | None, after: dict[str, Any], t: Translate
) -> list[list[str]]:
    """What a reveal told, in sentences for the room: the game's ``reveal_words`` from the
    public views before and after it (none: the box's lines stay)."""
    said = getattr(game_tv(after), "reveal_words", None)
    return [] if said is None else list(said(before, after, t))


def title_words(view: dict[str, Any], ui: Any, t: Translate) -> str:
    """The game's name on the TV: its ``tv.title`` when the box's name needs a gloss."""
    said = getattr(game_tv(view), "title", None)
    return t(ui.TITLE) if said is None else str(said(t))


def end_of_game(view: dict[str, Any], ui: Any, t: Translate) -> dict[str, Any]:
    """The end screen: the winners, and every page of the box's last screen (the roles or
    objectives as the rules reveal them, the scores)."""
    winners = sorted(view["result"]["winners"])
    headline = (
        t("Nobody wins")
        if not winners
        else t("Winners: {seats}").format(seats=seats_words(winners, t))
    )
    said = getattr(game_tv(view), "end_words", None)
    if said is not None:
        pages = [list(page) for page in said(view, t)]
    else:
        over = t("Game over")  # the end screen's own heading: not said again on every page
        pages = [[line for line in screen_lines(s) if line != over] for s in ui.final(view, t)]
    return {"headline": headline, "winners": winners, "pages": pages}


def page_words(t: Translate) -> dict[str, str]:
    """The pages' own words (headings, buttons, link states), sent with every state so the
    TV and the phones speak the box's language."""
    return {
        "now": t("Now"),
        "revealed": t("Just revealed"),
        "over": t("Game over"),
        "history": t("History"),
        "live": t("live"),
        "reconnecting": t("reconnecting…"),
        "no_game": t("Waiting for a game"),
        "save": t("Save the summary"),
        "picture": t("The game"),
        "seat": t("Seat {n}"),
        "your_name": t("Your name (shown to all):"),
        "name_it": t("Name this seat"),
        "away": t("away"),
        "to_play": t("to play"),
        "asks": t("new phone asks"),
        "private": t("Only for you"),
        "hold": t("Hold to see your card"),
        "release": t("Release to hide"),
        "nothing_private": t("Nothing private to show now."),
        "choice": t("Your choice"),
        "send": t("Send"),
        "sending": t("Sending…"),
        "sent": t("Sent: waiting for the others."),
        "nothing_asked": t("Nothing is asked of you now."),
        "refused": t("Refused: choose again."),
        # {where}: the join page's address as the page itself was reached ("10.42.0.1:8080/J")
        "dead": t(
            "This link no longer works: scan your seat's code on the box again, or, at your"
            " turn, ask the box for a code to type at {where}."
        ),
        "replaced": t("Another phone took this seat: this one shows nothing more."),
        "you_won": t("You won."),
        "you_lost": t("You did not win."),
        "ended": t("This game is over."),
        "look": t("Look at your card with the button above, then confirm."),
        "seen": t("I have seen my card"),
        "tv_dead": t("This TV link is not valid: open the link the box gives."),
        "earlier": t("and {n} before"),
        "page": t("{n} of {of}"),
        "phone_hint": t(
            "A phone for your seat: at your turn, hold PEEK and press ▲ for its QR code,"
            " or ▼ for a code to type at {where}."
        ),
    }
