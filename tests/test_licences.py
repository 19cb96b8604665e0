"""Who may do what with which part: the licence texts are there, whole, and the README says
which covers what."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_code_and_docs_are_mit():
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License\n\nCopyright (c) ")
    assert 'THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND' in text


def test_the_hardware_is_cern_ohl_p_in_full():
    text = (ROOT / "hardware" / "LICENSE").read_text()
    assert text.startswith("CERN Open Hardware Licence Version 2 - Permissive\n")
    sections = ["Definitions", "Applicability", "Copying, modifying and Conveying Covered Source"]
    sections += ["Making and Conveying Products", "DISCLAIMER AND LIABILITY", "Patents", "General"]
    for number, title in enumerate(sections, 1):
        assert f"\n{number} {title}\n" in text
    assert "third party beneficiary rights are\n      specifically excluded." in text


def test_the_font_licence_is_the_ofl_and_ships_with_the_font():
    text = (ROOT / "companion" / "ui" / "fonts" / "OFL.txt").read_text()
    assert "SIL OPEN FONT LICENSE Version 1.1 - 26 February 2007" in text
    assert "Terminus Font" in text and "TERMINATION" in text and "DISCLAIMER" in text


def test_the_readme_says_which_covers_what():
    readme = (ROOT / "README.md").read_text()
    licence = readme[readme.index("## Licence") :]
    for words in ("MIT licence (`LICENSE`)", "CERN-OHL-P-2.0", "`hardware/LICENSE`", "OFL.txt"):
        assert words in licence
