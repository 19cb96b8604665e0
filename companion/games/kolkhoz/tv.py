"""Kolkhoz on the TV and the phones: its status in words, what a seat is doing, its picture.

Read by the whole table from across the room, so every line is a sentence
written from the public view alone, through the box's catalog (``t``); the
picture is drawn from the pieces of ``companion.web.pictures``.
"""

from __future__ import annotations

from typing import Any

from companion.games.kolkhoz.cards import JOBS
from companion.games.kolkhoz.screens import (
    SIGN,
    card_label,
    cards_label,
    completed_trick,
    jobs_done,
    suit_name,
    year_so_far,
)
from companion.ui.i18n import Translate
from companion.web.pictures import Names, bar, named, svg, text

View = dict[str, Any]

__all__ = [
    "ask_words",
    "end_words",
    "for_the_table",
    "option_words",
    "picture",
    "private_card",
    "reveal_words",
    "status_words",
    "title",
]


def title(t: Translate) -> str:
    """The game's name in the table's language, the Russian word beside it."""
    return t("Kolkhoz") + " (Колхоз)"


def private_card(own: View, public: View, ui: Any, t: Translate) -> list[str]:
    """The seat's hand and its plot's hidden cards (deal "box"); with real cards in hand
    the box holds nothing private."""
    if own.get("deal") == "cards" or not (own.get("hand") or own.get("plot", {}).get("hidden")):
        return []
    return [
        t("Your hand: {cards}.").format(cards=cards_label(own["hand"]) or t("no card")),
        t("Hidden in your plot: {cards}.").format(
            cards=cards_label(own["plot"]["hidden"]) or t("no card")
        ),
    ]


def ask_words(d: Any, view: View, t: Translate) -> list[str] | None:
    """A seat's question on its phone, in sentences (its page names the seat): the card to
    play, the job a trump worker goes to, and with real cards each card to enter."""
    kind = d.kind
    trick = view["tricks_played"] + 1
    if kind == "trump":
        first = t("You are the planner: choose this year's trump.")
        if view.get("deal") == "cards":
            first = t(
                "You are the planner: deal {h} cards to each seat, then choose this year's trump."
            ).format(h=view["hand_size"])
        return [first]
    if kind == "assign":
        card = card_label(view["to_assign"][0])
        return [t("You are the brigadier: which job does {card} go to?").format(card=card)]
    if kind == "reveal":
        job = job_words(view["requisition"]["job"], t)
        return [
            t("{job} failed: enter each card of its suit in your plot, then No more.").format(
                job=job
            )
        ]
    if view["phase"] == "plot":
        said = t("Enter the hidden cards of your plot, {k} left: the next card's suit?")
        if kind == "card":
            said = t("Enter the hidden cards of your plot, {k} left: the next card's rank?")
        return [said.format(k=view["to_enter"][d.seats[0]])]
    played = plays_words(view["trick"], t)
    if kind == "play":
        if not played:
            return [t("You lead trick {k}: play a card.").format(k=trick)]
        return [t("Trick {k}: {plays}. Play a card.").format(k=trick, plays=played)]
    said = t("Enter trick {k}: the card seat {n} played, its suit?")
    if kind == "card":
        said = t("Enter trick {k}: the card seat {n} played, its rank?")
    return [said.format(k=trick, n=view["turn"] + 1)]


def option_words(d: Any, view: View, option: Any, t: Translate) -> str | None:
    """Each answer on a phone, in words: a job with its word (its hours for the brigadier,
    K4; its card's worth for the planner), a suit, a card (why it may not be played now)."""
    if option == "none":
        return t("No more")
    if option not in JOBS:
        return card_words(d, view, str(option), t)
    if d.kind == "suit":
        return f"{SIGN[option]} {suit_name(option, t)}"
    if d.kind == "assign" and option in view["jobs"]:
        return hours_words(option, view["jobs"][option], t)
    if d.kind == "trump" and option in view["jobs"]:
        points = view["jobs"][option]["points"]
        return t("{job}, worth {points}").format(job=job_words(option, t), points=points)
    return job_words(option, t)


def card_words(d: Any, view: View, card: str, t: Translate) -> str:
    """A card as the room writes it ("Q♥"), and why it may not be played now."""
    label = card_label(card)
    if d.kind != "play" or card in d.options:
        return label
    lead = view["lead_suit"]
    if lead is not None:
        return t("{card}: you must follow {sign}").format(card=label, sign=SIGN[lead])
    return t("{card}: trump may not lead yet").format(card=label)


def hours_words(suit: str, job: View, t: Translate) -> str:
    """A job's hours against its goal, in words."""
    if job["done"]:
        return t("{job}: done").format(job=job_words(suit, t))
    return t("{job}: {hours} of {threshold} hours").format(job=job_words(suit, t), **job)


def job_words(suit: str, t: Translate) -> str:
    """A job as the room reads it: its sign, its word, the Russian name of the card beside
    it ("♦ Harvesting (Жатва)"); the OLED, short of room, shows the Russian alone."""
    russian, _latin, english = JOBS[suit]
    return f"{SIGN[suit]} {t(english)} ({russian})"


def status_words(view: View, ui: Any, t: Translate) -> str:
    """The OLED's status line said in words, for the room."""
    year = t("Year {year} of {years}").format(**view)
    if view["trump"] is None:
        return year
    return year + " · " + t("Trump: {suit}").format(suit=job_words(view["trump"], t))


def for_the_table(kind: str, t: Translate) -> str | None:
    """A hand-over line that speaks to the seat holding the box: none to rewrite here."""
    return None


def won_words(year: View, t: Translate) -> str:
    """The tricks each seat won this year (a seat with one is a brigadier, K5)."""
    if year["won"] is None:  # a game saved before the count was kept: the brigadiers only
        return t("Brigadiers: {seats}.").format(
            seats=", ".join(str(s + 1) for s in year["brigadiers"])
        )
    each = [t("seat {n} has {k}").format(n=seat + 1, k=won) for seat, won in enumerate(year["won"])]
    return t("Tricks won this year: {list}.").format(list=", ".join(each))


def plays_words(plays: list[dict[str, Any]], t: Translate) -> str:
    """A trick's cards in the order played, each with its seat."""
    return ", ".join(
        t("{card} from seat {n}").format(n=p["seat"] + 1, card=card_label(p["card"])) for p in plays
    )


def reveal_words(before: View | None, after: View, t: Translate) -> list[list[str]]:
    """A trick's cards and winner, the jobs done and who took their card, a year's end."""
    if before is None or not before["jobs"]:
        return []
    said = []
    trick = completed_trick(before, after)
    if trick is not None:
        plays = plays_words(trick["plays"], t)
        said.append(
            [
                t("Trick {k}: {plays}.").format(k=before["tricks_played"] + 1, plays=plays),
                t("Seat {n} wins it.").format(n=trick["winner"] + 1),
                won_words(year_so_far(before, after), t),
            ]
        )
    for suit, job in jobs_done(before, after):
        said.append(
            [
                t("{job} is done: its job card {card} goes to seat {n}'s plot.").format(
                    job=job_words(suit, t), card=card_label(job["reward"]), n=job["by"] + 1
                )
            ]
        )
    if len(after["history"]) > len(before["history"]):
        said.append(year_end_words(after, t))
    return said


def year_end_words(view: View, t: Translate) -> list[str]:
    """What each failed job cost (K5), then what the next year deals."""
    year = view["history"][-1]
    lines = [t("Year {y} is over.").format(y=year["year"])]
    if not year["requisitions"]:
        lines.append(t("Every job is done."))
    for r in year["requisitions"]:
        north = r["north"]
        job = job_words(r["job"], t)
        if r["jack"]:
            lines.append(
                t("{job} failed: the drunkard (Пьяница) {card} goes north.").format(
                    job=job, card=card_label(north[0]["card"])
                )
            )
        elif not north:
            lines.append(t("{job} failed: nothing goes north.").format(job=job))
        else:
            gone = [
                t("{cards} from seat {n}").format(
                    n=seat + 1, cards=cards_label([x["card"] for x in north if x["seat"] == seat])
                )
                for seat in sorted({x["seat"] for x in north})
            ]
            lines.append(
                t("{job} failed: to the north go {list}.").format(job=job, list=", ".join(gone))
            )
    if view["phase"] == "trump":
        lines.append(
            t("Year {y}: {h} cards each, {k} tricks to play.").format(
                y=view["year"], h=view["hand_size"], k=view["tricks"]
            )
        )
    return lines


def end_words(view: View, t: Translate) -> list[list[str]]:
    """The end in sentences: the best plot wins (K6), every seat's plot, what went north."""
    plots = [
        t("Seat {n}'s plot scores {score}.").format(n=seat + 1, score=score)
        for seat, score in enumerate(view["scores"])
    ]
    north = t("{k} cards went north.").format(k=len(view["north"]))
    return [[*plots, north]]


def picture(view: dict[str, Any], t: Translate, names: Names | None = None) -> str:
    """The jobs' hours against their thresholds, each seat's plot and hand (a named seat:
    "Anna (2)"), the trick: laid out about as tall as wide (1000 x 820 for four seats), so
    it fills the TV's height."""
    body = []
    for i, (suit, job) in enumerate(view["jobs"].items()):
        y = 20 + 100 * i
        label = hours_words(suit, job, t)  # its words on a line above its bar
        body += [
            text(20, y + 30, label, 32),
            *bar(20, y + 42, 960, job["hours"], job["threshold"], "#2e7d32", height=44),
        ]
    for seat, plot in enumerate(view["plots"]):
        y = 470 + 70 * seat
        shown = cards_label(plot["shown"]) or t("empty")
        line = t("{seat}: plot {shown}, {hidden} hidden, {hand} in hand").format(
            seat=named(seat, names or {}, t),
            shown=shown,
            hidden=plot["hidden"],
            hand=view["hand_counts"][seat],
        )
        body.append(text(20, y, line, 32, width=960))
    trick = plays_words(view["trick"], t) or t("no card yet")
    bottom = 470 + 70 * len(view["plots"]) + 10
    body.append(text(20, bottom, t("Trick: {cards}").format(cards=trick), 36))
    return svg(1000, bottom + 40, body)
