"""The star board of Chinese Checkers: its holes, their neighbours, its six corners.

A star of corner side ``n`` is the union of two big triangles of side ``3n + 1``; in
cube coordinates ``(q, r, s)`` with ``q + r + s = 0`` its holes are those with every
coordinate at least ``-n`` or every coordinate at most ``n``. The inner hexagon (all
three within ``n``) has ``3n² + 3n + 1`` holes and each of the six corners (one
coordinate beyond ``n``) ``n(n + 1)/2``: 121 holes and corners of 10 for ``n = 4``
(the common board), 73 and 6 for ``n = 3``, 37 and 3 for ``n = 2``.

Holes are numbered from 0 row by row from the top (``r = -2n`` first), left to right
(``q`` rising) within a row; the text of a game counts them from 1. A hole is drawn at
row ``r + 2n`` and column ``2q + r + 3n`` of a grid ``6n + 1`` columns wide, so
neighbours in a row are two columns apart and the rows interlock.

The corners are numbered clockwise from the bottom: 0 bottom (``r > n``), 1 lower
left (``q < -n``), 2 upper left (``s > n``), 3 top (``r < -n``), 4 upper right
(``q > n``), 5 lower right (``s < -n``); corner ``c`` faces corner ``(c + 3) % 6``.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DIRECTIONS", "Star", "make_star"]

#: The six directions of a step, as ``(dq, dr)``.
DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))

#: For each corner, the coordinate that grows towards its tip: ``(weight of q, of r)``
#: (``s = -q - r``): bottom r, lower left -q, upper left s, top -r, upper right q,
#: lower right -s.
_TOWARDS = ((0, 1), (-1, 0), (-1, -1), (0, -1), (1, 0), (1, 1))


@dataclass(frozen=True)
class Star:
    """The board of corner side ``size``: its holes and the tables the rules read."""

    size: int
    #: ``(q, r)`` of each hole, in hole order.
    coordinates: tuple[tuple[int, int], ...]
    #: ``(row, column)`` of each hole on the drawing grid.
    cells: tuple[tuple[int, int], ...]
    #: Per hole, ``(neighbour, hole beyond it)`` for each direction that has a
    #: neighbour (beyond: -1 when off the board), in :data:`DIRECTIONS` order.
    links: tuple[tuple[tuple[int, int], ...], ...]
    #: Per hole and direction, the neighbour and the hole beyond (-1: none): the flat
    #: tables of the native port, ``12`` ints a hole.
    flat_links: tuple[int, ...]
    #: The holes of each corner, ascending, corners in the clockwise order above.
    corners: tuple[tuple[int, ...], ...]
    #: Per corner, each hole's distance in steps from that corner's tip (0 at the
    #: tip; the rows to go for a hole in the cone in front of the corner, more for
    #: one off to the side).
    distances: tuple[tuple[int, ...], ...]

    @property
    def holes(self) -> int:
        """How many holes the board has."""
        return len(self.coordinates)

    @property
    def rows(self) -> int:
        """Rows of the drawing grid."""
        return 4 * self.size + 1

    @property
    def columns(self) -> int:
        """Columns of the drawing grid."""
        return 6 * self.size + 1


def _is_hole(q: int, r: int, n: int) -> bool:
    s = -q - r
    return min(q, r, s) >= -n or max(q, r, s) <= n


def _corner_of(q: int, r: int, n: int) -> int:
    """The corner of hole ``(q, r)`` (see the module docstring), -1 in the hexagon."""
    s = -q - r
    for corner, beyond in enumerate((r > n, q < -n, s > n, r < -n, q > n, s < -n)):
        if beyond:
            return corner
    return -1


def _steps(a: tuple[int, int], b: tuple[int, int]) -> int:
    """The steps between two holes on an open hexagonal grid."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def make_star(size: int) -> Star:
    """The star of corner side ``size`` (at least 1) and its tables."""
    n = size
    coordinates = tuple(
        (q, r)
        for r in range(-2 * n, 2 * n + 1)
        for q in range(-2 * n, 2 * n + 1)
        if _is_hole(q, r, n)
    )
    index = {cell: hole for hole, cell in enumerate(coordinates)}
    links = []
    flat: list[int] = []
    for q, r in coordinates:
        here = []
        for dq, dr in DIRECTIONS:
            neighbour = index.get((q + dq, r + dr), -1)
            beyond = index.get((q + 2 * dq, r + 2 * dr), -1)
            flat += (neighbour, beyond if neighbour >= 0 else -1)
            if neighbour >= 0:
                here.append((neighbour, beyond))
        links.append(tuple(here))
    corners = tuple(
        tuple(hole for hole, (q, r) in enumerate(coordinates) if _corner_of(q, r, n) == corner)
        for corner in range(6)
    )
    tips = [max(coordinates, key=lambda cell: wq * cell[0] + wr * cell[1]) for wq, wr in _TOWARDS]
    distances = tuple(tuple(_steps(cell, tip) for cell in coordinates) for tip in tips)
    cells = tuple((r + 2 * n, 2 * q + r + 3 * n) for q, r in coordinates)
    return Star(n, coordinates, cells, tuple(links), tuple(flat), corners, distances)
