"""Saved states edited with their checksum right: refused with the broken invariant named, or
played on without an exception. A sample here; the long run is ``bench/mutants.py``."""

import dataclasses
import json
import random
import runpy
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import GAMES, game_class, restore
from companion.games.shape import broken_invariants, shape_of
from companion.reachable import draw_decision
from companion.trust import Untrusted, checksum, trusted_game
from companion.ui import game_ui
from companion.ui.i18n import translator
from tests.explored import explored
from tests.mutants import CARD_KINDS, KINDS, judge, mutant, refused_by_name_or_plays, saved_steps
from tests.test_journal_checks import STEPS, journal_of, play_on, sql


@pytest.mark.parametrize("name", GAMES)
def test_every_state_real_play_saves_keeps_its_invariants(name):
    """No false alarm: every declared invariant holds all through real games, each option."""
    cls = game_class(name)
    for seed in range(4):
        options = {k: o.values[seed % len(o.values)] for k, o in cls.OPTIONS.items() if o.values}
        _, records = saved_steps(name, seed, **options)
        for record in records:
            assert broken_invariants(record) == [], record["state"]


def test_every_game_declares_invariants_beside_its_shape():
    for name in GAMES:
        shape = shape_of(name)  # through the registry record's ``state_shape``
        assert len(shape.invariants) >= 4
        assert len({i.name for i in shape.invariants}) == len(shape.invariants)


@pytest.mark.parametrize("deal", ["box", "cards"])
def test_no_kolkhoz_state_that_loses_or_doubles_a_card_resumes(deal):
    settings, records = saved_steps("kolkhoz", 3, deal=deal)
    rng = random.Random(deal)
    verdicts = []
    while len(verdicts) < 12:
        edited = mutant(rng.choice(records), CARD_KINDS[len(verdicts) % 2], rng)
        if edited is not None:
            verdicts.append(judge(settings, edited))
    assert all(v.startswith("refused: ") for v in verdicts), verdicts
    assert sum("breaks its invariant" in v for v in verdicts) >= 6  # the rest: a shape


@pytest.mark.parametrize("name", GAMES)
def test_edited_states_are_refused_by_name_or_play_on(name):
    """A list shortened or doubled, a seat that does not exist, an index past its list, a
    score past its bound: no edit crashes, at the resume or in the 40 moves after it."""
    settings, records = saved_steps(name, 5)
    rng = random.Random(name)
    refused = dict.fromkeys(KINDS, 0)
    for kind in KINDS:
        for _ in range(6):
            edited = mutant(rng.choice(records), kind, rng)
            if edited is None:
                continue
            verdict = judge(settings, edited, seed=rng.randrange(100))
            if verdict != "resumed":
                refused[kind] += 1
                assert "invariant" in verdict or "expected" in verdict or "missing" in verdict
    assert all(refused.values()), refused  # each kind of edit is caught somewhere


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=6, deadline=None)
@given(
    seed=st.integers(0, 40),
    kind=st.sampled_from(KINDS + CARD_KINDS),
    pick=st.integers(0, 10**6),
)
def test_an_edited_state_is_refused_by_name_or_plays_on(name, seed, kind, pick):
    refused_by_name_or_plays(name, seed, kind, pick)


@pytest.mark.parametrize("found", explored("edited_state"), ids=str)
def test_edited_states_found_by_exploring_stay_fixed(found):
    """What ``bench/explore.py`` found, replayed."""
    refused_by_name_or_plays(**found)


def results_one_short():
    settings, records = saved_steps("glasnost", 2, crises="shuffled", countdown="5")
    record = next(r for r in records if r["state"]["phase"] == "sit" and r["state"]["turn"] > 2)
    edited = json.loads(json.dumps(record))
    edited["state"]["results"].pop()
    return settings, edited


def test_a_glasnost_step_one_result_short_is_refused_with_its_invariant():
    settings, edited = results_one_short()
    text = json.dumps(edited)
    with pytest.raises(Untrusted, match="one result a crisis"):
        trusted_game(text, checksum(text), settings)


def test_the_dry_run_draws_what_the_cursor_reaches(monkeypatch):
    """Without the invariants, the dry run alone still refuses the short results: it draws
    the crises of every board seat the cursor can reach, as a Down press would."""
    import companion.games.glasnost.shape as declared

    monkeypatch.setattr(declared, "SHAPE", dataclasses.replace(declared.SHAPE, invariants=()))
    settings, edited = results_one_short()
    text = json.dumps(edited)
    with pytest.raises(Untrusted, match="list index out of range"):
        trusted_game(text, checksum(text), settings)
    game = restore(edited)
    with pytest.raises(IndexError):  # the option lines alone, no press tried
        draw_decision(game, game_ui("glasnost"), translator("fr"), presses=False)


def test_the_box_sets_the_short_step_aside_and_plays_on(tmp_path):
    path = tmp_path / "journal.sqlite"
    records = journal_of(path, "glasnost")
    edited = json.loads(json.dumps(records[-1]))
    edited["state"]["results"].pop()
    text = json.dumps(edited, sort_keys=True)
    sql(path, "UPDATE steps SET record = ?, checksum = ? WHERE n = ?", text, checksum(text), STEPS)
    table = play_on(path, moves=25)  # raises if any press crashes
    assert table.resumed
    assert "one result a crisis" in sql(path, "SELECT bad FROM steps WHERE n = ?", STEPS)[0][0]


@pytest.mark.parametrize(
    "name, phase, message",
    [
        ("glasnost", "sit", "board seat {id}"),  # an option line the cursor reaches
        ("gulag", "task", "A: {a}  B: {b}"),  # the keys of a secret choice
        ("kolkhoz", "trump", "Seat {n}: press OK"),  # the hand-over's keys
        ("politburo", "propose", "Seat {seat}, secretary:"),  # the cursor's prompt
        ("glasnost", "coup_offer", "{n} s to claim: OK"),  # the countdown, asked in the open
    ],
)
def test_every_screen_is_drawn_in_both_languages(monkeypatch, name, phase, message):
    """A step the table's language draws whole, but whose French (the language the table
    may switch to at the next start) breaks on one line of one reachable screen."""
    from companion.ui import i18n

    real = i18n.translator

    def broken(lang):
        t = real(lang)
        return (lambda m: "{nope}" if m == message else t(m)) if lang == "fr" else t

    settings, records = saved_steps(name, 4)
    record = next(r for r in records if r["state"]["phase"] == phase)
    text = json.dumps(record)
    trusted_game(text, checksum(text), settings)  # whole in both languages
    monkeypatch.setattr(i18n, "translator", broken)
    with pytest.raises(Untrusted, match="nope"):
        trusted_game(text, checksum(text), settings)


def test_the_bench_runs_say_what_they_found(tmp_path, capsys):
    """``bench/mutants.py`` and ``bench/explore.py``, as small as they go: a JSON report,
    exit 0 when nothing failed (the long runs are theirs, not the suite's)."""
    bench = Path(__file__).resolve().parents[1] / "bench"
    mutants = runpy.run_path(str(bench / "mutants.py"), run_name="bench")
    assert mutants["main"](["--edits", "1", "--seeds", "1"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["crashes"] == [] and sum(report["counts"].values()) >= 20
    explore = runpy.run_path(str(bench / "explore.py"), run_name="bench")["main"]
    explore.__globals__["DATABASE"] = tmp_path  # its namespace, not the copy run_path gives
    explore.__globals__["keep"] = lambda prop, found: pytest.fail(f"{prop}: {found}")
    assert explore(["--examples", "2", "--property", "edited_state"]) == 0
    assert json.loads(capsys.readouterr().out)["failures"] == []
    with pytest.raises(SystemExit):
        explore(["--examples", "0"])
