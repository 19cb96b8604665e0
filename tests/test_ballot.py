"""The secret ballot: one choice a seat, no strangers, a uniform reveal that forgets who chose."""

import itertools
import math
import random
import secrets
from collections import Counter

import pytest

from companion.ballot import Ballot, make_rng, rng_from_state, rng_state, shuffled
from companion.errors import IllegalMove
from tests.stats import _upper_regularized_gamma, chi_square_p


def test_the_real_table_draws_from_the_csprng():
    assert isinstance(make_rng(None), secrets.SystemRandom)
    assert rng_from_state(rng_state(make_rng(None))).__class__ is secrets.SystemRandom
    assert type(make_rng(3)) is random.Random


def test_chi_square_helper_knows_a_fair_from_a_loaded_die():
    assert chi_square_p([100, 100, 100], [100, 100, 100]) == pytest.approx(1.0)
    assert chi_square_p([130, 100, 70], [100, 100, 100]) < 0.001
    # Known values: with 2 degrees of freedom p = exp(-chi2 / 2).
    assert chi_square_p([110, 100, 90], [100.0, 100.0, 100.0]) == pytest.approx(math.exp(-1))
    # Textbook 5% points: chi2 = 11.0705 at 5 degrees of freedom, 3.8415 at 1.
    assert _upper_regularized_gamma(5 / 2, 11.0705 / 2) == pytest.approx(0.05, abs=1e-4)
    assert _upper_regularized_gamma(1 / 2, 3.8415 / 2) == pytest.approx(0.05, abs=1e-4)


def test_one_choice_per_seat_and_no_strangers():
    ballot = Ballot([1, 4], ("work", "strike"))
    ballot.cast(4, "strike")
    with pytest.raises(IllegalMove, match="already chosen"):
        ballot.cast(4, "work")
    with pytest.raises(IllegalMove, match="no vote"):
        ballot.cast(2, "work")
    with pytest.raises(IllegalMove, match="not a choice"):
        ballot.cast(1, "maybe")
    with pytest.raises(IllegalMove, match="waits for seat 2"):
        ballot.reveal(random.Random(1))
    assert ballot.pending == (1,)
    ballot.cast(1, "work")
    assert sorted(ballot.reveal(random.Random(1))) == ["strike", "work"]


def test_nothing_kept_after_the_reveal_links_a_seat_to_a_choice():
    ballot = Ballot([0, 1, 2], ("yes", "no"))
    for seat, choice in ((0, "yes"), (1, "no"), (2, "yes")):
        ballot.cast(seat, choice)
    ballot.reveal(random.Random(7))
    kept = vars(ballot)
    assert kept["_choices"] == {}
    assert ballot.counts() == Counter({"yes": 2, "no": 1})
    with pytest.raises(KeyError):
        ballot.choice_of(1)


def test_reveal_depends_only_on_the_multiset_of_choices():
    for seed in range(50):
        a, b = Ballot([0, 1, 2], "abc"), Ballot([0, 1, 2], "abc")
        for seat, choice in zip((0, 1, 2), "abc", strict=True):
            a.cast(seat, choice)
        for seat, choice in zip((2, 0, 1), "cab", strict=True):
            b.cast(seat, choice)
        assert a.reveal(random.Random(seed)) == b.reveal(random.Random(seed))


def test_three_item_reveal_order_is_uniform():
    rng = random.Random(2024)
    counts = Counter()
    n = 30_000
    for _ in range(n):
        ballot = Ballot([0, 1, 2], "abc")
        for seat, choice in zip((0, 1, 2), "abc", strict=True):
            ballot.cast(seat, choice)
        counts[ballot.reveal(rng)] += 1
    perms = list(itertools.permutations("abc"))
    assert set(counts) == set(perms)
    assert chi_square_p([counts[p] for p in perms], [n / 6] * 6) > 0.001


def test_thirty_two_card_shuffle_is_uniform_position_by_position():
    rng = random.Random(77)
    cards = list(range(32))
    n = 100_000
    at = [[0] * 32 for _ in range(32)]  # at[card][position]
    for _ in range(n):
        for position, card in enumerate(shuffled(cards, rng)):
            at[card][position] += 1
    observed = [c for row in at for c in row]
    # 32x32 table with fixed margins: (32-1)^2 degrees of freedom.
    p = chi_square_p(observed, [n / 32] * (32 * 32), ddof=32 * 32 - 1 - 31 * 31)
    assert p > 0.001


def test_rng_state_survives_json():
    import json

    rng = random.Random(5)
    rng.random()
    twin = rng_from_state(json.loads(json.dumps(rng_state(rng))))
    assert [twin.random() for _ in range(5)] == [rng.random() for _ in range(5)]
    with pytest.raises(ValueError, match="damaged"):
        rng_from_state([1, 2])
