"""`companion --help` speaks to the box's owner: every command and option says what it is for,
in the owner's words (no test files, modules or protocol names)."""

import argparse
import re

from companion.cli import parser

DEVELOPER_WORDS = re.compile(r"tests/|\.py\b|CSPRNG|HELLO|stdout|loopback|front end")


def commands():
    top = parser()
    (sub,) = (a for a in top._actions if isinstance(a, argparse._SubParsersAction))
    helps = {choice.dest: choice.help for choice in sub._choices_actions}
    return top, sub.choices, helps


def test_every_command_and_option_says_what_it_is_for_in_the_owners_words():
    top, subs, helps = commands()
    texts = [top.description]
    for name, cmd in subs.items():
        assert helps[name], f"`companion {name}` has no help"
        texts.append(helps[name])
        for action in cmd._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            where = f"`companion {name} {'/'.join(action.option_strings) or action.dest}`"
            assert action.help, f"{where} has no help"
            texts.append(action.help)
    for text in texts:
        assert not DEVELOPER_WORDS.search(text), text


def test_the_top_help_says_where_to_start():
    top, _, _ = commands()
    assert "companion run" in top.format_help()


def test_the_help_and_usage_shown_fit_the_terminal(monkeypatch):
    """Arguments are checked with formatters of a set width (no ``shutil`` at a start), but
    what is shown is laid out for the terminal, as argparse's own help is."""
    shown = {}
    for columns in (40, 160):
        monkeypatch.setenv("COLUMNS", str(columns))
        run = parser("run")._subparsers._group_actions[0].choices["run"]
        shown[columns] = (run.format_help(), run.format_usage())
    (narrow_help, narrow_usage), (wide_help, wide_usage) = shown[40], shown[160]
    assert len(narrow_help.splitlines()) > len(wide_help.splitlines())
    assert len(narrow_usage.splitlines()) > len(wide_usage.splitlines())
