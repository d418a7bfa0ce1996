"""Step frames for slides, and animations that join them.

Frame ``k`` shows the tree after step ``k`` of the narration (frame 0: before the
search; the last frame: the result with its principal variation), captioned with the
step's sentence. Every frame of a search has the same canvas (the caption is wrapped
into a box of fixed size) and nodes keep their place from frame to frame.

SVG frames and the animated SVG are drawn by plies itself (no dependency); PNG frames
and the GIF are those SVG frames rasterised by resvg (:mod:`plies.draw._png`), the GIF
joined with Pillow: about 0.1 s a frame of 27 leaves and 0.2 s of 100 (Graphviz took
0.04 s, but needed a system program; a GIF's pixel cap keeps it to seconds). Work
stays proportional to nodes + steps: one mutable snapshot is played forward and only
the nodes a step changed are drawn again; the animated SVG draws each state of a node
once, shown for the steps it lasts.
"""

from __future__ import annotations

import io
import re
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path

from plies.draw._changes import track
from plies.draw._errors import DrawError
from plies.draw._limits import DPI, MAX_FRAMES, check_frames, check_gif, check_nodes, check_png
from plies.draw._look import edge_look, node_look, visible
from plies.draw._png import svg_to_png
from plies.draw._state import Snapshot, final_snapshot, replay
from plies.draw._svg import STYLE, edge_svg, escape, layout, node_svg, size
from plies.trees import Tree, TreeResult

__all__ = [
    "STEP_SECONDS",
    "animated_gif",
    "animated_svg",
    "check_animation",
    "check_frame_png",
    "check_steps",
    "frame_svgs",
    "old_frames",
    "wrap_caption",
    "write_steps",
]

#: Seconds each step stays on screen in an animation.
STEP_SECONDS = 1.2
CAPTION_LINES = 3
LINE_PX = 18  # caption line height (14 px type)
CAPTION = CAPTION_LINES * LINE_PX + 10  # pixels above the drawing for the narration
MIN_WIDTH = 480  # the narrowest canvas, so a small tree still has room for captions
#: The frame files this module writes, and the only files ``write_steps`` replaces.
FRAME_NAME = re.compile(r"step-\d+\.(svg|png)")


def _canvas(result: TreeResult) -> tuple[int, int, int]:
    """Width and height of every frame of the search, and the drawing's left offset
    (a narrow tree is centred on the minimum width). The end of the search has every
    edge label, so its size fits them all."""
    width, height = size(result.tree, final_snapshot(result))
    canvas = max(width, MIN_WIDTH)
    return canvas, height + CAPTION, (canvas - width) // 2


def wrap_caption(text: str, width: int, lines: int) -> list[str]:
    """``text`` in at most ``lines`` lines of ``width`` characters (the last one cut
    with an ellipsis when it does not fit), padded with empty lines to ``lines``."""
    wrapped = textwrap.wrap(visible(text), width) or [""]
    if len(wrapped) > lines:
        wrapped = wrapped[:lines]
        wrapped[-1] = wrapped[-1][: width - 1].rstrip() + "…"
    return wrapped + [""] * (lines - len(wrapped))


def _caption(text: str, width: int) -> str:
    """The caption lines of one frame as SVG text elements."""
    lines = wrap_caption(text, max(20, (width - 20) // 8), CAPTION_LINES)
    return "".join(
        f'<text class="caption" x="10" y="{20 + k * LINE_PX}">{escape(line)}</text>'
        for k, line in enumerate(lines)
        if line
    )


def _svg_open(width: int, height: int) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">\n'
        f"<style>{STYLE}\n.caption {{ font: 14px 'DejaVu Sans', Arial, sans-serif; }}</style>\n"
        '<rect width="100%" height="100%" fill="white"/>\n'
    )


StateFn = Callable[[Tree, int, Snapshot], str]


def _markup(tree: Tree, *, ids: bool) -> tuple[StateFn, StateFn]:
    """The two state functions of :func:`track` that draw a node or an edge as SVG."""
    where = layout(tree)

    def node(tree: Tree, i: int, snap: Snapshot) -> str:
        return node_svg(tree, i, node_look(tree, i, snap), where, ids=ids)

    def edge(tree: Tree, i: int, snap: Snapshot) -> str:
        return edge_svg(tree, i, edge_look(tree, i, snap), where, ids=ids)

    return node, edge


def frame_svgs(result: TreeResult) -> Iterator[str]:
    """Every frame of the search as a standalone SVG, one at a time: the drawing is
    updated in place, only where a step changed it."""
    tree = result.tree
    width, height, left = _canvas(result)
    node_fn, edge_fn = _markup(tree, ids=True)
    nodes = [""] * len(tree)
    edges = [""] * len(tree)
    for snap, changed_nodes, changed_edges in track(tree, replay(result), node_fn, edge_fn):
        for i, markup in changed_nodes.items():
            nodes[i] = markup
        for i, markup in changed_edges.items():
            edges[i] = markup
        yield (
            _svg_open(width, height)
            + _caption(snap.line, width)
            + f'\n<g transform="translate({left},{CAPTION})">\n'
            + "\n".join(edges[1:] + nodes)
            + "\n</g>\n</svg>\n"
        )


def _frame_pngs(result: TreeResult, dpi: int) -> Iterator[bytes]:
    """Every frame as a PNG: the SVG frames at ``dpi`` (sizes checked by the caller)."""
    for svg in frame_svgs(result):
        yield svg_to_png(svg, dpi=dpi)


def check_frame_png(result: TreeResult, dpi: int, what: str = "a PNG frame") -> tuple[int, int]:
    """Refuse PNG (or GIF) frames too large to draw; returns a frame's size in pixels."""
    width, height, _left = _canvas(result)
    return check_png(width, height, dpi, what)


def check_steps(
    result: TreeResult,
    directory: Path,
    *,
    fmt: str = "svg",
    max_frames: int = MAX_FRAMES,
    max_nodes: int | None = None,
    dpi: int = DPI,
) -> int:
    """Every check of :func:`write_steps`, before any work: the format, the tree's
    size, the number of frames (returned) and the directory."""
    if fmt not in ("svg", "png"):
        raise DrawError(f"step frames are svg or png, not {fmt!r}")
    check_nodes(result.tree, "svg", max_nodes)
    count = check_frames(result, max_frames, "--steps")
    if fmt == "png":
        check_frame_png(result, dpi)
    old_frames(directory)
    return count


def write_steps(
    result: TreeResult,
    directory: Path,
    *,
    fmt: str = "svg",
    max_frames: int = MAX_FRAMES,
    max_nodes: int | None = None,
    dpi: int = DPI,
) -> list[Path]:
    """Write one ``step-NNN.{fmt}`` per frame (``svg`` or ``png``) into ``directory``
    (made if missing) and return the paths in order.

    The directory must be new, empty or hold only frames of an earlier run
    (``step-*.svg``/``step-*.png``): those are removed first, so no stale frame is
    left behind; any other file makes it refuse, before anything is written."""
    count = check_steps(
        result, directory, fmt=fmt, max_frames=max_frames, max_nodes=max_nodes, dpi=dpi
    )
    _clear_frames(directory)
    digits = max(3, len(str(count - 1)))
    frames: Iterator[str | bytes] = frame_svgs(result) if fmt == "svg" else _frame_pngs(result, dpi)
    paths = []
    for k, frame in enumerate(frames):
        path = directory / f"step-{k:0{digits}d}.{fmt}"
        data = frame.encode("utf-8") if isinstance(frame, str) else frame
        try:
            path.write_bytes(data)
        except OSError as exc:
            raise DrawError(f"cannot write '{path}': {exc.strerror}") from None
        paths.append(path)
    return paths


def old_frames(directory: Path) -> list[Path]:
    """The frames of an earlier run in ``directory`` (none when it does not exist);
    refuses a file, or a directory holding anything but ``step-*.svg/png`` frames."""
    if not directory.exists():
        return []
    if not directory.is_dir():
        raise DrawError(f"--steps needs a directory, and '{directory}' is a file")
    try:
        entries = sorted(directory.iterdir())
    except OSError as exc:
        raise DrawError(f"cannot read the directory '{directory}': {exc.strerror}") from None
    strangers = [p.name for p in entries if not (FRAME_NAME.fullmatch(p.name) and p.is_file())]
    if strangers:
        more = f" and {len(strangers) - 1} more" if len(strangers) > 1 else ""
        raise DrawError(
            f"--steps writes only into a new or empty directory (or one holding its own "
            f"step-*.svg/png frames), and '{directory}' holds '{strangers[0]}'{more}"
        )
    return entries


def _clear_frames(directory: Path) -> None:
    """Make ``directory`` ready for new frames: create it, or remove the frames of an
    earlier run (see :func:`old_frames`)."""
    stale = old_frames(directory)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        for path in stale:
            path.unlink()
    except OSError as exc:
        raise DrawError(f"cannot prepare '{directory}' for frames: {exc.strerror}") from None


class _Timeline:
    """The states of the parts of an animation (nodes, edges): each state is drawn
    once and shown from the step it began to the step it ended."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.now: dict[int, tuple[str, int]] = {}
        self.out: list[str] = []

    def change(self, part: int, markup: str, step: int) -> None:
        """``part`` looks like ``markup`` from ``step`` on."""
        if part in self.now:
            old, start = self.now[part]
            self.out.append(self.span(old, start, step))
        self.now[part] = (markup, step)

    def close(self) -> list[str]:
        """Every state, the last ones shown to the end."""
        for markup, start in self.now.values():
            self.out.append(self.span(markup, start, None))
        self.now = {}
        return self.out

    def span(self, markup: str, start: int, end: int | None) -> str:
        """``markup`` shown from step ``start`` to step ``end`` (None: to the end)."""
        if start == 0 and end is None:
            return markup
        begin = f'begin="{start * self.seconds:g}s"'
        until = 'fill="freeze"' if end is None else f'dur="{(end - start) * self.seconds:g}s"'
        return (
            f'<g visibility="hidden"><set attributeName="visibility" to="visible" '
            f"{begin} {until}/>{markup}</g>"
        )


def check_animation(
    result: TreeResult,
    *,
    gif: bool,
    max_frames: int = MAX_FRAMES,
    max_nodes: int | None = None,
    dpi: int = DPI,
) -> int:
    """Every check of :func:`animated_svg` (or with ``gif`` :func:`animated_gif`),
    before any work: the tree's size, the number of frames (returned) and, for a GIF,
    each frame's pixels and all of them together."""
    check_nodes(result.tree, "svg", max_nodes)
    count = check_frames(result, max_frames, "an animation")
    if gif:
        check_gif(count, *check_frame_png(result, dpi, "a GIF frame"))
    return count


def animated_svg(
    result: TreeResult,
    *,
    seconds: float = STEP_SECONDS,
    max_frames: int = MAX_FRAMES,
    max_nodes: int | None = None,
) -> str:
    """One SVG that plays the frames (SMIL ``<set>``), then stays on the last one.

    Each state of each node, edge and caption is drawn once and shown while it lasts,
    so the file grows with nodes + steps (one full drawing per step made a 1,000-leaf
    search 381 MB)."""
    tree = result.tree
    check_animation(result, gif=False, max_frames=max_frames, max_nodes=max_nodes)
    width, height, left = _canvas(result)
    node_fn, edge_fn = _markup(tree, ids=False)
    nodes, edges, captions = _Timeline(seconds), _Timeline(seconds), _Timeline(seconds)
    steps = track(tree, replay(result), node_fn, edge_fn)
    for k, (snap, changed_nodes, changed_edges) in enumerate(steps):
        captions.change(0, _caption(snap.line, width), k)
        for i, markup in changed_nodes.items():
            nodes.change(i, markup, k)
        for i, markup in changed_edges.items():
            edges.change(i, markup, k)
    return (
        _svg_open(width, height)
        + "\n".join(captions.close())
        + f'\n<g transform="translate({left},{CAPTION})">\n'
        + "\n".join(edges.close() + nodes.close())
        + "\n</g>\n</svg>\n"
    )


def animated_gif(
    result: TreeResult,
    *,
    seconds: float = STEP_SECONDS,
    max_frames: int = MAX_FRAMES,
    max_nodes: int | None = None,
    dpi: int = DPI,
) -> bytes:
    """A looping GIF of the PNG frames (needs Pillow and resvg-py)."""
    check_animation(result, gif=True, max_frames=max_frames, max_nodes=max_nodes, dpi=dpi)
    try:
        from PIL import Image
    except ImportError:
        raise DrawError(
            "a GIF animation needs Pillow: pip install 'plies[draw]' (an .svg animation needs "
            "nothing)"
        ) from None
    # Palette images, one byte a pixel: every frame has the same canvas already.
    images = [
        Image.open(io.BytesIO(png)).convert("RGB").convert("P", palette=Image.Palette.ADAPTIVE)
        for png in _frame_pngs(result, dpi)
    ]
    out = io.BytesIO()
    images[0].save(
        out,
        format="GIF",
        save_all=True,
        append_images=images[1:],
        duration=int(seconds * 1000),
        loop=0,
    )
    return out.getvalue()
