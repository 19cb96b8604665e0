"""Glasnost's screens: the chairman's seat, secret votes, purges and coups, from views only.

- Status line: the chairman, the three policies and the coup tokens left,
  e.g. "Ch3 E+ M- S· Coup 2" (E economy, M military, S security; + reform,
  - repression, · no policy yet), so the policies and the coup tokens are
  always on screen.
- LED bar: the crises closed so far, out of the board's twelve, scaled to
  the ten LEDs (the game ends when the chairman has no seat left, so this
  is how far the game has gone).
- With the crisis cards shuffled (rule 3.2), the box first says where each
  card goes, a screen a card in crisis-space order, naming the space by the
  board seats around it (their printed numbers).
- The chairman's seat is picked by the number printed on the board; the
  cursor runs through the legal board seats only, in board order, and
  starts on the middle one (Up for lower numbers, Down for higher), so any
  legal seat is at most half of them away. It shows the crises the seat
  touches, by short name.
- Every secret choice (crisis vote, purge, the coup question, the coup
  vote) is on the A and B buttons, and its screens depend only on the
  public view and on whose turn it is. The coup question is put to every
  seat the same way (S5), naming both leaders at once where both may try:
  A for Gorbachev's coup, B for Kryuchkov's (with one leader offered, A for
  his coup and B for none). A leader's answer counts only when it names
  himself, so the letter of the other leader is a claim of none, the others
  answer anything, and nobody can tell who was really asked.
- Crisis cards go by a short name taken from the board's own name (as the
  board and its drawing print it, in every language), or from its name in
  the table's language where a table's own board gives one (its ``names``,
  cut to fit); objective card names stay as printed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games import Decision, IllegalMove
from companion.games.glasnost.board import DOMAINS, NO, REFORM, REPRESS, YES
from companion.games.glasnost.rules import (
    COUP,
    DONE,
    GORBACHEV,
    KRYUCHKOV,
    NATIONALISTS,
    OBJECTIVES,
    REFORMISTS,
    REPRESSIONISTS,
    Glasnost,
    faction_of,
)
from companion.ui import refusals
from companion.ui.canvas import BODY_LINES, COLUMNS, Screen, wrap
from companion.ui.defaults import cards_label as cards_label
from companion.ui.defaults import headers_wait
from companion.ui.defaults import tracker as tracker
from companion.ui.i18n import Translate, language_of
from companion.ui.settings import setup_rows

TITLE = "Glasnost"

#: setup rows: option key -> values (the first is the default); players come first
SETTINGS = setup_rows(Glasnost)

#: the bundled board's crisis cards by a word of their printed name, short enough for two a line
SHORT = {
    "Hungary 1956": "Hungary",
    "The Berlin Wall": "Berlin",
    "Chernobyl": "Chernobyl",
    "The Prague Spring": "Prague",
    "Sputnik": "Sputnik",
    "Solidarność": "Solidarność",
    "Afghanistan": "Afghanistan",
    "The price reform": "Price",
    "The Cuban missile crisis": "Cuba",
    "The Baltic Way": "Baltic Way",
    "Nagorno-Karabakh": "Karabakh",
    "The anti-alcohol campaign": "Alcohol",
}
SHORT_LENGTH = 11  # a table's own board: its crisis names cut to this
LETTER = {"economy": "E", "military": "M", "security": "S"}
SIGN = {REFORM: "+", REPRESS: "-", None: "·"}


def setting_label(key: str, t: Translate) -> str:
    return {"players": t("Players"), "crises": t("Crises"), "countdown": t("Coup check")}[key]


def setting_value(key: str, value: Any, t: Translate) -> str:
    if key == "crises":
        return t("shuffled") if value == "shuffled" else t("fixed")
    if key == "countdown":
        return t("{n} s").format(n=value)
    return str(value)


# -- words ---------------------------------------------------------------------------
def crisis_name(name: str, t: Translate) -> str:
    """A crisis card's short name (a table's own board: its name, cut to fit). Names are the
    board's own, never translated, so that they read as the printed board does."""
    if name in SHORT:
        return SHORT[name]
    name = name.removeprefix("The ").removeprefix("the ")
    return name[:SHORT_LENGTH]


def own_name(entry: Mapping[str, Any], t: Translate) -> str | None:
    """The name a table's own board gives a crisis in the table's language, if it gives one
    (``companion.games.glasnost.board``: a crisis's ``names``)."""
    name: str | None = (entry.get("names") or {}).get(language_of(t))
    return name


def crisis_short(crisis: Mapping[str, Any], t: Translate) -> str:
    """A crisis's name on the box: the board's name in the table's language, cut to fit, or
    its short name (``crisis_name``)."""
    own = own_name(crisis, t)
    return own[:SHORT_LENGTH] if own else crisis_name(crisis["name"], t)


def crisis_names(names: list[str], width: int = COLUMNS) -> str:
    """ "Hungary+Berlin": short names joined; the longest (the last of equals) is cut, with
    a dot, until they fit."""
    names = list(names)
    while (excess := len("+".join(names)) - width) > 0:
        longest = max(range(len(names)), key=lambda i: (len(names[i]), i))
        keep = max(len(names[longest]) - excess, 4) - 1
        if keep >= len(names[longest]) - 1:
            break  # nothing left to cut
        names[longest] = names[longest][:keep] + "."
    return "+".join(names)


def domain_name(domain: str, t: Translate) -> str:
    return {"economy": t("Economy"), "military": t("Military"), "security": t("Security")}[domain]


def domain_short(domain: str, t: Translate) -> str:
    return {"economy": t("Eco"), "military": t("Mil"), "security": t("Sec")}[domain]


def policies_line(policies: dict[str, str | None]) -> str:
    """ "E+ M- S·": each domain's letter and its policy."""
    return " ".join(f"{LETTER[d]}{SIGN[policies.get(d)]}" for d in DOMAINS)


def faction_label(faction: str, t: Translate) -> str:
    return {
        REFORMISTS: t("Reformist"),
        REPRESSIONISTS: t("Repressionist"),
        NATIONALISTS: t("Nationalist"),
    }[faction]


def faction_plural(faction: str, t: Translate) -> str:
    return {
        REFORMISTS: t("REFORMISTS"),
        REPRESSIONISTS: t("REPRESSIONISTS"),
        NATIONALISTS: t("NATIONALISTS"),
    }[faction]


def seats_list(seats: list[int]) -> str:
    return " ".join(str(s + 1) for s in sorted(seats))


def seat_label(seat: int, t: Translate) -> str:
    return t("seat {n}").format(n=seat + 1)


def crisis_choices(crisis: dict[str, Any], t: Translate) -> str:
    """ "Yes Sec+  No Mil-": what each vote would do."""
    return t("Yes {yes}  No {no}").format(
        yes=domain_short(crisis["yes"]["domain"], t) + "+",
        no=domain_short(crisis["no"]["domain"], t) + "-",
    )


def aims_lines(card: str, t: Translate) -> list[str]:
    """An objective card's policies in words, one line a direction."""
    wants = OBJECTIVES[card]
    lines = []
    for direction, text in ((REFORM, t("Reform {domains}")), (REPRESS, t("Repress {domains}"))):
        domains = [d for d in DOMAINS if wants.get(d) == direction]
        if len(domains) == 1:
            lines.append(text.format(domains=domain_name(domains[0], t)))
        elif domains:
            lines.append(text.format(domains=" ".join(domain_short(d, t) for d in domains)))
    return lines


def aims_short(card: str) -> str:
    """ "E+ S-": an objective card's policies in the status line's signs."""
    wants = OBJECTIVES[card]
    return " ".join(f"{LETTER[d]}{SIGN[wants[d]]}" for d in DOMAINS if d in wants)


# -- the frame -------------------------------------------------------------------------
def status(view: dict[str, Any], t: Translate) -> str:
    policies = policies_line(view["policies"])
    left = view["coup_tokens"]["left"]
    if view["chairman"] is None:
        return t("{policies} Coup {left}").format(policies=policies, left=left)
    return t("Ch{n} {policies} Coup {left}").format(
        n=view["chairman"] + 1, policies=policies, left=left
    )


def bar(view: dict[str, Any]) -> int:
    """Crises closed (voted or hushed up) out of the board's twelve, on the ten LEDs."""
    closed = sum(c["closed"] for c in view["crises"])
    return int(closed * 10 / len(view["crises"]) + 0.5)


# -- choices ---------------------------------------------------------------------------
def option_label(option: Any, t: Translate) -> str:
    if isinstance(option, int):
        return seat_label(option, t)
    return {
        YES: t("Yes"),
        NO: t("No"),
        "left": t("left"),
        "right": t("right"),
        COUP: t("Coup"),
        GORBACHEV: t("{leader}'s coup").format(leader=GORBACHEV),
        KRYUCHKOV: t("{leader}'s coup").format(leader=KRYUCHKOV),
        DONE: t("no more"),
        "seen": t("seen"),
    }[option]


def board_seat_label(view: dict[str, Any], place: int, t: Translate) -> str:
    """ "board seat 5", or "board seats 17+18" for the first of a connected pair."""
    seats = view["board_seats"]
    partner = seats[place]["connected"]
    if partner is not None and partner > place:
        pair = f"{seats[place]['id']}+{seats[partner]['id']}"
        return t("board seats {ids}").format(ids=pair)
    return t("board seat {id}").format(id=seats[place]["id"])


def choice_label(decision: Decision, view: dict[str, Any], option: Any, t: Translate) -> str:
    """A board seat when sitting; otherwise a player's seat or a word."""
    if decision.kind == "sit":
        return board_seat_label(view, int(option), t)
    return option_label(option, t)


def option_detail(
    decision: Decision, view: dict[str, Any], option: Any, t: Translate
) -> str | None:
    """The crises a board seat touches (both seats' for a connected pair), by short name."""
    if decision.kind != "sit":
        return None
    seats = view["board_seats"]
    spaces = list(seats[option]["crises"])
    partner = seats[option]["connected"]
    if partner is not None:
        spaces += [c for c in seats[partner]["crises"] if c not in spaces]
    return crisis_names([crisis_short(view["crises"][c], t) for c in spaces])


def candidates(decision: Decision, view: dict[str, Any]) -> list[Any]:
    """The legal board seats in board order; or every player then "done", a refused one
    explained."""
    if decision.kind == "coup_name":
        return [*range(view["players"]), DONE]
    return list(decision.options)


def cursor_start(decision: Decision, options: tuple[Any, ...]) -> int:
    """A seat starts in the middle of the legal ones: any is at most half of them away."""
    if decision.kind == "sit":
        return (len(options) - 1) // 2
    return 0


def choice_buttons(decision: Decision) -> tuple[Any, Any] | None:
    """The secret choices, on the A and B buttons. The coup question: A Gorbachev's coup,
    B Kryuchkov's; with one leader offered, A his coup and B none (S5)."""
    if decision.kind == "coup_offer":
        a, b, *_ = decision.options
        return (a, b)
    return {
        "crisis_vote": (YES, NO),
        "purge": ("left", "right"),
        "coup_vote": (YES, NO),
    }.get(decision.kind)


def _role(decision: Decision, t: Translate) -> str:
    """What the seat asked is doing, for the hand-over screen."""
    return {
        "peek": t("Read your objective."),
        "sit": t("You are chairman."),
        "crisis_vote": t("Vote on a crisis."),
        "purge": t("Purge a fellow voter."),
        "coup_offer": t("The coup question."),
        "coup_name": t("Name the coup."),
        "coup_vote": t("Vote on the coup."),
    }[decision.kind]


def role_of(decision: Decision, view: dict[str, Any], t: Translate) -> str:
    """The hand-over's role line, naming the crisis at stake for its vote and its purge."""
    if decision.kind not in ("crisis_vote", "purge") or view["crisis"] is None:
        return _role(decision, t)
    crisis = crisis_short(view["crises"][view["crisis"]], t)
    line = {"crisis_vote": t("Vote: {crisis}."), "purge": t("Purge at {crisis}.")}
    return line[decision.kind].format(crisis=crisis)


def fellow_voters(view: dict[str, Any], voter: int) -> tuple[int, int]:
    """S4: the fellow voter to the left (next clockwise) and the one to the right (the same
    seat if only one other sits at the crisis, which the rules never reach: a screen draws
    what it is given)."""
    others = [v for v in view["voters"] if v != voter] or [voter]
    left = min(others, key=lambda v: (v - voter) % view["players"])
    right = next((v for v in others if v != left), left)
    return left, right


def _leader(view: dict[str, Any]) -> dict[str, Any]:
    return view["coup_leader"]


def offered(view: dict[str, Any]) -> list[str]:
    """The leaders the coup question offers, as the A and B buttons order them."""
    return [x for x in (GORBACHEV, KRYUCHKOV) if x in view["asking"]]


def open_check(decision: Decision, view: dict[str, Any], t: Translate) -> list[str] | None:
    """S5 at the box: the coup question is put to the table at once, naming every leader
    offered; a leader claims it (anyone may, only his own answer counts), as he would reveal
    his card."""
    if decision.kind != "coup_offer":
        return None
    leaders = offered(view)
    if len(leaders) == 1:
        return [t("A coup by {leader}?").format(leader=leaders[0]), t("Anyone may claim.")]
    return [t("A coup by {a}").format(a=leaders[0]), t("or by {b}?").format(b=leaders[1])]


def prompt(decision: Decision, view: dict[str, Any], t: Translate) -> list[str]:
    seat = decision.seats[0]
    n = seat + 1
    kind = decision.kind
    if kind == "peek":
        return [
            t("Seat {n}: hold PEEK").format(n=n),
            t("to read your"),
            t("objective card."),
        ]
    if kind == "sit":
        return [t("Seat {n}, chairman:").format(n=n), t("take a board seat.")]
    if kind == "crisis_vote":
        crisis = view["crises"][view["crisis"]]
        return [
            t("Seat {n}: vote on").format(n=n),
            crisis_short(crisis, t),
            crisis_choices(crisis, t),
        ]
    if kind == "purge":
        left, right = fellow_voters(view, seat)
        return [
            t("Seat {n}: purge whom?").format(n=n),
            t("left: seat {s}").format(s=left + 1),
            t("right: seat {s}").format(s=right + 1),
        ]
    if kind == "coup_offer":
        leaders = offered(view)
        question = (
            t("a coup by {leader}?").format(leader=leaders[0])
            if len(leaders) == 1
            else t("a leader's coup?")
        )
        return [t("Seat {n}, secretly:").format(n=n), question, t("Others: either one.")]
    if kind == "coup_name":
        named = view["named"]
        return [
            t("Seat {n}, {leader}:").format(n=n, leader=_leader(view)["card"]),
            t("coup with: {seats}").format(seats=seats_list(named))
            if named
            else t("coup with: nobody"),
        ]
    if kind == "coup_vote":
        leader = _leader(view)
        named = view["named"]
        return [
            t("Seat {n}: coup vote").format(n=n),
            t("{leader} (seat {s})").format(leader=leader["card"], s=leader["seat"] + 1),
            t("with {seats}").format(seats=seats_list(named)) if named else t("alone"),
        ]
    raise KeyError(kind)


def peek(view: dict[str, Any], t: Translate) -> Screen:
    """The seat's objective card, shown only while PEEK is held: its name on the top line."""
    card = view["objective"]["name"]
    body = (faction_label(faction_of(card), t), *aims_lines(card, t))
    return Screen(card, body, t("Release to hide"))


def refusal(refused: IllegalMove, t: Translate) -> str:
    """The engine's refusal, short enough for the screen and translated, naming the rule."""
    return refusals.render(refused, REFUSALS, t, _refusal_facts)


def _refusal_facts(facts: refusals.Facts, t: Translate) -> refusals.Facts:
    if "crisis" in facts:
        return {**facts, "crisis": crisis_name(str(facts["crisis"]), t)}
    return facts


#: the engine's refusals (companion.games.glasnost.rules) by code -> the screen's words
REFUSALS = {
    "partner": "5.1: board seat {place} goes with {partner}: choose {partner} to take both.",
    "face_up": "5.1: board seat {place} already has a face-up token.",
    "voted": "5.1: every crisis at board seat {place} is already voted.",
    "token_at": "5.1: seat {seat} already has a face-up token at {crisis}.",
    "no_tokens": "S6: seat {seat} has no seat token left, and no spare set.",
    "name_self": "S5: the leader names the others in the coup, not themself.",
    "named": "S5: seat {seat} is already in the coup.",
    "purge": "S4: a voter purges the fellow voter to the left or to the right",
}


# -- setup ------------------------------------------------------------------------------
def opening(view: dict[str, Any], t: Translate) -> list[Screen]:
    """Rule 3.2: where each shuffled crisis card goes, space by space, each space named by
    the printed numbers of its board seats."""
    if view["options"].get("crises") != "shuffled":
        return []  # in the board's own order, as its description (and drawing) lists them
    crises = view["crises"]
    screens = []
    for k, crisis in enumerate(crises):
        seats = " ".join(str(view["board_seats"][q]["id"]) for q in crisis["board_seats"])
        name = wrap(crisis["name"])
        if len(name) == 1:
            where = [t("goes to the space of"), t("board seats {seats}").format(seats=seats)]
        else:
            where = [t("by seats {seats}").format(seats=seats)]
        status = t("Crisis card {k} of {n}").format(k=k + 1, n=len(crises))
        screens.append(Screen(status, (*name[:2], *where), t("OK: next")))
    return screens


# -- reveals -----------------------------------------------------------------------------
def _screen(view: dict[str, Any], t: Translate, lines: list[str], big: str | None = None) -> Screen:
    return Screen(status(view, t), tuple(lines), t("OK: next"), big=big)


def _policy(view: dict[str, Any], crisis: int, vote: str, t: Translate) -> Screen:
    side = view["crises"][crisis][vote]
    big = t("REFORM") if side["direction"] == REFORM else t("REPRESSION")
    return _screen(
        view, t, [t("Policy: {domain}").format(domain=domain_name(side["domain"], t))], big
    )


def _event(
    event: dict[str, Any], history: list[dict[str, Any]], view: dict[str, Any], t: Translate
) -> list[Screen]:
    kind = event["event"]
    if kind == "vote":
        crisis = view["crises"][event["crisis"]]
        votes = view["last_vote"]
        shown = " ".join(t("YES") if v == YES else t("NO") for v in votes)  # as shuffled
        line = t("Votes, {crisis}:").format(crisis=crisis_short(crisis, t))
        screens = [_screen(view, t, [line], shown)]
        if event["yes"] in (0, len(votes)):
            screens.append(_policy(view, event["crisis"], YES if event["yes"] else NO, t))
        else:
            screens.append(
                Screen(
                    status(view, t),
                    (
                        t("Not unanimous."),
                        t("Seats {seats}:").format(seats=seats_list(event["voters"])),
                        t("purge the dissident."),
                    ),
                    t("OK: purge"),
                )
            )
        return screens
    if kind == "purge":
        lines = [
            t("Seat {a} purges {b}").format(a=voter + 1, b=target + 1)
            for voter, target in event["purges"]
        ]
        screens = [_screen(view, t, lines)]
        if event["purged"] is None:
            screens.append(
                _screen(view, t, [t("A cycle: the crisis is hushed up. No policy, no coup.")])
            )
        else:
            vote = next(h for h in reversed(history) if h["event"] == "vote")
            majority = YES if 2 * vote["yes"] > len(vote["voters"]) else NO
            screens.append(
                _screen(
                    view, t, [t("Token turned down:")], t("SEAT {n}").format(n=event["purged"] + 1)
                )
            )
            screens.append(_policy(view, event["crisis"], majority, t))
        return screens
    if kind == "coup":
        line = t("Seat {n}, {leader}:").format(n=event["seat"] + 1, leader=event["leader"])
        return [_screen(view, t, [line], t("COUP!"))]
    if kind == "declined":
        return [_screen(view, t, [t("{leader}:").format(leader=event["leader"])], t("NO COUP"))]
    if kind == "coup vote":
        yes = event["votes"].count(YES)
        counted = t("{yes} YES {no} NO").format(yes=yes, no=len(event["votes"]) - yes)
        leader = t("{leader}'s coup:").format(leader=event["leader"])
        screens = [_screen(view, t, [leader], counted)]
        if event["success"]:
            screens.append(_screen(view, t, [t("All Yes:")], t("SUCCESS")))
        elif view["phase"] == "over":
            screens.append(_screen(view, t, [t("No coup token left:")], t("USSR FALLS")))
        else:
            left = t("Coup tokens left: {k}").format(k=view["coup_tokens"]["left"])
            screens.append(_screen(view, t, [left], t("FAILED")))
        return screens
    if kind == "no seat":
        line = t("Seat {n} cannot sit:").format(n=event["seat"] + 1)
        return [_screen(view, t, [line], t("THE END"))]
    return []  # "sit": the chairman's own choice, on the board for all to see


def announcements(before: dict[str, Any], after: dict[str, Any], t: Translate) -> list[Screen]:
    """The reveals of a move, in order; and the call to vote when a crisis fills."""
    history = after["history"]
    screens: list[Screen] = []
    start = len(before["history"])
    for i in range(start, len(history)):
        event = history[i]
        if event["event"] == "declined" and i > start and history[i - 1]["event"] == "declined":
            # S5: both leaders declined one question: one outcome, on the screen before
            screens[-1] = _screen(after, t, [t("Both leaders:")], t("NO COUP"))
            continue
        screens += _event(event, history[:i], after, t)
    calling = after["phase"] == "vote" and (
        before["phase"] != "vote" or before["crisis"] != after["crisis"]
    )
    if calling:
        crisis = after["crises"][after["crisis"]]
        screens.append(
            Screen(
                status(after, t),
                (
                    t("{crisis}: full.").format(crisis=crisis_short(crisis, t)),
                    t("Voters: {seats}").format(seats=seats_list(after["voters"])),
                    crisis_choices(crisis, t),
                ),
                t("OK: vote"),
            )
        )
    return headers_wait(screens, status(before, t))


# -- the end -----------------------------------------------------------------------------
def _headline(view: dict[str, Any], t: Translate) -> str:
    winners = view["result"]["winners"]
    if not winners:
        return t("NO WINNER")
    factions = {faction_of(view["objectives"][w]) for w in winners}
    if len(factions) == 1:
        return faction_plural(factions.pop(), t)
    return t("{k} WINNERS").format(k=len(winners))


def _why(view: dict[str, Any], t: Translate) -> str:
    outcome = view["result"]["outcome"]
    if outcome == "instant":
        return t("A coup succeeded.")
    if outcome == "nationalist instant":
        return t("The USSR falls.")
    stuck = next(h["seat"] for h in reversed(view["history"]) if h["event"] == "no seat")
    return t("Seat {n} cannot sit.").format(n=stuck + 1)


def final(view: dict[str, Any], t: Translate) -> list[Screen]:
    """The headline, the winners and policies, then every seat's objective card."""
    keys = t("▲▼ page  hold OK: new")
    head = t("Game over")
    winners = view["result"]["winners"]
    listed = t("Winners: {seats}").format(seats=seats_list(winners)) if winners else t("No winner.")
    summary = [
        *wrap(listed),
        t("Policies: {policies}").format(policies=policies_line(view["policies"])),
    ]
    cards = [
        f"{seat + 1} {card} {aims_short(card)}"[:COLUMNS]
        for seat, card in enumerate(view["objectives"])
    ]
    pages = [
        Screen(head, (_why(view, t),), keys, big=_headline(view, t)),
        Screen(head, tuple(summary), keys),
    ]
    for i in range(0, len(cards), BODY_LINES):
        pages.append(Screen(head, tuple(cards[i : i + BODY_LINES]), keys))
    return pages
