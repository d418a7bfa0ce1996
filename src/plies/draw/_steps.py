"""Step frames for slides, and animations that join them.

Frame ``k`` shows the tree after step ``k`` of the narration (frame 0: before the
search; the last frame: the result with its principal variation), captioned with the
step's sentence. Frames are drawn through Graphviz on the fixed layout, so nodes keep
their place from frame to frame. An animation is an SVG (SMIL, plays in any browser,
no dependency) or a GIF (PNG frames joined with Pillow).
"""

from __future__ import annotations

import io
from pathlib import Path
from xml.sax.saxutils import escape

from plies.draw._dot import render_dot, to_dot
from plies.draw._state import Snapshot, replay
from plies.draw._svg import STYLE, size, svg_body
from plies.errors import PliesError
from plies.trees import TreeResult

__all__ = ["animated_gif", "animated_svg", "frames", "write_steps"]

#: Seconds each step stays on screen in an animation.
STEP_SECONDS = 1.2
CAPTION = 28  # pixels above the drawing for the narration line


def frames(result: TreeResult) -> list[Snapshot]:
    """The snapshots of every frame; needs the event trace."""
    if not result.events:
        raise PliesError("step frames need the event trace: search with trace=True")
    return list(replay(result))


def write_steps(result: TreeResult, directory: Path, *, fmt: str = "svg") -> list[Path]:
    """Write one ``step-NNN.{fmt}`` per frame (``svg`` or ``png``) into ``directory``
    (made if missing) and return the paths in order."""
    if fmt not in ("svg", "png"):
        raise PliesError(f"step frames are svg or png, not {fmt!r}")
    snaps = frames(result)
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PliesError(f"cannot make the directory '{directory}': {exc.strerror}") from None
    width = max(3, len(str(len(snaps) - 1)))
    paths = []
    for snap in snaps:
        source = to_dot(result.tree, snap, title=snap.line, pinned=True)
        path = directory / f"step-{snap.step:0{width}d}.{fmt}"
        data = render_dot(source, fmt, pinned=True)
        try:
            path.write_bytes(data)
        except OSError as exc:
            raise PliesError(f"cannot write '{path}': {exc.strerror}") from None
        paths.append(path)
    return paths


def animated_svg(result: TreeResult, *, seconds: float = STEP_SECONDS) -> str:
    """One SVG that plays the frames (SMIL ``<set>``), then stays on the last one."""
    snaps = frames(result)
    tree = result.tree
    width, height = size(tree)
    height += CAPTION
    # Room for the longest caption (about 8 px a character at 14 px).
    width = max(width, 20 + 8 * max(len(snap.line) for snap in snaps))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">',
        f"<style>{STYLE}\n.caption {{ font: 14px 'DejaVu Sans', Arial, sans-serif; }}</style>",
        '<rect width="100%" height="100%" fill="white"/>',
    ]
    last = len(snaps) - 1
    for k, snap in enumerate(snaps):
        timing = (
            f'begin="{k * seconds:g}s" fill="freeze"'
            if k == last
            else f'begin="{k * seconds:g}s" dur="{seconds:g}s"'
        )
        parts.append(
            f'<g class="frame" visibility="hidden">'
            f'<set attributeName="visibility" to="visible" {timing}/>'
            f'<text class="caption" x="10" y="20">{escape(snap.line)}</text>'
            f'<g transform="translate(0,{CAPTION})">{svg_body(tree, snap)}</g></g>'
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def animated_gif(result: TreeResult, *, seconds: float = STEP_SECONDS) -> bytes:
    """A looping GIF of the PNG frames (needs Pillow and Graphviz)."""
    try:
        from PIL import Image
    except ImportError:
        raise PliesError(
            "a GIF animation needs Pillow (pip install pillow); an .svg animation needs nothing"
        ) from None
    images = []
    for snap in frames(result):
        png = render_dot(
            to_dot(result.tree, snap, title=snap.line, pinned=True), "png", pinned=True
        )
        images.append(Image.open(io.BytesIO(png)).convert("RGB"))
    width = max(im.width for im in images)
    height = max(im.height for im in images)
    padded = []
    for im in images:  # captions differ in length: give every frame the same canvas
        canvas = Image.new("RGB", (width, height), "white")
        canvas.paste(im, (0, 0))
        padded.append(canvas.convert("P", palette=Image.Palette.ADAPTIVE))
    out = io.BytesIO()
    padded[0].save(
        out,
        format="GIF",
        save_all=True,
        append_images=padded[1:],
        duration=int(seconds * 1000),
        loop=0,
    )
    return out.getvalue()
