"""Kolkhoz: the rules text and rulings K1-K6, checked through new_game, act and the views.

Most rules are checked by an independent oracle written here (card values,
trick winner, legal plays, work-hours, requisition) against every step of
hundreds of games played to the end by random and greedy bots. Each test
also asserts that the situation it checks really happened, so that none can
pass vacuously. Kolkhoz has no secret simultaneous choice (every card is
played face up), so there is no ballot and no swap test.
"""

from __future__ import annotations

import fcntl
import functools
import json
import os
import pickle
import random
import tempfile
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from companion.bots import RandomBot, make_bots, play_out
from companion.games import IllegalMove, new_game
from companion.games.kolkhoz.bots import GreedyBot
from companion.games.kolkhoz.cards import JOBS, hand_size, legal_plays, trick_winner

GAMES = 300
SUITS = ("hearts", "diamonds", "clubs", "spades")
SUIT = {"H": "hearts", "D": "diamonds", "C": "clubs", "S": "spades"}
# K2, written out again here so that the engine's own table is not trusted.
VALUE = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10}
VALUE |= {"J": 11, "Q": 12, "K": 13}
WORKER_RANKS = {"6", "7", "8", "9", "10", "J", "Q", "K"}


def suit(card: str) -> str:
    return SUIT[card[-1]]


def value(card: str) -> int:
    return VALUE[card[:-1]]


def is_worker(card: str) -> bool:
    return card[:-1] in WORKER_RANKS


def hours(card: str, trump: str) -> int:
    return 0 if card == "J" + trump[0].upper() else value(card)


def special(trump: str, rank: str) -> str:
    return rank + trump[0].upper()


# -- one pass over many games, checked step by step ------------------------------------
@dataclass
class Findings:
    """For each rule: how often its situation came up, and every disagreement seen."""

    seen: Counter[str] = field(default_factory=Counter)
    errors: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))

    def check(self, rule: str, ok: bool, what: str) -> None:
        self.seen[rule] += 1
        if not ok and len(self.errors[rule]) < 5:
            self.errors[rule].append(what)

    def assert_rule(self, rule: str, *situations: str) -> None:
        assert self.seen[rule] > 0, f"{rule} was never checked"
        assert not self.errors.get(rule), self.errors[rule]
        for situation in situations:
            assert self.seen[situation] > 0, f"the situation {situation!r} never came up"


def strings(obj: Any) -> set[str]:
    if isinstance(obj, str):
        return {obj}
    if isinstance(obj, dict):
        return set().union(*(strings(v) for v in obj.values())) if obj else set()
    if isinstance(obj, list):
        return set().union(*(strings(v) for v in obj)) if obj else set()
    return set()


def year_ended(pb: dict[str, Any], pa: dict[str, Any]) -> bool:
    return pa["phase"] == "over" or pa["year"] != pb["year"]


def jobs_after(pb: dict[str, Any], pa: dict[str, Any]) -> dict[str, Any]:
    """The jobs as the step left them (from the year summary when the step ended the year)."""
    if year_ended(pb, pa):
        return pa["history"][-1]["jobs"]
    return pa["jobs"]


class Checker:
    def __init__(self, f: Findings) -> None:
        self.f = f
        self.brigadiers: set[int] = set()
        self.won = [0] * 4  # tricks won this year, counted here

    def start(self, pa: dict[str, Any], va: list[dict[str, Any]]) -> None:
        self.year_start(pa, va)
        self.accounting(pa, va)

    def step(self, d: Any, seat: int, choice: Any, pb, vb, pa, va) -> None:
        f = self.f
        if d.kind == "play":
            self.play(d, seat, choice, pb, vb)
            if len(pb["trick"]) == 3:
                self.trick(choice, seat, pb, pa)
        if d.kind == "assign":
            self.assign(d, choice, pb, pa)
        if d.kind in ("play", "assign"):
            self.work(pb, pa)
        if d.kind == "trump":
            f.check("K1 trump", pa["trump"] == choice and pa["phase"] == "play", str(choice))
        if year_ended(pb, pa):
            self.requisition(pb, vb, pa, va)
            self.brigadiers = set()
            self.won = [0] * 4
            if pa["phase"] != "over":
                self.year_start(pa, va)
        self.accounting(pa, va)
        self.secrecy(pa, va)
        if pa["phase"] == "over":
            self.scoring(pa, va)

    # rules text 2b and the trump lead restriction
    def play(self, d, seat, choice, pb, vb) -> None:
        f = self.f
        hand = vb[seat]["hand"]
        lead, trump, broken = pb["lead_suit"], pb["trump"], pb["trump_broken"]
        if lead is not None:
            follow = [c for c in hand if suit(c) == lead]
            expected = follow or hand
            f.seen["must follow" if follow and len(follow) < len(hand) else "void"] += 1
        else:
            plain = [c for c in hand if suit(c) != trump]
            expected = hand if broken or not plain else plain
            if not broken and plain and len(plain) < len(hand):
                f.seen["trump lead refused"] += 1
            if not broken and not plain:
                f.seen["only trump: leads trump"] += 1
        f.check("legal plays", sorted(d.options) == sorted(expected), f"{hand} {d.options}")
        f.check(
            "legal plays", sorted(legal_plays(hand, lead, trump, broken)) == sorted(expected), ""
        )

    def trick(self, last: str, seat: int, pb, pa) -> None:
        f = self.f
        plays = [*pb["trick"], {"seat": seat, "card": last}]
        trump = pb["trump"]
        cards = [p["card"] for p in plays]
        lead = suit(cards[0])
        trumps = [p for p in plays if suit(p["card"]) == trump]
        pool = trumps or [p for p in plays if suit(p["card"]) == lead]
        win = max(pool, key=lambda p: value(p["card"]))
        f.check(
            "trick winner",
            pa["brigadier"] == win["seat"] or year_ended(pb, pa),
            f"brigadier {pa['brigadier']} {plays}",
        )
        if pa["phase"] == "assign":  # the trick stays on the table while it is assigned
            f.check("trick winner", pa["trick"] == plays, str(plays))
        else:
            last = pa["history"][-1]["last_trick"] if year_ended(pb, pa) else pa["last_trick"]
            f.check("trick winner", last == {"plays": plays, "winner": win["seat"]}, str(plays))
        f.check("trick winner", cards[trick_winner(cards, lead, trump)] == win["card"], "pure")
        if trumps and lead != trump:
            f.seen["won by trump"] += 1
        if not trumps:
            f.seen["won without trump"] += 1
        if any(suit(c) not in (lead, trump) and value(c) > value(win["card"]) for c in cards):
            f.seen["higher off-suit card loses"] += 1
        self.brigadiers.add(win["seat"])
        self.won[win["seat"]] += 1
        year = pa["history"][-1] if year_ended(pb, pa) else pa
        f.check("tricks won", year["won"] == self.won, f"{year['won']} {self.won}")
        if not year_ended(pb, pa):
            f.check("brigadier leads", pa["waiting"]["seats"] == [win["seat"]], "")
            if pa["phase"] == "assign":
                f.check(
                    "K4 trump awaits the brigadier",
                    pa["to_assign"] == [c for c in cards if suit(c) == trump]
                    and pa["waiting"]["options"] == list(SUITS),
                    str(pa["to_assign"]),
                )

    def assign(self, d, choice, pb, pa) -> None:
        card = pb["to_assign"][0]
        jobs = jobs_after(pb, pa)
        self.f.check(
            "K4 trump anywhere",
            card in jobs[choice]["workers"]
            and not any(card in jobs[s]["workers"] for s in SUITS if s != choice),
            f"{card} to {choice}",
        )
        if choice != suit(card):
            self.f.seen["trump to another job"] += 1

    def work(self, pb, pa) -> None:
        """K2/K4 work-hours and completion, with an oracle over the workers added this step."""
        f = self.f
        if not pb["jobs"]:
            return
        trump = pb["trump"]
        after = jobs_after(pb, pa)
        brigadier = None if year_ended(pb, pa) else pa["brigadier"]
        for s in SUITS:
            old, new = pb["jobs"][s], after[s]
            added = new["workers"][len(old["workers"]) :]
            f.check("worker stays", new["workers"][: len(old["workers"])] == old["workers"], s)
            for w in added:
                if suit(w) != trump:
                    f.check("K4 own suit", suit(w) == s, f"{w} at {s}")
            h, done = old["hours"], old["done"]
            for w in added:
                if done:
                    f.seen["worker after completion"] += 1
                    continue
                if w == special(trump, "J"):
                    f.seen["trump jack works 0"] += 1
                h += hours(w, trump)
                if h >= 40:
                    done = True
            f.check("K2 hours", new["hours"] == h, f"{s}: {new['hours']} != {h}")
            f.check("K4 completion at 40", new["done"] == done, s)
            if done and not old["done"]:
                f.seen["completed"] += 1
                by = new["by"]
                if brigadier is not None:
                    f.check("K4 reward to the brigadier", by == brigadier, s)
                f.check(
                    "K4 reward to the brigadier",
                    by in range(4) and new["reward"] in pa["plots"][by]["shown"],
                    f"{new['reward']} not in plot of seat {by}",
                )

    # rules text 2d and K5
    def requisition(self, pb, vb, pa, va) -> None:
        f = self.f
        trump = pb["trump"]
        year = pa["history"][-1]
        jobs = year["jobs"]
        f.check("brigadiers recorded", year["brigadiers"] == sorted(self.brigadiers), "")
        last = {p["card"] for p in year["last_trick"]["plays"]}
        plots = []
        for seat in range(4):
            remaining = [c for c in vb[seat]["hand"] if c not in last]
            f.check("K3 last card to the plot", len(remaining) == 1, str(remaining))
            shown = list(vb[seat]["plot"]["shown"])
            for s in SUITS:
                if jobs[s]["done"] and not pb["jobs"][s]["done"] and jobs[s]["by"] == seat:
                    shown.append(jobs[s]["reward"])
            plots.append({"hidden": vb[seat]["plot"]["hidden"] + remaining, "shown": shown})
        north = list(pb["north"])
        for s in SUITS:
            job = jobs[s]
            if job["done"]:
                continue
            if special(trump, "J") in job["workers"]:
                f.seen["jack goes north"] += 1
                north.append(special(trump, "J"))
                continue
            queen = special(trump, "Q") in job["workers"]
            king = special(trump, "K") in job["workers"]
            revealers = range(4) if queen else sorted(self.brigadiers)
            for seat in range(4):
                hidden = [c for c in plots[seat]["hidden"] if suit(c) == s]
                if seat not in revealers and hidden:
                    f.seen["non-brigadier keeps hidden"] += 1
                if seat in revealers and seat not in self.brigadiers and hidden and queen:
                    f.seen["queen: everyone reveals"] += 1
            for seat in revealers:
                plot = plots[seat]
                plot["shown"] += [c for c in plot["hidden"] if suit(c) == s]
                plot["hidden"] = [c for c in plot["hidden"] if suit(c) != s]
                matching = sorted((c for c in plot["shown"] if suit(c) == s), key=value)
                out = matching[-2:] if king else matching[-1:]
                if king and len(out) == 2:
                    f.seen["king: two go north"] += 1
                if out and not queen and not king:
                    f.seen["brigadier sends one north"] += 1
                if any(not is_worker(c) for c in out):
                    f.seen["reward sent north"] += 1
                for c in out:
                    plot["shown"].remove(c)
                    north.append(c)
        for seat in range(4):
            got = va[seat]["plot"]
            f.check(
                "K5 requisition",
                sorted(got["hidden"]) == sorted(plots[seat]["hidden"])
                and sorted(got["shown"]) == sorted(plots[seat]["shown"]),
                f"year {pb['year']} seat {seat}: {got} != {plots[seat]}",
            )
        f.check("K5 requisition", sorted(pa["north"]) == sorted(north), f"{pa['north']} {north}")

    def year_start(self, pa, va) -> None:
        """K1 rotation and K3 deal sizes, worked out from what is out of the deck."""
        f = self.f
        year = pa["year"]
        out = sum(
            len(v["plot"]["hidden"]) + sum(is_worker(c) for c in v["plot"]["shown"]) for v in va
        )
        out += sum(is_worker(c) for c in pa["north"])
        deck = 32 - out
        size = min(5, deck // 4)
        f.seen[f"hand of {size}"] += 1
        f.check(
            "K3 deal",
            pa["hand_size"] == size
            and pa["tricks"] == size - 1
            and pa["deck"] == deck - 4 * size
            and all(len(v["hand"]) == size for v in va),
            f"year {year}: deck {deck}, {pa['hand_size']} dealt, {pa['deck']} left",
        )
        f.check(
            "K1 planner",
            pa["planner"] == (year - 1) % 4
            and pa["waiting"]
            == {"kind": "trump", "seats": [pa["planner"]], "options": list(SUITS), "secret": False}
            and pa["trump"] is None,
            str(pa["waiting"]),
        )
        f.check(
            "jobs revealed",
            sorted(pa["jobs"]) == sorted(SUITS)
            and all(suit(j["reward"]) == s and j["hours"] == 0 for s, j in pa["jobs"].items()),
            "",
        )

    def accounting(self, pa, va) -> None:
        """32 workers and 20 job cards, each in exactly one place."""
        f = self.f
        listed = [c for v in va for c in v["hand"]]
        listed += [p["card"] for p in pa["trick"]] if pa["phase"] == "play" else pa["to_assign"]
        listed += [c for j in pa["jobs"].values() for c in j["workers"]]
        for v in va:
            listed += v["plot"]["hidden"] + v["plot"]["shown"]
        listed += pa["north"]
        workers = [c for c in listed if is_worker(c)]
        f.check(
            "32 workers",
            len(workers) == len(set(workers)) and len(workers) + pa["deck"] == 32,
            f"{len(workers)} listed + {pa['deck']} in the deck",
        )
        jobs = [c for c in listed if not is_worker(c)]
        jobs += [j["reward"] for j in pa["jobs"].values() if not j["done"]]
        jobs += pa["unclaimed"]
        piles = 4 * (5 - pa["year"]) if pa["phase"] != "over" else 0
        f.check(
            "20 job cards",
            len(jobs) == len(set(jobs)) and len(jobs) + piles == 20,
            f"{len(jobs)} + {piles}",
        )

    def secrecy(self, pa, va) -> None:
        f = self.f
        secret = [set(v["hand"]) | set(v["plot"]["hidden"]) for v in va]
        everything = set().union(*secret)
        # The history tells of earlier years, whose workers have been shuffled back since.
        table = {k: v for k, v in pa.items() if k != "history"}
        f.check("public view hides hands and plots", not strings(table) & everything, "")
        if pa["waiting"] and pa["waiting"]["kind"] == "play":
            f.check("public view hides hands and plots", pa["waiting"]["options"] is None, "")
            mover = pa["waiting"]["seats"][0]
            f.check(
                "a seat sees only its own secrets",
                set(va[mover]["waiting"]["options"]) <= set(va[mover]["hand"]),
                "the seat to play sees its options",
            )
        for seat, v in enumerate(va):
            others = everything - secret[seat]
            mine = {k: x for k, x in v.items() if k != "history"}
            f.check("a seat sees only its own secrets", not strings(mine) & others, str(seat))

    def scoring(self, pa, va) -> None:
        f = self.f
        sums = [sum(value(c) for c in v["plot"]["hidden"] + v["plot"]["shown"]) for v in va]
        best = max(sums)
        winners = [s for s in range(4) if sums[s] == best]
        result = pa["result"]
        f.check("scores are plot sums", pa["scores"] == sums, f"{pa['scores']} {sums}")
        f.check("K6 winners", result["winners"] == winners, "")
        f.check(
            "K6 winners", result["outcome"] == ("single" if len(winners) == 1 else "shared"), ""
        )
        for s in range(4):
            f.check("measures", result["measures"][f"seat {s + 1} score"] == sums[s], "")
            f.check("measures", result["measures"][f"seat {s + 1} won"] == (s in winners), "")
        f.seen[result["outcome"]] += 1
        f.check("five years", len(pa["history"]) == 5, "")


@functools.cache
def findings() -> Findings:
    """The findings of ``GAMES`` games, worked out once a run: under xdist the first worker
    to ask plays the games, under a lock, and the others read what it found."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if run is None:
        return played()
    path = Path(tempfile.gettempdir()) / f"companion-kolkhoz-findings-{run}.pickle"
    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if path.exists():
            return pickle.loads(path.read_bytes())  # type: ignore[no-any-return]
        found = played()
        path.write_bytes(pickle.dumps(found))
        return found


def played() -> Findings:
    f = Findings()
    for g in range(GAMES):
        game = new_game("kolkhoz", players=4, seed=g, deal="box")
        bots = make_bots(game, "random" if g % 2 else "smart", random.Random(g))
        checker = Checker(f)
        pa, va = game.public_view(), [game.view(s) for s in range(4)]
        checker.start(pa, va)
        while (d := game.decision) is not None:
            seat = d.seats[0]
            choice = bots[seat].choose(va[seat], d)
            pb, vb = pa, va
            game.act(seat, choice)
            pa, va = game.public_view(), [game.view(s) for s in range(4)]
            checker.step(d, seat, choice, pb, vb, pa, va)
        f.seen["games"] += 1
    return f


# -- the pure helpers -------------------------------------------------------------------
def test_trick_winner_without_trump_is_the_highest_of_the_lead_suit():
    """2b: the highest card of the lead suit wins; a higher card of another suit does not."""
    assert trick_winner(["9H", "KS", "JH", "10H"], "hearts", "clubs") == 2
    assert trick_winner(["6D", "KS", "KH", "KC"], "diamonds", None) == 0


def test_trick_winner_with_trump_is_the_highest_trump():
    """2b: the highest trump wins if trump was played, whatever the lead suit."""
    assert trick_winner(["KH", "6C", "QH", "7C"], "hearts", "clubs") == 3
    assert trick_winner(["KH", "6C", "QH", "10H"], "hearts", "clubs") == 1
    assert trick_winner(["8S", "10S", "JS", "6S"], "spades", "spades") == 2


def test_legal_plays_follow_suit_if_able_else_anything():
    """2b: players follow suit if able; otherwise they may play any card."""
    hand = ["7H", "QH", "9D", "KC"]
    assert legal_plays(hand, "hearts", "clubs", False) == ["7H", "QH"]
    assert legal_plays(hand, "spades", "clubs", False) == hand


def test_legal_plays_no_trump_lead_until_trump_has_been_played():
    """2b: no trump lead before trump is played; a hand of nothing but trump may lead it."""
    hand = ["7H", "9D", "KC", "JC"]
    assert legal_plays(hand, None, "clubs", False) == ["7H", "9D"]
    assert legal_plays(hand, None, "clubs", True) == hand
    assert legal_plays(["KC", "JC"], None, "clubs", False) == ["KC", "JC"]


def test_hand_sizes_of_k3():
    """K3: five each while the deck allows, else as many as it can deal equally."""
    assert [hand_size(n) for n in (32, 20, 19, 17, 16, 15, 12)] == [5, 5, 4, 4, 4, 3, 3]


# -- the rules, through the contract, over hundreds of games ---------------------------
def test_play_options_are_the_legal_cards():
    """2b: follow suit if able, any card if void, and the trump lead restriction."""
    findings().assert_rule(
        "legal plays", "must follow", "void", "trump lead refused", "only trump: leads trump"
    )


def test_trick_winner_and_the_brigadier_leads():
    """2b: the highest trump, else the highest of the lead suit, wins; the brigadier leads next."""
    f = findings()
    f.assert_rule("trick winner", "won by trump", "won without trump", "higher off-suit card loses")
    f.assert_rule("brigadier leads")
    f.assert_rule("brigadiers recorded")
    f.assert_rule("tricks won")


def test_assignment_non_trump_to_its_job_trump_to_any():
    """K4: each non-trump worker goes to its own suit's job; the brigadier sends trump anywhere."""
    f = findings()
    f.assert_rule("K4 own suit")
    f.assert_rule("K4 trump awaits the brigadier")
    f.assert_rule("K4 trump anywhere", "trump to another job")
    f.assert_rule("worker stays")


def test_work_hours_and_completion_at_40():
    """K2/K4: hours by value, the trump Jack 0; done at 40 at once, nothing counts after."""
    f = findings()
    f.assert_rule("K2 hours", "trump jack works 0", "worker after completion")
    f.assert_rule("K4 completion at 40", "completed")
    f.assert_rule("K4 reward to the brigadier")


def test_requisition_of_failed_jobs():
    """2d/K5: brigadiers reveal and send their highest; non-brigadiers keep theirs hidden."""
    findings().assert_rule(
        "K5 requisition",
        "brigadier sends one north",
        "non-brigadier keeps hidden",
        "reward sent north",
    )


def test_trump_jack_is_sent_north_instead():
    """2b/2d: the Пьяница works 0 hours, and goes north in place of anyone's card."""
    findings().assert_rule("K5 requisition", "jack goes north", "trump jack works 0")


def test_trump_queen_makes_everyone_reveal():
    """2d: with the Информатор among the workers, all players reveal and send north."""
    findings().assert_rule("K5 requisition", "queen: everyone reveals")


def test_trump_king_sends_two_north():
    """2d/K5: with the Партийный чиновник among the workers, the two highest go north."""
    findings().assert_rule("K5 requisition", "king: two go north")


def test_last_card_goes_to_the_plot():
    """2c/K3: the one card left after the tricks goes face down to the plot."""
    findings().assert_rule("K3 last card to the plot")


def test_deal_sizes_follow_the_deck_as_cards_go_north():
    """K3: the deck each year is 32 less the workers in plots and north; short years deal 4 or 3.

    Each year puts four workers in plots for good (requisition only moves them
    north), and each trump Jack requisitioned leaves too. So years 1-3 deal
    5 each; year 4 has 20 less the Jacks gone north (5 each, or 4 each and 3
    tricks); year 5 has at most 16 (4 each), 15 or fewer after a Jack (3 each).
    """
    findings().assert_rule("K3 deal", "hand of 5", "hand of 4", "hand of 3")


def test_planner_rotates_left_from_seat_1_and_declares_trump():
    """K1: seat 1 plans first, the planner moves left each year and declares trump."""
    f = findings()
    f.assert_rule("K1 planner")
    f.assert_rule("K1 trump")
    f.assert_rule("jobs revealed")


def test_every_card_is_accounted_for_at_every_step():
    """Setup: 32 workers and 20 job cards, each in exactly one place at all times."""
    f = findings()
    f.assert_rule("32 workers")
    f.assert_rule("20 job cards")


def test_views_keep_hands_and_hidden_plots_secret():
    """Each view shows one seat's hand and hidden plot; the public view shows neither."""
    f = findings()
    f.assert_rule("public view hides hands and plots")
    f.assert_rule("a seat sees only its own secrets")


def test_scores_are_plot_sums_and_ties_share():
    """3/K6: the face values of every plot card; the highest total wins, ties share."""
    f = findings()
    f.assert_rule("scores are plot sums", "single", "shared")
    f.assert_rule("K6 winners")
    f.assert_rule("measures")
    f.assert_rule("five years")
    assert f.seen["games"] == GAMES


# -- scenarios ----------------------------------------------------------------------------
def advance_to(game, wanted, rng):
    """Play random moves until ``wanted(game)`` holds; the game must get there."""
    while not wanted(game):
        d = game.decision
        assert d is not None, "the situation never came up"
        game.act(d.seats[0], rng.choice(d.options))


def test_refusals_name_the_rule():
    """2b: refusing a card that does not follow suit, a trump lead, and a card not held."""
    rng = random.Random(4)
    for seed in range(50):
        game = new_game("kolkhoz", players=4, seed=seed, deal="box")

        def off_suit_held(g):
            d = g.decision
            if d is None or d.kind != "play" or not g.public_view()["trick"]:
                return d is None
            return len(d.options) < len(g.view(d.seats[0])["hand"])

        advance_to(game, off_suit_held, rng)
        if game.over:
            continue
        d = game.decision
        seat = d.seats[0]
        bad = next(c for c in game.view(seat)["hand"] if c not in d.options)
        with pytest.raises(IllegalMove, match="follow suit"):
            game.act(seat, bad)
        others = {c for s in range(4) if s != seat for c in game.view(s)["hand"]}
        with pytest.raises(IllegalMove, match="does not hold"):
            game.act(seat, sorted(others)[0])
        with pytest.raises(IllegalMove, match="not a worker card") as refused:
            game.act(seat, "AH")  # a job card, never in a hand
        # The same words whatever the hand: the refusal does not list the legal cards.
        assert str(refused.value) == (
            "'AH' is not a worker card: cards are written like 6H, 10S, QD, KC"
        )
        break
    else:
        pytest.fail("no refusal scenario found")

    for seed in range(50):
        game = new_game("kolkhoz", players=4, seed=seed, deal="box")

        def trump_lead(g):
            d = g.decision
            if d is None:
                return True
            pv = g.public_view()
            if d.kind != "play" or pv["trick"] or pv["trump_broken"]:
                return False
            return len(d.options) < len(g.view(d.seats[0])["hand"])

        advance_to(game, trump_lead, rng)
        if game.over:
            continue
        seat = game.decision.seats[0]
        trump = game.public_view()["trump"]
        card = next(c for c in game.view(seat)["hand"] if suit(c) == trump)
        with pytest.raises(IllegalMove, match="lead trump"):
            game.act(seat, card)
        return
    pytest.fail("no trump lead scenario found")


def test_a_year_step_by_step():
    """2a-2b: jobs revealed, trump declared by the planner, seat 2 leads the first trick."""
    game = new_game("kolkhoz", players=4, seed=1, deal="box")
    pv = game.public_view()
    assert pv["year"] == 1 and pv["planner"] == 0 and pv["deck"] == 12
    assert all(len(game.view(s)["hand"]) == 5 for s in range(4))
    assert {s: j["name"] for s, j in pv["jobs"].items()} == {s: JOBS[s][0] for s in SUITS}
    with pytest.raises(IllegalMove, match="K1"):
        game.act(0, "stars")
    game.act(0, "diamonds")
    d = game.decision
    assert d.kind == "play" and d.seats == (1,)
    hand = game.view(1)["hand"]
    plain = [c for c in hand if suit(c) != "diamonds"]
    assert sorted(d.options) == sorted(plain or hand)  # no trump lead yet
    assert game.public_view()["waiting"]["options"] is None  # the hand stays private
    assert game.view(1)["waiting"]["options"] == list(d.options)
    game.act(1, d.options[0])
    assert game.decision.seats == (2,)
    assert game.public_view()["trick"] == [{"seat": 1, "card": d.options[0]}]


# -- the bots ------------------------------------------------------------------------------
def test_greedy_planner_declares_its_longest_suit():
    bot = GreedyBot(0, random.Random(1))
    game = new_game("kolkhoz", players=4, seed=3, deal="box")
    view = game.view(0)
    choice = bot.choose(view, game.decision)
    count = Counter(suit(c) for c in view["hand"])
    assert count[choice] == max(count.values())


def test_greedy_bot_outscores_random_bots():
    """One greedy seat among three random ones scores more than they do, seat by seat."""
    greedy, others = 0.0, 0.0
    for g in range(200):
        game = new_game("kolkhoz", players=4, seed=1000 + g, deal="box")
        rng = random.Random(g)
        me = g % 4
        bots = [GreedyBot(s, rng) if s == me else RandomBot(rng) for s in range(4)]
        result = play_out(game, bots)
        greedy += result.measures[f"seat {me + 1} score"]
        others += sum(result.measures[f"seat {s + 1} score"] for s in range(4) if s != me) / 3
    assert greedy > others * 1.1


def test_views_are_json():
    game = new_game("kolkhoz", players=4, seed=9, deal="box")
    play_out(game, make_bots(game, "smart", random.Random(9)))
    assert json.loads(json.dumps(game.public_view()))["scores"] == game.public_view()["scores"]


@pytest.mark.parametrize("deal", ["box", "cards"])
def test_kept_views_follow_every_move(deal):
    """The parts of a view kept from move to move (the jobs, the plots, cards sent north,
    the tricks won) are those a fresh copy of the game works out, at every step of a game
    dealt by the box and of one the box only keeps the book of: no move changes them
    without the view saying so."""
    import copy

    game = new_game("kolkhoz", players=4, seed=4, deal=deal)
    bots = make_bots(game, "smart", random.Random(5))
    changes = Counter()
    before = None
    while True:
        twin = copy.deepcopy(game)  # works every view out anew
        views = [game.public_view(), *(game.view(seat) for seat in range(4))]
        assert views == [twin.public_view(), *(twin.view(seat) for seat in range(4))]
        if before is not None:
            changes.update(k for k in ("jobs", "plots", "north") if views[0][k] != before[k])
        before = views[0]
        if (d := game.decision) is None:
            break
        game.act(d.seats[0], bots[d.seats[0]].choose(game.view(d.seats[0]), d))
    assert changes["jobs"] > 10 and changes["plots"] > 3 and changes["north"] > 0, changes
