"""Monte-Carlo playouts in compiled code, for :func:`plies.engine.mcts` on a native port.

The tree of an MCTS run stays in Python; at each leaf it expands, the search encodes
the leaf's state for the port (:meth:`NativeGame.encode`) and :func:`playouts` plays
``count`` games from it to the end in one kernel call, with the game's compiled rules
(:mod:`plies.engine.native._protocol`), and returns the sum of their utilities from
player 0's view. The policies are the Python search's:

* ``RANDOM``: uniform random moves;
* ``GUIDED``: the game's winning move where its ``winning_move`` rule names one, else
  its first ordered move (``order_moves``) with probability :data:`GUIDED_SHARE`,
  else a random one;
* ``EVALUATE``: random moves for ``cutoff`` plies, then the game's ``evaluate`` rule
  squashed into the utility range, ``scale * tanh(evaluation / spread)``.

The random generator is SplitMix64 (Steele, Lea and Flood 2014), its one word of state
kept in an array the caller owns, so a seed gives the same playouts on every machine.
They are not the Python search's draws (that uses :class:`random.Random`): a native
and a Python run of one seed grow different trees. The native protocol's games
alternate (a pass is a move), so the side to move flips every ply and the terminal
utility, given for the side to move, is turned to player 0's view by the ply's parity.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numba import njit

from plies.engine.native._kernel import evaluate, legal_moves, order_hint, play, winning
from plies.engine.native._kernel import terminal_value as terminal_rule
from plies.engine.native._pointers import call, ptr
from plies.engine.native._runner import compiled
from plies.errors import SearchError

__all__ = [
    "EVALUATE",
    "GUIDED",
    "GUIDED_SHARE",
    "NODES",
    "OVERRUN",
    "PLAYOUT_CONTROL",
    "POLICIES",
    "RANDOM",
    "NativePlayouts",
    "PlayoutOverrun",
    "playouts",
    "vector_playouts",
]

#: Playout policies (the Python search's ``"random"``, ``"guided"``, ``"evaluate"``).
RANDOM, GUIDED, EVALUATE = 0, 1, 2
#: The policies by the names :class:`NativePlayouts` takes.
POLICIES = {"random": RANDOM, "guided": GUIDED, "evaluate": EVALUATE}
#: How often a guided playout plays the game's first ordered move (as in Python).
GUIDED_SHARE = 0.75
#: ``control``: the plies played in playouts (added to), and set to 1 when a playout
#: went past ``max_plies`` (the game did not end: the caller raises).
NODES, OVERRUN = 0, 1
PLAYOUT_CONTROL = 2

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_UNIT = 1.0 / 9007199254740992.0  # 2**-53


@njit(cache=True, nogil=True, inline="always")
def next_random(rng: Any) -> Any:
    """The next 64-bit draw of SplitMix64, whose state is ``rng[0]``."""
    rng[0] += _GOLDEN
    z = rng[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, nogil=True, inline="always")
def below(rng: Any, count: int) -> int:
    """A random whole number from 0 to ``count - 1`` (the bias of a 64-bit modulus
    is below 2**-50 for the move counts of games)."""
    return int(next_random(rng) % np.uint64(count))


@njit(cache=True, nogil=True, inline="always")
def uniform(rng: Any) -> float:
    """A random float in [0, 1), from the draw's top 53 bits."""
    return float(next_random(rng) >> np.uint64(11)) * _UNIT


@njit(cache=True, nogil=True)
def choose(  # noqa: PLR0917
    rules: Any, consts: Any, state: Any, moves: Any, count: int, policy: int, rng: Any
) -> int:
    """The playout's move among ``moves[:count]`` in ``state`` (pointers)."""
    if policy == GUIDED:
        win = winning(rules, consts, state)
        if win >= 0:
            return win
        if uniform(rng) < GUIDED_SHARE:
            order_hint(rules, consts, state, moves, count)
            return moves[0]  # type: ignore[no-any-return]
    return moves[below(rng, count)]  # type: ignore[no-any-return]


@njit(cache=True, nogil=True)
def playout(  # noqa: PLR0917
    rules: Any,
    consts: Any,
    states: Any,
    moves: Any,
    policy: int,
    cutoff: int,
    spread: float,
    scale: float,
    max_plies: int,
    rng: Any,
    control: Any,
) -> float:
    """One playout from ``states[0]`` (its second row is the work space; ``consts`` a
    pointer to the constants): the end's
    utility, or the squashed evaluation at the cut-off, for the side to move at the
    start. Sets ``control[OVERRUN]`` and returns 0 past ``max_plies`` plies."""
    # (mypy reads the intrinsic ``ptr`` as a Python call; Numba types it)
    state: Any = ptr(states[0])  # type: ignore[call-arg]
    child: Any = ptr(states[1])
    out: Any = ptr(moves)
    sign = 1.0
    for ply in range(max_plies + 1):
        outcome = terminal_rule(rules, consts, state)
        if not math.isnan(outcome):
            return sign * outcome
        if policy == EVALUATE and ply >= cutoff:
            return sign * scale * math.tanh(evaluate(rules, consts, state) / spread)
        count = legal_moves(rules, consts, state, out)
        control[NODES] += 1
        move = choose(rules, consts, state, out, count, policy, rng)
        play(rules, consts, state, move, child)
        state, child = child, state
        sign = -sign
    control[OVERRUN] = 1
    return 0.0


@njit(cache=True, nogil=True)
def playouts(  # noqa: PLR0917
    rules: Any,
    consts: Any,
    start: Any,
    sign: float,
    count: int,
    policy: int,
    cutoff: int,
    spread: float,
    scale: float,
    max_plies: int,
    rng: Any,
    states: Any,
    moves: Any,
    control: Any,
) -> float:
    """The sum of ``count`` playouts' utilities from ``start`` for player 0 (``sign``:
    +1 when player 0 moves at ``start``, else -1); ``states`` is two rows of the
    state's size, ``moves`` a row of the most moves, ``rng`` the generator's state,
    ``control`` the counters (see :data:`NODES`). Stops at the first overrun."""
    total = 0.0
    constants: Any = ptr(consts)  # type: ignore[call-arg]
    for _ in range(count):
        states[0, :] = start
        total += playout(
            rules, constants, states, moves, policy, cutoff, spread, scale, max_plies, rng, control
        )
        if control[OVERRUN]:
            break
    return sign * total


@njit(cache=True, nogil=True)
def vector_playouts(  # noqa: PLR0917
    rules: Any,
    consts: Any,
    start: Any,
    count: int,
    policy: int,
    cutoff: int,
    spread: float,
    middle: float,
    half: float,
    max_plies: int,
    rng: Any,
    states: Any,
    moves: Any,
    values: Any,
    totals: Any,
    control: Any,
) -> None:
    """``count`` playouts from ``start`` in a game of ``totals.size`` players (a port
    with the rules ``utilities`` and ``evaluations``): each player's utilities summed
    into ``totals`` (an ``EVALUATE`` playout scores each player's evaluation at the
    cut-off, ``middle + half * tanh(evaluation / spread)``, as the Python search does);
    ``values`` is a row of one float a player. Stops at the first overrun."""
    constants: Any = ptr(consts)  # type: ignore[call-arg]
    out: Any = ptr(moves)
    scores: Any = ptr(values)
    for _ in range(count):
        states[0, :] = start
        state: Any = ptr(states[0])
        child: Any = ptr(states[1])
        ended = False
        for ply in range(max_plies + 1):
            if call("utilities", rules[13], (constants, state, scores)) == 1:
                ended = True
                break
            if policy == EVALUATE and ply >= cutoff:
                call("evaluations", rules[14], (constants, state, scores))
                for i in range(totals.size):
                    values[i] = middle + half * math.tanh(values[i] / spread)
                ended = True
                break
            found = legal_moves(rules, constants, state, out)
            control[NODES] += 1
            move = choose(rules, constants, state, out, found, policy, rng)
            play(rules, constants, state, move, child)
            state, child = child, state
        if not ended:
            control[OVERRUN] = 1
            return
        for i in range(totals.size):
            totals[i] += values[i]


class NativePlayouts:
    """The playouts of one MCTS run on ``game``'s native port, from any state of a line
    from ``root`` (the port's constants and buffer sizes are made for ``root``'s game):
    :meth:`run` plays ``count`` of them from a state, seeded by ``seed``, by ``policy``
    (one of :data:`POLICIES`)."""

    def __init__(
        self,
        port: Any,
        root: Any,
        *,
        policy: str,
        cutoff: int,
        spread: float,
        scale: float,
        seed: int,
    ) -> None:
        self.encode = port.encode  # bound once (Connect Four's port forwards it)
        self.prepared = prepared = port.prepare(root)
        self.rules = port.rules()
        self.consts = prepared.consts
        self.states = np.zeros((2, max(prepared.state.size, 1)), np.int64)
        self.moves = np.zeros(max(prepared.max_moves, 1), np.int64)
        self.control = np.zeros(PLAYOUT_CONTROL, np.int64)
        # the seed through one SplitMix64 step, so seeds 0, 1, 2 start far apart
        self.rng = np.array([seed & 0xFFFFFFFFFFFFFFFF], np.uint64)
        next_random(self.rng)
        self.policy = POLICIES[policy]
        self.cutoff = cutoff
        self.spread = float(spread)
        self.scale = float(scale)
        #: The middle of the utility range (N-player ``"evaluate"`` playouts).
        self.middle = 0.0
        self.max_plies = int(prepared.max_plies)
        self.kernel = playouts
        #: Players of a game of more than two (then :meth:`run_vector` plays), else 2.
        self.players = int(port.players)
        self.values = np.zeros(max(self.players, 2), np.float64)
        self.vector_kernel = vector_playouts

    def load(self) -> None:
        """Load the compiled kernel (from Numba's cache, or compiling it on a machine's
        first run) with one playout of the root, the generator's state kept: done
        before the search's clock starts, so its time counts no loading."""
        saved = self.rng.copy()
        if self.players > 2:
            self.run_vector(self.prepared.state, 1, encoded=True)
            self.vector_kernel = compiled(vector_playouts)
        else:
            self.run(self.prepared.state, 1.0, 1, encoded=True)
            self.kernel = compiled(playouts)
        self.rng[:] = saved
        self.control[:] = 0

    def run(
        self, state: Any, sign: float, count: int, *, encoded: bool = False
    ) -> tuple[float, int]:
        """``(sum of the utilities for player 0, plies played)`` of ``count`` playouts
        from ``state`` (``sign``: +1 when player 0 moves there, else -1)."""
        start = state if encoded else self.encode(self.prepared, state)
        control = self.control
        total = self.kernel(
            self.rules, self.consts, start, sign, count, self.policy, self.cutoff,
            self.spread, self.scale, self.max_plies, self.rng, self.states, self.moves, control,
        )  # fmt: skip
        if control[OVERRUN]:
            raise PlayoutOverrun(self.max_plies)
        nodes = int(control[NODES])
        control[NODES] = 0
        return total, nodes

    def run_vector(
        self, state: Any, count: int, *, encoded: bool = False
    ) -> tuple[list[float], int]:
        """``(each player's summed utility, plies played)`` of ``count`` playouts from
        ``state`` of a game of more than two players. An ``"evaluate"`` playout's
        squashing is ``middle + half * tanh``: :attr:`scale` is ``half`` and
        :attr:`middle` the utility range's middle (set by the search)."""
        start = state if encoded else self.encode(self.prepared, state)
        control = self.control
        totals = np.zeros(self.players, np.float64)
        self.vector_kernel(
            self.rules, self.consts, start, count, self.policy, self.cutoff, self.spread,
            self.middle, self.scale, self.max_plies, self.rng, self.states, self.moves,
            self.values, totals, control,
        )  # fmt: skip
        if control[OVERRUN]:
            raise PlayoutOverrun(self.max_plies)
        nodes = int(control[NODES])
        control[NODES] = 0
        return [float(total) for total in totals], nodes


class PlayoutOverrun(SearchError):
    """A native playout went past the port's most plies (the game did not end)."""

    def __init__(self, plies: int) -> None:
        super().__init__(f"mcts: a native playout went past {plies} plies")
