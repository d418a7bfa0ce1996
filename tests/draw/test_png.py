"""PNG drawings, PNG frames and GIF animations: plies' own SVG rasterised by resvg,
with the fonts plies ships, on an install with no system program (no Graphviz)."""

from __future__ import annotations

import io
import json
import os
import struct
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from draw.cases import textbook
from plies import draw, trees
from plies.draw import _png
from plies.errors import LimitError
from plies.trees._format import narrate
from plies.trees._random import random_tree

pytest.importorskip("resvg_py", reason="resvg-py is not installed (pip install 'plies[draw]')")

LABELLED = "A(B(D(2,3),E(5,9)),C(F(0,1),G(7,5)))"


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def _svg_size(svg: str) -> tuple[int, int]:
    root = ET.fromstring(svg)
    return int(root.get("width") or 0), int(root.get("height") or 0)


def _no_graphviz(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make any use of Graphviz fail: no package, and its renderer must not run."""

    def must_not_run(*args: object, **kwargs: object) -> None:
        raise AssertionError("Graphviz ran")

    monkeypatch.setitem(sys.modules, "graphviz", None)
    monkeypatch.setattr("plies.draw._dot.render_dot", must_not_run)
    monkeypatch.setattr("plies.draw.render_dot", must_not_run)


def test_png_is_the_svg_pixel_for_pixel_at_96_dpi(monkeypatch: pytest.MonkeyPatch) -> None:
    """96 dpi draws the SVG's CSS pixels one for one, 192 at twice the size, and the
    PNG says its resolution (so documents place it at the size it was drawn for)."""
    _no_graphviz(monkeypatch)
    _tree, result = textbook("labelled")
    width, height = _svg_size(draw.to_svg(result))
    assert _png_size(draw.to_png(result)) == (width, height)
    assert _png_size(draw.to_png(result, dpi=192)) == (2 * width, 2 * height)
    assert _png_size(draw.render(result, "png", dpi=48)) == (width // 2, height // 2)
    image = pytest.importorskip("PIL.Image", reason="Pillow is not installed")
    with image.open(io.BytesIO(draw.to_png(result, dpi=300))) as png:
        assert png.info["dpi"] == pytest.approx((300, 300), abs=0.01)
        assert png.getpixel((0, 0))[:3] == (255, 255, 255)  # a white page, not transparent


def test_png_text_needs_no_system_font(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fonts plies ships have every character of its drawings (α, β, ∞, ≤, the
    boards' characters, labels in Latin, Greek and Cyrillic), so resvg is told to skip
    the system's fonts: the PNG's text is the same on a machine with none. A label in
    a script they lack (CJK) lets resvg look for it in the system's fonts."""
    chars = _png.font_chars()
    assert all(ord(ch) in chars for ch in "αβ∞≤≥=#-.0123456789AZaz öüéŷΩЖ'_xo…�")
    assert ord("中") not in chars
    seen: list[dict[str, Any]] = []
    import resvg_py

    real = resvg_py.svg_to_bytes

    def spy(**kwargs: Any) -> bytes:
        seen.append(kwargs)
        return real(**kwargs)

    monkeypatch.setattr(resvg_py, "svg_to_bytes", spy)
    draw.to_png(trees.alphabeta(trees.parse("Ω(ü(3,-5),Ж(2,∞))")))
    draw.to_png(trees.alphabeta(trees.parse("中(文:3,字:4)")))
    assert [call["skip_system_fonts"] for call in seen] == [True, False]
    for call in seen:
        assert [Path(f).name for f in call["font_files"]] == [
            "DejaVuSans.ttf",
            "DejaVuSansMono.ttf",
        ]
        assert all(Path(f).is_file() for f in call["font_files"])


def test_png_draws_its_text() -> None:
    """Glyphs are drawn: the same tree labelled α or β gives different pixels, and
    without plies' fonts (and the system's) resvg would draw no text at all."""
    import resvg_py

    alpha = draw.to_png(trees.parse("α(1,2)"))
    beta = draw.to_png(trees.parse("β(1,2)"))
    assert alpha != beta
    bare = resvg_py.svg_to_bytes(
        svg_string=draw.to_svg(trees.parse("α(1,2)")), skip_system_fonts=True, background="white"
    )
    assert draw.to_png(trees.parse("α(1,2)")) != bare


def _screenshot(browser: Any, svg: str) -> bytes:
    """Chromium's picture of ``svg`` at its own size."""
    width, height = _svg_size(svg)
    page = browser.new_page(viewport={"width": width, "height": height})
    try:
        page.set_content(f"<!DOCTYPE html><body style='margin:0'>{svg}</body>")
        shot: bytes = page.screenshot()
    finally:
        page.close()
    return shot


@pytest.mark.parametrize("name", ["labelled", "chance", "labelled-negamax"])
def test_png_looks_like_chromium_drawing_the_svg(browser: Any, name: str) -> None:
    """resvg draws plies' SVG as a browser does: stylesheet classes, dashes, the white
    halo of paint-order behind edge labels, α/β/∞ in DejaVu. Blurred by 2 px (for the
    two anti-aliasings), no pixel differs by more than 32 grey levels of 255; without
    the text, 1.3% of the pixels did."""
    image = pytest.importorskip("PIL.Image", reason="Pillow is not installed")
    from PIL import ImageChops, ImageFilter

    _tree, result = textbook(name)
    svg = draw.to_svg(result)

    def grey(data: bytes) -> Any:
        return image.open(io.BytesIO(data)).convert("L").filter(ImageFilter.GaussianBlur(2))

    ours, chromium = grey(draw.to_png(result)), grey(_screenshot(browser, svg))
    assert ours.size == chromium.size
    histogram = ImageChops.difference(ours, chromium).histogram()
    assert sum(histogram[33:]) == 0, [i for i, n in enumerate(histogram) if n][-5:]


@pytest.fixture(scope="module")
def browser() -> Any:
    """Headless Chromium through Playwright (skipped where either is missing)."""
    from browser_helpers import ARGS, CHROMIUM

    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    if CHROMIUM is None:
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield chromium
        chromium.close()


def test_png_frames_and_gif_need_no_graphviz(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PNG step frames are the SVG frames rasterised: one canvas for every frame, the
    SVG's size at 96 dpi; the GIF joins them, one frame per step."""
    _no_graphviz(monkeypatch)
    _tree, result = textbook("aima-5-2")
    svgs = draw.write_steps(result, tmp_path / "svg")
    pngs = draw.write_steps(result, tmp_path / "png", fmt="png")
    assert len(pngs) == len(svgs) == len(narrate(result)) + 2
    sizes = {_png_size(p.read_bytes()) for p in pngs}
    assert sizes == {_svg_size(svgs[0].read_text(encoding="utf-8"))}
    assert pngs[0].read_bytes() != pngs[-1].read_bytes()
    image = pytest.importorskip("PIL.Image", reason="Pillow is not installed")
    gif = draw.write_animation(tmp_path / "search.gif", result, dpi=48)
    with image.open(gif) as frames:
        assert frames.n_frames == len(pngs)
        width, height = sizes.pop()
        assert frames.size == (width // 2, height // 2)


def test_graphviz_png_stays_available_when_asked() -> None:
    pytest.importorskip("graphviz", reason="the graphviz package is not installed")
    import shutil

    if shutil.which("dot") is None:
        pytest.skip("Graphviz 'dot' is not installed")
    _tree, result = textbook("labelled")
    ours, graphviz = draw.to_png(result), draw.to_png(result, graphviz=True)
    assert ours != graphviz and _png_size(graphviz)[0] > 200


@pytest.mark.parametrize(
    ("branching", "depth", "dpi", "message"),
    [
        (10, 3, 96, "a PNG of 76,060 x 440 pixels at 96 dpi is over the limit of 32,767 pixels"),
        (2, 8, 160, "32,527 x 1,600 pixels at 160 dpi is 52 million pixels, over the limit of 25"),
        (2, 1, 0, "dpi must be at least 1, not 0"),
    ],
)
def test_png_pixels_are_capped_before_rasterising(
    branching: int, depth: int, dpi: int, message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """resvg allocates the whole picture at once, and a failed allocation ends the
    process (a zoom of 100,000 asked for 133 TB and aborted Python): every PNG, frame
    and GIF is measured first and refused in one line."""

    def must_not_run(*args: object, **kwargs: object) -> None:
        raise AssertionError("resvg ran for a PNG over the limit")

    monkeypatch.setattr("plies.draw.svg_to_png", must_not_run)
    monkeypatch.setattr("plies.draw._steps.svg_to_png", must_not_run)
    result = trees.alphabeta(random_tree(branching=branching, depth=depth, seed=1))
    with pytest.raises(LimitError) as info:
        draw.to_png(result, dpi=dpi)
    assert message in str(info.value)
    with pytest.raises(LimitError):
        draw.animated_gif(result, dpi=dpi, max_frames=10**6)


def test_png_frames_are_capped_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("plies.draw._steps.svg_to_png", lambda *a, **k: 1 / 0)
    result = trees.alphabeta(random_tree(branching=3, depth=2, seed=1))
    with pytest.raises(LimitError, match="over the limit of 32,767 pixels a side"):
        draw.write_steps(result, tmp_path / "frames", fmt="png", dpi=5000)
    assert not (tmp_path / "frames").exists()


def test_missing_resvg_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "resvg_py", None)
    with pytest.raises(draw.DrawError, match=r"needs the resvg-py package: pip install"):
        draw.to_png(trees.parse(LABELLED))


def _without_dot(tmp_path: Path) -> dict[str, str]:
    """The environment of a process that finds no program at all on its PATH (so no
    Graphviz), with this checkout's plies first on its import path."""
    env = dict(os.environ)
    env["PATH"] = str(tmp_path / "empty")
    env["PYTHONPATH"] = os.pathsep.join(
        [str(Path(draw.__file__).parents[2]), env.get("PYTHONPATH", "")]
    )
    return env


#: Run in a process of its own: Python as a fresh install has it, no graphviz package.
_BLOCK_GRAPHVIZ = "import sys; sys.modules['graphviz'] = None\n"


def test_cli_draws_png_frames_and_gif_with_no_graphviz_anywhere(tmp_path: Path) -> None:
    """``plies tree ... --draw x.png`` (and PNG frames, a GIF) in a process with no
    program on its PATH and no graphviz package: it said "needs the graphviz package"."""
    (tmp_path / "empty").mkdir()
    code = _BLOCK_GRAPHVIZ + textwrap.dedent(
        f"""
        from plies.cli import main
        raise SystemExit(main(["tree", {LABELLED!r}, "--no-narrate", "--draw", "x.png",
                               "--steps", "frames", "--steps-format", "png",
                               "--animate", "a.gif"]))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env=_without_dot(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert _png_size((tmp_path / "x.png").read_bytes())[0] > 300
    assert len(list((tmp_path / "frames").glob("step-*.png"))) == 29
    assert (tmp_path / "a.gif").read_bytes()[:6] == b"GIF89a"


def test_web_render_gives_png_with_no_graphviz_anywhere(tmp_path: Path) -> None:
    """``POST /api/render`` with ``{"format": "png"}`` on a real server in a process
    with no program on its PATH and no graphviz package (the lab's PNG download said
    "needs the graphviz package" on the install the README names)."""
    pytest.importorskip("uvicorn", reason="uvicorn is not installed")
    pytest.importorskip("starlette", reason="starlette is not installed")
    (tmp_path / "empty").mkdir()
    code = _BLOCK_GRAPHVIZ + textwrap.dedent(
        f"""
        import json, threading, time, urllib.request
        import uvicorn
        from plies.web import create_app
        config = uvicorn.Config(create_app(), host="127.0.0.1", port=0, log_level="warning")
        server = uvicorn.Server(config)
        threading.Thread(target=server.run, daemon=True).start()
        deadline = time.monotonic() + 60
        while not server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        port = server.servers[0].sockets[0].getsockname()[1]
        body = json.dumps({{"tree": {LABELLED!r}, "format": "png"}}).encode()
        request = urllib.request.Request(
            f"http://127.0.0.1:{{port}}/api/render", data=body,
            headers={{"Content-Type": "application/json"}})
        with urllib.request.urlopen(request, timeout=60) as reply:
            data = reply.read()
            print(json.dumps({{"status": reply.status, "type": reply.headers["Content-Type"],
                               "head": data[:8].hex(), "size": len(data)}}))
        server.should_exit = True
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env=_without_dot(tmp_path),
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    reply = json.loads(done.stdout.strip().splitlines()[-1])
    assert reply["status"] == 200 and reply["type"].startswith("image/png")
    assert bytes.fromhex(reply["head"]) == b"\x89PNG\r\n\x1a\n" and reply["size"] > 5000


def test_missing_pillow_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "PIL", None)
    _tree, result = textbook("labelled")
    with pytest.raises(draw.DrawError, match=r"needs Pillow: pip install 'plies\[draw\]'"):
        draw.animated_gif(result)
