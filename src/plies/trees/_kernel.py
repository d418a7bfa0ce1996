"""The compiled loops of the native tree backend (Numba, nopython mode).

Only :mod:`plies.trees._native` calls these; it documents what they compute and
builds their arrays. Numba types every value when it compiles (int32 ids, int64
frame fields, float64 values), so mypy does not check this module.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["FRAME_INTS", "FRAME_REALS", "TRACE_COLUMNS", "search", "search_traced", "shape"]

# Columns of a finished frame, as the fields of plies.trees._log.Frame name them:
# FRAME_INTS node, next (children taken), asrc, bsrc, bestc, colour, cut, and the
# frame row of the best child (-1 for a leaf); FRAME_REALS alpha, beta, best, alpha
# on entry, beta on entry, value.
FRAME_INTS, FRAME_REALS = 8, 6
_BESTF = 7

# Columns of an open frame on the stack: the ints of a frame (node .. cut, best
# child's row) and the id of the next child to take; the reals but the value.
_NODE, _TAKEN, _ASRC, _BSRC, _BESTC, _COLOUR, _CUT, _BESTF_S, _NEXT_ID = range(9)
_ALPHA, _BETA, _BEST, _AIN, _BIN = range(5)

# The trace: one row per record the Python loop's trace keeps, in the same order, in
# two tables of TRACE_COLUMNS columns. Ints: the kind (ENTER, EXIT, BACKUP), the node,
# then for an entry or exit the node's colour, for a back-up the child and its flags
# (IMPROVED, MOVED, CUT: the best improved, alpha moved, a cut-off; LEAF: the child
# is a leaf). Reals: an entry's alpha and beta, an exit's value, a back-up's value,
# best, alpha and (for a leaf) the alpha the leaf was entered with.
TRACE_COLUMNS = 4
ENTER, EXIT, BACKUP = 0, 1, 2
IMPROVED, MOVED, CUT, LEAF = 1, 2, 4, 8


@njit(cache=True, nogil=True)
def shape(parent, colour, leaf_values, size, nkids, value):
    """Subtree sizes and child counts from the preorder parent list; ``value`` gets
    the leaf values (given left to right) at the leaves and the colour at inner nodes.

    So the search reads two arrays per child, not three: a node is a leaf exactly
    when its subtree size is 1, and ``value`` says what else it needs (on the
    million-leaf tree, cold caches: 0.77 -> 0.72 ms)."""
    n = parent.shape[0]
    for i in range(n):
        size[i] = 1
        nkids[i] = 0
    for i in range(n - 1, 0, -1):
        p = parent[i]
        size[p] += size[i]
        nkids[p] += 1
    k = 0
    for i in range(n):
        if colour[i] == 0:
            value[i] = leaf_values[k]
            k += 1
        else:
            value[i] = colour[i]


def _searcher(trace):
    """The compiled search, keeping its trace or not (``trace`` is a constant of the
    compiled code: the loop given it as an argument took twice the time without a
    trace, 0.64 -> 1.36 ms on the 10^6-leaf tree)."""

    @njit(cache=True, nogil=True)
    def search(size, nkids, value, alpha0, beta0, prune, strict, soft, height, capacity):
        return _search(size, nkids, value, alpha0, beta0, prune, strict, soft, height, capacity,
                       trace)  # fmt: skip

    return search


@njit(cache=True, nogil=True, inline="always")
def _search(size, nkids, value, alpha0, beta0, prune, strict, soft, height, capacity, trace):
    """The loop of plies.trees._loop.run in the given order; with ``trace``, its
    records too (see TRACE_COLUMNS).

    A node is searched in its own player's view, its colour +1 (MAX) or -1 (MIN): a
    child of the other colour gets the window negated and swapped and hands its value
    back negated. ``value`` holds the colour of inner nodes and the value of leaves,
    the nodes of ``size`` 1. Returns the root's value in MAX's view, the frame tables
    (rows in the order frames finished; they grow from ``capacity`` rows as needed,
    so memory follows the nodes visited), the frame count, the cut-offs and the
    principal variation (node ids from the root down to a leaf), and the trace
    tables (rows as they grew) and their row count.

    One function on purpose: split into inlined steps (open a child, finish a frame,
    back up) the same loop took 2.6-3.8x the time (alpha-beta and minimax on the
    million-leaf tree, interleaved with this one in one run).
    """
    ints = np.empty((capacity, FRAME_INTS), dtype=np.int64)
    reals = np.empty((capacity, FRAME_REALS), dtype=np.float64)
    sw = np.empty((height + 1, 9), dtype=np.int64)
    sr = np.empty((height + 1, 5), dtype=np.float64)
    n_frames = 0
    cutoffs = 0
    rows = capacity if trace else 1
    ti = np.empty((rows, TRACE_COLUMNS), dtype=np.int64)
    tr = np.empty((rows, TRACE_COLUMNS), dtype=np.float64)
    n_trace = 0
    c = np.int64(value[0])
    if c > 0:
        _open(sw, sr, 0, 0, -1, -1, c, alpha0, beta0)
    else:
        _open(sw, sr, 0, 0, -1, -1, c, -beta0, -alpha0)
    if trace:
        _put(ti, tr, 0, ENTER, 0, c, 0, sr[0, _ALPHA], sr[0, _BETA], 0.0, 0.0)
        n_trace = 1
    top = 0
    root_value = 0.0
    while True:
        node = sw[top, _NODE]
        end = nkids[node]
        c = sw[top, _COLOUR]
        row = -1  # the frame row of the child being backed up (-1: a leaf)
        leaf = 0  # LEAF when the child backed up is a leaf
        if trace and n_trace + 2 > ti.shape[0]:  # room for an exit and a back-up
            ti, tr = _grow(ti, tr)
        if sw[top, _TAKEN] < end:  # take the next child
            child = sw[top, _NEXT_ID]
            sw[top, _NEXT_ID] = child + size[child]
            sw[top, _TAKEN] += 1
            if size[child] == 1:  # a leaf: its value in this node's view
                v = c * value[child]
                leaf = LEAF
            else:  # an inner child: open its frame, in its player's view
                cc = np.int64(value[child])
                if cc == c:
                    _open(
                        sw,
                        sr,
                        top + 1,
                        child,
                        sw[top, _ASRC],
                        sw[top, _BSRC],
                        cc,
                        sr[top, _ALPHA],
                        sr[top, _BETA],
                    )
                else:
                    _open(
                        sw,
                        sr,
                        top + 1,
                        child,
                        sw[top, _BSRC],
                        sw[top, _ASRC],
                        cc,
                        -sr[top, _BETA],
                        -sr[top, _ALPHA],
                    )
                top += 1
                if trace:
                    _put(ti, tr, n_trace, ENTER, child, cc, 0, sr[top, _ALPHA], sr[top, _BETA],
                         0.0, 0.0)  # fmt: skip
                    n_trace += 1
                continue
        else:  # all children done (or cut): log the frame, hand its value up
            best = sr[top, _BEST]
            v = best if soft else min(max(best, sr[top, _AIN]), sr[top, _BIN])
            if n_frames == ints.shape[0]:
                ints, reals = _grow(ints, reals)
            if trace:
                _put(ti, tr, n_trace, EXIT, node, c, 0, v, 0.0, 0.0, 0.0)
                n_trace += 1
            row = n_frames
            n_frames += 1
            for k in range(_CUT + 1):
                ints[row, k] = sw[top, k]
            ints[row, _BESTF] = sw[top, _BESTF_S]
            for k in range(_BIN + 1):
                reals[row, k] = sr[top, k]
            reals[row, FRAME_REALS - 1] = v
            if top == 0:
                root_value = v if c > 0 else -v
                break
            child = node
            top -= 1
            if sw[top, _COLOUR] != c:
                v = -v
            node = sw[top, _NODE]
            end = nkids[node]
        # Back up v, the value of child: the best so far, alpha, a cut-off.
        entered = sr[top, _ALPHA]
        flags = leaf
        if v > sr[top, _BEST] or sw[top, _BESTC] < 0:
            flags |= IMPROVED
            sr[top, _BEST] = v
            sw[top, _BESTC] = child
            sw[top, _BESTF_S] = row
            if prune and v > sr[top, _ALPHA]:
                flags |= MOVED
                sr[top, _ALPHA] = v
                sw[top, _ASRC] = node
        best = sr[top, _BEST]
        taken = sw[top, _TAKEN]
        if prune and taken < end and (best > sr[top, _BETA] if strict else best >= sr[top, _BETA]):
            flags |= CUT
            cutoffs += 1
            sw[top, _CUT] = taken
            sw[top, _TAKEN] = end
        if trace:
            _put(ti, tr, n_trace, BACKUP, node, child, flags, v, best, sr[top, _ALPHA], entered)
            n_trace += 1
    # The principal variation: each node's best child, from the root down to a leaf.
    pv = np.empty(height + 1, dtype=np.int64)
    length = 0
    row = n_frames - 1  # the root finished last
    while row >= 0:
        pv[length] = ints[row, _NODE]
        length += 1
        leaf = ints[row, _BESTC]
        row = ints[row, _BESTF]
        if row < 0:
            pv[length] = leaf
            length += 1
    return root_value, ints, reals, n_frames, cutoffs, pv[:length], ti, tr, n_trace


@njit(cache=True, nogil=True)
def _grow(ints, reals):
    """Frame or trace tables with twice the rows, the rows so far copied."""
    rows = ints.shape[0]
    more_ints = np.empty((2 * rows, ints.shape[1]), dtype=np.int64)
    more_reals = np.empty((2 * rows, reals.shape[1]), dtype=np.float64)
    more_ints[:rows] = ints
    more_reals[:rows] = reals
    return more_ints, more_reals


search, search_traced = _searcher(False), _searcher(True)


@njit(cache=True, nogil=True, inline="always")
def _put(ti, tr, row, kind, node, x, flags, a, b, c, d):
    """Write trace record ``row``: ints kind, node, x (colour or child), flags; reals
    a, b, c, d."""
    ti[row, 0] = kind
    ti[row, 1] = node
    ti[row, 2] = x
    ti[row, 3] = flags
    tr[row, 0] = a
    tr[row, 1] = b
    tr[row, 2] = c
    tr[row, 3] = d


@njit(cache=True, nogil=True, inline="always")
def _open(sw, sr, top, node, asrc, bsrc, c, alpha, beta):
    """Open the frame of ``node`` at stack row ``top``, with window (alpha, beta)."""
    sw[top, _NODE] = node
    sw[top, _TAKEN] = 0
    sw[top, _ASRC] = asrc
    sw[top, _BSRC] = bsrc
    sw[top, _BESTC] = -1
    sw[top, _COLOUR] = c
    sw[top, _CUT] = 0
    sw[top, _BESTF_S] = -1
    sw[top, _NEXT_ID] = node + 1
    sr[top, _ALPHA] = alpha
    sr[top, _BETA] = beta
    sr[top, _BEST] = -np.inf
    sr[top, _AIN] = alpha
    sr[top, _BIN] = beta
