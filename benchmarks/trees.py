"""Benchmark: explicit trees of a million leaves, plies beside aima-python.

Builds the uniform tree b=10, d=6 (1,000,000 leaves, 1,111,111 nodes) with seeded
random integer leaves and measures, in this process:

* parsing its bracket text (about 4 MB) with ``plies.trees.parse``;
* alpha-beta (trace off and on) and minimax with ``plies.trees``;

and, in a throwaway virtual environment with aima-python's PyPI package ``aima3``,
``aima3.games.alphabeta_search`` and ``minimax_decision`` on the same tree (states are
node numbers of the implicit complete tree, the cheapest representation for it).
Prints times, leaves per second and the ratios; checks both find the same value and
that alpha-beta evaluates the same leaves in both.

Run: ``python benchmarks/trees.py`` (``--no-peer`` to skip aima3; ``--branching``
and ``--depth`` for other sizes).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path

from plies.trees import alphabeta, from_leaves, minimax, parse
from plies.trees._format import format_tree

PEER_DRIVER = r"""
import json, sys, time
import aima3.games as games

b, d, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
leaves = json.load(open(path))
first_leaf = sum(b**k for k in range(d))  # node numbers of the implicit complete tree
evaluated = [0]

class Tree(games.Game):
    def actions(self, state):
        return range(b) if state < first_leaf else ()
    def result(self, state, move):
        return state * b + 1 + move
    def terminal_test(self, state):
        return state >= first_leaf
    def utility(self, state, player):
        evaluated[0] += 1
        return leaves[state - first_leaf]
    def to_move(self, state):
        return "MAX"

game = Tree()
out = {}
start = time.perf_counter()
move = games.alphabeta_search(0, game)
out["alphabeta"] = {"seconds": time.perf_counter() - start, "leaves": evaluated[0],
                    "move": move}
evaluated[0] = 0
start = time.perf_counter()
move = games.minimax_decision(0, game)
out["minimax"] = {"seconds": time.perf_counter() - start, "leaves": evaluated[0], "move": move}
print(json.dumps(out))
"""


def run_peer(branching: int, depth: int, leaves: list[int]) -> dict[str, dict[str, float]] | None:
    """Run aima3 in a throwaway venv; ``None`` (with a message) if it cannot be installed."""
    with tempfile.TemporaryDirectory(prefix="plies-bench-") as tmp:
        root = Path(tmp)
        venv.create(root / "venv", with_pip=True)
        python = root / "venv" / "bin" / "python"
        install = subprocess.run(
            [
                str(python),
                "-m",
                "pip",
                "install",
                "-q",
                "--disable-pip-version-check",
                "aima3",
                "numpy",
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        if install.returncode != 0:
            print(f"aima3 could not be installed: {install.stderr.strip().splitlines()[-1:]}")
            return None
        (root / "leaves.json").write_text(json.dumps(leaves))
        (root / "driver.py").write_text(PEER_DRIVER)
        proc = subprocess.run(
            [
                str(python),
                str(root / "driver.py"),
                str(branching),
                str(depth),
                str(root / "leaves.json"),
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        if proc.returncode != 0:
            print(f"aima3 failed: {proc.stderr.strip().splitlines()[-1:]}")
            return None
        result: dict[str, dict[str, float]] = json.loads(proc.stdout)
        return result


def timed(label: str, fn, *args, **kwargs):  # type: ignore[no-untyped-def]
    """Call ``fn`` and print how long it took."""
    start = time.perf_counter()
    value = fn(*args, **kwargs)
    seconds = time.perf_counter() - start
    print(f"  {label:<38} {seconds:8.3f} s")
    return value, seconds


def main() -> int:
    """Run the benchmark and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--branching", type=int, default=10)
    ap.add_argument("--depth", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-peer", action="store_true", help="skip aima3")
    args = ap.parse_args()
    b, d = args.branching, args.depth
    rng = random.Random(args.seed)
    leaves = [rng.randint(-1000, 1000) for _ in range(b**d)]
    print(f"Uniform tree b={b}, d={d}: {len(leaves):,} leaves")

    tree, _ = timed("plies: build from the leaf list", from_leaves, leaves, branching=b)
    text = format_tree(tree)
    print(f"  bracket text: {len(text) / 1e6:.1f} MB")
    tree, parse_s = timed("plies: parse the bracket text", parse, text)
    ab, ab_s = timed("plies: alpha-beta (trace off)", alphabeta, tree, trace=False)
    _, ab_trace_s = timed("plies: alpha-beta (full trace)", alphabeta, tree)
    mm, mm_s = timed("plies: minimax (trace off)", minimax, tree, trace=False)
    print(
        f"  value {ab.value}, best move {ab.best_child}, alpha-beta evaluated "
        f"{ab.evaluated_count:,} of {tree.leaf_count:,} leaves"
    )
    assert mm.value == ab.value
    rows = [
        ("alpha-beta", ab.evaluated_count, ab_s),
        ("minimax", mm.evaluated_count, mm_s),
    ]
    peer = None if args.no_peer else run_peer(b, d, leaves)
    print()
    print(f"{'search':<12}{'engine':<8}{'leaves':>12}{'seconds':>10}{'leaves/s':>14}{'ratio':>8}")
    for name, count, seconds in rows:
        key = "alphabeta" if name == "alpha-beta" else "minimax"
        print(f"{name:<12}{'plies':<8}{count:>12,}{seconds:>10.3f}{count / seconds:>14,.0f}{'':>8}")
        if peer is not None:
            p = peer[key]
            ratio = p["seconds"] / seconds
            print(
                f"{'':<12}{'aima3':<8}{int(p['leaves']):>12,}{p['seconds']:>10.3f}"
                f"{p['leaves'] / p['seconds']:>14,.0f}{ratio:>7.2f}x"
            )
            same_move = int(p["move"]) == ab.best_child
            if name == "alpha-beta":
                same = int(p["leaves"]) == count
                print(f"{'':<20}same leaves evaluated: {same}; same move: {same_move}")
    print()
    print(
        f"parse: {len(leaves) / parse_s:,.0f} leaves/s; alpha-beta with full trace: "
        f"{ab_trace_s:.3f} s"
    )
    print("ratio = aima3 seconds / plies seconds (above 1: plies is faster)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
