"""Test-wide settings.

Hypothesis: no per-example deadline (CI machines are shared and timing is measured in
benchmarks/, not in tests), and a fixed derandomised run under CI so a red build can be
reproduced exactly.

Markers (registered in pyproject.toml) are given here, by fixture and by path, so the
test files need not say them: ``browser`` for every test that drives Chromium,
``cluster`` for every test that starts a Dask cluster, ``slow`` for the tests listed in
:data:`SLOW` (each took 4 s or more here, measured with ``--durations``), and ``alone``
for the slow tests listed in :data:`ALONE`, which time replies and limits or stop
processes of their own, so they want the machine to themselves. The fast lane,
``scripts/fast.sh``, leaves out ``browser``, ``cluster`` and ``slow``; the test command
(``scripts/test.sh``) runs every test, those marked ``browser``, ``cluster`` or
``alone`` one at a time after the rest, which run in parallel.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("plies", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "plies")

#: The tests folder: markers below match paths relative to it.
TESTS = Path(__file__).parent

#: Fixtures that start headless Chromium (tests/web/conftest.py, tests/draw/...).
BROWSER_FIXTURES = frozenset({"browser", "page"})

#: Fixtures that start a Dask LocalCluster (tests/cluster/conftest.py, tests/book/conftest.py).
CLUSTER_FIXTURES = frozenset({"cluster", "address"})

#: Folders whose every test runs on a cluster or its machinery (forked workers, TLS).
CLUSTER_FOLDERS = ("cluster/",)

#: Slow tests that only compute: a node id relative to tests/ (with its parameters, or
#: without: every case of it), or a file (every test in it). Each took 4 s or more on a
#: busy 2-core machine (``pytest -n 2 --durations=0``), or compiles the Numba kernels in
#: a cache of its own.
SLOW_COMPUTING = frozenset(
    {
        "cli/test_draw.py::test_png_needs_no_graphviz",
        "cli/test_fuzz.py::test_tree_text_never_crashes",
        "cli/test_main.py::test_output_that_cannot_be_written_is_one_line_and_status_1[argv2]",
        "cli/test_solve.py::test_solving_a_win_in_one_reports_its_node",
        "cli/test_tree.py::test_deep_chain_through_the_cli",
        "cli/test_tree_json.py::test_json_of_a_wide_tree_takes_little_more_memory_than_its_search",
        "classroom/test_pdf.py",
        "cluster/test_dask.py::test_a_local_cluster_takes_the_lines_over_from_this_process",
        "cluster/test_dask.py::test_a_killed_driver_resumes_to_the_same_file",
        "cluster/test_split.py::test_a_worker_killed_mid_solve_changes_no_answer",
        "draw/test_html.py::test_json_in_html_reads_back_the_same_value",
        "draw/test_memory.py",
        "draw/test_png.py::test_cli_draws_png_frames_and_gif_with_no_graphviz_anywhere",
        "draw/test_png.py::test_png_frames_and_gif_need_no_graphviz",
        "draw/test_png.py::test_web_render_gives_png_with_no_graphviz_anywhere",
        "engine/test_hooks.py::test_null_moves_save_nodes",
        "engine/native/test_mapped.py",
        "games/test_chess.py::test_conformance_on_longer_playouts",
        "games/test_chess_native.py::test_perft_suite_deeper",
        "games/test_chess_native.py::test_search_agrees_deeper_on_wac",
        "games/test_conformance.py::test_every_registered_game_conforms[chess]",
        "games/test_conformance.py::test_every_registered_game_conforms[chinese-checkers]",
    }
)


#: The slow tests (named as in :data:`SLOW_COMPUTING`) that run one at a time even in the
#: test command: they time replies, limits or a first search, kill or stop processes,
#: or start servers.
ALONE = frozenset(
    {
        "book/test_book.py::test_an_interrupted_connect4_book_resumes_to_the_direct_solves",
        "cli/test_book.py::test_a_killed_build_resumes_to_the_direct_solves",
        "cli/test_fuzz_batch.py",
        "cli/test_serve.py::test_serve_prints_its_url_serves_the_lab_and_stops_on_ctrl_c",
        "cli/test_serve.py::test_serving_beyond_this_machine_warns",
        "engine/test_misuse.py::test_the_first_native_search_does_not_count_the_kernel_load",
        "lab/test_match_cluster.py",
        "test_api_fuzz.py",
        "test_docs.py::test_example_runs_as_written[docs/clusters.md:15]",
        "test_uci_conformance.py::test_fuzzed_command_lines_never_break_the_engine",
        "web/test_limits.py::test_stopping_the_server_stops_its_workers",
        "web/test_mcts_tree_site.py",
        "web/test_site_browser.py",
        "web/test_soak.py",
    }
)
#: Every slow test: those that only compute and those that run alone.
SLOW = SLOW_COMPUTING | ALONE


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark each collected test ``browser``, ``cluster``, ``slow`` or ``alone`` (see the
    module's docstring)."""
    for item in items:
        for marker in markers_of(item):
            item.add_marker(marker)


def markers_of(item: pytest.Item) -> list[str]:
    """The names of the markers ``item`` gets from its fixtures and its path."""
    relative = _relative_path(item)
    test_id = relative + "::" + item.nodeid.split("::", 1)[-1]
    fixtures = set(getattr(item, "fixturenames", ()))
    names = []
    if fixtures & BROWSER_FIXTURES:
        names.append("browser")
    if fixtures & CLUSTER_FIXTURES or relative.startswith(CLUSTER_FOLDERS):
        names.append("cluster")
    keys = {relative, test_id, test_id.split("[", 1)[0]}
    if SLOW & keys:
        names.append("slow")
    if ALONE & keys:
        names.append("alone")
    return names


def _relative_path(item: pytest.Item) -> str:
    """``item``'s file relative to tests/, with forward slashes ('' when outside)."""
    try:
        return item.path.relative_to(TESTS).as_posix()
    except ValueError:
        return ""
