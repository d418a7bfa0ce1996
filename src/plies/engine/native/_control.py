"""The ``control`` row of the generic kernel (:mod:`plies.engine.native._kernel`):
the index of each counter and switch, without Numba (the search's Python side and
the object cache's entries read them with the kernel not loaded)."""

from __future__ import annotations

__all__ = ["CONTROL_SIZE"]

# NODES, NODE_LIMIT and STOP as in the table module, then the kernel's own.
NODES, NODE_LIMIT, STOP = 0, 1, 2
LEAVES, CUTOFFS, FIRST_CUTOFFS, PROBES, HITS, HORIZON = 3, 4, 5, 6, 7, 8
ROOT_MOVE, DEPTH_TAG, PVS, USE_TABLE, ORDERING = 9, 10, 11, 12, 13
HAS_ORDER, HAS_WIN, HAS_FORCED = 14, 15, 16
#: The game's quiescence hook is on; the deepest ply a quiescence search reached.
HAS_QUIESCENCE, SELDEPTH = 17, 18
#: The exact solver's score bounds: the game's least and greatest utility in engine
#: units, and whether only the last mover can win (``last_mover_wins``).
WORST, BEST, MOVER_WINS = 19, 20, 21
#: The game's null-move, extension and late-move-reduction hooks are on; the depth of
#: the iteration under way (extensions stop at twice it).
HAS_NULL, HAS_EXTENSION, HAS_QUIET, ROOT_DEPTH = 22, 23, 24, 25
#: The table is deep: cut on any entry searched at least as deep (``engine.solver.deep_table``).
DEEP_TABLE = 26
#: The root move that last raised alpha in the iteration under way (-1: none yet) and
#: its score times :data:`ROOT_SCORE_SCALE` (an int64 row), for a search stopped
#: before the iteration ends (``_negamax.RootBest``).
ROOT_BEST, ROOT_SCORE = 27, 28
ROOT_SCORE_SCALE = 65536
CONTROL_SIZE = 29
