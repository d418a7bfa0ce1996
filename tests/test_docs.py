"""Every code example in README.md and docs/ runs as written and prints what it shows.

Each block runs in a scratch folder of its own holding ``.venv`` (a link to the
virtual environment running the tests, so ``.venv/bin/plies`` is the clone's) and the
first lines of Pons' Connect Four test sets (``Test_L1_R2`` ...: five lines each, so
that a whole batch runs in a second):

* ``python``: run by the venv's Python; a ``text`` block right after it is what it
  must print;
* ``console``: each ``$`` line runs with bash and what it prints (standard output and
  error) must match the lines under it: ``...`` alone on a line stands for any lines,
  ``...`` in a line for any text, and the figures after ``nps`` and ``time`` are not
  compared; a command shown without output is only run. A command must exit with
  status 0 unless its output shows an ``error:`` line;
* ``bash``: run as one script (``set -e``) that must exit with status 0.

A block that cannot run says why just before it: ``<!-- docs-test: skip (why) -->``.
``<!-- docs-test: server (why) -->`` runs a block against a ``plies serve`` started
here (its ``127.0.0.1:8000`` becomes the server's address).
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
RUN = ("python", "console", "bash")
MARKER = re.compile(r"<!-- docs-test: (\w+) \((.+)\) -->")
KINDS = ("skip", "server")

#: Blocks that cannot run, at most: each says why, and most are installs, servers and
#: downloads (Pyodide from the npm registry: CI has no internet).
MAX_SKIPPED = 17

#: Lines of each of Pons' test sets copied into a block's folder.
TEST_SET_LINES = 5
TEST_SETS = next(
    (
        parent / "shared" / "connect4-testsets"
        for parent in ROOT.parents
        if (parent / "shared" / "connect4-testsets").is_dir()
    ),
    None,
)

#: Commands never run here: they would install into (or rebuild) the tests' own venv,
#: which each block's ``.venv`` links to, or run the whole suite.
INSTALLS = re.compile(r"pip install|-m venv|scripts/test\.sh|apt-get")

#: Longest a block may run, in seconds.
TIMEOUT = 120


@dataclass(frozen=True)
class Block:
    """One fenced code block of a page."""

    page: Path
    line: int  # of its opening fence, 1-based
    language: str
    code: str
    marker: str | None = None  # "skip" or "server"
    reason: str = ""
    expected: str | None = None  # the text block after a python block

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks_of(page: Path) -> list[Block]:
    """The page's fenced blocks, each with its marker and, for python, its output."""
    lines = page.read_text().splitlines()
    found: list[Block] = []
    i = 0
    while i < len(lines):
        fence = re.fullmatch(r"```(\w*)", lines[i])
        if not fence:
            i += 1
            continue
        end = lines.index("```", i + 1)
        above = next((lines[j] for j in range(i - 1, -1, -1) if lines[j].strip()), "")
        marked = MARKER.fullmatch(above.strip())
        found.append(
            Block(
                page=page,
                line=i + 1,
                language=fence.group(1),
                code="\n".join(lines[i + 1 : end]) + "\n",
                marker=marked.group(1) if marked else None,
                reason=marked.group(2) if marked else "",
            )
        )
        i = end + 1
    return [_with_output(block, found[k + 1 : k + 2]) for k, block in enumerate(found)]


def _with_output(block: Block, following: list[Block]) -> Block:
    """A python block takes the text block right after it (blank lines between) as
    its expected output."""
    if block.language != "python" or not following or following[0].language != "text":
        return block
    text = block.page.read_text().splitlines()
    closing = block.line + block.code.count("\n")  # the closing fence, 0-based
    between = text[closing + 1 : following[0].line - 1]
    if any(line.strip() for line in between):
        return block
    return Block(**{**block.__dict__, "expected": following[0].code})


ALL_BLOCKS = [block for page in PAGES for block in blocks_of(page)]
RUNNABLE = [block for block in ALL_BLOCKS if block.language in RUN]


# The folder each block runs in ------------------------------------------------------------


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A scratch folder with ``.venv`` and the first lines of Pons' test sets."""
    (tmp_path / ".venv").symlink_to(Path(sys.prefix))
    if TEST_SETS is not None:
        for test_set in TEST_SETS.glob("Test_*"):
            head = test_set.read_text().splitlines(keepends=True)[:TEST_SET_LINES]
            (tmp_path / test_set.name).write_text("".join(head))
    return tmp_path


def environment() -> dict[str, str]:
    """The blocks' environment: this one, output unbuffered (stderr and stdout stay in
    the order they were written), no colours."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COLUMNS", "FORCE_COLOR"))}
    return {**env, "PYTHONUNBUFFERED": "1", "NO_COLOR": "1", "TERM": "dumb"}


def run(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run ``command`` in ``cwd``, standard error into standard output, bounded."""
    return subprocess.run(
        command,
        cwd=cwd,
        env=environment(),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )


# A plies serve for the blocks that talk to one ----------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The address of a ``plies serve`` running for this module's blocks."""
    pytest.importorskip("starlette")
    port = free_port()
    log = tmp_path_factory.mktemp("serve") / "serve.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            [str(Path(sys.prefix) / "bin" / "plies"), "serve", "--port", str(port)],
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
    try:
        deadline = time.monotonic() + 60
        while "plies web lab at" not in log.read_text():
            assert process.poll() is None, log.read_text()
            assert time.monotonic() < deadline, f"plies serve did not start: {log.read_text()}"
            time.sleep(0.1)
        yield f"127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=30)


# Matching shown output ----------------------------------------------------------------------

_VARYING = re.compile(r"\b(nps|time) \d+(?:\.\d+)?")


def normalized(text: str) -> str:
    """``text`` with the figures that vary from run to run (nps, time) blanked."""
    return _VARYING.sub(r"\1 N", text)


def pattern(shown: str) -> re.Pattern[str]:
    """A regular expression for shown output: ``...`` lines match any lines, ``...``
    in a line any text."""
    parts = []
    for line in normalized(shown).splitlines():
        if line == "...":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append(".*?".join(re.escape(piece) for piece in line.split("...")) + r"\n")
    return re.compile("".join(parts))


def matches(shown: str, printed: str) -> bool:
    """Whether ``printed`` is what ``shown`` shows."""
    printed = normalized(printed)
    if printed and not printed.endswith("\n"):
        printed += "\n"
    return pattern(shown).fullmatch(printed) is not None


def console_steps(code: str) -> list[tuple[str, str]]:
    """``(command, shown output)`` for each ``$`` line of a console block."""
    steps: list[tuple[str, list[str]]] = []
    for line in code.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        else:
            assert steps, f"output before any command: {line!r}"
            steps[-1][1].append(line)
    return [(command, "".join(out + "\n" for out in shown)) for command, shown in steps]


# The tests ----------------------------------------------------------------------------------


def needs_test_sets(block: Block) -> None:
    if TEST_SETS is None and "Test_L" in block.code:
        pytest.skip("Pons' test sets are not beside the checkout (shared data)")


@pytest.mark.parametrize("block", RUNNABLE, ids=[b.name for b in RUNNABLE])
def test_example_runs_as_written(
    block: Block, folder: Path, request: pytest.FixtureRequest
) -> None:
    if block.marker == "skip":
        pytest.skip(block.reason)
    installs = INSTALLS.search(block.code)
    assert installs is None, f"{installs.group(0)!r} would change the venv: mark the block skip"
    needs_test_sets(block)
    code = block.code
    if block.marker == "server":
        if shutil.which("curl") is None:
            pytest.skip("no curl on this machine")
        code = code.replace("127.0.0.1:8000", request.getfixturevalue("server"))
    if block.language == "python":
        done = run([sys.executable, "-c", code], folder)
        assert done.returncode == 0, done.stdout
        if block.expected is not None:
            assert done.stdout == block.expected
    elif block.language == "bash":
        done = run(["bash", "-e", "-o", "pipefail", "-c", code], folder)
        assert done.returncode == 0, done.stdout
    else:
        for command, shown in console_steps(code):
            done = run(["bash", "-o", "pipefail", "-c", command], folder)
            failing = any(line.startswith("error:") for line in shown.splitlines())
            assert failing or done.returncode == 0, f"$ {command}\n{done.stdout}"
            assert not shown or matches(shown, done.stdout), (
                f"$ {command}\nshown:\n{shown}\nprinted:\n{done.stdout}"
            )


def test_every_block_that_does_not_run_says_why() -> None:
    skipped = [b for b in ALL_BLOCKS if b.marker == "skip"]
    assert all(b.reason.strip() for b in skipped)
    assert len(skipped) <= MAX_SKIPPED, [b.name for b in skipped]
    markers = [
        (page.name, line)
        for page in PAGES
        for line in page.read_text().splitlines()
        if line.startswith("<!-- docs-test") and not MARKER.fullmatch(line.strip())
    ]
    assert not markers, f"markers not of the form <!-- docs-test: KIND (why) -->: {markers}"
    assert {b.marker for b in ALL_BLOCKS} <= {None, *KINDS}
    assert all(b.language in RUN for b in ALL_BLOCKS if b.marker), "a marker on a block not run"


def test_the_readme_keeps_its_two_commands_and_stays_short() -> None:
    text = (ROOT / "README.md").read_text()
    first, second = [b.code.strip() for b in blocks_of(ROOT / "README.md")][:2]
    assert first == "python3 -m venv .venv && .venv/bin/pip install -q . && .venv/bin/plies demo"
    assert second == "bash scripts/test.sh"
    assert len(text.splitlines()) < 150


def test_commands_name_the_venv_and_extras_install_from_the_clone() -> None:
    bare = re.compile(r"(?:^|[|;&(]\s*)(?:plies|pip|python3?)\s")
    for block in ALL_BLOCKS:
        if block.language not in ("console", "bash"):
            continue
        for line in block.code.splitlines():
            if block.language == "console" and not line.startswith("$ "):
                continue  # output
            command = line.removeprefix("$ ").replace("python3 -m venv .venv", "")
            assert not bare.search(command), f"{block.name}: {line!r} runs outside .venv/bin"
    for page in PAGES:
        text = page.read_text()
        assert not re.search(r"pip install[^\n]*plies\[", text), f"{page.name}: 'plies[...]'"


def test_the_pons_test_set_lines_are_read_from_shared_data() -> None:
    if TEST_SETS is None:
        pytest.skip("Pons' test sets are not beside the checkout (shared data)")
    assert len(list(TEST_SETS.glob("Test_*"))) == 6
