"""The lab's Monte-Carlo tree search in the static site: ``plies site`` served by
``python -m http.server``, plies run by Pyodide in the page's worker. The stepper shows
the numbers of the document the server's operation makes, and no request leaves the
site."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from browser_helpers import CHROMIUM, guarded_page
from plies.web import build_site
from plies.web._api import Limits, answer_request
from pyodide_helpers import StaticServer, runtime

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="Chromium is not installed (apt-get install chromium)"
)

#: How long Python may take to start in a test (about 3 s here, cold).
START = 60_000


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    www = tmp_path_factory.mktemp("www")
    build_site(www / "lab", pyodide=str(runtime()))
    server = StaticServer(www, www.parent / "server.log")
    yield server.origin
    server.stop()


def test_the_site_steps_through_the_server_s_document(browser: Any, site: str) -> None:
    page = guarded_page(browser, origin=site, width=1366, height=768)
    page.goto(f"{site}/lab/?algorithm=mcts&iterations=30&seed=2&exploration=1")
    position = page.get_by_test_id("mcts-position")
    sync_api.expect(position).to_have_text("Iteration 30 of 30", timeout=START)
    body = {"tree": "[[3,12,8],[2,4,6],[14,5,2]]", "iterations": 30, "seed": 2, "exploration": 1}
    doc = json.loads(answer_request("mcts-tree", json.dumps(body).encode(), "", Limits()).body)
    page.click("#mcts [data-step=start]")
    for k in range(1, 4):
        page.click("#mcts [data-step=next]")
        sync_api.expect(position).to_have_text(f"Iteration {k} of 30")
        step = doc["steps"][k - 1]
        for node, entry in zip(step["ids"]["path"], step["backup"], strict=True):
            under = page.locator(f"#mcts-drawing #n{node} text.ab")
            sync_api.expect(under).to_have_text(f"n {entry['visits']}")
    rows = page.locator("#mcts-moves tbody tr")
    visits = [row.locator("td").nth(1).inner_text() for row in rows.all()]
    assert visits == [str(child["visits"]) for child in doc["children"]]
    assert page.errors == [] and page.outside == []
    page.context.close()
