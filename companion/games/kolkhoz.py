"""Kolkhoz (4 players): five years of tricks, jobs to fill, and a plot to hide from requisition.

Rulings applied (see RULINGS.md): K1 four players, five years, the planner
rotates to the left and declares trump after the job cards are revealed; K2
worker values 6-10, J 11, Q 12, K 13, the trump Jack adds 0, job cards Ace 1
to 5; K3 five cards each while the deck allows, else as many as it can
equally, one trick fewer than the hand size; K4 non-trump workers go to their
own suit's job, trump workers to any job, completion at 40 at once, nothing
more counts after; K5 requisition of each failed job, rewards included among
the candidates; K6 highest plot total wins, ties share.

Where the text is silent this engine decides (the box and the tests agree):

- The first planner is seat 1 (seat 0 in code); the planner rotates to seat + 1.
- Each year the planner deals first (starting at their left), then reveals the
  four job cards and declares trump, so the planner sees their hand when
  choosing: the text deals in the setup before the planning phase.
- A leader who holds only trump may lead it even before trump has been played;
  any trump played (led or not) counts as "played" for the rest of the year.
- Trick play is driven by the cards: the options of ``play`` are the card
  strings ("QH", "10S") the seat may legally play, so a real table can report
  the physical cards. Those options tell what is in a hand, so the public
  view's ``waiting`` leaves them out (``options`` None); the seat to play
  finds them in its own view.
- Assignment: a non-trump card has one job only, so it is assigned at once;
  the brigadier decides for each trump card in the order it was played, among
  all four jobs (a completed one included: it then counts for nothing, K4).
  Hours stop adding once a job is completed.
- The last card of each hand goes to the plot face down by itself: a hand of h
  cards plays h - 1 tricks (K3), so it is always forced.
- The Информатор makes every player reveal the plot cards of that job's suit
  (2d), not the whole plot (2b's looser wording); the Пьяница, when present,
  goes north and nobody reveals, whatever else worked there.
- Requisition takes the failed jobs in suit order (hearts, diamonds, clubs,
  spades); a revealer with no card of that suit sends nothing. Job cards of
  failed jobs are set aside ("unclaimed").
- End of year: the worker deck and the workers at the jobs (not sent north)
  are shuffled together into the next year's deck.
- Scoring: every plot card at its K2 value (workers 6-13, job cards 1-5),
  hidden and shown alike; cards sent north count for nobody.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.ballot import shuffled
from companion.games.base import Choice, Decision, Game, Result

YEARS = 5  # K1: the Пятилетка
THRESHOLD = 40  # work-hours to complete a job
HAND = 5  # K3: cards dealt each while the deck allows

SUITS = ("hearts", "diamonds", "clubs", "spades")
LETTER = {"hearts": "H", "diamonds": "D", "clubs": "C", "spades": "S"}
SUIT_OF_LETTER = {v: k for k, v in LETTER.items()}
WORKER_RANKS = ("6", "7", "8", "9", "10", "J", "Q", "K")
JOB_RANKS = ("A", "2", "3", "4", "5")
#: K2: card values, which are also the rank order of workers.
VALUE = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10}
VALUE |= {"J": 11, "Q": 12, "K": 13}

WORKERS = tuple(r + LETTER[s] for s in SUITS for r in WORKER_RANKS)  # the 32 workers
JOB_CARDS = tuple(r + LETTER[s] for s in SUITS for r in JOB_RANKS)  # the 20 job cards

#: The jobs as the text names them: suit -> (Cyrillic, transliteration, English gloss).
JOBS = {
    "hearts": ("Пахота", "Pakhota", "Plowing"),
    "diamonds": ("Жатва", "Zhatva", "Harvesting"),
    "clubs": ("Мастерская", "Masterskaya", "Workshop"),
    "spades": ("Зерно", "Zerno", "Grain"),
}
#: Other terms of the text, for the box to show: key -> (Cyrillic, transliteration, gloss).
TERMS = {
    "kolkhoz": ("Колхоз", "Kolkhoz", "Collective farm"),
    "planner": ("Центральный Плановик", "Tsentral'nyy Planovik", "Central Planner"),
    "trump": ("Наша главная задача", "Nasha glavnaya zadacha", "Our main task (trump)"),
    "trick": ("Взятка", "Vzyatka", "Trick"),
    "brigadier": ("Бригадир", "Brigadir", "Brigade Leader"),
    "plot": ("Личный Участок", "Lichnyy Uchastok", "Personal Plot"),
    "deck": ("Колода Рабочих", "Koloda Rabochikh", "Workers Deck"),
    "north": ("Отправить на Север", "Otpravit' na Sever", "Sent north"),
    "requisition": ("Ищут врагов народа", "Ishchut vragov naroda", "Looking for enemies"),
    "years": ("Пятилетка", "Pyatiletka", "Five-year plan"),
    "jack": ("Пьяница", "P'yanitsa", "Drunkard (trump Jack)"),
    "queen": ("Информатор", "Informator", "Informer (trump Queen)"),
    "king": ("Партийный чиновник", "Partiynyy chinovnik", "Party official (trump King)"),
}


# -- cards: pure helpers ----------------------------------------------------------
def suit_of(card: str) -> str:
    return SUIT_OF_LETTER[card[-1]]


def rank_of(card: str) -> str:
    return card[:-1]


def value_of(card: str) -> int:
    """K2: the face value of a worker (6-13) or a job card (Ace 1 to 5)."""
    return VALUE[rank_of(card)]


def hours_of(card: str, trump: str | None) -> int:
    """K2: work-hours of a worker; the trump Jack (Пьяница) adds nothing."""
    if rank_of(card) == "J" and suit_of(card) == trump:
        return 0
    return value_of(card)


def card_order(card: str) -> tuple[int, int]:
    """Sort key: by suit in the text's order, then by rank."""
    return (SUITS.index(suit_of(card)), value_of(card))


def is_card(choice: Any) -> bool:
    return isinstance(choice, str) and choice in WORKERS


def trick_winner(cards: list[str], lead_suit: str, trump: str | None) -> int:
    """Index of the winning card: the highest trump if any, else the highest of the lead suit."""

    def strength(i: int) -> tuple[int, int]:
        card = cards[i]
        if suit_of(card) == trump:
            return (2, value_of(card))
        if suit_of(card) == lead_suit:
            return (1, value_of(card))
        return (0, 0)  # off-suit and not trump: never wins

    return max(range(len(cards)), key=strength)


def legal_plays(
    hand: list[str], lead: str | None, trump: str | None, trump_broken: bool
) -> list[str]:
    """The cards of ``hand`` that may be played, in hand order.

    Following: cards of the ``lead`` suit if any, else any card. Leading
    (``lead`` is None): no trump until trump has been played this year,
    unless the hand holds nothing but trump.
    """
    if lead is not None:
        follow = [c for c in hand if suit_of(c) == lead]
        return follow or list(hand)
    if trump_broken:
        return list(hand)
    plain = [c for c in hand if suit_of(c) != trump]
    return plain or list(hand)


def hand_size(deck: int, players: int = 4) -> int:
    """K3: five cards each while the deck allows, else as many as it can deal equally."""
    return min(HAND, deck // players)


# -- the state ----------------------------------------------------------------------
@dataclass
class KolkhozState:
    deck: list[str]
    piles: dict[str, list[str]]  # suit -> face-down job cards, top last
    year: int = 1
    planner: int = 0
    phase: str = "trump"  # trump, play, assign, over
    trump: str | None = None
    trump_broken: bool = False
    #: suit -> {"reward": card, "hours": int, "done": bool, "by": seat|None, "workers": [cards]}
    jobs: dict[str, dict[str, Any]] = field(default_factory=dict)
    hands: list[list[str]] = field(default_factory=list)
    hand_size: int = 0
    tricks: int = 0  # tricks to play this year (K3: hand size - 1)
    tricks_played: int = 0
    leader: int = 0
    turn: int = 0
    trick: list[dict[str, Any]] = field(default_factory=list)  # {"seat", "card"} in play order
    to_assign: list[str] = field(default_factory=list)  # trump cards awaiting the brigadier
    brigadier: int | None = None
    brigadiers: list[int] = field(default_factory=list)  # this year's, sorted
    plots: list[dict[str, list[str]]] = field(default_factory=list)  # {"hidden", "shown"}
    north: list[str] = field(default_factory=list)
    unclaimed: list[str] = field(default_factory=list)  # job cards of failed jobs
    last_trick: dict[str, Any] | None = None
    history: list[dict[str, Any]] = field(default_factory=list)  # one summary a year


class Kolkhoz(Game):
    name = "kolkhoz"
    min_players = 4
    max_players = 4
    outcomes = ("single", "shared")
    State = KolkhozState

    s: KolkhozState

    def setup(self) -> None:
        self.s = KolkhozState(
            deck=shuffled(WORKERS, self.rng),
            piles={
                suit: shuffled([r + LETTER[suit] for r in JOB_RANKS], self.rng) for suit in SUITS
            },
            plots=[{"hidden": [], "shown": []} for _ in range(self.players)],
        )
        self._start_year()

    def _start_year(self) -> None:
        """Deal (K3), reveal one job card a suit, and wait for the planner's trump."""
        s = self.s
        n = self.players
        s.hand_size = hand_size(len(s.deck), n)
        s.tricks = max(s.hand_size - 1, 0)
        s.hands = [[] for _ in range(n)]
        for i in range(s.hand_size * n):
            s.hands[(s.planner + 1 + i) % n].append(s.deck.pop())
        for hand in s.hands:
            hand.sort(key=card_order)
        s.jobs = {
            suit: {
                "reward": s.piles[suit].pop(),
                "hours": 0,
                "done": False,
                "by": None,
                "workers": [],
            }
            for suit in SUITS
        }
        s.trump = None
        s.trump_broken = False
        s.last_trick = None  # last year's is in the history
        s.tricks_played = 0
        s.trick = []
        s.to_assign = []
        s.brigadier = None
        s.brigadiers = []
        s.leader = s.turn = (s.planner + 1) % n  # the player to the planner's left leads
        s.phase = "trump"

    # -- facts derived from the state ---------------------------------------------
    @property
    def lead_suit(self) -> str | None:
        return suit_of(self.s.trick[0]["card"]) if self.s.trick else None

    def _legal(self, seat: int) -> list[str]:
        s = self.s
        return legal_plays(s.hands[seat], self.lead_suit, s.trump, s.trump_broken)

    # -- the contract ------------------------------------------------------------
    @property
    def decision(self) -> Decision | None:
        s = self.s
        if s.phase == "trump":
            return Decision("trump", (s.planner,), SUITS)
        if s.phase == "play":
            return Decision("play", (s.turn,), tuple(self._legal(s.turn)))
        if s.phase == "assign":
            assert s.brigadier is not None
            return Decision("assign", (s.brigadier,), SUITS)
        return None

    def _refusal(self, decision: Decision, seat: int, choice: Choice) -> str:
        s = self.s
        if decision.kind == "play" and is_card(choice):
            card = str(choice)
            if card not in s.hands[seat]:
                return f"seat {seat + 1} does not hold {card}"
            lead = self.lead_suit
            if lead is not None:
                return f"players follow suit if able: seat {seat + 1} holds {lead}, the suit led"
            return (
                f"players may not lead trump ({s.trump}) until it has been played, "
                f"and seat {seat + 1} holds other suits"
            )
        if decision.kind == "play":  # the options are a hand: keep them out of the message
            return f"{choice!r} is not a worker card: cards are written like 6H, 10S, QD, KC"
        if decision.kind == "assign":
            return (
                f"K4: the trump worker {s.to_assign[0]} goes to a job: "
                f"{', '.join(SUITS)}, not {choice!r}"
            )
        if decision.kind == "trump":
            return f"K1: the planner declares one of the four suits as trump, not {choice!r}"
        return super()._refusal(decision, seat, choice)

    def _apply(self, seat: int, choice: Choice) -> None:
        s = self.s
        if s.phase == "trump":
            s.trump = str(choice)
            s.phase = "play"
        elif s.phase == "play":
            self._play(seat, str(choice))
        elif s.phase == "assign":
            self._assign(s.to_assign.pop(0), str(choice))
            if not s.to_assign:
                self._finish_trick()

    def _play(self, seat: int, card: str) -> None:
        s = self.s
        n = self.players
        s.hands[seat].remove(card)
        s.trick.append({"seat": seat, "card": card})
        if suit_of(card) == s.trump:
            s.trump_broken = True
        if len(s.trick) < n:
            s.turn = (seat + 1) % n
            return
        cards = [p["card"] for p in s.trick]
        winner = s.trick[trick_winner(cards, suit_of(cards[0]), s.trump)]["seat"]
        s.brigadier = winner
        if winner not in s.brigadiers:
            s.brigadiers = sorted([*s.brigadiers, winner])
        # K4: a non-trump worker has one job only, its own suit's.
        for card in cards:
            if suit_of(card) != s.trump:
                self._assign(card, suit_of(card))
        s.to_assign = [c for c in cards if suit_of(c) == s.trump]
        if s.to_assign:
            s.phase = "assign"
        else:
            self._finish_trick()

    def _assign(self, card: str, suit: str) -> None:
        """K4: the worker joins the job; at 40 hours the job card goes to the brigadier's plot."""
        s = self.s
        job = s.jobs[suit]
        job["workers"].append(card)
        if job["done"]:
            return
        job["hours"] += hours_of(card, s.trump)
        if job["hours"] >= THRESHOLD:
            assert s.brigadier is not None
            job["done"] = True
            job["by"] = s.brigadier
            s.plots[s.brigadier]["shown"].append(job["reward"])

    def _finish_trick(self) -> None:
        s = self.s
        s.last_trick = {"plays": [dict(p) for p in s.trick], "winner": s.brigadier}
        s.trick = []
        s.tricks_played += 1
        assert s.brigadier is not None
        s.leader = s.turn = s.brigadier  # the brigadier leads the next trick
        if s.tricks_played < s.tricks:
            s.phase = "play"
        else:
            self._end_year()

    def _end_year(self) -> None:
        """The last card to the plot, requisition (K5), the reshuffle, the next planner."""
        s = self.s
        for seat, hand in enumerate(s.hands):
            s.plots[seat]["hidden"].extend(hand)  # K3: forced, one card left
            hand.clear()
        jobs = {suit: {**job, "workers": list(job["workers"])} for suit, job in s.jobs.items()}
        requisitions = [self._requisition(suit) for suit in SUITS if not s.jobs[suit]["done"]]
        s.history.append(
            {
                "year": s.year,
                "planner": s.planner,
                "trump": s.trump,
                "hand_size": s.hand_size,
                "brigadiers": list(s.brigadiers),
                "completed": {suit: s.jobs[suit]["by"] for suit in SUITS if s.jobs[suit]["done"]},
                "jobs": jobs,  # as they stood before requisition
                "last_trick": s.last_trick,
                "requisitions": requisitions,
            }
        )
        workers: list[str] = list(s.deck)
        for suit in SUITS:
            job = s.jobs[suit]
            workers.extend(job["workers"])
            if not job["done"]:
                s.unclaimed.append(job["reward"])
        s.deck = shuffled(workers, self.rng)
        s.jobs = {}
        s.brigadier = None
        if s.year == YEARS:
            s.phase = "over"
            s.trump = None
            return
        s.year += 1
        s.planner = (s.planner + 1) % self.players
        self._start_year()

    def _requisition(self, suit: str) -> dict[str, Any]:
        """K5: the Jack goes north if it worked here; else the revealers send their highest."""
        s = self.s
        job = s.jobs[suit]
        trump = s.trump
        assert trump is not None
        special = {r: r + LETTER[trump] in job["workers"] for r in ("J", "Q", "K")}
        record: dict[str, Any] = {
            "job": suit,
            "jack": special["J"],
            "queen": special["Q"],
            "king": special["K"],
            "revealers": [],
            "revealed": [],
            "north": [],
        }
        if special["J"]:
            jack = "J" + LETTER[trump]
            job["workers"].remove(jack)
            s.north.append(jack)
            record["north"].append({"seat": None, "card": jack})
            return record
        revealers = list(range(self.players)) if special["Q"] else list(s.brigadiers)
        record["revealers"] = revealers
        for seat in revealers:
            plot = s.plots[seat]
            shown = sorted((c for c in plot["hidden"] if suit_of(c) == suit), key=card_order)
            plot["hidden"] = [c for c in plot["hidden"] if suit_of(c) != suit]
            plot["shown"].extend(shown)
            if shown:
                record["revealed"].append({"seat": seat, "cards": shown})
            candidates = sorted(
                (c for c in plot["shown"] if suit_of(c) == suit), key=value_of, reverse=True
            )
            for card in candidates[: 2 if special["K"] else 1]:
                plot["shown"].remove(card)
                s.north.append(card)
                record["north"].append({"seat": seat, "card": card})
        return record

    # -- views ----------------------------------------------------------------------
    def _scores(self) -> list[int]:
        return [sum(value_of(c) for c in p["hidden"] + p["shown"]) for p in self.s.plots]

    def public_view(self) -> dict[str, Any]:
        s = self.s
        d = self.decision
        view: dict[str, Any] = {
            "game": self.name,
            "players": self.players,
            "phase": s.phase,
            "waiting": _public_waiting(d),
            "year": s.year,
            "years": YEARS,
            "planner": s.planner if s.phase != "over" else None,
            "trump": s.trump,
            "trump_broken": s.trump_broken,
            "jobs": {
                suit: {
                    "name": JOBS[suit][0],
                    "gloss": JOBS[suit][2],
                    "reward": job["reward"],
                    "points": value_of(job["reward"]),
                    "hours": job["hours"],
                    "threshold": THRESHOLD,
                    "done": job["done"],
                    "by": job["by"],
                    "workers": list(job["workers"]),
                }
                for suit, job in s.jobs.items()
            },
            "hand_size": s.hand_size,
            "hand_counts": [len(h) for h in s.hands],
            "tricks": s.tricks,
            "tricks_played": s.tricks_played,
            "leader": s.leader if s.phase == "play" else None,
            "lead_suit": self.lead_suit,
            "trick": [dict(p) for p in s.trick],
            "to_assign": list(s.to_assign),
            "brigadier": s.brigadier,
            "brigadiers": list(s.brigadiers),
            "last_trick": None if s.last_trick is None else _copy_trick(s.last_trick),
            "plots": [{"shown": list(p["shown"]), "hidden": len(p["hidden"])} for p in s.plots],
            "north": list(s.north),
            "unclaimed": list(s.unclaimed),
            "deck": len(s.deck),
            "history": [_copy_year(h) for h in s.history],
        }
        if self.over:
            view["scores"] = self._scores()
            result = self.result
            assert result is not None
            view["result"] = result.to_json()
        return view

    def view(self, seat: int) -> dict[str, Any]:
        self.check_seat(seat)
        view = self.public_view()
        plot = self.s.plots[seat]
        view["seat"] = seat
        view["hand"] = list(self.s.hands[seat])
        view["plot"] = {"hidden": list(plot["hidden"]), "shown": list(plot["shown"])}
        d = self.decision
        if d is not None and seat in d.seats:
            view["waiting"] = d.to_json()  # the seat to play sees its legal cards
        return view

    @property
    def result(self) -> Result | None:
        if not self.over:
            return None
        scores = self._scores()
        best = max(scores)
        winners = frozenset(i for i, sc in enumerate(scores) if sc == best)  # K6
        measures: dict[str, float] = {}
        for i, sc in enumerate(scores):
            measures[f"seat {i + 1} won"] = float(i in winners)
            measures[f"seat {i + 1} score"] = float(sc)
        measures["jobs completed"] = float(sum(len(h["completed"]) for h in self.s.history))
        measures["cards sent north"] = float(len(self.s.north))
        return Result(winners, "single" if len(winners) == 1 else "shared", measures)


def _public_waiting(d: Decision | None) -> dict[str, Any] | None:
    """The decision for all to see; the legal cards of the seat to play are part of its hand."""
    if d is None:
        return None
    waiting = d.to_json()
    if d.kind == "play":
        waiting["options"] = None
    return waiting


def _copy_trick(trick: dict[str, Any]) -> dict[str, Any]:
    return {"plays": [dict(p) for p in trick["plays"]], "winner": trick["winner"]}


def _copy_year(year: dict[str, Any]) -> dict[str, Any]:
    out = dict(year)
    out["brigadiers"] = list(year["brigadiers"])
    out["completed"] = dict(year["completed"])
    out["last_trick"] = None if year["last_trick"] is None else _copy_trick(year["last_trick"])
    out["jobs"] = {
        suit: {**job, "workers": list(job["workers"])} for suit, job in year["jobs"].items()
    }
    out["requisitions"] = [
        {
            **r,
            "revealers": list(r["revealers"]),
            "revealed": [{"seat": x["seat"], "cards": list(x["cards"])} for x in r["revealed"]],
            "north": [dict(x) for x in r["north"]],
        }
        for r in year["requisitions"]
    ]
    return out
