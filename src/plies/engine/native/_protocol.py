"""The native game protocol: a game's rules as compiled functions over int64 arrays.

A native game is a set of Numba-compiled *rules* over a fixed-size state of int64s
(an array on the Python side, a pointer to its data in the rules), plus a Python
adapter (:class:`NativeGame`) that converts the Python game's states and moves to and
from that form. Every rule also receives ``consts``, the game instance's constants
(board size, line masks...) as int64s, made once per search. The rules, with the
views the Python protocol has (``None`` becomes a
sentinel because compiled code has no None)::

    legal_moves(consts, state, out) -> int     moves into ``out``, in the Python order;
                                               returns how many (0 iff terminal)
    play(consts, state, move, child) -> None   writes the child state into ``child``
    terminal_value(consts, state) -> float     utility for the side to move, NaN if
                                               the game is not over
    evaluate(consts, state) -> float           static estimate for the side to move
    key(consts, state) -> uint64               equal iff the Python keys are equal,
                                               whatever root each was prepared from
    order_moves(consts, state, moves, n)       reorder ``moves[:n]`` in place
    winning_move(consts, state) -> int         a winning move, or -1 (none known)
    forced_moves(consts, state, moves, n) -> int
                                               keep the non-losing moves first, in
                                               order, and return their number; -1:
                                               not known
    quiescence_moves(consts, state, out) -> int
                                               the noisy moves a horizon node
                                               searches (0: none; the search then
                                               stands pat), ordered
    null_move(consts, state, child) -> int     1 and the position with the turn
                                               passed in ``child``, or 0: no pass here
                                               (the Python ``null_move``'s None)
    extension(consts, state) -> int            plies the search adds here (a check):
                                               0 or 1 (the buffers allow no more)
    is_quiet(consts, state, move) -> int       1 if a late ``move`` may be searched
                                               shallower first (late-move reduction)
    to_move(consts, state) -> int              the player to move, 0 .. N-1 (-1: not
                                               given; only games of more than two
                                               players need it)
    utilities(consts, state, values) -> int    1 and every player's utility in
                                               ``values`` (float64s) if the game is
                                               over, else 0; -1: not given
    evaluations(consts, state, values) -> int  1 and every player's static estimate
                                               in ``values``; -1: not given
    with_turn(consts, state, player, out) -> int
                                               1 and ``state`` with ``player`` to move
                                               in ``out`` (the Python ``with_turn``,
                                               Best-Reply Search's passes), 0 where
                                               that gives None (the game is over); -1:
                                               not given

Moves are non-negative int64 ids below :meth:`NativeGame.move_space` (the history
table is indexed by them). Write a rule as a plain function and decorate it with
:func:`rule` (``@rule("legal_moves")``); all after ``key`` have defaults (which
the kernel skips: see :meth:`NativeGame.hooks`). A game of N players sets
:attr:`NativeGame.players` and writes ``to_move`` and ``utilities`` (and
``evaluations`` for searches with a depth, ``with_turn`` for Best-Reply Search);
two-player games need none of the four. ``with_turn`` comes last in the kernel's
array of addresses, so the indices of the rules before it stay as they were.

Why compiled function *pointers* (``numba.cfunc``) and not Numba's other ways to make
one search serve many games, measured on this machine with Numba 0.68 on a toy kernel
(a tree walk calling two rules):

* the rules as dispatcher arguments of an ``@njit(cache=True)`` search: the search
  is compiled again on every run, never read from the cache (a dispatcher's type
  names the function object): 0.5 s on the toy, seconds on the real search;
* a factory closing over the rules (``make_search(rules)``): the same, closures are
  not cached;
* the rules' addresses: the search is compiled once for every game and cached (warm
  start 0.04 s); each rule call is an indirect call that cannot be inlined: 1.3-2x
  the time per node of the inlined toy.

The kernel receives the addresses as an int64 array (:meth:`NativeGame.rules`) and
calls them through :mod:`plies.engine.native._pointers`. (A tuple of Numba's
first-class function values, the first way this was written, cost 16 us per rule and
call to unbox: 0.13 ms per kernel call, more than a whole tic-tac-toe iteration.)
So a game pays only for compiling its own small rules, once, and loads them from the
cache afterwards. (Connect Four also keeps Pons' hand-inlined solver, in its home
``games/connect4``.)
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, ClassVar, Generic, TypeVar, cast

import numpy as np

from plies.engine.native import _mapped
from plies.engine.native._table import SEARCH_ENTRIES

__all__ = [
    "RULE_LETTERS",
    "RULE_NAMES",
    "NativeGame",
    "Prepared",
    "Rule",
    "deferred",
    "helper",
    "rule",
]

S = TypeVar("S")
M = TypeVar("M")

#: Each rule's C signature as ``struct`` letters (the result's, then the arguments':
#: ``P`` a pointer, ``q`` an int64, ``Q`` a uint64, ``d`` a float64, ``v`` none), in the
#: order of the array of addresses the kernel receives. Numba's types of the same:
#: :func:`numba_signatures` (``SIGNATURES``).
RULE_LETTERS: dict[str, str] = {
    "legal_moves": "qPPP",
    "play": "vPPqP",
    "terminal_value": "dPP",
    "evaluate": "dPP",
    "key": "QPP",
    "order_moves": "vPPPq",
    "winning_move": "qPP",
    "forced_moves": "qPPPq",
    "quiescence_moves": "qPPP",
    "null_move": "qPPP",
    "extension": "qPP",
    "is_quiet": "qPPq",
    "to_move": "qPP",
    "utilities": "qPPP",
    "evaluations": "qPPP",
    "with_turn": "qPPqP",
}

#: The order of the rules in the array of addresses the kernel receives.
RULE_NAMES = tuple(RULE_LETTERS)


def numba_signatures() -> dict[str, Any]:
    """Numba's signature of each rule (see the module docstring): what a rule receives
    for ``consts``, ``state``, ``out``, ``child`` and ``moves`` is a pointer to int64s,
    indexed like an array (no ``.size``, no slices; arrays cost a struct and two
    reference counts per call: pointers halved a toy walk's time per node), and
    ``utilities`` and ``evaluations`` write one float64 per player. Imports Numba."""
    if not _SIGNATURES:
        from numba import types

        array = types.CPointer(types.int64)  # type: ignore[no-untyped-call]
        values = types.CPointer(types.float64)  # type: ignore[no-untyped-call]
        kinds = {"P": array, "q": types.int64, "Q": types.uint64, "d": types.float64}
        kinds["v"] = types.none
        for name, letters in RULE_LETTERS.items():
            arguments = [kinds[letter] for letter in letters[1:]]
            if name in {"utilities", "evaluations"}:
                arguments[-1] = values
            _SIGNATURES[name] = kinds[letters[0]](*arguments)
    return _SIGNATURES


_SIGNATURES: dict[str, Any] = {}


def __getattr__(name: str) -> Any:
    """``SIGNATURES``: :func:`numba_signatures` (imports Numba when first asked for)."""
    if name == "SIGNATURES":
        return numba_signatures()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class Rule:
    """A native rule: the function, compiled by Numba (``numba.cfunc``) only when its
    address is first asked for and plies' object cache of its module does not load
    (see :mod:`._mapped`); a module whose rules Numba compiled has that cache written
    at exit. Importing a port with a valid cache therefore loads no Numba."""

    def __init__(self, kind: str, function: Callable[..., Any]) -> None:
        self.kind = kind
        self.function = function
        self.module = function.__module__
        self.name = function.__qualname__
        home = sys.modules.get(self.module)
        #: In an importable module's file (code run by ``exec`` is compiled each time:
        #: neither Numba's cache nor plies' can load it back).
        self.cacheable = getattr(home, "__file__", None) == function.__code__.co_filename
        self._compiled: Any = None
        if self.cacheable:
            _MODULE_RULES.setdefault(self.module, []).append(self)

    def __repr__(self) -> str:
        return f"<native rule {self.kind} {self.module}.{self.name}>"

    @property
    def address(self) -> int:
        """The address of the rule's C-ABI code: mapped from plies' cache, else Numba's."""
        mapped = self._mapped()
        if mapped is not None:
            return int(ctypes_address(mapped))
        return int(self.compiled().address)

    @property
    def ctypes(self) -> Any:
        """The rule as a ctypes function (pointers as ``c_void_p`` or ctypes pointers)."""
        mapped = self._mapped()
        return mapped if mapped is not None else self.compiled().ctypes

    def _mapped(self) -> Any:
        if not self.cacheable:
            return None
        entries = _mapped.mapped_rules(self.module)
        return None if entries is None else entries.get(self.name)

    def compiled(self) -> Any:
        """The rule compiled by Numba (cached on disk by Numba when cacheable), its
        module's helpers made Numba's first; the module's object cache is then
        written at exit."""
        if self._compiled is None:
            from numba import cfunc

            materialize(self.module)
            self._compiled = cfunc(numba_signatures()[self.kind], cache=self.cacheable)(
                self.function
            )
            if self.cacheable:
                _mapped.remember_rules(self.module)
        return self._compiled


def ctypes_address(function: Any) -> int:
    """The address of a ctypes function's code."""
    import ctypes

    return int(ctypes.cast(function, ctypes.c_void_p).value or 0)


#: The cacheable rules of each module, in their order of definition.
_MODULE_RULES: dict[str, list[Rule]] = {}


def compile_rules(module: str) -> tuple[list[bytes], dict[str, tuple[int, Any]]]:
    """The object files of ``module``'s rules compiled again as plain cfuncs (not
    loaded from Numba's cache, which keeps no object), by their qualified names."""
    from numba import cfunc

    from plies.engine.native._kentry import object_code
    from plies.engine.native._objload import CEntry

    materialize(module)
    objects: list[bytes] = []
    entries: dict[str, tuple[int, Any]] = {}
    for item in _MODULE_RULES.get(module, []):
        compiled = cfunc(numba_signatures()[item.kind])(item.function)
        objects.append(object_code(compiled))
        entries[item.name] = (
            len(objects) - 1,
            CEntry(compiled.native_name, RULE_LETTERS[item.kind]),
        )
    return objects, entries


def rule(kind: str) -> Callable[[Callable[..., Any]], Any]:
    """Make a function the native rule ``kind`` (one of :data:`RULE_NAMES`):
    ``@rule("play")`` over ``def play(consts, state, move, child)``, compiled when
    first needed (see :class:`Rule`). Cached on disk when the function lives in an
    importable module's file (code run by ``exec`` is compiled each time: Numba
    cannot load it back)."""
    if kind not in RULE_LETTERS:
        raise ValueError(f"unknown native rule {kind!r} (known: {', '.join(RULE_NAMES)})")

    def make_rule(function: Callable[..., Any]) -> Rule:
        return Rule(kind, function)

    return make_rule


class Helper:
    """A function the rules call, made a Numba function (``njit``, cached, without
    the GIL) only when a rule of its module is compiled or it is called: a port's
    helpers then import no Numba either (see :class:`Rule`)."""

    def __init__(self, function: Callable[..., Any], *, inline: bool) -> None:
        self.function = function
        self.inline = inline
        self._dispatcher: Any = None

    def dispatcher(self) -> Any:
        """The Numba function (its module's other helpers made Numba's too)."""
        if self._dispatcher is None:
            from numba import njit

            if self.inline:
                jit = njit(cache=True, nogil=True, inline="always")
            else:
                jit = njit(cache=True, nogil=True)
            self._dispatcher = jit(self.function)
            materialize(self.function.__module__)
        return self._dispatcher

    def __call__(self, *args: Any) -> Any:
        return self.dispatcher()(*args)


F = TypeVar("F", bound=Callable[..., Any])


def helper(*, inline: bool = False) -> Callable[[F], F]:
    """Make a function a helper of a port's rules (see :class:`Helper`); ``inline``:
    Numba inlines it into its callers (``inline="always"``). Typed as the function
    it wraps (a :class:`Helper` calls it with the same arguments)."""

    def make_helper(function: F) -> F:
        return cast(F, Helper(function, inline=inline))

    return make_helper


class Deferred:
    """A name of another module that a port's compiled code uses (a Numba intrinsic),
    imported only when the port's rules or helpers compile (see :func:`materialize`)."""

    def __init__(self, module: str, name: str) -> None:
        self.module = module
        self.name = name

    def resolve(self) -> Any:
        """The object the name stands for (its module imported)."""
        import importlib

        return getattr(importlib.import_module(self.module), self.name)


def deferred(module: str, name: str) -> Any:
    """``module``'s ``name`` for a port's compiled code, imported only when that code
    compiles: ``leading_zeros = deferred("numba.cpython.unsafe.numbers",
    "leading_zeros")`` keeps Numba out of the port's import."""
    return Deferred(module, name)


#: The package's names that compiled rules may read as ``native.<name>``.
_INTRINSICS = ("popcount", "trailing_zeros", "ptr", "call_legal_moves", "call_play")
#: Modules whose helpers are Numba's functions now.
_MATERIALIZED: set[str] = set()


def materialize(module: str) -> None:
    """Replace every :class:`Helper` in ``module``'s namespace by its Numba function
    (and every :class:`Deferred` name by its object),
    so that compiled code of the module finds Numba functions among its globals, and
    resolve the bit intrinsics the package exports lazily (``native.popcount`` in
    compiled code: Numba reads a module's attributes without its ``__getattr__``)."""
    package = sys.modules["plies.engine.native"]
    for name in _INTRINSICS:
        getattr(package, name)  # the package keeps it once asked for
    if module in _MATERIALIZED or module not in sys.modules:
        return
    _MATERIALIZED.add(module)
    namespace = vars(sys.modules[module])
    for name, value in list(namespace.items()):
        if isinstance(value, Helper):
            namespace[name] = value.dispatcher()
        elif isinstance(value, Deferred):
            namespace[name] = value.resolve()


@rule("evaluate")
def _no_evaluation(consts: Any, state: Any) -> float:
    return 0.0


@rule("order_moves")
def _game_order(consts: Any, state: Any, moves: Any, count: int) -> None:
    return None


@rule("winning_move")
def _no_winning_move(consts: Any, state: Any) -> int:
    return -1


@rule("forced_moves")
def _forced_unknown(consts: Any, state: Any, moves: Any, count: int) -> int:
    return -1


@rule("quiescence_moves")
def _no_quiescence(consts: Any, state: Any, out: Any) -> int:
    return 0


@rule("null_move")
def _no_null_move(consts: Any, state: Any, child: Any) -> int:
    return 0


@rule("extension")
def _no_extension(consts: Any, state: Any) -> int:
    return 0


@rule("is_quiet")
def _never_quiet(consts: Any, state: Any, move: int) -> int:
    return 0


@rule("to_move")
def _turn_not_given(consts: Any, state: Any) -> int:
    return -1


@rule("utilities")
def _utilities_not_given(consts: Any, state: Any, values: Any) -> int:
    return -1


@rule("evaluations")
def _evaluations_not_given(consts: Any, state: Any, values: Any) -> int:
    return -1


@rule("with_turn")
def _turn_change_not_given(consts: Any, state: Any, player: int, out: Any) -> int:
    return -1


class Prepared:
    """One position ready for the kernel: the game's constants, the encoded state,
    and the sizes of the buffers a search from it needs."""

    __slots__ = ("consts", "max_moves", "max_plies", "move_space", "quiescence_plies", "state")

    def __init__(
        self,
        consts: Any,
        state: Any,
        *,
        max_moves: int,
        max_plies: int,
        move_space: int,
        quiescence_plies: int = 0,
    ) -> None:
        self.consts = consts
        self.state = state
        self.max_moves = max_moves
        self.max_plies = max_plies
        self.move_space = move_space
        #: The most plies a quiescence search goes below the horizon.
        self.quiescence_plies = quiescence_plies


class NativeGame(Generic[S, M]):
    """The adapter between a Python game and its native rules.

    Subclasses set the class attributes ``legal_moves``, ``play``,
    ``terminal_value`` and ``key`` (and optionally any other rule of
    :data:`SIGNATURES`) to rules made with :func:`rule`, and
    implement :meth:`prepare`, :meth:`encode_move` and :meth:`decode_move` (and
    :meth:`problem` where some positions cannot be ported). A Python game
    advertises its port with a ``native()`` method returning one of these.
    """

    legal_moves: ClassVar[Any]
    play: ClassVar[Any]
    terminal_value: ClassVar[Any]
    key: ClassVar[Any]
    evaluate: ClassVar[Any] = _no_evaluation
    order_moves: ClassVar[Any] = _game_order
    winning_move: ClassVar[Any] = _no_winning_move
    forced_moves: ClassVar[Any] = _forced_unknown
    quiescence_moves: ClassVar[Any] = _no_quiescence
    null_move: ClassVar[Any] = _no_null_move
    extension: ClassVar[Any] = _no_extension
    is_quiet: ClassVar[Any] = _never_quiet
    to_move: ClassVar[Any] = _turn_not_given
    utilities: ClassVar[Any] = _utilities_not_given
    evaluations: ClassVar[Any] = _evaluations_not_given
    with_turn: ClassVar[Any] = _turn_change_not_given
    #: How many players the rules know (more than two: ``to_move`` and ``utilities``).
    players: ClassVar[int] = 2
    _addresses: ClassVar[Any] = None

    #: Largest buffers a search may allocate (moves x plies, int64s): 128 MB.
    MAX_BUFFER: ClassVar[int] = 1 << 24

    def rules(self) -> Any:
        """The addresses of the rules' compiled code in the kernel's order
        (:data:`RULE_NAMES`), as an int64 array (made once per class)."""
        cls = type(self)
        made = cls.__dict__.get("_addresses")
        if made is None:
            made = np.array([getattr(cls, name).address for name in RULE_NAMES], np.int64)
            cls._addresses = made
        return made

    def hooks(self) -> tuple[bool, bool, bool]:
        """Which optional hooks the game has: ``(order_moves, winning_move,
        forced_moves)`` (the kernel skips the defaults' calls)."""
        cls = type(self)
        return (
            cls.order_moves is not _game_order,
            cls.winning_move is not _no_winning_move,
            cls.forced_moves is not _forced_unknown and cls.winning_move is not _no_winning_move,
        )

    def pruning_hooks(self) -> tuple[bool, bool, bool]:
        """Which of the search's game hooks the port has: ``(null_move, extension,
        is_quiet)`` (as the Python engine asks whether a game overrides them)."""
        cls = type(self)
        return (
            cls.null_move is not _no_null_move,
            cls.extension is not _no_extension,
            cls.is_quiet is not _never_quiet,
        )

    def has_with_turn(self) -> bool:
        """Whether the game has the ``with_turn`` rule (Best-Reply Search's passes;
        a method of its own, as :meth:`has_quiescence`: :meth:`hooks` is unpacked
        as three flags by the two-player kernel's callers)."""
        return type(self).with_turn is not _turn_change_not_given

    def has_quiescence(self) -> bool:
        """Whether the game has the quiescence hook (the search's horizon nodes then
        search the noisy moves, as the Python engine does)."""
        return type(self).quiescence_moves is not _no_quiescence

    #: What the port does: the kernel's search and exact solver.
    tasks: ClassVar[tuple[str, ...]] = ("search", "solve")
    #: The entries of the table made when none is given (33 bytes each).
    table_entries: ClassVar[int] = SEARCH_ENTRIES

    def problem(self, state: S | None) -> str | None:
        """Why ``state`` (None: any state) cannot be searched natively, or None."""
        return None

    def search(self, game: Any, state: S, **options: Any) -> Any:
        """A native :func:`plies.engine.search` (a ``_generic.SearchRun``): its
        ``iterations()`` and ``result()``."""
        from plies.engine.native._generic import SearchRun

        return SearchRun(game, state, self, **options)

    def solve(self, game: Any, state: S, **options: Any) -> Any:
        """:func:`plies.engine.solve` by the kernel (see ``_generic.solve_port``)."""
        from plies.engine.native._generic import solve_port
        from plies.engine.solver import solve_result

        weak, moves = options["weak"], options["moves"]
        value, best, pv, stats = solve_port(game, state, self, **options)
        return solve_result(value, best, pv, stats, weak=weak, moves=moves, backend="native")

    def prepare(self, state: S) -> Prepared:
        """The constants and encoded ``state`` with the sizes of its search."""
        raise NotImplementedError

    def encode_move(self, prepared: Prepared, move: M) -> int:
        """A Python move as the rules' move id."""
        raise NotImplementedError

    def decode_move(self, prepared: Prepared, move: int) -> M:
        """A move id of the rules as the Python game's move."""
        raise NotImplementedError

    def encode(self, prepared: Prepared, state: S) -> Any:
        """``state``, a position of the same game as ``prepared`` (a line from it), as
        the rules' int64 array, with the constants of ``prepared``."""
        raise NotImplementedError

    def buffer_problem(self, prepared: Prepared) -> str | None:
        """Why the search buffers of ``prepared`` would be too large, or None."""
        cells = (prepared.max_plies + 2) * max(prepared.max_moves, prepared.state.size)
        if cells > self.MAX_BUFFER or prepared.move_space > self.MAX_BUFFER:
            return (
                f"the native search of this position needs buffers of {cells:,} "
                f"moves (at most {self.MAX_BUFFER:,})"
            )
        return None


def int64_array(values: Any) -> Any:
    """``values`` as a C-contiguous int64 array."""
    return np.ascontiguousarray(np.asarray(values, dtype=np.int64))
