"""Explicit game trees: read them in the notations courses use, search them with
minimax, alpha-beta, negamax or expectiminimax, and explain every step.

>>> from plies import trees
>>> tree = trees.parse("[[3,12,8],[2,4,6],[14,5,2]]")   # AIMA Figure 5.2
>>> result = trees.alphabeta(tree)
>>> result.value, result.path
(3, [0, 0])
>>> result.summary()
'evaluated 7 of 9 leaves, 11 nodes visited, 1 cut-off'
"""

from plies.trees._compare import Comparison, compare, knuth_moore_minimum
from plies.trees._format import format_tree, narrate, result_to_json, tree_to_json
from plies.trees._model import Kind, Node, Number, Tree, TreeBuilder, format_number
from plies.trees._parse import NOTATIONS, from_leaves, parse, parse_number
from plies.trees._random import random_tree
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
from plies.trees._search import alphabeta, exact_values, expectiminimax, minimax, negamax, search

__all__ = [
    "ALGORITHMS",
    "BACKENDS",
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
    "Node",
    "NodeRecord",
    "Number",
    "SearchOptions",
    "Static",
    "Tree",
    "TreeBuilder",
    "TreeResult",
    "alphabeta",
    "compare",
    "exact_values",
    "expectiminimax",
    "format_number",
    "format_tree",
    "from_leaves",
    "knuth_moore_minimum",
    "minimax",
    "narrate",
    "negamax",
    "parse",
    "parse_number",
    "random_tree",
    "result_to_json",
    "search",
    "tree_to_json",
]
