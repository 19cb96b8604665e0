"""docs/rules/ explains every rule reference the box can show, and the docs link only inside.

A refusal on the screen names its rule ("G3: ...", "5.1: ..."); a table looks
it up on the game's page. The references are read from the strings of the
games and their screens, so a new citation without a page entry fails here.
"""

import ast
import re
from pathlib import Path

import pytest

from companion.games import GAMES, game_class

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules"
SOURCES = (ROOT / "companion" / "games", ROOT / "companion" / "ui")

#: a ruling's letter -> the page that explains it
PAGES = {"G": "gulag.md", "P": "politburo.md", "S": "glasnost.md", "K": "kolkhoz.md"}
RULING = re.compile(r"\b([GPSK])[1-9][0-9]?\b")
#: Glasnost's rules text numbers its sections (5.1); no other text does
SECTION = re.compile(r"(?<![\w.])[1-9]\.[1-9](?![\w.])")
SECTION_CITED = re.compile(r"\brules? ([1-9]\.[1-9])\b")
LINK = re.compile(r"\]\(([^)\s]+)\)")


def module_strings(path: Path) -> list[str]:
    """Every string literal of a module, the parts of f-strings included."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    ]


def cited() -> dict[tuple[str, str], set[str]]:
    """(page, reference) -> the modules whose strings cite it."""
    found: dict[tuple[str, str], set[str]] = {}
    for folder in SOURCES:
        for path in sorted(folder.rglob("*.py")):
            glasnost = "glasnost" in path.relative_to(ROOT).parts[-2:][0] + path.stem
            for text in module_strings(path):
                refs = [(PAGES[m[1]], m[0]) for m in RULING.finditer(text)]
                refs += [("glasnost.md", m[1]) for m in SECTION_CITED.finditer(text)]
                if glasnost:
                    refs += [("glasnost.md", m[0]) for m in SECTION.finditer(text)]
                for ref in refs:
                    found.setdefault(ref, set()).add(path.relative_to(ROOT).as_posix())
    return found


def page_path(page: str) -> Path:
    """A game's rules page: in its folder (``companion/games/<game>/rules.md``, beside the
    rules it explains) when it holds one, else in ``docs/rules/``."""
    in_folder = ROOT / "companion" / "games" / page.removesuffix(".md") / "rules.md"
    return in_folder if in_folder.exists() else RULES / page


def headings(page: str) -> set[str]:
    """The words of a page's headings: where a reference can be looked up."""
    text = page_path(page).read_text(encoding="utf-8")
    words: set[str] = set()
    for line in text.splitlines():
        if line.startswith("#"):
            words.update(w.rstrip(".:") for w in line.lstrip("#").split())
    return words


CITED = cited()


def test_the_references_are_found_in_the_code():
    """The search itself works: the refusals every table meets are among what it finds."""
    refs = {ref for _, ref in CITED}
    assert {"G3", "G4", "P3", "P4", "S5", "S6", "K1", "K4", "K5", "5.1"} <= refs
    assert {page for page, _ in CITED} == set(PAGES.values())
    assert ("politburo.md", "3.5") not in CITED  # a number on a screen is not a section


@pytest.mark.parametrize(("page", "ref"), sorted(CITED), ids=lambda x: str(x))
def test_every_cited_rule_has_a_heading_on_its_games_page(page, ref):
    where = ", ".join(sorted(CITED[(page, ref)]))
    assert ref in headings(page), f"{where} cites {ref}: add a heading for it to {page_path(page)}"


@pytest.mark.parametrize("name", list(GAMES))
def test_every_rule_a_refusal_cites_has_a_heading_on_its_games_page(name):
    """The rule each refusal carries (``IllegalMove.rule``), from the game's declarations:
    Kolkhoz's "2b" (the rules text's trick-taking section) included."""
    rules = {rule for rule, _ in game_class(name).refusals().values() if rule}
    assert rules, f"{name} cites no rule when it refuses"
    missing = rules - headings(f"{name}.md")
    assert not missing, f"{name} refusals cite {sorted(missing)}: add a heading to {name}.md"


def test_the_index_links_every_game_page():
    index = (RULES / "README.md").read_text(encoding="utf-8")
    targets = set(LINK.findall(index))
    assert set(PAGES.values()) <= targets


def markdown_files() -> list[Path]:
    folders = sorted((ROOT / "companion" / "games").glob("*/rules.md"))
    return [ROOT / "README.md", *sorted(RULES.glob("*.md")), *folders]


@pytest.mark.parametrize("doc", markdown_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_links_stay_inside_the_repository_and_lead_somewhere(doc):
    for target in LINK.findall(doc.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue  # a web address, or a place on the same page
        path = (doc.parent / target.split("#")[0]).resolve()
        assert path.is_relative_to(ROOT), f"{doc.name} points outside the repository: {target}"
        assert path.exists(), f"{doc.name} links to {target}, which does not exist"


def test_the_readme_sends_readers_to_the_rules_pages():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "../shared" not in readme
    assert any(
        t.rstrip("/") == "docs/rules" or t.startswith("docs/rules/") for t in LINK.findall(readme)
    )


def learn_pages() -> dict:
    """Every game's Learn pages, as its record in the registry names them."""
    from companion.games import GAMES
    from companion.kiosk.learn import pages_of

    return {name: pages_of(name) for name in GAMES}


def learn_citations() -> list[tuple[str, str, str]]:
    """(game, rule, claim) for every rule a kiosk Learn page cites."""
    return [
        (game, rule, page.text)
        for game, pages in learn_pages().items()
        for page in pages
        for rule in page.rules
    ]


@pytest.mark.parametrize(("game", "rule", "claim"), learn_citations(), ids=lambda x: str(x)[:30])
def test_every_learn_claim_cites_a_rule_with_a_heading(game, rule, claim):
    assert rule in headings(f"{game}.md"), f"Learn's {claim!r} cites {rule}: no heading for it"


def test_the_learn_pages_show_the_rules_they_cite_and_teach_no_known_mistake():
    from companion.kiosk.learn import pages
    from companion.ui.i18n import translator

    LEARN = learn_pages()
    for lang in ("en", "fr"):
        for game, sources in LEARN.items():
            for page, screen in zip(sources, pages(game, translator(lang)), strict=True):
                assert page.rules and " ".join(screen.body).endswith(f"({', '.join(page.rules)})")
    claims = " ".join(page.text for sources in LEARN.values() for page in sources)
    # Gulag: nobody learns their own colour (G2); Kolkhoz: the richest plot wins, not hours
    # (K6); Politburo: the conditions are checked at the end, not raced to (P9).
    for wrong in ("tells you in secret", "most hours", "condition first"):
        assert wrong not in claims
