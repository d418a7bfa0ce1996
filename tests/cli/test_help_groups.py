"""``--help`` puts a command's own options first and the cluster's last.

``plies tree --help`` is the students' command: its options opened with Dask cluster
text (``--workers``, ``--scheduler``) because the mutually exclusive groups of the
batch options landed in argparse's default "options" group, printed first.
"""

from __future__ import annotations

import argparse

import pytest

from plies.cli import command_parser

CLUSTER_OPTIONS = {"--workers", "--scheduler", "--out", "--resume"}
TLS_OPTIONS = {"--tls-ca", "--tls-cert", "--tls-key"}


def parser_of(command: str) -> argparse.ArgumentParser:
    """The full parser of ``plies COMMAND``."""
    return command_parser(command)


def group_titles_and_options(parser: argparse.ArgumentParser) -> list[tuple[str, set[str]]]:
    """Each group ``--help`` prints, in order, with its option strings."""
    return [
        (str(group.title), {s for a in group._group_actions for s in a.option_strings})
        for group in parser._action_groups
        if group._group_actions
    ]


@pytest.mark.parametrize("words", ["tree", "solve", "analyze", "book"])
def test_cluster_and_tls_options_come_last_in_their_own_groups(words: str) -> None:
    groups = group_titles_and_options(parser_of(words))
    assert [title for title, _ in groups[-2:]] == ["cluster", "TLS"]
    assert groups[-2][1] == CLUSTER_OPTIONS
    assert groups[-1][1] == TLS_OPTIONS
    for title, options in groups[:-2]:
        assert not options & (CLUSTER_OPTIONS | TLS_OPTIONS), title


def test_tree_help_opens_with_the_tree_not_the_cluster() -> None:
    text = parser_of("tree").format_help()
    options_section = text[text.index("\noptions:") : text.index("\ninput:")]
    assert "Dask" not in options_section
    assert "--workers" not in options_section
    assert text.index("\ninput:") < text.index("\nsearch:") < text.index("\ncluster:")
