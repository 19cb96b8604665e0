"""Each Learn page says what the rule it cites says, in the words of that rule's section of
``docs/rules/`` (the rules with the box, which follow ``rules/RULINGS.md``)."""

import re
from pathlib import Path

from companion.games import GAMES
from companion.kiosk.learn import pages_of

RULES = Path(__file__).resolve().parents[1] / "docs" / "rules"

#: a page's claim -> (words the page uses, the words of its rule's section that back them)
CLAIMS = {
    "Each worker plays Work or Strike under the hood.": [
        ("Work or Strike", "Work or Strike"),
        ("under the hood", "under the hood"),
    ],
    "The supervisor may make one of them swap cards.": [
        ("supervisor may", "supervisor then may"),
        ("swap", "swap"),
    ],
    "Executions 1 and 2: the box shuffles the cards.": [
        ("1 and 2", "The first two executions"),
        ("shuffles", "The box shuffles the cards"),
    ],
    "Execution 3: cards dealt by seat, so each is traced.": [
        ("by seat", "handed out by seat"),
        ("traced", "can be traced to its player"),
    ],
    "At the end, win if your secret condition holds.": [("condition holds", "condition holds")],
    "Several hold: those with the most influence win.": [
        ("Several hold", "if several hold"),
        ("most influence", "the most influence left win"),
    ],
    "At the end, win if every objective is met.": [("every objective", "every objective")],
    "If nobody meets all, those with one met win.": [
        ("If nobody", "If there are none"),
        ("one met", "at least one matching objective"),
    ],
}


def section(game: str, rule: str) -> str:
    """The text under the heading of ``rule`` on the game's page, to the next heading."""
    text = (RULES / f"{game}.md").read_text(encoding="utf-8")
    found = re.search(rf"^#+ {re.escape(rule)} .*?(?=^#|\Z)", text, re.M | re.S)
    assert found, f"docs/rules/{game}.md has no heading for {rule}"
    return " ".join(found.group(0).split())


def cited(game: str, text: str) -> list:
    return [page for page in pages_of(game) if page.text == text]


def test_each_page_says_what_its_rule_says():
    checked = set()
    for game in GAMES:
        for page in pages_of(game):
            if page.text not in CLAIMS:
                continue
            checked.add(page.text)
            rules = " ".join(section(game, rule) for rule in page.rules)
            for said, backed in CLAIMS[page.text]:
                assert said in page.text
                assert backed in rules, f"{page.text!r} cites {page.rules}: no {backed!r} there"
    assert checked == set(CLAIMS)  # no claim here outlives its page


def test_gulags_swap_is_taught_under_g5_beside_the_task():
    g5 = [page.text for page in pages_of("gulag") if "G5" in page.rules]
    assert any("Work or Strike" in text for text in g5) and any("swap" in text for text in g5)


def test_politburo_never_says_the_box_shuffles_the_third_execution():
    """P6: the third execution is attributable, dealt by seat; only P5's two are shuffled."""
    for page in pages_of("politburo"):
        if "shuffle" in page.text:
            assert page.rules == ("P5",) and "1 and 2" in page.text
    assert [page.rules for page in pages_of("politburo") if "by seat" in page.text] == [("P6",)]


def test_the_win_pages_give_the_tie_break():
    """P9: several conditions hold, the most influence wins; S7: nobody meets every
    objective, those meeting one share the win."""
    p9 = " ".join(page.text for page in pages_of("politburo") if "P9" in page.rules)
    s7 = " ".join(page.text for page in pages_of("glasnost") if "S7" in page.rules)
    assert "most influence" in p9
    assert "every objective" in s7 and "one met" in s7
