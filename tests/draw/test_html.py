"""The stepper page's text: JSON embedded safely, the phone viewport, and the JSON the
game room carries in an attribute read back exactly."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

from hypothesis import given
from hypothesis import strategies as st

from plies import draw
from plies.draw._html import json_in_html
from plies.trees import alphabeta, parse

MARKUP = ["<!--<script>", "</script>", "]]>", "a&amp;b", "x\u2028y\u2029z", "<b>", "-->"]


def test_json_in_html_escapes_every_angle_bracket_and_ampersand() -> None:
    text = json_in_html({"labels": MARKUP})
    assert not set(text) & set("<>&\u2028\u2029")
    assert json.loads(text) == {"labels": MARKUP}
    assert "\\u003c!--\\u003cscript\\u003e" in text


@given(st.recursive(st.none() | st.text() | st.integers(), st.lists))
def test_json_in_html_reads_back_the_same_value(value: object) -> None:
    text = json_in_html(value)
    assert json.loads(text) == value
    assert "<" not in text and ">" not in text and "&" not in text


class _Scripts(HTMLParser):
    """The text of each <script> element, as an HTML parser splits the page."""

    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[str] = []
        self._open = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "script":
            self._open = True
            self.scripts.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._open = False

    def handle_data(self, data: str) -> None:
        if self._open:
            self.scripts[-1] += data


def test_the_step_data_holds_no_markup_and_parses_back() -> None:
    """Labels that look like markup stay inside the step data's element (before, '<!--'
    kept the next '</script>' from ending it) and come back as written."""
    children = ",".join(f'{{{json.dumps("label")}: {json.dumps(m)}, "value": 1}}' for m in MARKUP)
    tree = parse(f'{{"tree": {{"label": "<!--<script>", "children": [{children}]}}}}')
    page = draw.to_html(alphabeta(tree))
    data = re.search(r'<script type="application/json" id="plies-steps">(.*?)</script>', page, re.S)
    assert data is not None
    assert "<" not in data.group(1)
    parser = _Scripts()
    parser.feed(page)
    assert len(parser.scripts) == 2  # the step data and the program, nothing spilled
    steps = json.loads(parser.scripts[0])
    named = " ".join(" ".join(frame["path"]) for frame in steps["frames"])
    assert "<!--<script>" in named


def test_the_page_has_a_phone_viewport() -> None:
    page = draw.to_html(parse("A(1,2)"))
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page


def test_the_game_rooms_data_attribute_reads_back_exactly() -> None:
    """The game room's data-games attribute is JSON escaped as HTML (quotes and all):
    an HTML parser gives back the JSON the page's script reads."""
    from plies.web._pages import _game_choices, play_page

    class Room(HTMLParser):
        games: str | None = None

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            if tag == "main":
                self.games = dict(attrs).get("data-games")

    room = Room()
    room.feed(play_page())
    assert room.games is not None
    assert json.loads(room.games) == json.loads(json.dumps(_game_choices()))
