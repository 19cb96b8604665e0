"""Kolkhoz's screens: the planner's clerk at a table of real cards (or the dealer, with deal "box").

Read from the game's views only. The jobs keep their Cyrillic names from the
engine's ``JOBS`` table (Пахота, Жатва, Мастерская, Зерно), shown with the
suit's sign; everything else is in English or French.

- Status line: the year of the Пятилетка and the trump's sign. The hand-over
  screen carries the running year: the jobs' points before trump, then each
  job's work-hours ("♥38h ♦12h ♣✓ ♠0h"); the brigadier's cursor shows them too.
- LED bar: how far the open job nearest completion has got, one LED for 4
  work-hours (10 LEDs = 40, the threshold): during the tricks that is what
  the table plays for; it is dark before trump and between years.
- A trick is entered card by card in play order, suit then card, each a
  short cursor (4 suits, then the 8 workers of that suit), so about six
  presses a card; refused cards stay in the cursor so that the refusal is
  explained (a card seen twice, a suit the seat showed it had none of).
- The box tells the winner of each trick (it works it out from the cards),
  each job completed, and at the end of each year what went north.
- deal "box": the prompts of the seat holding the box read its own view, so
  its whole hand is on screen at trump (the planner: the deal comes first),
  at its card and while it assigns; the card cursor runs through the whole
  hand, the playable cards first, the others marked with why and refused
  with rule 2b; PEEK held at the seat's own prompt shows its hand and its
  plot's hidden cards. Nothing private is drawn on a hand-over or a reveal.
"""

from __future__ import annotations

from typing import Any

from companion.games import Decision, IllegalMove
from companion.games.kolkhoz.cards import JOBS, SUITS, WORKER_RANKS, suit_of
from companion.games.kolkhoz.rules import Kolkhoz
from companion.ui import defaults, refusals
from companion.ui.canvas import BODY_LINES, COLUMNS, Private, Screen, fit, wrap
from companion.ui.defaults import cursor_start as cursor_start
from companion.ui.defaults import open_check as open_check
from companion.ui.defaults import opening as opening
from companion.ui.defaults import option_detail as option_detail
from companion.ui.i18n import Translate
from companion.ui.settings import setup_rows

TITLE = "Колхоз Kolkhoz"

#: setup rows: option key -> values (the first is the default); players come first
SETTINGS = setup_rows(Kolkhoz)

SIGN = {"hearts": "♥", "diamonds": "♦", "clubs": "♣", "spades": "♠"}
LETTER = {"hearts": "H", "diamonds": "D", "clubs": "C", "spades": "S"}
LEDS_PER_HOURS = 4  # one LED of the bar for every 4 work-hours


def setting_label(key: str, t: Translate) -> str:
    return {"players": t("Players"), "deal": t("Deal")}[key]


def setting_value(key: str, value: Any, t: Translate) -> str:
    if key == "deal":
        return t("own cards") if value == "cards" else t("by the box")
    return str(value)


def card_label(card: str) -> str:
    """ "QH" -> "Q♥": the rank and the suit's sign, as on the card."""
    return card[:-1] + SIGN[suit_of(card)]


def cards_label(cards: list[str]) -> str:
    return " ".join(card_label(c) for c in cards)


def status(view: dict[str, Any], t: Translate) -> str:
    year = t("Year {year}/{years}").format(year=view["year"], years=view["years"])
    if view["trump"] is None:
        return year
    return t("{year} Trump {sign}").format(year=year, sign=SIGN[view["trump"]])


def bar(view: dict[str, Any]) -> int:
    """The open job nearest its 40 work-hours, one LED for every 4 hours."""
    hours = [job["hours"] for job in view["jobs"].values() if not job["done"]]
    if not hours or view["trump"] is None:
        return 0
    return min(10, max(hours) // LEDS_PER_HOURS)


def option_label(option: Any, t: Translate) -> str:
    if option in SUITS:
        return f"{SIGN[option]} {JOBS[option][0]}"
    if option == "none":
        return t("no more")
    return card_label(str(option))


#: the engine's refusals (companion.games.kolkhoz.rules) by code -> the screen's words: a card a
#: seat may not play (deal "box") short, naming the rule; an entry that cannot be right
#: (deal "cards") in full, with the facts that show why
REFUSALS = {
    "not_held": "seat {seat} does not hold {card}",
    "follow": "2b: follow suit: seat {seat} holds {sign}.",
    "trump_lead": "2b: seat {seat} may not lead trump {sign} before it is played.",
    "not_a_card": "{choice} is not a worker card: cards are written like 6H, 10S, QD, KC",
    "assign": "K4: the trump worker {card} goes to a job, not {choice}",
    "trump": "K1: the planner declares one of the four suits as trump, not {choice}",
    "not_a_suit": "{choice} is not a suit",
    "suit_placed": "every {suit} worker is placed already: none can be played",
    "plot_suit": "seat {seat} showed no {suit} left in the plot: no deal fits",
    "trump_only": (
        "2b: seat {seat} led trump in trick {trick} before it was played: no other suit left"
    ),
    "void": "2b: follow suit: seat {seat} did not follow {suit} in trick {trick}, so holds none",
    "early_trump": "2b: no trump lead before trump is played: seat {seat} holds another suit",
    "must_follow": "2b: follow suit: seat {seat} must hold {suit}, no deal fits otherwise",
    "no_deal": "seat {seat} cannot hold {suit}: no deal of the unseen cards fits",
    "plot_more": "seat {seat}'s plot must hold another of its cards: no deal fits without",
    "went_north": "{card} is seen twice: it went north",
    "in_plot": "{card} is seen twice: it is in seat {seat}'s plot",
    "this_year": "{card} is seen twice: it was played this year ({job})",
    "in_trick": "{card} is seen twice: it was played in this trick by seat {seat}",
    "entry_suit": "the suit entered is {suit}: Back to change it",
    "job_suit": "K5: only {suit} cards are revealed for {job}",
    "plot_full": "seat {seat}'s plot cannot hold another {suit} card",
}


def refusal(refused: IllegalMove, t: Translate) -> str:
    """The engine's refusal in the table's language, naming the rule where it has one."""
    return refusals.render(refused, REFUSALS, t, _refusal_facts)


def suit_name(suit: str, t: Translate) -> str:
    """A suit in words, as a refusal says it ("follow hearts")."""
    return {
        "hearts": t("hearts"),
        "diamonds": t("diamonds"),
        "clubs": t("clubs"),
        "spades": t("spades"),
    }[suit]


def _refusal_facts(facts: refusals.Facts, t: Translate) -> refusals.Facts:
    if "suit" in facts:
        suit = str(facts["suit"])
        return {**facts, "suit": suit_name(suit, t), "sign": SIGN[suit]}
    return facts


def hours_label(job: dict[str, Any]) -> str:
    """ "38h" for a job's work-hours, "✓" once it is done."""
    return "✓" if job["done"] else f"{job['hours']}h"


def hours_line(view: dict[str, Any]) -> str:
    """The year's jobs, their hours so far: "♥38h ♦12h ♣✓ ♠0h"."""
    return " ".join(f"{SIGN[s]}{hours_label(view['jobs'][s])}" for s in SUITS if s in view["jobs"])


def choice_label(decision: Decision, view: dict[str, Any], option: Any, t: Translate) -> str:
    """A card, marked with why when it may not be played now; a job with its hours."""
    label = option_label(option, t)
    if decision.kind == "play" and option not in decision.options:
        lead = view["lead_suit"]
        if lead is not None:
            return t("{card}: follow {sign}").format(card=label, sign=SIGN[lead])
        return t("{card}: no trump yet").format(card=label)
    if decision.kind == "assign" and option in view["jobs"]:
        return f"{label} {hours_label(view['jobs'][option])}"
    return label


def won_line(view: dict[str, Any], t: Translate) -> str:
    """The tricks each seat has won this year, "Won 1:2 2:0 3:1 4:0" (a seat that won one is a
    brigadier, who reveals at the requisitions); the brigadiers alone where the count began
    before the box kept it (a game saved by an older version)."""
    if view["won"] is None:
        seats = " ".join(str(seat + 1) for seat in view["brigadiers"])
        return t("Brigadiers: {seats}").format(seats=seats)
    tally = " ".join(f"{seat + 1}:{won}" for seat, won in enumerate(view["won"]))
    return t("Won {tally}").format(tally=tally)


def tracker(view: dict[str, Any], t: Translate) -> list[str]:
    """The running year for the hand-over screen: the jobs' cards before trump, then the
    hours each job has (✓ once done)."""
    if not view["jobs"] or view["phase"] not in ("trump", "play", "assign"):
        return []
    if view["trump"] is None:
        return [t("Jobs {jobs}").format(jobs=jobs_line(view))]
    return [hours_line(view)]


def role_of(decision: Decision, view: dict[str, Any], t: Translate) -> str:
    """What the seat asked is doing, for the hand-over screen."""
    return {
        "trump": t("Planner: deal, trump.")
        if view.get("deal") == "cards"
        else t("Planner: trump."),
        "play": t("Play a card."),
        "suit": t("Enter the cards."),
        "card": t("Enter the cards."),
        "assign": t("Brigadier: assign."),
        "reveal": t("Reveal plot cards."),
    }[decision.kind]


def candidates(decision: Decision, view: dict[str, Any]) -> list[Any]:
    """What the cursor runs through: every suit or card, so refusals can be explained."""
    kind = decision.kind
    if kind == "assign":
        return _from_first_open_job(view)
    if kind in ("trump", "suit"):
        return list(SUITS)
    if kind == "card":
        return [r + LETTER[view["entry"]] for r in WORKER_RANKS]
    if kind == "reveal":
        job = view["requisition"]["job"]
        return [*(r + LETTER[job] for r in WORKER_RANKS), "none"]
    # deal "box": the seat's whole hand (its own view), the cards it may not play after
    return list(view.get("hand") or decision.options)


def _from_first_open_job(view: dict[str, Any]) -> list[str]:
    """The jobs in suit order, turned to start at the first not yet done: the brigadier's
    cursor starts there, so one quick OK never wastes a trump on a finished job (K4)."""
    jobs = view["jobs"]
    first = next((i for i, s in enumerate(SUITS) if not jobs.get(s, {}).get("done")), 0)
    return [*SUITS[first:], *SUITS[:first]]


def choice_buttons(decision: Decision) -> tuple[Any, Any] | None:
    """Kolkhoz has no secret choice: every card is played face up."""
    return None


def jobs_line(view: dict[str, Any]) -> str:
    """The year's job cards: "♥3 ♦1 ♣5 ♠2" (their points)."""
    return " ".join(f"{SIGN[s]}{view['jobs'][s]['points']}" for s in SUITS if s in view["jobs"])


def _with_hand(decision: Decision, view: dict[str, Any], t: Translate) -> list[str] | None:
    """deal "box", on the seat's own view: who and what on one line, its hand on the next
    (above it while assigning, so the card reads on into the job the cursor shows)."""
    hand = view.get("hand")
    if not hand or view.get("seat") != decision.seats[0]:
        return None
    seat = decision.seats[0] + 1
    kind = decision.kind
    if kind == "trump":
        first = t("Seat {n}: trump?").format(n=seat)
    elif kind == "assign":
        first = t("Seat {n}: {card} goes to").format(n=seat, card=card_label(view["to_assign"][0]))
    elif kind == "play" and view["trick"]:
        cards = [card_label(p["card"]) for p in view["trick"]]
        first = t("Seat {n} on {cards}").format(n=seat, cards=" ".join(cards))
        if len(first) > COLUMNS:  # three 10s in French: the cards close up
            first = t("Seat {n} on {cards}").format(n=seat, cards="".join(cards))
    elif kind == "play":
        first = t("Seat {n} leads trick {k}.").format(n=seat, k=view["tricks_played"] + 1)
    else:
        return None
    line = t("Hand {cards}").format(cards=cards_label(hand))
    if len(line) > COLUMNS:  # a long hand closes up
        line = t("Hand {cards}").format(cards="".join(card_label(c) for c in hand))
    if kind == "assign":  # "7♥ goes to" just above the job it goes to, on the cursor
        return [Private(line), first]
    return [first, Private(line)]


def prompt(decision: Decision, view: dict[str, Any], t: Translate) -> list[str]:
    seat = decision.seats[0] + 1
    kind = decision.kind
    if (lines := _with_hand(decision, view, t)) is not None:
        return lines
    if kind == "trump" and view.get("deal") != "cards":  # the box has dealt
        return [t("Seat {n}: trump?").format(n=seat), t("Jobs {jobs}").format(jobs=jobs_line(view))]
    if kind == "trump":
        return [
            t("Seat {n}: deal {h} each").format(n=seat, h=view["hand_size"]),
            t("{jobs} trump?").format(jobs=jobs_line(view)),
        ]
    if kind == "assign":
        return [
            t("Seat {n}, brigadier:").format(n=seat),
            t("{card} to which job?").format(card=card_label(view["to_assign"][0])),
        ]
    if kind == "reveal":
        job = view["requisition"]["job"]
        return [
            t("{job} failed:").format(job=option_label(job, t)),
            t("Seat {n}: plot {sign} cards").format(n=seat, sign=SIGN[job]),
        ]
    if view["phase"] == "plot":
        left = view["to_enter"][decision.seats[0]]
        return [
            t("Seat {n}, plot: {k} left").format(n=seat, k=left),
            t("Hidden card: suit?") if kind == "suit" else t("Hidden card?"),
        ]
    trick = t("Trick {k}:").format(k=view["tricks_played"] + 1)
    played = cards_label([p["card"] for p in view["trick"]])
    whose = view["turn"] + 1
    if kind == "play":
        return [f"{trick} {played}".strip(), t("Seat {n}: your card?").format(n=seat)]
    if kind == "suit":
        question = t("Seat {n}'s suit?").format(n=whose)
    else:
        question = t("Seat {n}'s card?").format(n=whose)
    return [f"{trick} {played}".strip(), question]


def peek(view: dict[str, Any], t: Translate) -> Screen:
    """deal "box", PEEK held at the seat's own prompt: its hand and its plot's hidden cards
    (the plot's job cards lie face up for all). With real cards the box holds none."""
    if view["deal"] == "cards" or "hand" not in view:
        return defaults.peek(view, t)
    rows = [
        *wrap(t("Hand: {cards}").format(cards=cards_label(view["hand"]) or "-")),
        *wrap(t("Plot: {cards}").format(cards=cards_label(view["plot"]["hidden"]) or "-")),
    ]
    title = t("Seat {n}'s cards").format(n=view["seat"] + 1)
    return Screen(title, tuple(fit(rows)), t("Release to hide"))


def _pages(view: dict[str, Any], lines: list[str], t: Translate, keys: str) -> list[Screen]:
    """Lines cut into screens of three, as they wrap."""
    rows = [row for line in lines for row in wrap(line)]
    return [
        Screen(status(view, t), tuple(rows[i : i + BODY_LINES]), keys)
        for i in range(0, len(rows), BODY_LINES)
    ]


def completed_trick(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any] | None:
    """The trick this move finished, if it did (the winner is known at its last card)."""
    if before["phase"] != "play" or len(before["trick"]) != before["players"] - 1:
        return None
    if len(after["trick"]) == after["players"]:  # trump workers still to assign
        return {"plays": after["trick"], "winner": after["brigadier"]}
    if after["trick"]:
        return None  # only the suit was entered
    if after["year"] == before["year"] and after["last_trick"] is not None:
        return after["last_trick"]
    return after["history"][-1]["last_trick"]


def year_so_far(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """The year this move played in: its summary if the move ended it, else the view."""
    if len(after["history"]) > len(before["history"]):
        return after["history"][-1]
    return after


def jobs_done(before: dict[str, Any], after: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The jobs this move completed."""
    if after["year"] == before["year"] and after["jobs"]:
        jobs = after["jobs"]
    elif len(after["history"]) > len(before["history"]):
        jobs = after["history"][-1]["jobs"]
    else:
        return []
    return [
        (s, jobs[s]) for s in SUITS if jobs[s]["done"] and not before["jobs"].get(s, {}).get("done")
    ]


def announcements(before: dict[str, Any], after: dict[str, Any], t: Translate) -> list[Screen]:
    """The trick's winner, the jobs completed, and at the end of a year what went north."""
    if not before["jobs"]:
        return []  # nothing of a year was played yet (the end of the game's plot entries)
    screens = []
    trick = completed_trick(before, after)
    if trick is not None:
        screens.append(
            Screen(
                status(before, t),
                (
                    cards_label([p["card"] for p in trick["plays"]]),
                    t("Seat {n} wins trick {k}.").format(
                        n=trick["winner"] + 1, k=before["tricks_played"] + 1
                    ),
                    won_line(year_so_far(before, after), t),
                ),
                t("OK"),
            )
        )
    for suit, job in jobs_done(before, after):
        screens.append(
            Screen(
                status(before, t),
                (
                    t("{job} done!").format(job=option_label(suit, t)),
                    t("Job card {card}").format(card=card_label(job["reward"])),
                    t("to seat {n}'s plot.").format(n=job["by"] + 1),
                ),
                t("OK"),
            )
        )
    if len(after["history"]) > len(before["history"]):
        screens += _year_end(before, after, t)
    return screens


def _year_end(before: dict[str, Any], view: dict[str, Any], t: Translate) -> list[Screen]:
    """What each failed job cost (K5), then what the next year deals."""
    year = view["history"][-1]
    lines = [t("Year {y} is over.").format(y=year["year"])]
    if not year["requisitions"]:
        lines.append(t("Every job is done."))
    for r in year["requisitions"]:
        lines.append(t("{job} failed:").format(job=option_label(r["job"], t)))
        north = r["north"]
        if r["jack"]:
            lines.append(t("Пьяница {card} north").format(card=card_label(north[0]["card"])))
            continue
        if not north:
            lines.append(t("nothing goes north"))
        for seat in sorted({x["seat"] for x in north}):
            cards = [x["card"] for x in north if x["seat"] == seat]
            lines.append(t("seat {n}: {cards} north").format(n=seat + 1, cards=cards_label(cards)))
    keys = t("OK")
    screens = _pages(before, lines, t, keys)  # still under the year that ends
    if view["phase"] == "trump":
        dealt = view.get("deal") != "cards"  # the box has dealt: nobody deals
        deals = t("Year {y}: {h} cards each,") if dealt else t("Year {y}: deal {h} each,")
        screens.append(
            Screen(
                status(view, t),
                (
                    deals.format(y=view["year"], h=view["hand_size"]),
                    t("play {k} tricks.").format(k=view["tricks"]),
                    t("Jobs {jobs}").format(jobs=jobs_line(view)),
                ),
                keys,
            )
        )
    return screens


def final(view: dict[str, Any], t: Translate) -> list[Screen]:
    scores = view["scores"]
    winners = view["result"]["winners"]
    keys = t("▲▼ page  hold OK: new")
    if len(winners) == 1:
        headline = t("Seat {n} wins").format(n=winners[0] + 1)
    else:
        headline = t("Seats {seats} tie").format(seats=" ".join(str(w + 1) for w in winners))
    why = t("Best plot: {score}").format(score=max(scores))
    pairs = [f"{i + 1}: {score}" for i, score in enumerate(scores)]
    return [
        Screen(t("Game over"), (why,), keys, big=headline),
        Screen(
            t("Game over"),
            (
                t("Plots {a}  {b}").format(a=pairs[0], b=pairs[1]),
                t("Plots {a}  {b}").format(a=pairs[2], b=pairs[3]),
                t("{k} cards went north").format(k=len(view["north"])),
            ),
            keys,
        ),
    ]
