"""Explicit game trees: read them in the notations courses use, search them with
minimax, alpha-beta, negamax or expectiminimax, and explain every step; or run
Monte-Carlo tree search on them step by step (:func:`mcts_tree`). Trees of games of
more than two players (:class:`MultiTree`, vector leaves) are searched with max^n,
paranoid and Best-Reply Search (:func:`search_multi`).

>>> from plies import trees
>>> tree = trees.parse("[[3,12,8],[2,4,6],[14,5,2]]")   # AIMA Figure 5.2
>>> result = trees.alphabeta(tree)
>>> result.value, result.path
(3, [0, 0])
>>> result.summary()
'evaluated 7 of 9 leaves, 11 nodes visited, 1 cut-off'

Numbering is the same in every output (the text of ``plies tree``, its ``--json``, the
web, the drawings and :func:`plies.lab.check_answer`), so any path or leaf number one
of them prints can be given to another:

* A node's **path** is the child indices from the root, counting from 0: ``[1, 0]`` is
  the first child of the root's second child, ``[]`` the root. JSON writes it as an
  array; where it is text (``check_answer``'s keys, the guided input, error messages)
  it is dotted, ``"1.0"``, and ``""`` is the root. ``check_answer`` takes both.
* A **leaf number** counts the leaves from 0, left to right in the input:
  ``TreeResult.evaluated``, JSON's ``evaluated``, ``check_answer``'s ``evaluated``
  and the text output's ``leaf n`` (``Tree.leaf_index``, ``Tree.leaf_ids``).
* ``#k`` is the k-th leaf *evaluated*, counting from 1: a place in the evaluation
  order (drawings, the stepper, narration), not a leaf number. In AIMA's tree above,
  leaf 6 (14) is evaluated fifth, ``#5``.
* A node **id** is its place in preorder, counting from 0 (the root is 0).
* ``A``, ``B``, ``B1``, ``B2`` are names (:meth:`Tree.name`), not numbers: a leaf's
  name ends with its place among its parent's children, from 1 as textbooks draw it.
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from plies.trees._compare import Comparison, compare, knuth_moore_minimum
    from plies.trees._format import (
        format_tree,
        json_number,
        narrate,
        narrate_event,
        result_to_json,
        tree_to_json,
        write_result_json,
    )
    from plies.trees._guided import guided_tree
    from plies.trees._mcts import (
        MAX_MCTS_ITERATIONS,
        MctsChild,
        MctsChoice,
        MctsResult,
        MctsStep,
        convergence_line,
        mcts_tree,
        narrate_mcts,
        narrate_step,
    )
    from plies.trees._model import (
        Kind,
        Node,
        Number,
        Tree,
        TreeBuilder,
        check_bounds,
        format_number,
        letter_names,
    )
    from plies.trees._multi import (
        MULTI_ALGORITHMS,
        MultiCutoff,
        MultiResult,
        MultiTree,
        best_reply,
        format_vector,
        is_multi_text,
        maxn,
        multi_tree,
        multi_tree_lines,
        paranoid,
        parse_multi,
        random_multi_tree,
        search_multi,
    )
    from plies.trees._parse import NOTATIONS, from_leaves, json_nesting, parse, parse_number
    from plies.trees._random import random_tree
    from plies.trees._render import plain_tree_lines, render_tree
    from plies.trees._result import (
        ALGORITHMS,
        BACKENDS,
        NATIVE_MIN_NODES,
        ORDERS,
        Backup,
        Cutoff,
        Enter,
        Evaluate,
        Event,
        Exit,
        NodeRecord,
        SearchOptions,
        Static,
        TreeResult,
    )
    from plies.trees._search import (
        alphabeta,
        exact_values,
        expectiminimax,
        minimax,
        negamax,
        search,
    )

__all__ = [
    "ALGORITHMS",
    "BACKENDS",
    "MAX_MCTS_ITERATIONS",
    "MULTI_ALGORITHMS",
    "NATIVE_MIN_NODES",
    "NOTATIONS",
    "ORDERS",
    "Backup",
    "Comparison",
    "Cutoff",
    "Enter",
    "Evaluate",
    "Event",
    "Exit",
    "Kind",
    "MctsChild",
    "MctsChoice",
    "MctsResult",
    "MctsStep",
    "MultiCutoff",
    "MultiResult",
    "MultiTree",
    "Node",
    "NodeRecord",
    "Number",
    "SearchOptions",
    "Static",
    "Tree",
    "TreeBuilder",
    "TreeResult",
    "alphabeta",
    "best_reply",
    "check_bounds",
    "compare",
    "convergence_line",
    "exact_values",
    "expectiminimax",
    "format_number",
    "format_tree",
    "format_vector",
    "from_leaves",
    "guided_tree",
    "is_multi_text",
    "json_nesting",
    "json_number",
    "knuth_moore_minimum",
    "letter_names",
    "maxn",
    "mcts_tree",
    "minimax",
    "multi_tree",
    "multi_tree_lines",
    "narrate",
    "narrate_event",
    "narrate_mcts",
    "narrate_step",
    "negamax",
    "paranoid",
    "parse",
    "parse_multi",
    "parse_number",
    "plain_tree_lines",
    "random_multi_tree",
    "random_tree",
    "render_tree",
    "result_to_json",
    "search",
    "search_multi",
    "tree_to_json",
    "write_result_json",
]


#: Every name by the module that makes it, imported on first use (PEP 562): a caller
#: that needs only the tree model (a game's tree in :mod:`plies.lab`) loads no search,
#: MCTS or N-player module; the terminal renderings load rich.
_LAZY_MODULES: dict[str, tuple[str, ...]] = {
    "plies.trees._compare": (
        "Comparison",
        "compare",
        "knuth_moore_minimum",
    ),
    "plies.trees._format": (
        "format_tree",
        "json_number",
        "narrate",
        "narrate_event",
        "result_to_json",
        "tree_to_json",
        "write_result_json",
    ),
    "plies.trees._guided": ("guided_tree",),
    "plies.trees._mcts": (
        "MAX_MCTS_ITERATIONS",
        "MctsChild",
        "MctsChoice",
        "MctsResult",
        "MctsStep",
        "convergence_line",
        "mcts_tree",
        "narrate_mcts",
        "narrate_step",
    ),
    "plies.trees._model": (
        "Kind",
        "Node",
        "Number",
        "Tree",
        "TreeBuilder",
        "check_bounds",
        "format_number",
        "letter_names",
    ),
    "plies.trees._multi": (
        "MULTI_ALGORITHMS",
        "MultiCutoff",
        "MultiResult",
        "MultiTree",
        "best_reply",
        "format_vector",
        "is_multi_text",
        "maxn",
        "multi_tree",
        "multi_tree_lines",
        "paranoid",
        "parse_multi",
        "random_multi_tree",
        "search_multi",
    ),
    "plies.trees._parse": (
        "NOTATIONS",
        "from_leaves",
        "json_nesting",
        "parse",
        "parse_number",
    ),
    "plies.trees._random": ("random_tree",),
    "plies.trees._result": (
        "ALGORITHMS",
        "BACKENDS",
        "NATIVE_MIN_NODES",
        "ORDERS",
        "Backup",
        "Cutoff",
        "Enter",
        "Evaluate",
        "Event",
        "Exit",
        "NodeRecord",
        "SearchOptions",
        "Static",
        "TreeResult",
    ),
    "plies.trees._search": (
        "alphabeta",
        "exact_values",
        "expectiminimax",
        "minimax",
        "negamax",
        "search",
    ),
    "plies.trees._render": (
        "plain_tree_lines",
        "render_tree",
    ),
}
_LAZY = {name: module for module, names in _LAZY_MODULES.items() for name in names}


def __getattr__(name: str) -> Any:
    """A name of :data:`_LAZY`, its module imported when first asked for."""
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(_LAZY[name]), name)
    globals()[name] = value  # asked once
    return value
