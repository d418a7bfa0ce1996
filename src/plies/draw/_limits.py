"""Size limits of drawings, checked before any drawing work starts.

A picture nobody can read is not worth minutes of Graphviz or gigabytes of memory, so
every drawing checks the size of its job first and refuses with a :class:`LimitError`
that names the limit and the option that raises it:

- ``max_nodes`` (``--max-nodes``): the largest tree a picture draws. The default
  depends on the format: 20,000 nodes (a 10,000-leaf tree) for plies' own SVG and
  PNG, the HTML stepper and DOT text, 500 for Mermaid (GitHub renders at most 500 edges).
- TikZ: pdflatex makes no page wider than 575 cm, which is 350 leaves at 1.6 cm each.
- PNG (and PNG frames): at most 32,767 pixels a side and 25 million pixels (100 MB
  while resvg draws it; a failed allocation there ends the process, so this is checked
  first); ``dpi`` (``--dpi``) sets the pixels per inch.
- Graphviz's SVG and PNG (when asked for): at most 32,767 pixels wide, beyond which
  Graphviz shrinks the whole picture to fit and it becomes unreadable.
- ``max_frames`` (``--max-frames``): step frames and animations, 500 frames by
  default (ten minutes of animation; every search of 100 leaves fits).
- A GIF holds every frame in memory while Pillow writes it: at most 100 million
  pixels (frames x width x height, about 200 MB).
"""

from __future__ import annotations

import math

from plies.draw._errors import DrawError
from plies.errors import LimitError
from plies.trees import Tree, TreeResult

__all__ = [
    "DPI",
    "GIF_PIXELS",
    "MAX_FRAMES",
    "MAX_NODES",
    "PNG_PIXELS",
    "PNG_SIDE",
    "check_frames",
    "check_gif",
    "check_graphviz",
    "check_nodes",
    "check_png",
    "frame_count",
    "png_size",
]

#: Default node limit of the drawings plies lays out itself, per format.
MAX_NODES: dict[str, int] = {
    "svg": 20_000,
    "png": 20_000,
    "html": 20_000,
    "dot": 20_000,
    "mmd": 500,
}
TEX_LEAVES = 350
MAX_FRAMES = 500
DPI = 96
PNG_SIDE = 32_767
PNG_PIXELS = 25_000_000
GIF_PIXELS = 100_000_000
#: Width of a leaf in Graphviz's layout (measured: 100 leaves, 8,248 px at 96 dpi).
LEAF_INCHES = 0.9

_NAMES = {
    "svg": "drawing",
    "png": "PNG drawing",
    "html": "stepper page",
    "dot": "DOT file",
    "mmd": "Mermaid chart",
}


def check_nodes(tree: Tree, fmt: str, max_nodes: int | None) -> None:
    """Refuse a tree too large for a picture in ``fmt`` (svg, html, dot, mmd, tex,
    png); ``max_nodes`` None keeps the format's default."""
    n = len(tree)
    if fmt == "tex" and tree.leaf_count > TEX_LEAVES:
        raise LimitError(
            f"a TikZ picture of {tree.leaf_count:,} leaves is over the limit of "
            f"{TEX_LEAVES} leaves (pdflatex makes no page wider than 575 cm)",
            advice="draw .svg or .html instead",
        )
    limit = max_nodes if max_nodes is not None else MAX_NODES.get(fmt)
    if limit is not None and n > limit:
        name = _NAMES.get(fmt, f"{fmt.upper()} drawing")
        raise LimitError(
            f"a {name} of {n:,} nodes is over the limit of {limit:,} nodes",
            advice="raise it with --max-nodes (max_nodes= in Python)",
        )


def png_size(width: int, height: int, dpi: int) -> tuple[int, int]:
    """The pixels of a PNG at ``dpi`` of an SVG ``width`` x ``height`` CSS pixels
    (96 to the inch), as resvg draws it (rounded, halves up)."""
    return math.floor(width * dpi / 96 + 0.5), math.floor(height * dpi / 96 + 0.5)


def check_png(width: int, height: int, dpi: int, what: str = "a PNG") -> tuple[int, int]:
    """Refuse ``what`` (a PNG, a PNG frame, a GIF frame) of an SVG ``width`` x
    ``height`` CSS pixels at ``dpi`` too large to draw; returns its size in pixels."""
    if dpi < 1:
        raise LimitError(f"dpi must be at least 1, not {dpi}")
    pixels_wide, pixels_high = png_size(width, height, dpi)
    shown = f"{what} of {pixels_wide:,} x {pixels_high:,} pixels at {dpi} dpi"
    advice = "lower --dpi (dpi= in Python), or draw .svg or .html instead"
    if max(pixels_wide, pixels_high) > PNG_SIDE:
        raise LimitError(f"{shown} is over the limit of {PNG_SIDE:,} pixels a side", advice=advice)
    if pixels_wide * pixels_high > PNG_PIXELS:
        raise LimitError(
            f"{shown} is {pixels_wide * pixels_high / 1e6:,.0f} million pixels, over the "
            f"limit of {PNG_PIXELS // 10**6} million",
            advice=advice,
        )
    return pixels_wide, pixels_high


def graphviz_width(tree: Tree, dpi: int) -> int:
    """About how many pixels wide Graphviz draws ``tree`` at ``dpi``."""
    return round((tree.leaf_count * LEAF_INCHES + 0.5) * dpi)


def check_graphviz(tree: Tree, dpi: int) -> None:
    """Refuse a Graphviz picture wider than Graphviz draws without shrinking it."""
    if dpi < 1:
        raise LimitError(f"dpi must be at least 1, not {dpi}")
    width = graphviz_width(tree, dpi)
    if width > PNG_SIDE:
        raise LimitError(
            f"a Graphviz drawing of {tree.leaf_count:,} leaves would be about {width:,} "
            f"pixels wide at {dpi} dpi, over the limit of {PNG_SIDE:,} (Graphviz would "
            "shrink it to fit, unreadably)",
            advice="lower --dpi, or draw .svg or .html instead",
        )


def frame_count(result: TreeResult) -> int:
    """How many frames the search has: before, one per narrated step, the end."""
    from plies.draw._state import narrated_step_count

    return narrated_step_count(result) + 2


def check_frames(result: TreeResult, max_frames: int, what: str) -> int:
    """Refuse more than ``max_frames`` frames for ``what`` (``--steps``, an
    animation), or a result without its event trace; returns the number of frames."""
    if not result.events:
        raise DrawError(f"{what} needs the event trace: search with trace=True")
    count = frame_count(result)
    if count > max_frames:
        raise LimitError(
            f"{what} would have {count:,} frames, over the limit of {max_frames:,}",
            advice="raise it with --max-frames (max_frames= in Python)",
        )
    return count


def check_gif(frames: int, width: int, height: int) -> None:
    """Refuse a GIF whose frames would not fit in memory together."""
    pixels = frames * width * height
    if pixels > GIF_PIXELS:
        raise LimitError(
            f"a GIF of {frames:,} frames of {width:,} x {height:,} pixels is "
            f"{pixels / 1e6:,.0f} million pixels, over the limit of {GIF_PIXELS // 10**6} "
            "million",
            advice="lower --dpi, or write --animate FILE.svg instead",
        )
