"""English and French for everything shown, and a font that can draw them."""

import ast
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from PIL import Image, ImageDraw

from companion.ui.canvas import font
from companion.ui.i18n import translator

PACKAGE = Path(__file__).resolve().parents[1] / "companion"
CATALOG = PACKAGE / "locale" / "fr" / "LC_MESSAGES" / "companion.po"
#: the house's catalog, then each game folder's own (``companion.ui.i18n``)
CATALOGS = [CATALOG, *sorted(PACKAGE.glob("games/*/locale/fr/LC_MESSAGES/companion.po"))]


def catalog_messages():
    """Every message of every French catalog (the house's and the game folders')."""
    for path in CATALOGS:
        with path.open("rb") as f:
            yield from (message for message in read_po(f) if message.id)


def messages_in_code():
    """Every literal passed to ``t(...)`` or ``self.t(...)`` in the package."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            arg = node.args[0]
            if name == "t" and isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                found.setdefault(arg.value, f"{path.name}:{node.lineno}")
    return found


def test_every_message_shown_has_a_french_translation():
    translated = {m.id: m.string for m in catalog_messages()}
    missing = {msg: where for msg, where in messages_in_code().items() if not translated.get(msg)}
    assert missing == {}
    assert len(messages_in_code()) > 50


def test_the_compiled_catalog_is_the_po_file():
    fr = translator("fr")
    for message in catalog_messages():
        assert fr(message.id) == message.string


def test_placeholders_survive_translation():
    fr = translator("fr")
    for msg in messages_in_code():
        assert sorted(_fields(fr(msg))) == sorted(_fields(msg)), msg


def _fields(text):
    import string

    return [f for _, f, _, _ in string.Formatter().parse(text) if f]


def test_an_unknown_language_is_refused():
    with pytest.raises(ValueError, match="no language 'de'"):
        translator("de")


def glyph(ch):
    image = Image.new("1", (16, 16))
    ImageDraw.Draw(image).text((0, 0), ch, font=font(), fill=1)
    return image.tobytes()


@pytest.mark.parametrize("ch", list("éèçàêôÉ") + list("ПахотаЖтвМсскяЗерноКлзЁ") + list("♥♦♣♠▲▼◄►"))
def test_the_bundled_font_has_real_glyphs(ch):
    missing = glyph("\ue000")  # a private-use code point: the font's empty box
    assert glyph(ch) != missing
    assert glyph(ch) != glyph(" ")


def test_the_font_ships_with_its_licence():
    licence = (PACKAGE / "ui" / "fonts" / "OFL.txt").read_text()
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence
    assert "Terminus Font" in licence


def french_messages():
    return [(m.id, m.string) for m in catalog_messages()]


def test_french_puts_a_space_before_every_colon_and_question_mark():
    """French typography, the same on every screen: "Siège 1 : vote", "ouvrier 1 ?"."""
    import re

    tight = re.compile(r"\S[:;?!](?=\s|$)")
    assert [(mid, fr) for mid, fr in french_messages() if tight.search(fr)] == []


def test_french_names_the_peek_button_as_the_box_labels_it():
    """The button is labelled PEEK on the box (hardware/pinout.toml), in either language."""
    for mid, fr in french_messages():
        if "PEEK" in mid:
            assert "PEEK" in fr, (mid, fr)


def test_a_french_prompt_naming_a_seat_starts_with_siege():
    """ "Seat 1, worker:" is "Siège 1, ouvrier", never "Ouvrier 1" (a worker's number)."""
    for mid, fr in french_messages():
        if mid.startswith("Seat {") and "," in mid.split("}")[1][:2]:
            assert fr.startswith("Siège {"), (mid, fr)
