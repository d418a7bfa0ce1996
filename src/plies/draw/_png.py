"""PNG made from plies' own SVG by resvg, with no system program or library.

resvg (the ``resvg-py`` wheel, Rust compiled for every platform) rasterises the same
SVG as :func:`plies.draw.to_svg` draws, stylesheet, dashes, ``paint-order`` and all, so a
PNG looks like the SVG, the stepper and the web lab. resvg draws text only with the
fonts it is given: plies ships subsets of DejaVu Sans and DejaVu Sans Mono (the faces
its SVG asks for first; ``plies/draw/fonts``, 336 KB, licence beside them), so text
comes out the same on every machine, fonts installed or not. Only a drawing with a
character those faces lack (CJK, Arabic, ...) also loads the system's fonts, which
then draw it where they can.

Size: ``dpi`` pixels per inch, the SVG's pixels being CSS pixels (96 to the inch), so
96 dpi draws the SVG pixel for pixel and 192 at twice the size; the PNG says its dpi
(a ``pHYs`` chunk), so documents place it at the size it was drawn for. The caller
checks the pixels first (:func:`plies.draw._limits.check_png`): resvg allocates the
whole picture at once, and a failed allocation ends the process.
"""

from __future__ import annotations

import struct
import zlib
from functools import cache
from pathlib import Path

from plies.draw._errors import DrawError

__all__ = ["FONT_FILES", "font_chars", "svg_to_png", "zoom_for"]

#: The faces plies draws text with, whatever the system has.
FONT_FILES: tuple[Path, ...] = (
    Path(__file__).with_name("fonts") / "DejaVuSans.ttf",
    Path(__file__).with_name("fonts") / "DejaVuSansMono.ttf",
)
#: CSS pixels per inch: the unit of plies' SVG.
CSS_DPI = 96


def zoom_for(dpi: int) -> float:
    """How much larger than the SVG a PNG at ``dpi`` pixels per inch is drawn."""
    return dpi / CSS_DPI


def svg_to_png(svg: str, *, dpi: int) -> bytes:
    """The PNG of ``svg`` (plies' own, sizes already checked) at ``dpi``.

    Needs the ``resvg-py`` package (``pip install 'plies[draw]'``, also in ``web``)."""
    try:
        import resvg_py
    except ImportError:
        raise DrawError(
            "drawing PNG needs the resvg-py package: pip install 'plies[draw]' "
            "(no system program needed)"
        ) from None
    try:
        png = resvg_py.svg_to_bytes(
            svg_string=svg,
            zoom=zoom_for(dpi),
            font_files=[str(path) for path in FONT_FILES],
            skip_system_fonts=_covered(svg),
            background="white",
        )
    except ValueError as exc:  # resvg refused the SVG: plies' own, so a bug
        raise DrawError(f"resvg could not draw the SVG: {exc}") from None
    return with_dpi(bytes(png), dpi)


def _covered(svg: str) -> bool:
    """Whether plies' fonts have every character of ``svg`` (its markup is ASCII)."""
    chars = font_chars()
    return all(ord(ch) in chars for ch in set(svg) if not ch.isspace())


def with_dpi(png: bytes, dpi: int) -> bytes:
    """``png`` with a ``pHYs`` chunk saying ``dpi`` (right after its header chunk)."""
    per_metre = round(dpi / 0.0254)
    body = b"pHYs" + struct.pack(">IIB", per_metre, per_metre, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body))
    header_end = 8 + 8 + 13 + 4  # signature, then IHDR's length, type, data and CRC
    return png[:header_end] + chunk + png[header_end:]


@cache
def font_chars() -> frozenset[int]:
    """The code points plies' fonts draw (their ``cmap`` tables, format 4)."""
    chars: set[int] = set()
    for path in FONT_FILES:
        chars |= _cmap_chars(path.read_bytes())
    return frozenset(chars)


def _table(font: bytes, tag: bytes) -> int:
    """The offset of the table ``tag`` in a TrueType ``font``."""
    (count,) = struct.unpack_from(">H", font, 4)
    for i in range(count):
        name, _checksum, offset, _length = struct.unpack_from(">4sIII", font, 12 + 16 * i)
        if name == tag:
            return int(offset)
    raise DrawError(f"the font has no {tag.decode()} table")


def _cmap_chars(font: bytes) -> set[int]:
    """The code points the Unicode BMP subtable (format 4) of ``font`` maps to a glyph."""
    cmap = _table(font, b"cmap")
    (count,) = struct.unpack_from(">H", font, cmap + 2)
    for i in range(count):
        platform, encoding, offset = struct.unpack_from(">HHI", font, cmap + 4 + 8 * i)
        start = cmap + offset
        if (platform, encoding) in ((3, 1), (0, 3)) and font[start : start + 2] == b"\0\4":
            return _format4_chars(font, start)
    raise DrawError("the font has no Unicode cmap of format 4")


def _format4_chars(font: bytes, sub: int) -> set[int]:
    """The mapped code points of the format-4 ``cmap`` subtable at ``sub``: segments
    of codes, each mapped by a delta or through the glyph index array (0: no glyph)."""
    (segments,) = struct.unpack_from(">H", font, sub + 6)
    segments //= 2
    ends = sub + 14
    starts = ends + 2 * segments + 2
    deltas = starts + 2 * segments
    range_offsets = deltas + 2 * segments
    chars: set[int] = set()
    for seg in range(segments):
        (end,) = struct.unpack_from(">H", font, ends + 2 * seg)
        (first,) = struct.unpack_from(">H", font, starts + 2 * seg)
        (delta,) = struct.unpack_from(">H", font, deltas + 2 * seg)
        where = range_offsets + 2 * seg
        (range_offset,) = struct.unpack_from(">H", font, where)
        for code in range(first, min(end, 0xFFFE) + 1):
            if range_offset == 0:
                glyph = (code + delta) & 0xFFFF
            else:
                (glyph,) = struct.unpack_from(">H", font, where + range_offset + 2 * (code - first))
                glyph = (glyph + delta) & 0xFFFF if glyph else 0
            if glyph:
                chars.add(code)
    return chars
