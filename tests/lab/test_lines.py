"""A batch's line job keeps every field of the search it was made of."""

from __future__ import annotations

import json

import pytest

from plies.errors import SearchError
from plies.lab import AnalyzeLines, SearchOptions


def test_a_line_job_keeps_every_search_option() -> None:
    options = SearchOptions(algorithm="mcts", iterations=150, seed=4)
    job = AnalyzeLines.of("connect4", options, json=True)
    assert job.options() == options and job.options().iterations == 150
    record = json.loads(job(1, "4453").output or "")
    assert record["stats"]["leaves"] == 150 and record["algorithm"] == "mcts"


def test_iterations_belong_to_mcts_alone() -> None:
    with pytest.raises(SearchError, match="iterations 5 with algorithm pvs"):
        SearchOptions(iterations=5)
    with pytest.raises(SearchError, match="iterations"):
        SearchOptions(algorithm="mcts", iterations=0)
