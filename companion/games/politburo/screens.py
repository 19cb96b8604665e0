"""Politburo's screens: plan, execute, purge, read from the game's views only.

- Status line: the round and the three ministry levels, "Round 2/7 D↑1 F↓2 S0"
  (French "Tour 2/7 ..."; "2/7 ..." when that does not fit), so the ministries
  are always on screen. A level is shown without a sign: "↑1" is one step up
  the track (repressed), "↓2" two steps down (reformed), so that "+" keeps
  the one meaning it has in Glasnost (reform). The rules page explains it.
- Influence: one digit a seat, in groups of five ("Influence 33323 33"),
  under every hand-over (``tracker``), while executions 1 and 2 are played,
  after each purge and on the last pages (the secretary's cursor screens
  have no line left for it). The secretary is named on every one of their
  prompts and on the hand-over, and the status line has no room for them.
- LED bar: the round, one LED a round (rounds = players, at most 10).
- Setup "vote": "count" (the default) asks the secretary for the number of
  thumbs up the table showed (P3: the thumbs are open), on a cursor that
  starts at a majority of the voters; "each" asks every member for their
  thumb in turn. Both are the engine's option ``vote``.
- Executions are secret A/B choices (A reform, B repress); their reveal
  shows counts only (P5). The third execution's prompt gives the executor
  the number of their card (P6); the purge's prompt says which seat "left"
  and "right" mean for that executor (the same screen for either choice).
  After the purge the numbered cards, the pointing and the losses are shown.
- Refusals: the engine's messages (English, naming the rule) are matched
  against ``REFUSALS`` and shown in the table's language.
"""

from __future__ import annotations

from typing import Any

from companion.games import Decision, IllegalMove
from companion.games.politburo.rules import (
    CONDITIONS,
    DEFENCE,
    DONE,
    FINANCE,
    LEFT,
    MINISTRIES,
    NO,
    REFORM,
    REPRESS,
    RIGHT,
    SECURITY,
    YES,
    Politburo,
    card_order,
)
from companion.ui import refusals
from companion.ui.canvas import COLUMNS, Screen
from companion.ui.defaults import cards_label as cards_label
from companion.ui.defaults import headers_wait, label_by_option
from companion.ui.defaults import open_check as open_check
from companion.ui.defaults import opening as opening
from companion.ui.defaults import option_detail as option_detail
from companion.ui.i18n import Translate
from companion.ui.settings import setup_rows

TITLE = "Politburo"

#: setup rows: option key -> values (the first is the default); players come first
SETTINGS = setup_rows(Politburo)

LETTER = {DEFENCE: "D", FINANCE: "F", SECURITY: "S"}


def setting_label(key: str, t: Translate) -> str:
    return {"players": t("Players"), "vote": t("Plan vote")}[key]


def setting_value(key: str, value: Any, t: Translate) -> str:
    if key == "vote":
        return t("each seat") if value == "each" else t("counted")
    return str(value)


def ministry_label(ministry: str, t: Translate) -> str:
    return {DEFENCE: t("Defence"), FINANCE: t("Finance"), SECURITY: t("Security")}[ministry]


def steps(level: int) -> str:
    """A level or a change without a sign: "↑1" up the track (repress), "↓2" down, "0"."""
    if level == 0:
        return "0"
    return f"{'↑' if level > 0 else '↓'}{abs(level)}"


def levels(view: dict[str, Any]) -> str:
    """ "D↑1 F↓2 S0": the three ministry levels."""
    return " ".join(f"{LETTER[m]}{steps(view['ministries'][m])}" for m in MINISTRIES)


def status(view: dict[str, Any], t: Translate) -> str:
    """ "Round 2/7 D↑1 F↓2 S0", or "10/10 D↑12 ..." when the word does not fit."""
    count = f"{view['round']}/{view['rounds']}"
    line = f"{t('Round {n}').format(n=count)} {levels(view)}"
    return line if len(line) <= COLUMNS else f"{count} {levels(view)}"


def bar(view: dict[str, Any]) -> int:
    """The LED bar counts the rounds: one LED a round, 10 players at most."""
    return min(view["round"], 10)


def influence_line(view: dict[str, Any], t: Translate) -> str:
    """Every seat's influence in seat order, in groups of five: "Influence 33323 33"."""
    digits = "".join(str(i) for i in view["influence"])
    groups = " ".join(digits[i : i + 5] for i in range(0, len(digits), 5))
    return t("Influence {digits}").format(digits=groups)


def tracker(view: dict[str, Any], t: Translate) -> list[str]:
    """The line shown under every hand-over: the influence track."""
    return [influence_line(view, t)]


def seat_label(seat: int, t: Translate) -> str:
    return t("seat {n}").format(n=seat + 1)


def option_label(option: Any, t: Translate) -> str:
    if isinstance(option, int):
        return seat_label(option, t)
    if option in MINISTRIES:
        return ministry_label(option, t)
    if option.isdigit():
        return t("{n} thumbs up").format(n=option)
    return {
        YES: t("yes"),
        NO: t("no"),
        REFORM: t("Reform"),
        REPRESS: t("Repress"),
        LEFT: t("left"),
        RIGHT: t("right"),
        DONE: t("none: execute"),
        "seen": t("seen"),
    }[option]


choice_label = label_by_option(option_label)


def _role(decision: Decision, t: Translate) -> str:
    """What the seat asked is doing, for the hand-over screen (one line)."""
    return {
        "peek": t("Read your card."),
        "propose": t("Secretary: the plan."),
        "plan_vote": t("Vote on the plan."),
        "plan_count": t("Secretary: thumbs."),
        "casting": t("Secretary: tie."),
        "appoint": t("Secretary: appoint."),
        "replace": t("Secretary: replace?"),
        "replace_by": t("Secretary: replace?"),
        "execute": t("Executor: play."),
        "point": t("Executor: purge."),
    }[decision.kind]


def role_of(decision: Decision, view: dict[str, Any], t: Translate) -> str:
    """The hand-over's role line, naming the ministry at stake when the public view has one."""
    plan = view["plan"] or view["proposal"]
    kind = decision.kind
    if plan is None or kind not in ("plan_vote", "execute", "point"):
        return _role(decision, t)
    ministry = ministry_label(plan, t)
    return {
        "plan_vote": t("Vote: {ministry} plan."),
        "execute": t("Executor: {ministry}."),
        "point": t("Purge: {ministry}."),
    }[kind].format(ministry=ministry)


def cursor_start(decision: Decision, options: tuple[Any, ...]) -> int:
    """The thumbs count starts at a bare majority of the voters (where the plan passes);
    every other choice on its first legal option."""
    if decision.kind == "plan_count":
        return (len(options) - 1) // 2 + 1  # options: "0" to the number of voters
    return 0


def candidates(decision: Decision, view: dict[str, Any]) -> list[Any]:
    """What the cursor runs through, refused values included so the refusal is explained."""
    kind = decision.kind
    if kind in ("appoint", "replace_by"):
        return list(range(view["players"]))
    if kind == "propose":
        return list(MINISTRIES)
    if kind == "replace":
        return [DONE, *view["executors"]]
    return list(decision.options)


def choice_buttons(decision: Decision) -> tuple[Any, Any] | None:
    """The secret choices on A and B: the execution card, the purge's pointing."""
    if decision.kind == "execute":
        return (REFORM, REPRESS)
    if decision.kind == "point":
        return (LEFT, RIGHT)
    return None


def prompt(decision: Decision, view: dict[str, Any], t: Translate) -> list[str]:
    seat = decision.seats[0]
    n = seat + 1
    kind = decision.kind
    secretary = t("Seat {seat}, secretary:").format(seat=n)
    plan = view["plan"] or view["proposal"]
    if kind == "peek":
        return [
            t("Seat {seat}: hold PEEK").format(seat=n),
            t("to read your member"),
            t("card in secret."),
        ]
    if kind == "propose":
        return [secretary, t("which plan?")]
    if kind == "plan_vote":
        return [
            t("Seat {seat}: vote").format(seat=n),
            t("{ministry} plan?").format(ministry=ministry_label(plan, t)),
        ]
    if kind == "plan_count":
        return [secretary, t("{ministry}: thumbs up?").format(ministry=ministry_label(plan, t))]
    if kind == "casting":
        return [secretary, t("tie: {ministry}?").format(ministry=ministry_label(plan, t))]
    if kind == "appoint":
        return [secretary, _appoint_line(view, t)]
    if kind == "replace":
        return [secretary, t("replace an executor?")]
    if kind == "replace_by":
        return [secretary, t("instead of seat {n}?").format(n=view["replacing"] + 1)]
    if kind == "execute":
        return _execute_prompt(seat, view, t)
    if kind == "point":
        return _point_prompt(seat, view, t)
    raise KeyError(kind)


def _appoint_line(view: dict[str, Any], t: Translate) -> str:
    """The executors appointed so far, and which one is asked for."""
    picked = " ".join(str(s + 1) for s in view["executors"])
    k = len(view["executors"]) + 1
    if picked:
        return t("{picked} and executor {k}?").format(picked=picked, k=k)
    return t("executor {k} of 3?").format(k=k)


def _execute_prompt(seat: int, view: dict[str, Any], t: Translate) -> list[str]:
    """An executor's card: the execution, and the influence or (P6) the card's number."""
    k = view["execution"]
    plan = view["plan"] or view["proposal"]
    lines = [
        t("Seat {seat}, executor:").format(seat=seat + 1),
        t("execution {k}, {ministry}").format(k=k, ministry=ministry_label(plan, t)),
    ]
    if k == 3:  # P6: the numbered cards are dealt by seat from the secretary's left
        order = card_order(view["executors"], view["secretary"], view["players"])
        lines.append(t("your card: number {i}").format(i=order.index(seat) + 1))
    else:
        lines.append(influence_line(view, t))
    return lines


def _point_prompt(seat: int, view: dict[str, Any], t: Translate) -> list[str]:
    """P7: the two executors this one may point at."""
    pointing = view["pointing"]
    targets = pointing["targets"][pointing["executors"].index(seat)]
    return [
        t("Seat {seat}, point at:").format(seat=seat + 1),
        t("left: seat {n}").format(n=targets[LEFT] + 1),
        t("right: seat {n}").format(n=targets[RIGHT] + 1),
    ]


#: the engine's refusals (companion.games.politburo.rules) by code -> the screen's words, still
#: naming the rule
REFUSALS = {
    "rejected": "P3: the {plan} plan was already rejected this round",
    "self_appoint": "P4: the general secretary cannot appoint themself",
    "executor": "P4: seat {seat} is already one of the three executors",
    "brought_in": "seat {seat} has just been brought in: that place is refilled",
    "not_executing": "P5: seat {seat} is not executing, so cannot be replaced",
    "yes_no": "P3: the plan vote is yes or no",
    "thumbs": "P3: the thumbs up are 0 to {voters}, the members but the secretary",
    "execution_card": "P5: an execution card is repress or reform",
    "point": "P7: point left or right, at one of the two other executors",
}


def refusal(refused: IllegalMove, t: Translate) -> str:
    """The engine's refusal in the table's language, still naming the rule."""
    return refusals.render(refused, REFUSALS, t, _refusal_facts)


def _refusal_facts(facts: refusals.Facts, t: Translate) -> refusals.Facts:
    if "plan" in facts:
        return {**facts, "plan": ministry_label(str(facts["plan"]), t).lower()}
    return facts


def half_label(players: int, t: Translate) -> str:
    """N/2 unrounded (P8): "3.5" in English, "3,5" in French."""
    if players % 2 == 0:
        return str(players // 2)
    return t("{n}.5").format(n=players // 2)


def condition_label(member: str, players: int, t: Translate) -> str:
    """A member card's victory condition in a few words (P8: ties count)."""
    kind, target = CONDITIONS[member]
    ministry = ministry_label(target, t) if target is not None else ""
    if kind == "most repressing":
        return t("Win: {ministry} ≥ both other ministries").format(ministry=ministry)
    if kind == "most reforming":
        return t("Win: {ministry} ≤ both other ministries").format(ministry=ministry)
    if kind == "repressions":
        return t("Win: all ministries total ≥ 0")
    if kind == "reforms":
        return t("Win: all ministries total ≤ 0")
    half = half_label(players, t)
    if kind == "little lost":
        return t("Win: total influence lost ≤ {half}").format(half=half)
    return t("Win: total influence lost ≥ {half}").format(half=half)


def peek(view: dict[str, Any], t: Translate) -> Screen:
    """The member card, shown only while PEEK is held."""
    return Screen(
        status(view, t),
        (
            t("Seat {n}: {member}").format(n=view["seat"] + 1, member=view["member"]),
            condition_label(view["member"], view["players"], t),
        ),
        t("Release to hide"),
    )


def announcements(before: dict[str, Any], after: dict[str, Any], t: Translate) -> list[Screen]:
    """What the table must see after a move: votes, executions, the purge."""
    was = before["current"]
    if was is None:
        return []
    ended = len(after["history"]) > len(before["history"])
    now = after["history"][-1] if ended else after["current"]
    top = status({**after, "round": now["round"]}, t)  # the round being told about
    early = status(before, t)  # until the last screen, the header tells nothing new
    next_ = t("OK: next")
    screens = []
    for record in now["proposals"][len(was["proposals"]) :]:
        ministry = ministry_label(record["ministry"], t)
        if record["casting"] is not None:
            line = t("Tie, secretary: {vote}").format(vote=option_label(record["casting"], t))
        else:
            line = t("{ministry} {up} yes, {down} no").format(
                ministry=ministry, up=record["thumbs_up"], down=record["thumbs_down"]
            )
        big = t("APPROVED") if record["approved"] else t("REJECTED")
        screens.append(Screen(top, (line,), next_, big=big))
    if now["automatic"] and not was["automatic"]:
        screens.append(
            Screen(
                top,
                (
                    t("Two plans rejected:"),
                    t("{ministry} approved").format(ministry=ministry_label(now["plan"], t)),
                    t("without a vote (P3)."),
                ),
                next_,
            )
        )
    for ex in now["executions"][len(was["executions"]) :]:
        k, repress, reform = ex["number"], ex["repress"], ex["reform"]
        ministry = ministry_label(now["plan"], t)
        move = steps(now["change"])
        if repress == 3 or reform == 3:
            change = t("{ministry} {steps}.").format(ministry=ministry, steps=move)
        elif k < 3:
            change = t("Not unanimous.")
        else:
            change = t("{ministry} {steps}. Purge!").format(ministry=ministry, steps=move)
        screens.append(
            Screen(
                top,
                (
                    t("Execution {k} of 3:").format(k=k),
                    t("Repress {r}  Reform {f}").format(r=repress, f=reform),
                    change,
                ),
                next_,
            )
        )
    purge = now["purge"]
    if purge is not None and was["purge"] is None:
        order = purge["executors"]
        screens.append(
            Screen(
                top,
                tuple(
                    t("{i} seat {n}: {card}").format(
                        i=i + 1, n=seat + 1, card=option_label(card, t)
                    )
                    for i, (seat, card) in enumerate(zip(order, purge["cards"], strict=True))
                ),
                next_,
            )
        )
        screens.append(
            Screen(
                top,
                tuple(
                    t("Seat {a} points at {b}").format(a=seat + 1, b=target + 1)
                    for seat, target in zip(order, purge["pointed"], strict=True)
                ),
                next_,
            )
        )
        losers = purge["losers"]
        if len(losers) == 1:
            loss = t("Seat {n} loses 1.").format(n=losers[0] + 1)
        else:
            loss = t("Seats {a}, {b} lose 1.").format(a=losers[0] + 1, b=losers[1] + 1)
        screens.append(
            Screen(
                top,
                (
                    t("Deviant: seat {n}.").format(n=purge["deviant"] + 1),
                    loss,
                    influence_line(after, t),
                ),
                next_,
            )
        )
    return headers_wait(screens, early)


def final(view: dict[str, Any], t: Translate) -> list[Screen]:
    result = view["result"]
    winners = sorted(result["winners"])
    keys = t("▲▼ page  hold OK: new")
    over = t("Game over")
    if not winners:
        first = Screen(over, (t("No card fulfilled."),), keys, big=t("NO WINNER"))
    elif len(winners) == 1:
        first = Screen(over, (t("The winner:"),), keys, big=t("Seat {n}").format(n=winners[0] + 1))
    else:
        seats = ", ".join(str(s + 1) for s in winners)
        first = Screen(over, (t("The winners:"),), keys, big=t("Seats {seats}").format(seats=seats))
    pages = [
        first,
        Screen(
            status(view, t),
            (
                t("Lost influence: {lost}").format(lost=view["lost"]),
                t("Half the table: {half}").format(half=half_label(view["players"], t)),
                influence_line(view, t),
            ),
            keys,
        ),
    ]
    rows = [
        f"{seat + 1:>2} {member} {view['influence'][seat]} {'✓' if ok else '✗'}"
        for seat, (member, ok) in enumerate(zip(view["members"], view["fulfilled"], strict=True))
    ]
    header = t("Seat card infl. ✓")
    for i in range(0, len(rows), 3):
        pages.append(Screen(header, tuple(rows[i : i + 3]), keys))
    return pages
