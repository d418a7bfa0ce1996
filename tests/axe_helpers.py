"""axe-core, the accessibility checker, run in the pages the browser tests open.

axe-core comes from the npm registry, pinned in ``tests/axe/package-lock.json``;
``scripts/test.sh`` installs it (``npm ci --prefix tests/axe``). The tests inject its
``axe.min.js`` into a page (or a frame), run it with the WCAG 2.1 A and AA rules and
the best practices, and fail on every violation of impact "serious" or "critical"."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

#: The axe-core script the tests inject.
AXE_JS = Path(__file__).parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"

#: The rule sets run: WCAG 2.0 and 2.1, levels A and AA, and axe's best practices.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]

#: The impacts that fail a test.
FAILING_IMPACTS = ("serious", "critical")

#: Set by scripts/test.sh: a missing axe-core fails the tests instead of skipping them.
REQUIRED = os.environ.get("PLIES_REQUIRE_AXE") == "1"

_RUN = """async (tags) => {
  const results = await axe.run(document, {
    runOnly: {type: 'tag', values: tags},
    iframes: false,
    resultTypes: ['violations'],
  });
  return results.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({impact: n.impact, target: n.target,
      summary: n.failureSummary || ''})),
  }));
}"""


def axe_script() -> Path:
    """The path of ``axe.min.js``; the test is skipped when axe-core is not installed
    (failed under scripts/test.sh, which installs it)."""
    if not AXE_JS.is_file():
        message = f"axe-core is not installed ({AXE_JS}): run npm ci --prefix tests/axe"
        if REQUIRED:
            pytest.fail(message)
        pytest.skip(message)
    return AXE_JS


def serious_violations(where: Any) -> list[dict[str, Any]]:
    """axe's violations of impact serious or critical in ``where`` (a Playwright page
    or frame, axe-core injected if it is not there yet), each with the nodes of that
    impact only: ``{"id", "impact", "help", "nodes": [{"impact", "target", "summary"}]}``."""
    if not where.evaluate("typeof window.axe !== 'undefined'"):
        where.add_script_tag(path=str(axe_script()))
    found = []
    for violation in where.evaluate(_RUN, TAGS):
        nodes = [node for node in violation["nodes"] if node["impact"] in FAILING_IMPACTS]
        if nodes:
            found.append({**violation, "nodes": nodes})
    return found


def format_violations(violations: list[dict[str, Any]]) -> str:
    """One paragraph per violation: rule id, impact, what it asks, then each failing
    element's selector and axe's failure summary."""
    lines = []
    for violation in violations:
        lines.append(f"{violation['id']} ({violation['impact']}): {violation['help']}")
        for node in violation["nodes"]:
            target = " >> ".join(str(part) for part in node["target"])
            summary = " ".join(node["summary"].split())
            lines.append(f"  {target}: {summary}")
    return "\n".join(lines)


def assert_accessible(where: Any, state: str) -> None:
    """Fail with axe's report when ``where`` (a page or frame, in the ``state`` named)
    has a serious or critical violation."""
    violations = serious_violations(where)
    assert not violations, f"axe-core, {state}:\n{format_violations(violations)}"
