"""The game protocol: what a game of two (or more) players tells the search engine.

A game is an object that knows the rules; states are plain immutable values (tuples,
named tuples, frozen dataclasses) that it creates and reads. The engine never looks
inside a state: it only asks the game. To add a game, subclass :class:`BaseGame` and
implement the seven required members::

    name                      a short registry name, e.g. "tictactoe"
    initial_state()           the start position
    to_move(state)            0 or 1 (0 to N-1 in a game of N players, see
                              num_players): the player who moves in a decision state
    legal_moves(state)        the moves, in a deterministic order (empty iff terminal)
    play(state, move)         the child state; the parent is never changed; an illegal
                              move raises IllegalMoveError (see play_unchecked)
    is_terminal(state)        whether the game is over
    utility(state, player)    the final payoff of a terminal state for ``player``

Everything else has a safe default and can be overridden to make the game nicer to
use (``parse_move``/``format_move``, ``parse_position``/``format_position``,
``render``; for the game room and the tree lab, ``player_names``, ``board`` and
``tree_picture``, see :class:`Board`), stronger (``evaluate``, ``order_moves``,
``quiescence_moves``, ``extension``, ``null_move``, ``is_quiet``), faster
(``play_unchecked``, ``key``, ``terminal_value``, ``winning_move``, ``forced_moves``,
``remaining_plies``, :attr:`last_mover_wins`; ``canonical_key`` for opening books),
stochastic (``has_chance``, ``is_chance``, ``chance_outcomes``), or of more than two
players (:attr:`~BaseGame.num_players`, ``utilities``, ``evaluations``, ``with_turn``).

Conventions the engine relies on:

* Games of more than two players set :attr:`~BaseGame.num_players`; everything below
  about zero-sum utilities holds for two-player games, which every search but the
  N-player ones (:mod:`plies.engine`'s max^n, paranoid, Best-Reply Search and MCTS)
  requires.
* Two-player games are zero-sum: ``utility(s, 0) == -utility(s, 1)``. Wins are positive. The
  engine scales utilities by :data:`WIN` and shifts them by the distance in plies, so
  faster wins and slower losses are preferred; non-zero utilities should be multiples
  of 0.001 with magnitude at most 1000 (the usual +1/0/-1 is fine).
* ``evaluate`` estimates a non-terminal state for ``player`` in any unit whose
  magnitude stays below ``WIN / 1000`` (one million): a proven win always beats it.
* ``to_move`` is asked of chance states too: it names the player whose turn the chance
  event belongs to (in Pig, the player rolling). The outcomes are applied with
  ``play`` like moves and their probabilities must sum to 1.
* When a player can move twice in a row (or the game has chance nodes), set
  :attr:`alternating` to False: the engine then compares ``to_move`` of parent and
  child instead of assuming the turn passes.
* ``check_state`` says whether a value is a position of the game: the engine asks it
  once per search, of the position it was given, so that None or another game's state
  is refused with :class:`~plies.errors.ArgumentTypeError` before the search starts.
  The built-in games also check the states (and moves) every public method is given.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from plies._arguments import need_text, shown
from plies.errors import ArgumentTypeError, IllegalMoveError, ParseError, SearchError

__all__ = ["WIN", "BaseGame", "Board", "Cell", "M", "S"]

#: Scale of a win in engine scores: a terminal state with utility ``u`` reached ``d``
#: plies from the root scores ``u * WIN - d`` (a win, ``u > 0``) or ``u * WIN + d``.
WIN = 1_000_000_000.0

S = TypeVar("S")
"""The type of a game's states (immutable)."""
M = TypeVar("M")
"""The type of a game's moves and chance outcomes (hashable, immutable)."""


#: A cell of a :class:`Board`: (row, column), row 0 at the top.
Cell = tuple[int, int]


def _no_cells(_text: str) -> Sequence[Cell]:
    return ()


@dataclass(frozen=True)
class Board:
    """A game's board as the game room draws it (see :meth:`BaseGame.board`).

    ``rows`` hold one character a cell: ``.`` empty, ``x`` the first player's, ``o``
    the second's (chess: FEN's piece letters; checkers: ``b``/``w`` men, ``B``/``W``
    kings, ``-`` a light square). ``kind`` says how a page draws them: ``"marks"``
    (letters), ``"discs"``, ``"chess"`` or ``"checkers"``. ``columns`` and
    ``row_labels`` label the edges (empty: none).

    A move is shown on the board in one of two ways. Games played by placing a mark
    or a disc give ``cells_of``: the cells a move's text stands for (an m,n,k cell,
    a Connect Four column, an Othello square). Games played by picking a piece up
    (chess, checkers) give ``detail_of``: a move object's ``"path"`` (the cells the
    piece stands on and lands on, in order) first, then what else a page needs (a
    pawn's ``"promotion"``, the ``"captured"`` cells), as JSON-able values.
    ``numbers`` are the square numbers shown on the cells (checkers), ``check`` the
    cell of a king in check (chess).

    >>> board = Board(["x.", ".o"], cells_of=lambda text: [divmod(int(text) - 1, 2)])
    >>> board.cells_of("2")
    [(0, 1)]
    """

    rows: Sequence[str]
    kind: str = "marks"
    columns: Sequence[str] = ()
    row_labels: Sequence[str] = ()
    cells_of: Callable[[str], Sequence[Cell]] = _no_cells
    detail_of: Callable[[Any], dict[str, Any]] | None = None
    numbers: Sequence[Sequence[str]] | None = None
    check: Cell | None = None


class BaseGame(ABC, Generic[S, M]):
    """Base class of every game: seven abstract members, every hook with a default.

    Subclasses set the class attribute :attr:`name` and implement the abstract
    methods. Methods must not mutate states. The engine reads each hook once per
    search (bound-method lookups are hoisted out of its loops), and skips a hook that
    a subclass did not override, so the defaults cost nothing.
    """

    #: Registry name of the game, e.g. ``"tictactoe"`` (a class or instance attribute).
    name: str = "game"
    #: How many players the game has (a class or instance attribute). Two-player games
    #: keep the default; a game of N > 2 players numbers them 0 to N-1 in
    #: :meth:`to_move`, gives each one's payoff in :meth:`utility` (not necessarily
    #: zero-sum) and is searched by the N-player searches (max^n, paranoid, Best-Reply
    #: Search, MCTS), which read :meth:`utilities` and :meth:`evaluations`.
    num_players: int = 2
    #: Whether :meth:`is_quiet` can say yes (a class or instance attribute). A game
    #: that overrides it but, as configured, has no quiet move (chess with reductions
    #: off) sets it False: the engine then searches it as a game without the hook (no
    #: reductions, and no ordering or pruning by quiet moves).
    has_quiet_moves: bool = True
    #: Whether any state can be a chance node. Deterministic games leave it False so
    #: the engine never asks :meth:`is_chance`.
    has_chance: ClassVar[bool] = False
    #: Whether every move hands the turn to the other player (a pass implemented as a
    #: move still alternates). Games where a player may move twice in a row set it
    #: False; games with chance nodes are always searched as non-alternating.
    alternating: ClassVar[bool] = True
    #: Whether a game can only be won (utility +1 for the winner, -1 for the loser)
    #: by the move that ends it, for the player who made it (Connect Four,
    #: tic-tac-toe, Nim), every other end being a draw of utility 0. The exact solver
    #: then knows that a side wins only on its own moves, which bounds the score of a
    #: position before it is searched, and picks its thresholds by win distance.
    last_mover_wins: ClassVar[bool] = False
    #: The class of the game's states, for :meth:`check_state` (None: the class of
    #: :meth:`initial_state`'s).
    state_type: ClassVar[type | None] = None

    # -- rules (required) -----------------------------------------------------------

    @abstractmethod
    def initial_state(self) -> S:
        """The start position."""

    @abstractmethod
    def to_move(self, state: S) -> int:
        """The player to move: 0 (first player) or 1; 0 to ``num_players - 1`` in a
        game of more players.

        In a chance state, the player whose turn the chance event belongs to. Asked
        of terminal states too (the player who would move next, whose view
        :meth:`terminal_value` gives).
        """

    @abstractmethod
    def legal_moves(self, state: S) -> Sequence[M]:
        """The legal moves in a deterministic order; empty exactly when terminal."""

    @abstractmethod
    def play(self, state: S, move: M) -> S:
        """The state after ``move`` (or chance outcome); ``state`` is left unchanged.

        The promise every game keeps (the conformance suite checks it): a move that
        is not legal in ``state`` (not in :meth:`legal_moves`, or at a chance node not
        among :meth:`chance_outcomes`, or any move once the game is over) raises
        :class:`~plies.errors.IllegalMoveError` naming the move and why; a move of the
        wrong type (a string or float where the game's moves are ints, None, a bool)
        raises :class:`~plies.errors.ArgumentTypeError` or IllegalMoveError. Never an
        IndexError, never a silently wrong state. Use :meth:`parse_move` for text.

        The engine does not pay for the check: it plays only moves it got from
        :meth:`legal_moves` or :meth:`chance_outcomes`, through :meth:`play_unchecked`.
        """

    def check_state(self, state: object) -> None:
        """Raise unless ``state`` can be a position of this game: an
        :class:`~plies.errors.ArgumentTypeError` for a value of another type (None,
        text, another game's state), a :class:`~plies.errors.PliesError` for one of
        the right type that no game reaches (a board of another size).

        The engine asks once per search, of the position it is given. The default
        accepts any value of the type :meth:`initial_state` returns (or a subclass of
        it); a game overrides it to look inside its states.
        """
        expected = self.state_type or type(self.initial_state())
        if not isinstance(state, expected):
            raise ArgumentTypeError(
                f"{self.name}: a state must be of type {expected.__name__}, not {shown(state)}"
            )

    def play_unchecked(self, state: S, move: M) -> S:
        """:meth:`play` without the legality check, for moves known to be legal.

        The engine's hot path: it calls this for moves from :meth:`legal_moves` and
        :meth:`chance_outcomes` only. The default calls :meth:`play`; a game whose
        check costs something implements the rules here and checks in :meth:`play`.
        An illegal move here may give a meaningless state: that is the caller's fault.
        """
        return self.play(state, move)

    @abstractmethod
    def is_terminal(self, state: S) -> bool:
        """Whether the game is over."""

    @abstractmethod
    def utility(self, state: S, player: int) -> float:
        """The payoff of terminal ``state`` for ``player`` (zero-sum: positive = win)."""

    def utilities(self, state: S) -> tuple[float, ...]:
        """The payoffs of terminal ``state`` for every player, in player order.

        The default asks :meth:`utility` once per player; an N-player game can
        override it to answer from one look at the state.
        """
        return tuple(self.utility(state, player) for player in range(self.num_players))

    def evaluations(self, state: S) -> tuple[float, ...]:
        """Static estimates of non-terminal ``state`` for every player, in player order
        (the vector a max^n search backs up from its horizon).

        The default asks :meth:`evaluate` once per player.
        """
        return tuple(self.evaluate(state, player) for player in range(self.num_players))

    def with_turn(self, state: S, player: int) -> S | None:
        """``state`` with ``player`` to move, as if the players between had passed, or
        None where the game cannot say (the default).

        Best-Reply Search (:func:`plies.engine.best_reply`) asks it in games of more
        than two players: it tries the moves of every opponent of the searching player
        from the same position and, after the best reply, gives the turn straight back
        (Rolit: the same discs with another player to move). Two-player games need not
        implement it.
        """
        self.check_state(state)
        return None

    # -- search hooks (optional) ----------------------------------------------------

    def key(self, state: S) -> Hashable:
        """A hashable key, equal for equal states, for the transposition table.

        States sharing a key must be interchangeable for the search: the same legal
        moves and the same value for the side to move (the player's name may differ).

        The default is the state itself. Override it to merge symmetric states or to
        return a cheaper key (e.g. one integer for a bitboard).
        """
        return state

    def canonical_key(self, state: S) -> Hashable:
        """A key equal for ``state`` and its symmetric images (a mirrored board), for
        opening books (:mod:`plies.book`), which store such states once.

        States sharing a canonical key must have the same value for the side to move;
        unlike :meth:`key`, their moves may differ (the mirror image of each other's).
        The default is :meth:`key`: no symmetry merged. Connect Four merges a board
        with its left-right mirror image.
        """
        return self.key(state)

    def terminal_value(self, state: S) -> float | None:
        """The utility of ``state`` for the side to move if it is terminal, else None.

        The engine calls this once per node instead of :meth:`is_terminal`,
        :meth:`to_move` and :meth:`utility`; a game can override it to answer from
        one look at the state.
        """
        if not self.is_terminal(state):
            return None
        return self.utility(state, self.to_move(state))

    def evaluate(self, state: S, player: int) -> float:
        """Static estimate of non-terminal ``state`` for ``player`` (default 0: unknown).

        Must stay below ``WIN / 1000`` in magnitude and be zero-sum like utilities.
        """
        return 0.0

    def order_moves(self, state: S, moves: Sequence[M]) -> Sequence[M]:
        """Return ``moves`` reordered most promising first (default: unchanged).

        The engine tries the transposition-table move, then killer moves, then this
        order refined by the history heuristic. The order never changes the value a
        search returns, only how fast it gets there.
        """
        self.check_state(state)
        return moves

    def quiescence_moves(self, state: S) -> Sequence[M]:
        """Moves still worth searching when the depth runs out (default: none).

        Return the "noisy" moves (captures, immediate threats) of a non-terminal
        state. At the horizon the engine evaluates the state ("stand pat") and then
        searches these moves, recursively, until none are left. Where
        :meth:`extension` is above 0 (chess: in check) it does not stand pat: these
        moves (chess: every evasion) alone give the score.
        """
        self.check_state(state)
        return ()

    def extension(self, state: S) -> int:
        """Plies to search ``state`` deeper than its depth says (default 0).

        Chess extends a position where the side to move is in check by one ply, so a
        check at the horizon is answered by every evasion rather than by a static
        guess. The engine extends only within twice the iteration's depth from the
        root, so extensions cannot chain without end.
        """
        self.check_state(state)
        return 0

    def null_move(self, state: S) -> S | None:
        """``state`` with the turn passed to the opponent, or None where passing is
        not allowed or not sensible (default: None, no null-move pruning).

        With it the engine prunes by null moves: at a node searched with a null window
        at least three plies from the horizon, if the static evaluation reaches beta
        and even passing keeps the score at beta or above in a search two or three
        plies shallower, the node fails high without searching its moves. A game
        returns None in check, after a null move, and where passing could be the
        best move (zugzwang: in chess, when the side to move has only pawns left),
        which would make the pruning wrong.
        """
        self.check_state(state)
        return None

    def is_quiet(self, state: S, move: M) -> bool:
        """Whether ``move`` is quiet: nothing taken, promoted or threatened at once
        (default False: no move is reduced).

        Late-move reductions: the engine searches quiet moves late in the order (after
        the table move, the killers and the first few) one ply shallower with a null
        window, and at full depth only if they beat the best score so far. A game
        answers False where a move must not be reduced (chess: captures, promotions,
        checks, and any move out of check).
        """
        self.check_state(state)
        return False

    def winning_move(self, state: S) -> M | None:
        """A move that ends the game at once with a win for the side to move, or None.

        None means "none known"; the default knows none. When a move is returned the
        engine plays it without generating the others (a win in one is the best
        possible outcome), which makes exact solving much cheaper.
        """
        self.check_state(state)
        return None

    def forced_moves(self, state: S) -> Sequence[M] | None:
        """Exactly the legal moves that do not lose at once, or None (not known).

        "Loses at once": the opponent can then win with their next move, as with the
        moves that leave a Connect Four threat unblocked. An empty sequence means every
        move loses at once. The engine asks only about states where
        :meth:`winning_move` found no win (so a game must implement both), and only
        where the search sees at least two plies further, so the value never changes,
        only the work. The exact solver goes further: below its root it plays only
        these moves, so no position it visits has a win in one. The default: None.
        """
        self.check_state(state)
        return None

    def can_win(self, state: S, player: int) -> bool:
        """Whether ``player`` could still win from ``state`` by some series of legal
        moves (False: it cannot, whatever the others play).

        A match scores a player's loss on time as a draw when no other player can win
        (chess: a flag that falls against a bare king). The default: True.
        """
        self.check_state(state)
        return True

    def remaining_plies(self, state: S) -> int | None:
        """The most plies the game can still last from ``state``, or None (unknown).

        Connect Four: the empty cells. The exact solver uses it for its score bounds
        (see :attr:`last_mover_wins`) and to scale its thresholds.
        """
        self.check_state(state)
        return None

    def utility_bounds(self) -> tuple[float, float]:
        """The smallest and largest utility any terminal state can have (default ±1).

        Star1/Star2 pruning at chance nodes relies on these bounds; heuristic
        evaluations are assumed to lie inside them after scaling by :data:`WIN`.
        """
        return (-1.0, 1.0)

    def exact_score(self, state: S, result: str, distance: int) -> int | None:
        """The game's own score of a solved position for the side to move, or None.

        ``result`` is ``"win"``, ``"draw"`` or ``"loss"`` and ``distance`` the plies
        to the end under perfect play (see :class:`~plies.engine.SolveResult`).
        Connect Four answers with Pascal Pons' score; ``plies solve`` prints it. The
        default: None (the game has no score of its own).
        """
        self.check_state(state)
        return None

    # -- chance (optional) ----------------------------------------------------------

    def is_chance(self, state: S) -> bool:
        """Whether ``state`` is a chance node (dice roll, card draw); default False.

        Only asked when :attr:`has_chance` is True.
        """
        self.check_state(state)
        return False

    def chance_outcomes(self, state: S) -> Sequence[tuple[M, float]]:
        """The outcomes of chance node ``state`` with their probabilities (sum 1).

        Each outcome is applied with :meth:`play`. Games with chance nodes must
        override this; the default raises :class:`~plies.errors.SearchError` for a
        game without chance (it has no chance node) and :class:`NotImplementedError`
        for one that forgot to.
        """
        if not self.has_chance:
            raise SearchError(f"{self.name} has no chance nodes")
        raise NotImplementedError(f"{self.name}: chance_outcomes is not implemented")

    # -- notation (optional) --------------------------------------------------------

    def format_move(self, state: S, move: M) -> str:
        """``move`` (legal in ``state``) as text; the default is ``str(move)``."""
        self.check_state(state)
        return str(move)

    def parse_move(self, state: S, text: str) -> M:
        """Read a move typed as text and check that it is legal in ``state``.

        The default compares ``text`` (surrounding spaces ignored) with
        :meth:`format_move` of every legal move. Raises :class:`IllegalMoveError`.
        """
        wanted = need_text(text, "a move's text").strip()
        self.check_state(state)
        for move in self.legal_moves(state):
            if self.format_move(state, move) == wanted:
                return move
        legal = " ".join(self.format_move(state, m) for m in self.legal_moves(state))
        raise IllegalMoveError(
            f"{self.name}: illegal move {text!r} (legal: {legal or 'none, the game is over'})"
        )

    def parse_position(self, text: str) -> S:
        """Read a POSITION: empty text is the start; the default reads a move list.

        Moves are separated by spaces or commas and played from the start with
        :meth:`parse_move`. Games with a customary board notation override this and
        accept both. Raises :class:`ParseError` or :class:`IllegalMoveError`.
        """
        need_text(text, "a position's text")
        state = self.initial_state()
        for token in text.replace(",", " ").split():
            if self.is_terminal(state):
                raise IllegalMoveError(f"{self.name}: move {token!r} after the game is over")
            if self.has_chance and self.is_chance(state):
                raise ParseError(f"{self.name}: move {token!r} at a chance node")
            state = self.play(state, self.parse_move(state, token))
        return state

    def format_position(self, state: S) -> str:
        """``state`` as POSITION text that :meth:`parse_position` reads back.

        The default is ``repr(state)``, which only suits debugging: games override it.
        """
        self.check_state(state)
        return repr(state)

    def render(self, state: S) -> str:
        """A human-readable picture of ``state`` (default: :meth:`format_position`)."""
        return self.format_position(state)

    # -- view (optional) ------------------------------------------------------------

    def player_names(self) -> tuple[str, ...] | None:
        """What the players are called, first player first, one name per player
        (chess: ``("White", "Black")``), or None (the default): the game room calls
        them "player 1", "player 2" and so on."""
        return None

    def board(self, state: S) -> Board | None:
        """``state``'s board as the game room draws it, with the cells each move
        stands for (see :class:`Board`), or None (the default): the room draws a
        small board from the position text where it finds one (rows joined by ``/``,
        or a :meth:`render` grid), without cells for the moves."""
        self.check_state(state)
        return None

    def tree_picture(self, state: S) -> list[str] | None:
        """A few short rows of text drawn under ``state``'s node in a game tree, or
        None (the default): the tree lab draws one from the position text where it
        finds a small board (see :meth:`board`)."""
        self.check_state(state)
        return None

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"
