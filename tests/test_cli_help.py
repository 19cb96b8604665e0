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
