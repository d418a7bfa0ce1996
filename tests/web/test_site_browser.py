"""The static site in a real browser: ``plies site --pyodide PATH`` served by
``python -m http.server`` from a sub-path, opened in Debian's Chromium. plies runs in
the page's Web Worker under Pyodide: the lab searches and steps, a shared link
reproduces a search, the practice room grades, downloads work, answers are byte for
byte the server's, limits hold, and no request leaves the site."""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.error import HTTPError
from urllib.parse import quote
from urllib.request import Request, urlopen

import pytest

from browser_helpers import CHROMIUM, guarded_page
from plies.trees import format_tree, random_tree
from plies.web import build_site
from pyodide_helpers import StaticServer, runtime

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="Chromium is not installed (apt-get install chromium)"
)

AIMA = "[[3,12,8],[2,4,6],[14,5,2]]"
#: Where the site lives on its host: a course page's sub-path.
SUB_PATH = "/course/ai/alphabeta/"
DEEP_BODY = "the request body is not a JSON object the lab reads: it nests deeper than 64 levels"
#: Where the screenshots go, to be looked at.
SHOTS = Path("/tmp/plies-site")
#: How long Python may take to start in a test (about 3 s here, cold).
START = 60_000


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[StaticServer, str]]:
    """Two sites on one ``python -m http.server``: the lab at SUB_PATH, and one with a
    time limit of 0.3 s at /tight/; the server and the site's URL."""
    www = tmp_path_factory.mktemp("www")
    build_site(www / SUB_PATH.strip("/"), pyodide=str(runtime()))
    build_site(www / "tight", pyodide=str(runtime()), max_seconds=0.3, max_nodes=1_000_000)
    server = StaticServer(www, www.parent / "server.log")
    yield server, server.origin + SUB_PATH
    server.stop()


def _page(browser: Any, origin: str, width: int = 1366, height: int = 768) -> Any:
    """A page that may reach only the static server, every request it and its workers
    make kept in ``page.seen``."""
    page = guarded_page(browser, origin=origin, width=width, height=height)
    seen: list[str] = []
    page.context.on("request", lambda request: seen.append(request.url))
    page.seen = seen
    return page


def _ready(page: Any) -> None:
    sync_api.expect(page.get_by_test_id("runtime")).to_have_attribute(
        "data-stage", "ready", timeout=START
    )


def _close(page: Any) -> None:
    assert page.errors == [] and page.outside == []
    page.context.close()


def test_the_lab_searches_steps_shares_and_downloads(
    browser: Any, site: tuple[StaticServer, str], tmp_path: Path
) -> None:
    server, base = site
    page = _page(browser, server.origin)
    page.goto(f"{base}?tree={quote(AIMA)}&algorithm=alphabeta&strict=1")
    sync_api.expect(page.get_by_test_id("value")).to_have_text("3", timeout=START)
    sync_api.expect(page.get_by_test_id("stats")).to_contain_text("evaluated 7 of 9 leaves")
    sync_api.expect(page.get_by_test_id("pv")).to_contain_text("B → B1")
    sync_api.expect(page.get_by_test_id("runtime")).to_have_text(
        "Python is ready: plies runs in this browser."
    )
    # Step through the search in the stepper the server would draw.
    stepper = page.frame_locator("#stepper")
    stepper.locator("button", has_text="Next").click()
    sync_api.expect(stepper.locator("body")).to_contain_text("Step 1 of 26")
    stepper.locator("button", has_text="End").click()
    sync_api.expect(stepper.locator("#line")).to_contain_text("Done: value 3")
    sync_api.expect(page.get_by_test_id("compare")).to_contain_text("alphabeta")
    # Downloads: the drawing as SVG, the trace as CSV.
    with page.expect_download() as svg:
        page.click("#downloads button[data-format=svg]")
    assert svg.value.suggested_filename == "tree.svg"
    drawing = Path(svg.value.path()).read_text()
    assert drawing.startswith(("<svg", "<?xml")) and ">B1<" in drawing
    with page.expect_download() as csv:
        page.click("#downloads button[data-format=csv]")
    assert Path(csv.value.path()).read_text().splitlines()[0].startswith("step,")
    with page.expect_download() as png:
        page.click("#downloads button[data-format=png]")
    assert Path(png.value.path()).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # The link to this search, opened afresh, is the same search.
    href = page.locator("#share").get_attribute("href")
    assert href.startswith("./?") and "strict=1" in href
    page.goto(base + href[2:])
    sync_api.expect(page.get_by_test_id("value")).to_have_text("3", timeout=START)
    assert page.locator("#tree").input_value() == AIMA
    assert page.locator("#strict").is_checked()
    assert page.locator("#algorithm").input_value() == "alphabeta"
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "lab-1366.png"), full_page=True)
    _close(page)


def test_the_practice_room_grades_a_wrong_and_a_right_answer(
    browser: Any, site: tuple[StaticServer, str]
) -> None:
    server, base = site
    page = _page(browser, server.origin)
    page.goto(f"{base}practice.html?tree={quote(AIMA)}&strict=1")
    sync_api.expect(page.get_by_test_id("drawing").locator("svg")).to_be_visible(timeout=START)
    for node, value in (("A", "3"), ("B", "3"), ("C", "2"), ("D", "14")):  # D is wrong
        page.get_by_label(f"{node} (M", exact=False).first.fill(value)
    page.get_by_label("C2 pruned").check()
    page.get_by_label("C3 pruned").check()
    page.click("#check")
    verdict = page.get_by_test_id("verdict")
    sync_api.expect(verdict).not_to_contain_text("All right")
    sync_api.expect(page.get_by_test_id("feedback")).to_contain_text("D")
    page.get_by_label("D (MIN)", exact=False).fill("2")
    page.click("#check")
    sync_api.expect(verdict).to_contain_text("All right")
    # The teacher's link pins the tree and the tie rule, as on plies serve.
    href = page.locator("#share").get_attribute("href")
    assert href.startswith("practice.html?") and "strict=1" in href
    page.goto(base + href)
    sync_api.expect(page.get_by_test_id("drawing").locator("svg")).to_be_visible(timeout=START)
    assert page.locator("#strict").is_checked()
    names = page.locator("#drawing g.node text.t").all_text_contents()
    assert names == ["A", "B", "B1", "B2", "B3", "C", "C1", "C2", "C3", "D", "D1", "D2", "D3"]
    # A new exercise from a seed, and its link.
    page.fill("#seed", "7")
    page.click("#new")
    sync_api.expect(page.locator("#share")).to_have_attribute("href", re.compile("seed=7"))
    assert page.locator("#share").get_attribute("href").startswith("practice.html?")
    page.screenshot(path=str(SHOTS / "practice-1366.png"), full_page=True)
    _close(page)


def _requests() -> list[tuple[str, str, dict[str, Any] | None]]:
    """API requests to answer both ways: the textbook trees and random ones from seeds."""
    trees = [AIMA, "A(B(C(-6,2),D(-6,-9)),E(F(4,-7),G(1,-2)))", "[[1,2],[3,4]]"]
    rng = random.Random(27)
    trees += [
        format_tree(random_tree(branching=rng.randint(2, 3), depth=rng.randint(2, 4), seed=seed))
        for seed in range(6)
    ]
    found: list[tuple[str, str, dict[str, Any] | None]] = []
    for tree in trees:
        body = {"tree": tree, "algorithm": "alphabeta"}
        found += [
            ("POST", "search", body),
            ("POST", "search", {"tree": tree, "algorithm": "minimax", "order": "best"}),
            ("POST", "tree", {"tree": tree}),
            ("POST", "compare", body),
            ("POST", "check", {**body, "answer": {"value": 3, "evaluated": [0, 1, 2]}}),
            ("POST", "render", {**body, "format": "svg"}),
            ("POST", "render", {**body, "format": "csv"}),
            ("POST", "render", {**body, "format": "html"}),
        ]
    found += [
        ("GET", "exercise?seed=4&branching=3&depth=3&cutoffs=2", None),
        ("GET", "exercise?seed=9&ties=1&strict=1", None),
        ("GET", "game-tree?game=tictactoe%3A5%201%209&depth=2", None),
        ("POST", "search", {"tree": "[[1,"}),  # a parse error: line and column
        ("POST", "render", {"tree": AIMA, "format": "gif"}),
        ("GET", "exercise?branching=99", None),
        # Over the limits, which the worker checks as the server does.
        ("POST", "render", {"tree": format_tree(random_tree(branching=3, depth=7, seed=2))}),
    ]
    return found


_DIGESTS = """async (requests) => {
  const out = [];
  for (const [method, path, body] of requests) {
    const init = method === 'POST' ? {method: 'POST', body: JSON.stringify(body)} : undefined;
    const response = await plies.fetch('api/' + path, init);
    const bytes = new Uint8Array(await response.arrayBuffer());
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
    out.push([response.status, response.headers.get('content-type'),
              Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('')]);
  }
  return out;
}"""


def _served(url: str, body: dict[str, Any] | None) -> list[Any]:
    """What ``plies serve`` answers: status, media type and the body's SHA-256."""
    data = None if body is None else json.dumps(body).encode()
    try:
        with urlopen(Request(url, data=data), timeout=30) as reply:
            status, media, content = reply.status, reply.headers["content-type"], reply.read()
    except HTTPError as error:
        status, media, content = error.code, error.headers["content-type"], error.read()
    return [status, media, hashlib.sha256(content).hexdigest()]


def test_answers_are_byte_for_byte_the_servers(
    browser: Any, site: tuple[StaticServer, str], server: str
) -> None:
    static, base = site
    requests = _requests()
    page = _page(browser, static.origin)
    page.goto(base)
    _ready(page)
    in_browser = page.evaluate(_DIGESTS, requests)
    expected = [_served(server + "/api/" + path, body) for _, path, body in requests]
    assert [s for s, _, _ in expected].count(400) == 4
    for request, got, want in zip(requests, in_browser, expected, strict=True):
        assert got == want, request
    _close(page)


#: A request from the page: its status and the answer's error, value and nodes visited
#: (only those: Playwright takes minutes to hand back a document of 5,000-step lists).
_ASK = """async ([path, body]) => {
  const response = await plies.fetch(path, {method: 'POST', body: body});
  const doc = await response.json();
  const kept = {};
  for (const key of ['error', 'value', 'nodes_visited']) if (key in doc) kept[key] = doc[key];
  return [response.status, kept];
}"""


def test_a_request_past_the_time_limit_is_stopped_and_python_starts_afresh(
    browser: Any, site: tuple[StaticServer, str]
) -> None:
    static, _ = site
    page = _page(browser, static.origin)
    page.goto(static.origin + "/tight/")
    _ready(page)
    wide = format_tree(random_tree(branching=8, depth=6, seed=1))  # 262,144 leaves
    status, doc = page.evaluate(_ASK, ["api/search", json.dumps({"tree": wide})])
    assert status == 400
    assert doc["error"] == "the request took longer than 0.3 s, this site's limit, and was stopped"
    # Python starts afresh and answers the next request.
    _ready(page)
    status, doc = page.evaluate(_ASK, ["api/search", json.dumps({"tree": AIMA})])
    assert (status, doc["value"]) == (200, 3)
    _close(page)


def test_deep_nesting_is_read_or_refused_never_fatal(
    browser: Any, site: tuple[StaticServer, str]
) -> None:
    """JSON nested a few thousand deep overflows the browser's stack in the C reader
    (and Pyodide cannot recover): a deep body is refused as on the server, a deep tree
    read by the bracket reader, and Python answers on."""
    static, base = site
    page = _page(browser, static.origin)
    page.goto(base)
    _ready(page)
    status, doc = page.evaluate(_ASK, ["api/search", "[" * 100_000 + "]" * 100_000])
    assert (status, doc) == (400, {"error": DEEP_BODY})
    deep = "[" * 5_000 + "1" + "]" * 5_000
    status, doc = page.evaluate(_ASK, ["api/search", json.dumps({"tree": deep})])
    assert (status, doc["value"], doc["nodes_visited"]) == (200, 1, 5_001)
    status, doc = page.evaluate(_ASK, ["api/search", json.dumps({"tree": AIMA})])
    assert (status, doc["value"]) == (200, 3)
    _close(page)


def test_no_request_leaves_the_site_and_a_phone_sees_it_all(
    browser: Any, site: tuple[StaticServer, str]
) -> None:
    static, base = site
    page = _page(browser, static.origin, width=390, height=844)
    page.goto(f"{base}?tree={quote(AIMA)}")
    sync_api.expect(page.get_by_test_id("value")).to_have_text("3", timeout=START)
    page.screenshot(path=str(SHOTS / "lab-390.png"), full_page=True)
    page.goto(f"{base}practice.html?seed=3")
    sync_api.expect(page.get_by_test_id("drawing").locator("svg")).to_be_visible(timeout=START)
    page.screenshot(path=str(SHOTS / "practice-390.png"), full_page=True)
    seen = list(page.seen)
    _close(page)
    assert seen and all(url.startswith(base) for url in seen), seen
    # The server's own log too: what a browser asks for by itself (a favicon) shows
    # there, not in the page's requests.
    logged = [path for _, path, _ in static.requests()]
    assert all(path.startswith((SUB_PATH, "/tight/")) for path in logged), logged
    names = {path.split("?")[0].rsplit("/", 1)[-1] for path in logged}
    assert {"pyodide.asm.wasm", "python_stdlib.zip", "plies-0.1.0-py3-none-any.whl"} <= names


def test_the_prune_page_runs_a_selection_in_the_site(
    browser: Any, site: tuple[StaticServer, str]
) -> None:
    server, base = site
    page = _page(browser, server.origin)
    page.goto(f"{base}prune.html")
    position = page.get_by_test_id("select-position")
    sync_api.expect(position).to_have_text("Round 1 of 3", timeout=START)
    page.fill("#select-text", "9 1 8 2 7 3 6 4 5 0 11 10 15 13 12 14 19 17 16 18 23 21")
    page.fill("#select-k", "7")
    page.click("#select-run")
    sync_api.expect(page.get_by_test_id("select-summary")).to_contain_text(
        "6: the 7th smallest of 22"
    )
    sync_api.expect(page.get_by_test_id("select-drawing").locator("svg")).to_be_visible()
    page.click("#select-output [data-step=end]")
    sync_api.expect(position).to_contain_text("Answer (after")
    sync_api.expect(page.get_by_test_id("select-narration")).to_contain_text(
        "The 7th smallest is 6."
    )
    assert page.locator("nav a[aria-current]").inner_text() == "Prune-and-search"
    _close(page)
