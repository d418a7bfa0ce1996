"""The native port of Chinese Checkers (:mod:`plies.games.chinese_checkers`).

**State.** ``[ply, turn, hole 0, ..., hole H-1]``: the plies played, the player to
move, then each hole's owner plus one (0: empty). A board of cells rather than the
Python masks: the largest board (181 holes) needs three 64-bit words a player, and
the rules read single holes.

**Moves.** ``origin * H + destination`` (0-based holes), ``H * H``
for a pass; ``move_space`` is ``H * H + 1``.

**Constants.** ``[H, N, pieces each, ply limit, a loser's utility, scratch offset,
0, 0]``, then per hole and direction the neighbour and the hole beyond it (-1: none;
12 a hole), the holes of each player's target corner (``pieces each`` a player),
and each player's distance table (``H`` a player). Offsets are module constants.

**Rules.** ``legal_moves`` lists the moves in the Python order (origins ascending,
destinations ascending): for each of the mover's pieces it lists the holes a step
reaches and the holes a chain of jumps reaches (a depth-first walk, each hole marked
once), then sorts that short list. The marks, the walk's stack and the list live in
``out`` past the last possible move (``3H`` cells from the *scratch offset*,
``pieces * (H - 1) + 1``), which is why :class:`Prepared`'s ``max_moves`` is that
offset plus ``3H``: a rule
cannot allocate. ``terminal_value``, ``evaluate`` and ``order_moves`` are the Python
rules, term for term. ``key`` mixes the ply and every occupied hole with its owner
(splitmix64's finaliser): distinct positions share a key with a chance near
``2**-64`` per pair, as the other ports accept.

**Players.** The rules are those of any number of players (``terminal_value`` and
``evaluate`` are the side to move's). The kernel's searches and solver are
negamax, two-player only, so :meth:`ChineseCheckersNative.problem` refuses them for
more players; the rules stay usable (:func:`plies.engine.native.describe_state`,
:func:`plies.engine.native.play_move`), and the N-player rules (``to_move``,
``utilities``, ``evaluations``, and ``with_turn`` for Best-Reply Search's passes)
serve the N-player searches and playouts.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from plies.engine.native import NativeGame, Prepared, helper, int64_array, rule
from plies.games.chinese_checkers._rules import (
    PASS,
    ChineseCheckers,
    ChineseCheckersMove,
    ChineseCheckersState,
)

__all__ = ["ChineseCheckersNative"]

# Indices into the state.
PLY, TURN, CELLS = 0, 1, 2
# Indices into the constants.
HOLES, PLAYERS, PIECES, PLY_LIMIT, LOSS, SCRATCH = 0, 1, 2, 3, 4, 5
LINKS = 8

_U = np.uint64


@helper(inline=True)
def _goals(consts: Any) -> Any:
    return LINKS + 12 * consts[HOLES]


@helper(inline=True)
def _distances(consts: Any) -> Any:
    return _goals(consts) + consts[PLAYERS] * consts[PIECES]


@helper()
def winner(consts: Any, state: Any) -> int:
    """The player whose target is full with one of its own pieces in it, or -1."""
    pieces, goals = consts[PIECES], _goals(consts)
    for player in range(consts[PLAYERS]):
        full, own = True, False
        for i in range(pieces):
            owner = state[CELLS + consts[goals + player * pieces + i]]
            if owner == 0:
                full = False
                break
            if owner == player + 1:
                own = True
        if full and own:
            return player
    return -1


@helper(inline=True)
def _is_over(consts: Any, state: Any) -> bool:
    return state[PLY] >= consts[PLY_LIMIT] or winner(consts, state) >= 0


@helper()
def _destinations(consts: Any, state: Any, origin: int, out: Any) -> int:
    """The holes a piece on ``origin`` reaches, ascending, in ``out[scratch + 2H:]``;
    returns how many. A hole reached is marked ``stamp * 4 + bits`` in
    ``out[scratch + hole]`` (bit 2 by a step, bit 1 by jumps; the stamp is
    ``origin + 1``, so the marks of the origins before need no clearing; the origin is
    marked 1 and is no destination); the walk's stack is ``out[scratch + H:]``."""
    holes, marks = consts[HOLES], consts[SCRATCH]
    stack, found = marks + holes, marks + 2 * holes
    stamp = (origin + 1) * 4
    out[marks + origin] = stamp + 1
    count = 0
    for d in range(6):
        neighbour = consts[LINKS + 12 * origin + 2 * d]
        if neighbour >= 0 and state[CELLS + neighbour] == 0:
            out[marks + neighbour] = stamp + 2
            out[found + count] = neighbour
            count += 1
    top = 1
    out[stack] = origin
    while top > 0:
        top -= 1
        here = out[stack + top]
        for d in range(6):
            over = consts[LINKS + 12 * here + 2 * d]
            landing = consts[LINKS + 12 * here + 2 * d + 1]
            if landing < 0 or over == origin or state[CELLS + over] == 0:
                continue
            mark = out[marks + landing]
            if mark - mark % 4 == stamp and mark & 1:
                continue
            if state[CELLS + landing] != 0 and landing != origin:
                continue
            if mark - mark % 4 == stamp:  # a step's hole, listed already
                out[marks + landing] = mark | 1
            else:
                out[marks + landing] = stamp + 1
                out[found + count] = landing
                count += 1
            out[stack + top] = landing
            top += 1
    for i in range(1, count):  # ascending: an insertion sort of a few holes
        hole = out[found + i]
        j = i
        while j > 0 and out[found + j - 1] > hole:
            out[found + j] = out[found + j - 1]
            j -= 1
        out[found + j] = hole
    return count


@rule("legal_moves")
def legal_moves(consts: Any, state: Any, out: Any) -> int:
    """Origins ascending, destinations ascending; ``[H * H]`` (a pass) when the mover has no
    move; none at the end."""
    if _is_over(consts, state):
        return 0
    holes, marks = consts[HOLES], consts[SCRATCH]
    found = marks + 2 * holes
    for hole in range(holes):
        out[marks + hole] = 0
    mover = state[TURN] + 1
    count = 0
    for origin in range(holes):
        if state[CELLS + origin] != mover:
            continue
        reached = _destinations(consts, state, origin, out)
        for i in range(reached):
            out[count] = origin * holes + out[found + i]
            count += 1
    if count == 0:
        out[0] = holes * holes
        return 1
    return count


@rule("play")
def play(consts: Any, state: Any, move: int, child: Any) -> None:
    """Move the piece (or pass); the ply count grows by one."""
    holes = consts[HOLES]
    for i in range(CELLS + holes):
        child[i] = state[i]
    child[PLY] = state[PLY] + 1
    child[TURN] = (state[TURN] + 1) % consts[PLAYERS]
    if move == holes * holes:
        return
    origin, destination = move // holes, move % holes
    child[CELLS + destination] = state[CELLS + origin]
    child[CELLS + origin] = 0


@rule("terminal_value")
def terminal_value(consts: Any, state: Any) -> float:
    """1 if the side to move has won, the loser's utility if another player has, 0 at
    the ply limit, NaN before the end."""
    found = winner(consts, state)
    if found >= 0:
        return 1.0 if found == state[TURN] else float(consts[LOSS])
    if state[PLY] >= consts[PLY_LIMIT]:
        return 0.0
    return np.nan


@rule("evaluate")
def evaluate(consts: Any, state: Any) -> float:
    """Everyone's distances minus N times the side to move's (the Python evaluate)."""
    holes, players = consts[HOLES], consts[PLAYERS]
    table = _distances(consts)
    mover = state[TURN]
    total, mine = 0, 0
    for hole in range(holes):
        owner = state[CELLS + hole] - 1
        if owner >= 0:
            distance = consts[table + owner * holes + hole]
            total += distance
            if owner == mover:
                mine += distance
    return float(total - players * mine)


@rule("to_move")
def to_move(consts: Any, state: Any) -> Any:
    """The player to move."""
    return state[TURN]


@rule("utilities")
def utilities(consts: Any, state: Any, values: Any) -> int:
    """At the end, 1 and every player's utility in ``values`` (1 for the winner, the
    loser's utility for the others, 0 each at the ply limit); else 0."""
    found = winner(consts, state)
    if found < 0 and state[PLY] < consts[PLY_LIMIT]:
        return 0
    for player in range(consts[PLAYERS]):
        if found < 0:
            values[player] = 0.0
        else:
            values[player] = 1.0 if player == found else float(consts[LOSS])
    return 1


@rule("evaluations")
def evaluations(consts: Any, state: Any, values: Any) -> int:
    """1 and every player's evaluation in ``values``: everyone's distances minus N
    times the player's (the Python ``evaluations``)."""
    holes, players = consts[HOLES], consts[PLAYERS]
    table = _distances(consts)
    for player in range(players):
        values[player] = 0.0
    total = 0
    for hole in range(holes):
        owner = state[CELLS + hole] - 1
        if owner >= 0:
            distance = consts[table + owner * holes + hole]
            total += distance
            values[owner] += float(distance)
    for player in range(players):
        values[player] = float(total) - players * values[player]
    return 1


@rule("with_turn")
def with_turn(consts: Any, state: Any, player: int, out: Any) -> int:
    """1 and ``state`` with ``player`` to move in ``out``, the ply count kept (the
    Python ``with_turn``: passes are no moves); 0 at the end of the game (None)."""
    if _is_over(consts, state):
        return 0
    for i in range(CELLS + consts[HOLES]):
        out[i] = state[i]
    out[TURN] = player
    return 1


@helper(inline=True)
def _gain(consts: Any, row: int, move: int) -> Any:
    """How much nearer ``move`` brings its piece (the Python sort key, negated)."""
    holes = consts[HOLES]
    if move == holes * holes:
        return 0
    return consts[row + move // holes] - consts[row + move % holes]


@rule("order_moves")
def order_moves(consts: Any, state: Any, moves: Any, count: int) -> None:
    """The largest gains first, ties in list order (a stable insertion sort)."""
    row = _distances(consts) + state[TURN] * consts[HOLES]
    for i in range(1, count):
        move = moves[i]
        gain = _gain(consts, row, move)
        j = i
        while j > 0 and _gain(consts, row, moves[j - 1]) < gain:
            moves[j] = moves[j - 1]
            j -= 1
        moves[j] = move


@helper(inline=True)
def _mix(h: Any) -> Any:
    """splitmix64's finaliser: every input bit reaches every output bit."""
    h ^= h >> _U(30)
    h *= _U(0xBF58476D1CE4E5B9)
    h ^= h >> _U(27)
    h *= _U(0x94D049BB133111EB)
    return h ^ (h >> _U(31))


@rule("key")
def key(consts: Any, state: Any) -> Any:
    """A 64-bit hash of the ply, the turn and each occupied hole with its owner."""
    h = _mix(_U(state[PLY]) ^ _U(0x9E3779B97F4A7C15))
    h = _mix(h + _U(state[TURN]))
    for hole in range(consts[HOLES]):
        owner = state[CELLS + hole]
        if owner:
            h = _mix(h + _U(hole * 8 + owner))
    return h


class ChineseCheckersNative(NativeGame[ChineseCheckersState, ChineseCheckersMove]):
    """The adapter of :class:`~plies.games.chinese_checkers.ChineseCheckers`."""

    legal_moves = legal_moves
    play = play
    terminal_value = terminal_value
    evaluate = evaluate
    order_moves = order_moves
    key = key
    to_move = to_move
    utilities = utilities
    evaluations = evaluations
    with_turn = with_turn

    def __init__(self, game: ChineseCheckers) -> None:
        self.game = game
        self.players = game.num_players  # type: ignore[misc]  # a class default, set per game
        if game.num_players != 2:  # the kernel's searches are two-player: the rules only
            self.tasks = ()  # type: ignore[misc]  # a class default, set per game
        star = game.star
        self.holes = star.holes
        #: Where the marks of ``legal_moves`` start in its ``out`` (past every move).
        self.scratch = game.pieces_each * (star.holes - 1) + 1
        loss = -1 if game.num_players == 2 else 0
        head = [star.holes, game.num_players, game.pieces_each, game.ply_limit, loss,
                self.scratch, 0, 0]  # fmt: skip
        goals = [hole for player in range(game.num_players) for hole in game.goal_holes(player)]
        distances = [d for table in game.distances for d in table]
        self.consts = int64_array(head + list(star.flat_links) + goals + distances)

    def problem(self, state: ChineseCheckersState | None) -> str | None:
        """A state that is no position of the game (with more than two players the
        port takes no task of the kernel, whose searches are two-player: ``tasks`` is
        empty, and its rules are checked against the game's by the conformance suite,
        as Rolit's are)."""
        game = self.game
        if state is not None:
            try:
                game.check_state(state)
            except Exception as exc:  # the reason, as a sentence
                return str(exc)
        return None

    def prepare(self, state: ChineseCheckersState) -> Prepared:
        """The game's constants; moves: the scratch offset plus ``3H``; plies: those
        left before the draw, and one spare."""
        prepared = Prepared(self.consts, None, max_moves=self.scratch + 3 * self.holes,
                            max_plies=self.game.ply_limit - state.ply + 1,
                            move_space=self.holes * self.holes + 1)  # fmt: skip
        prepared.state = self.encode(prepared, state)
        return prepared

    def encode(self, prepared: Prepared, state: ChineseCheckersState) -> Any:
        """``[ply, turn, owner + 1 of each hole]``."""
        cells = [0] * (CELLS + self.holes)
        cells[PLY], cells[TURN] = state.ply, state.turn
        for player, mask in enumerate(state.pieces):
            while mask:
                low = mask & -mask
                cells[CELLS - 1 + low.bit_length()] = player + 1
                mask ^= low
        return int64_array(cells)

    def encode_move(self, prepared: Prepared, move: ChineseCheckersMove) -> int:
        """``origin * H + destination``; a pass ``H * H``."""
        if move == PASS:
            return self.holes * self.holes
        return move[0] * self.holes + move[1]

    def decode_move(self, prepared: Prepared, move: int) -> ChineseCheckersMove:
        """The inverse of :meth:`encode_move`."""
        if move == self.holes * self.holes:
            return PASS
        origin, destination = divmod(int(move), self.holes)
        return (origin, destination)
