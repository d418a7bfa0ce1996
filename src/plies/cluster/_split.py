"""One hard position solved on many Dask workers, with exactly the serial result.

The client keeps the top of the game tree (:mod:`plies.cluster._tree`), ``split``
plies deep (default :data:`DEFAULT_SPLIT`), each node with the bounds proven on its
score so far; the workers run *probes*, null-window searches ``(t, t + 1)`` of the
positions at the bottom of that tree (:mod:`plies.cluster._probe`). Where the game's
native port declares shared tables (:mod:`plies.engine.solver`: Connect Four's), the
workers on one machine share one transposition table (:mod:`plies.cluster._shared`);
other games' workers, and those of other machines, have their own. A probe's
fail-soft score is a bound on its position, and a node's bounds follow from its
children's by negamax, so every bound the client holds is proven and shared by all
later questions.

The questions are the serial solver's, asked of the tree:

1. **The value.** The root's window is narrowed by "is the score above ``t``?" tests
   with the serial solver's thresholds: the native port's rule where it declares
   threshold probes (Connect Four's: Pons' rule, :meth:`_Split._pons_value`, as
   ``solve_root`` picks them), and the Python solver's
   own :meth:`~plies.engine._exact.ExactSolver.value` for the rest, whose root
   searches are answered by the tree (:class:`_TreeSolver`).
2. **The best moves**: the root's moves, in the game's order, that reach the value.
3. **The line**: from the root, the first move in the game's order that keeps the
   value, ply after ply, through the tree (its bottom ``split`` plies below the line's
   position); once steps are cheap, the worker that probed the line's position (its
   table holds most of the proof) finishes it serially.

Each answer is a function of the exact scores only, so it is the serial one, whatever
the number of workers, the order probes finish in, or what their tables held.

A test is answered as the young-brothers-wait rule has it: at a node, the eldest
undecided child first; once one child failed to decide the node (an *all* node), its
younger brothers too, at once. Free workers take speculative probes (younger brothers
of a child still running) where they cannot help one (below), never more probes than
there are workers; a speculative probe, or a helper, is stopped when a more wanted
probe needs its worker. Probes no longer needed are cancelled, and a worker stops one
when it sees that (the bounds it stored stay).

A worker with nothing as wanted to do, on the machine of a probe of the most wanted
level, *helps* it (Lazy SMP): it runs the same probe in another move order (a seed
swaps the first two moves at some nodes near its root), on the shared table, so each
search finds bounds the other proved; whichever finishes first answers, the other is
cancelled.

The tree grows where the work is: a probe that has run :data:`SPLIT_AFTER` seconds
while a worker had nothing as wanted to do is *split* (its position is asked through
its children from then on; its worker, whose table holds what the stopped probe
proved, gets the eldest child). Few splits, few boundaries between tables: on two
workers of the simulated cluster of :mod:`plies.cluster._simulate` (tables not
shared), the first line of ``Test_L1_R3`` (``13712``) took 1.35 times the serial nodes
in all and 1.47 times less time than one worker, where a fixed split 2 plies deep took
1.51 times the nodes and 1.29 times less time. With tables shared, a worker of the
probe's machine helps it instead, unless the value is asked and the probe is expected
to be an all node (every child searched: the root taken for a cut node, nodes an odd
number of plies below it); then its children are asked at once, not one after the
other. On two workers of one machine, ``13712`` took 1.1-1.2 times the serial nodes in
all, with a table each 1.3-1.4 times (``benchmarks/cluster.py``).
:class:`SplitReport` holds a solve's figures per worker.
"""

from __future__ import annotations

import contextlib
import importlib.util
import itertools
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from plies.cluster._head import HeadStart
from plies.cluster._lines import HEAD_START, NEEDS_DASK
from plies.cluster._probe import ENGINE, PONS, Probed, ProbeJob, pons_table, work_done
from plies.cluster._shared import release
from plies.cluster._tree import Node, Want
from plies.engine import (
    Limits,
    SearchStats,
    SolveResult,
    StopRequest,
    TranspositionTable,
    choose_backend,
    solve,
)
from plies.engine.solver import (
    MAX_PLY,
    SHARED_TABLE,
    SOLVE_MOVES,
    THRESHOLD_PROBE,
    ExactSolver,
    SearchContext,
    ThresholdPort,
    best_moves_and_line,
    deadline_of,
    overrides,
    port_capabilities,
    solve_result,
    solve_stopped,
    stop_callable,
    threshold_port,
)
from plies.errors import PliesError, SearchError
from plies.game import BaseGame

__all__ = ["DEFAULT_SPLIT", "HANDOFF_SECONDS", "SplitReport", "helper_seed", "solve_parallel"]

#: Plies of the tree the client keeps below the root (and below each node of the line).
DEFAULT_SPLIT = 1
#: The time a task of cheap probes should take on a worker, in seconds.
CHUNK_SECONDS = 0.05
#: Probes in one task at most.
MAX_CHUNK = 64
#: A step of the line whose probes took the workers less than this many seconds in all
#: hands the rest of the line to one worker.
HANDOFF_SECONDS = 0.5
#: Seconds between two looks at the stop request and the limits while probes run.
WAIT_SECONDS = 0.1
#: A probe that has run this many seconds while a worker has nothing to do is split:
#: its position is asked through its children instead (see :meth:`_Split._expand`).
SPLIT_AFTER = 0.25
#: Plies below the tree's horizon that splitting a probe may reach at most.
MAX_EXTRA = 10
#: Whether a speculative probe is stopped when a more wanted one needs its worker.
PREEMPT = True
#: Whether the workers of one machine share one Connect Four table
#: (:mod:`plies.cluster._shared`).
SHARE_TABLE = True
#: Multiplied by the count of helpers so far: a helper's seed (made odd).
HELPER_SEED = 0x9E3779B97F4A7C15


@dataclass
class SplitReport:
    """How a split solve spread its work, in nodes more than seconds (on a loaded
    machine, workers get unequal shares of the cores: only the simulated cluster of
    :mod:`plies.cluster._simulate` gives figures free of the load).
    ``worker_nodes`` and ``worker_seconds``: per worker address, every node and
    second of its probes and lines (cancelled and stopped ones too; the result's
    ``stats.nodes`` counts the finished ones only). ``phases``: per question (``value``,
    ``best moves``, ``line``), the wall seconds and the finished tasks' nodes.
    ``tasks`` and ``probes``: the tasks sent and the probes in them; ``expansions``:
    the probes split while a worker had nothing to do; ``helpers``: the helpers sent
    (a probe's search in another order, on a shared table)."""

    worker_nodes: dict[str, int] = field(default_factory=dict)
    worker_seconds: dict[str, float] = field(default_factory=dict)
    phases: dict[str, tuple[float, int]] = field(default_factory=dict)
    tasks: int = 0
    probes: int = 0
    expansions: int = 0
    helpers: int = 0
    wall: float = 0.0

    @property
    def total_nodes(self) -> int:
        """Every node of every worker."""
        return sum(self.worker_nodes.values())

    @property
    def critical_nodes(self) -> int:
        """The largest node sum of one worker: the schedule's length in nodes at best
        (a worker waiting for another's probe makes it longer)."""
        return max(self.worker_nodes.values(), default=0)


def solve_parallel(
    game: BaseGame[Any, Any],
    state: Any,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    limits: Limits | None = None,
    stop: StopRequest | None = None,
    progress: Callable[[int], None] | None = None,
    weak: bool = False,
    moves: str = "line",
    backend: str | None = None,
    table_size: int | None = None,
    split: int = DEFAULT_SPLIT,
    head_start: float = HEAD_START,
    report: SplitReport | None = None,
) -> SolveResult:
    """:func:`plies.engine.solve` of one position on a Dask cluster: a new
    ``distributed.LocalCluster`` of ``workers`` single-threaded processes, or the
    scheduler at ``scheduler`` (``tcp://`` or ``tls://HOST:PORT``, from the person who
    runs it: a cluster must be trusted, it unpickles what it is sent; ``tls://`` takes
    Dask's TLS configuration, ``distributed.comm.tls.*``).

    The value, distance, best moves and line are exactly :func:`~plies.engine.solve`'s
    (the search splits ``split`` plies below the root, see :mod:`plies.cluster._split`);
    the statistics count the nodes of every worker. Probes run on the native port's
    kernel where the port declares threshold probes (Connect Four's, unless
    ``backend="python"``), on the Python solver otherwise. ``limits`` bound the nodes of
    all workers together and the time; running out, or ``stop``, raises
    :class:`SearchError` as :func:`solve` does. A position already decided (the game
    over, a win in one) is solved here. Before a local cluster is started, the position
    is solved here for ``head_start`` seconds (default
    :data:`~plies.cluster._lines.HEAD_START`), and on while the cluster starts
    (:class:`~plies.cluster._head.HeadStart`); a position solved meanwhile is the serial
    solve's, statistics included.

    ``report``, if given, is filled in with how the work was spread over the workers
    (a solve on the cluster only; see :class:`SplitReport`).
    """
    limits = limits if limits is not None else Limits()
    if workers is None and scheduler is None:
        raise PliesError("solve_parallel needs workers or a scheduler")
    if split < 1:
        raise PliesError(f"split must be at least 1 ply, not {split}")
    if game.has_chance:
        raise SearchError(f"{game.name}: solve needs a game without chance; use search")
    if moves not in SOLVE_MOVES:
        raise SearchError(f"unknown moves option {moves!r} (known: {', '.join(SOLVE_MOVES)})")
    if limits.depth is not None:
        raise SearchError("solve searches to the end of the game: give no depth limit")
    picked = choose_backend(game, backend, state=state)
    if importlib.util.find_spec("distributed") is None:  # say so before solving anything
        raise PliesError(NEEDS_DASK)
    winning = game.winning_move if overrides(game, "winning_move") else None
    if game.terminal_value(state) is not None or (
        winning is not None and winning(state) is not None
    ):
        return solve(game, state, limits=limits, stop=stop, weak=weak, moves=moves, backend=backend)
    scale, shareable = probe_scale(game, picked, state)
    job = ProbeJob(game, scale, table_size, uuid.uuid4().hex, shared=SHARE_TABLE and shareable)
    head = None
    try:
        if scheduler is None and head_start > 0:
            from plies.cluster._forkserver import start_fork_server, stop_fork_server

            # Meanwhile the server the workers fork from loads Dask and the kernel.
            start_fork_server(job)
            # on the workers' table, if they share one: its work is theirs too
            table = pons_table(game, table_size, job.token) if job.shared else None
            head = HeadStart(game, state, stop, limits=limits, progress=progress, weak=weak,
                             moves=moves, backend=backend, table=table)  # fmt: skip
            if head.wait(head_start):  # solved, or ended by a limit or a stop (raised)
                stop_fork_server()  # no cluster: the server would hold the output open
                solved = head.result()
                assert solved is not None  # only HeadStart.stop() ends it with neither
                return solved
        return _solve_on_cluster(job, state, workers, scheduler, limits, stop, progress, split,
                                 weak, moves, report, head)  # fmt: skip
    finally:
        if head is not None:
            head.stop()
        release(job.token)  # this process's map of the shared table, if it made one


def _solve_on_cluster(  # noqa: PLR0917  # solve_parallel's arguments, passed on
    job: ProbeJob,
    state: Any,
    workers: int | None,
    scheduler: str | None,
    limits: Limits,
    stop: StopRequest | None,
    progress: Callable[[int], None] | None,
    split: int,
    weak: bool,
    moves: str,
    report: SplitReport | None,
    head: HeadStart | None,
) -> SolveResult:
    """The split solve of :func:`solve_parallel` on the cluster; ``head``, the head
    start still searching while the cluster starts (the cluster's start is abandoned
    if it solves the position meanwhile)."""
    from plies.cluster._dask import StartStopped, cluster_client

    asked = stop_callable(stop)

    def start_stopped() -> bool:
        return (asked is not None and asked()) or (head is not None and head.done())

    try:
        with cluster_client(workers, scheduler, start_stopped) as client:
            if head is not None:
                solved = head.finish()
                if solved is not None:
                    return solved
                limits = head.limits_left()
            run = _Split(client, job, state, limits, stop, progress, split)
            if report is not None:
                run.report = report
            return run.solve(weak, moves)
    except StartStopped:
        if head is not None:
            solved = head.finish()  # raises what stopped it (a limit, a stop request)
            if solved is not None:
                return solved
        raise solve_stopped("stop requested", proven=False, moves=moves) from None


def probe_scale(game: BaseGame[Any, Any], backend: str, state: Any) -> tuple[str, bool]:
    """The scale of a split solve's probes of ``game`` at ``state`` on ``backend``
    (:data:`PONS` where the native port declares threshold probes, see
    :mod:`plies.engine.solver`; else :data:`ENGINE`, the Python solver's), and whether
    the port declares tables that processes may share."""
    declared = port_capabilities(game, backend, state)
    return (PONS if THRESHOLD_PROBE in declared else ENGINE), SHARED_TABLE in declared


class _Split:
    """One split solve on one Dask client: the tree, the probes out, the counters."""

    def __init__(  # noqa: PLR0917  # one call site, the arguments of one solve
        self,
        client: Any,
        job: ProbeJob,
        state: Any,
        limits: Limits,
        stop: StopRequest | None,
        progress: Callable[[int], None] | None,
        split: int,
    ) -> None:
        game = job.game
        self.client = client
        self.job = job
        self.game = game
        self.winning = game.winning_move if overrides(game, "winning_move") else None
        self.root = Node(state, 0, None, None, 1)
        self.split = split
        self.horizon = split
        self.limits = limits
        self.deadline = deadline_of(limits)
        self.stop = stop_callable(stop)
        self.progress = progress
        self.started = time.perf_counter()
        self.nodes = 0
        self.worker_seconds = 0.0
        #: future -> the probe it runs and the worker it was sent to
        self.out: dict[Any, tuple[list[tuple[Node, int]], str | None]] = {}
        self.sent_at: dict[Any, float] = {}  # future -> when it was sent
        self.per_probe: float | None = None  # seconds a probe takes, lately
        self.chunk = 1  # probes in the last task sent
        #: Probes for free workers while one finishes the line.
        self.meanwhile: Callable[[], Iterator[Want]] | None = None
        self.addresses: list[str] = []
        self.proven = False
        self.moves = "line"
        self.probes = 0
        self.tasks = 0
        self.expansions = 0
        self.helpers: set[Any] = set()  # the helper tasks out (see :meth:`_help`)
        self.helped = 0
        self.report: SplitReport | None = None  # filled in at the end if given
        self.phases: dict[str, tuple[float, int]] = {}
        self._began = self._now()
        self._phase = ("value", self._began, 0)

    # -- the serial solver's questions --------------------------------------------

    def solve(self, weak: bool, moves: str) -> SolveResult:
        """The value, then the moves ``moves`` asks for; the :class:`SolveResult`."""
        self.moves = moves
        warming = self._start()
        try:
            if self.job.scale == PONS:
                solved = self._solve_pons(weak, moves)
            else:
                solved = self._solve_engine(weak, moves)
        finally:  # the probes still running stop (see ProbeJob)
            self.client.cancel([*warming, *self.out])
            if self.job.shared:
                self._release()
        self._phase_ends("")
        if self.report is not None:
            self._fill_report(self.report)
        return solved

    def _start(self) -> list[Any]:
        """Wait for a worker, learn the workers, warm them up; the warm-up futures."""
        from plies.cluster._dask import warm_workers, worker_count

        worker_count(self.client, wait_for_one=True)
        self.addresses = self._workers()
        warming = warm_workers(self.client, self.job)
        self._counted = time.monotonic()
        return warming

    def _now(self) -> float:
        """The clock the schedule runs by (seconds)."""
        return time.monotonic()

    def _phase_ends(self, next_phase: str) -> None:
        """The question asked so far is answered: its figures go to the report."""
        name, started, nodes = self._phase
        now = self._now()
        self.phases[name] = (now - started, self.nodes - nodes)
        self._phase = (next_phase, now, self.nodes)

    def _release(self) -> None:
        """Have every worker unlink the solve's shared table (see
        :func:`~plies.cluster._shared.release`)."""
        with contextlib.suppress(Exception):  # a worker gone: it unlinked it at exit
            self.client.run(release, self.job.token)

    def _worker_work(self) -> dict[str, tuple[int, float]]:
        """Per worker, the nodes and seconds of this solve (:func:`work_done`)."""
        try:
            done: dict[str, tuple[int, float]] = self.client.run(work_done, self.job.token)
        except Exception:  # a worker gone: the result stands, no figures
            return {}
        return done

    def _fill_report(self, report: SplitReport) -> None:
        """The report's figures, the workers asked what they did."""
        done = self._worker_work()
        report.phases = dict(self.phases)
        report.worker_nodes = {address: nodes for address, (nodes, _) in done.items()}
        report.worker_seconds = {address: seconds for address, (_, seconds) in done.items()}
        report.probes = self.probes
        report.tasks = self.tasks
        report.expansions = self.expansions
        report.helpers = self.helped
        report.wall = self._now() - self._began

    def _solve_engine(self, weak: bool, moves: str) -> SolveResult:
        """The Python solver's :func:`~plies.engine.solve`, on the tree."""
        ctx = SearchContext(self.game, limits=Limits(), stop=None, table=TranspositionTable(16))
        solver = _TreeSolver(ctx, self)
        value = solver.value(self.root.state, weak=weak)
        self.proven = True
        self._phase_ends("moves")
        best, pv = self._moves(value, weak=weak, moves=moves, floor=solver.worst - MAX_PLY)
        return solve_result(value, best, pv, self._stats(), weak=weak, moves=moves)

    def _solve_pons(self, weak: bool, moves: str) -> SolveResult:
        """The native port's solve on the tree (its own scale: Pons' scores)."""
        port = threshold_port(self.game)
        state = self.root.state
        score = self._pons_value(port, weak)
        self.proven = True
        self._phase_ends("moves")
        if self.job.shared:  # split as the value's tests expected: not the moves'
            self.root.collapse()  # (asked about each root move, no node is expected all)
        if weak:
            score = (score > 0) - (score < 0)
        best, pv = self._moves(score, weak=weak, moves=moves, floor=port.floor())
        return port.solve_result(state, score, best, pv, self._stats(), weak=weak, moves=moves)

    def _pons_value(self, port: ThresholdPort, weak: bool) -> int:
        """The port's score of the root, narrowed with its thresholds (the serial
        solve's rule, as ``solve_root`` picks them)."""
        low, high = port.score_range(self.root.state, weak=weak)
        while low < high:
            med = port.next_threshold(low, high)
            self.test(self.root, med)
            low = max(low, min(self.root.lower, high))
            high = min(high, self.root.upper)
        return low

    def _moves(
        self, value: int, *, weak: bool, moves: str, floor: int
    ) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        """``(best moves, line)`` as :func:`~plies.engine.solve` finds them
        (:func:`~plies.engine.solver.best_moves_and_line`), asked of the tree."""

        def line(exact: int) -> tuple[Any, ...]:
            if moves == "all":  # workers free while one finishes the line: best moves
                self.meanwhile = lambda: self._reaching_wanted(self.root, exact)
            self._phase = ("line", *self._phase[1:])
            found = self.line(exact)
            self._phase_ends("best moves")
            return found

        def reaching(target: int, first_only: bool) -> list[Any]:
            if first_only:
                return [self.first_reaching(self.root, target).move]
            return [child.move for child in self.reaching(self.root, target)]

        return best_moves_and_line(
            value, weak=weak, moves=moves, floor=floor, line=line, reaching=reaching
        )

    def test(self, node: Node, threshold: int) -> bool:
        """Whether ``node`` scores above ``threshold``."""
        self.resolve(
            lambda: node.above(threshold) is not None,
            lambda: self._wanted(node, threshold, 0),
        )
        return bool(node.above(threshold))

    def reaching(self, node: Node, target: int) -> list[Node]:
        """The children of ``node`` whose moves reach ``target``, in order."""
        children = node.children(self.game, self.winning)
        threshold = target - 1
        self.resolve(
            lambda: all(c.move_above(threshold) is not None for c in children),
            lambda: self._reaching_wanted(node, target),
        )
        return [child for child in children if child.move_above(threshold)]

    def _reaching_wanted(self, node: Node, target: int) -> Iterator[Want]:
        """The probes that tell which moves of ``node`` reach ``target``."""
        for child in node.children(self.game, self.winning):
            yield from self._wanted(child, child.child_threshold(target - 1), 0)

    def first_reaching(self, node: Node, target: int) -> Node:
        """The first child of ``node`` whose move reaches ``target``."""
        children = node.children(self.game, self.winning)
        threshold = target - 1

        def first() -> Node | None:
            for child in children:
                above = child.move_above(threshold)
                if above is None:
                    return None
                if above:
                    return child
            raise AssertionError("no move reaches the value")

        def wanted() -> Iterator[Want]:
            level = 0
            for child in children:
                if child.move_above(threshold) is None:
                    yield from self._wanted(child, child.child_threshold(threshold), level)
                    level = 1

        self.resolve(lambda: first() is not None, wanted)
        found = first()
        assert found is not None
        return found

    def line(self, value: int) -> tuple[Any, ...]:
        """The serial solver's line from the root of exact score ``value``: its
        steps through the tree, which follows the line down (its bottom ``split``
        plies below the line's position), until a step costs the workers less than
        :data:`HANDOFF_SECONDS`; then, from the first position on the line that a
        worker probed, the rest by that worker (its table holds most of the proof)."""
        game = self.game
        node: Node = self.root
        line: list[Any] = []
        cheap = False
        while game.terminal_value(node.state) is None and len(line) < MAX_PLY:
            if cheap and (node.home is not None or node.final):
                line.extend(self._rest_of_line(node, value))
                break
            self.horizon = node.ply + self.split
            spent = self.worker_seconds
            node = self.first_reaching(node, value)
            cheap = self.worker_seconds - spent < HANDOFF_SECONDS
            line.append(node.move)
            if node.sign < 0:
                value = -value
        return tuple(line)

    def _rest_of_line(self, node: Node, value: int) -> tuple[Any, ...]:
        """The line from ``node`` (of exact ``value``) to the end, by one worker."""
        future = self.client.submit(
            _run_line,
            self.job,
            node.state,
            node.ply,
            value,
            self._task_limits(),
            workers=None if node.home is None else [node.home],
            allow_other_workers=node.home is not None,
            pure=False,
        )
        self.out[future] = ([], node.home)
        self.tasks += 1
        while True:
            self._check()
            if self.meanwhile is not None:
                self._send(self.meanwhile())
            done = self._wait()
            if future in done:
                return self._account(future)[0].line
            for other in done:
                self._collect(other)

    # -- probes ---------------------------------------------------------------------

    def _children_at_once(self, node: Node) -> bool:
        """Whether ``node``'s children are all asked at once, not the eldest first: with
        tables shared, while the value is asked, at a node expected to be an all node
        (see :func:`_all_expected`)."""
        return self.job.shared and self._phase[0] == "value" and _all_expected(node)

    def _wanted(self, node: Node, threshold: int, level: int) -> Iterator[Want]:
        """The probes that would answer "``node`` above ``threshold``?", by level of
        speculation: the eldest undecided child at the node's level, its younger
        brothers one higher unless an elder brother already failed to decide (or,
        with tables shared, while the value is asked, the node is expected to be an
        all node, see :meth:`_children_at_once`)."""
        if node.above(threshold) is not None:
            return
        if node.final or (node.ply >= self.horizon and not node.expanded):
            yield level, node.ply, node, threshold
            return
        children = node.children(self.game, self.winning)
        all_node = self._children_at_once(node)
        first = True
        for child in children:
            child_threshold = child.child_threshold(threshold)
            if child.above(child_threshold) is not None:
                all_node = True  # decided without deciding this node
                continue
            child_level = level if first or all_node else level + 1
            yield from self._wanted(child, child_threshold, child_level)
            first = False

    def resolve(self, done: Callable[[], bool], wanted: Callable[[], Iterator[Want]]) -> None:
        """Run the probes ``wanted`` asks for until ``done()``: stop those running
        that it no longer asks for (their node or an ancestor was decided) or that a
        more wanted probe needs the worker of; split a long one when a worker would
        otherwise wait or speculate (:meth:`_expand`)."""
        while not done():
            self._check()
            asked = list(wanted())
            self._drop(asked)
            if self._expand(asked):
                continue  # asked again: the split probe's children instead of it
            self._send(asked)
            if not self.out:
                raise AssertionError("the split solve found nothing to probe")
            for future in self._wait():
                self._collect(future)

    def _levels(self, asked: list[Want]) -> tuple[dict[Any, float], list[int]]:
        """The level of each probe task out (the most wanted of its probes, half a
        level more for a helper's; absent: none is asked), and the levels of the
        probes asked and not out, in order."""
        levels = {(id(node), threshold): level for level, _, node, threshold in asked}
        running: dict[Any, float] = {}
        out: set[tuple[int, int]] = set()
        for future, (probes, _) in self.out.items():
            found = [levels[key] for key in ((id(n), t) for n, t in probes) if key in levels]
            if found:
                running[future] = min(found) + (0.5 if future in self.helpers else 0)
            out.update((id(node), threshold) for node, threshold in probes)
        unsent = sorted(level for key, level in levels.items() if key not in out)
        return running, unsent

    def _drop(self, asked: list[Want]) -> None:
        """Cancel the tasks of probes none of which is ``asked`` for, and speculative
        ones whose worker a more wanted probe needs (their worker stops them within a
        few milliseconds; the bounds they stored stay)."""
        running, unsent = self._levels(asked)
        dropped = [future for future, (probes, _) in self.out.items()
                   if probes and future not in running]  # fmt: skip
        free = len(self.addresses) - len({worker for _, worker in self.out.values()})
        for level in unsent if PREEMPT else ():
            if free > 0:
                free -= 1
                continue
            victims = [f for f, at in running.items() if at > level and f not in dropped]
            if not victims:
                break
            dropped.append(max(victims, key=running.__getitem__))
        for future in dropped:
            del self.out[future]
            self.sent_at.pop(future, None)
            self.helpers.discard(future)
        if dropped:
            self.client.cancel(dropped)

    def _expand(self, asked: list[Want]) -> bool:
        """Split the probe of the most wanted level that has run longest, at least
        :data:`SPLIT_AFTER` seconds, if a worker has nothing as wanted to do (with
        tables shared, unless the value is asked and the probe's node is expected to
        be an all node, a worker on another machine: one on the probe's helps it, see
        :meth:`_help`): its position is asked through its children from now on (the
        probe, no longer asked for, is dropped; its worker's table keeps what it
        proved, and that worker is sent the eldest child). Whether one was."""
        running, unsent = self._levels(asked)
        workers_out = {worker for _, worker in self.out.values()}
        spare = [worker for worker in self.addresses if worker not in workers_out]
        now = self._now()
        picked: tuple[tuple[float, float], Node] | None = None
        for future, level in running.items():
            probes, home = self.out[future]
            age = now - self.sent_at[future]
            node = probes[0][0]
            if len(probes) != 1 or node.final or age < SPLIT_AFTER:
                continue
            if node.ply >= self.horizon + MAX_EXTRA or any(at <= level for at in unsent):
                continue  # a worker has as wanted a probe to run
            idle = spare + [self.out[f][1] for f, at in running.items() if at > level]
            if self.job.shared and not self._children_at_once(node):
                # a worker of the probe's machine helps it (an expected cut node's)
                idle = [w for w in idle if w is not None and _host(w) != _host(home or "")]
            if idle and (picked is None or (level, -age) < picked[0]):
                picked = ((level, -age), node)
        if picked is None:
            return False
        node = picked[1]
        node.expanded = True
        for child in node.children(self.game, self.winning):
            child.home = child.home or node.home
        self.expansions += 1
        return True

    def _send(self, wanted: Iterable[Want]) -> int:
        """Send the most wanted probes not already out to each free worker: of the
        most wanted level, first those that worker ran before (its table knows the
        positions). One probe per task while probes take long; cheap ones go in
        chunks of about :data:`CHUNK_SECONDS` (a task costs milliseconds). The
        number of workers left with nothing to do."""
        busy = {worker for _, worker in self.out.values()}
        free = [worker for worker in self.addresses if worker not in busy]
        if not free:
            return 0
        wanted = list(wanted)
        levels = self._levels(wanted)[0]
        top = min((at for f, at in levels.items() if f not in self.helpers), default=None)
        running = {
            (id(node), threshold) for probes, _ in self.out.values() for node, threshold in probes
        }
        order = itertools.count()
        ranked = [
            (level, node, threshold)
            for level, _, node, threshold in sorted(
                (level, next(order), node, t) for level, _, node, t in wanted
            )
            if (id(node), threshold) not in running
        ]
        size = 1
        if self.per_probe is not None:  # grows by doubling: a harder probe may come
            size = int(CHUNK_SECONDS / max(self.per_probe, 1e-6))
            size = max(1, min(MAX_CHUNK, size, 2 * self.chunk))
        self.chunk = size
        share = max(1, -(-len(ranked) // len(free)))  # spread over the free workers
        if ranked:  # workers with a probe of the top level at home choose first
            top = ranked[0][0]
            homes = {node.home for level, node, _ in ranked if level == top}
            free.sort(key=lambda worker: worker not in homes)
        idle = 0
        for worker in free:
            if (
                self.job.shared
                and top is not None
                and (not ranked or ranked[0][0] > top)
                and self._help(worker, levels, top)
            ):
                continue
            if not ranked:
                idle += 1
                continue
            chunk = [ranked.pop(self._pick(ranked, worker)) for _ in range(min(size, share))
                     if ranked]  # fmt: skip
            for _, node, _ in chunk:
                node.home = worker
            future = self.client.submit(
                _run_probes,
                self.job,
                [(node.state, node.ply, threshold) for _, node, threshold in chunk],
                self._task_limits(),
                workers=[worker],
                allow_other_workers=True,  # a worker that left: another runs it
                pure=False,
            )
            self.out[future] = ([(node, threshold) for _, node, threshold in chunk], worker)
            self.sent_at[future] = self._now()
            self.probes += len(chunk)
            self.tasks += 1
            levels[future] = min(level for level, _, _ in chunk)
            top = levels[future] if top is None else min(top, levels[future])
        return idle

    def _help(self, worker: str, levels: dict[Any, float], top: float) -> bool:
        """Send ``worker``, which has nothing as wanted to do, a helper of the most
        wanted probe out on its machine (its table shared, see
        :mod:`plies.cluster._shared`), the one with the fewest helpers, the oldest
        first: the same search in another move order (Lazy SMP), whose bounds the
        probe finds in the table. Whether there was one to help."""
        host = _host(worker)
        helpers: dict[tuple[int, int], int] = {}
        for future in self.helpers:
            node, threshold = self.out[future][0][0]
            helpers[id(node), threshold] = helpers.get((id(node), threshold), 0) + 1
        picked: tuple[tuple[int, float], Any] | None = None
        for future, at in levels.items():
            probes, home = self.out[future]
            if at != top or future in self.helpers or len(probes) != 1:
                continue
            if home is None or _host(home) != host:
                continue
            node, threshold = probes[0]
            rank = (helpers.get((id(node), threshold), 0), self.sent_at.get(future, 0.0))
            if picked is None or rank < picked[0]:
                picked = (rank, future)
        if picked is None:
            return False
        node, threshold = self.out[picked[1]][0][0]
        self.helped += 1
        seed = helper_seed(self.helped)
        future = self.client.submit(
            _run_probes,
            self.job,
            [(node.state, node.ply, threshold)],
            self._task_limits(),
            seed,
            workers=[worker],
            allow_other_workers=False,
            pure=False,
        )
        self.out[future] = ([(node, threshold)], worker)
        self.sent_at[future] = self._now()
        self.helpers.add(future)
        self.tasks += 1
        return True

    @staticmethod
    def _pick(ranked: list[tuple[int, Node, int]], worker: str) -> int:
        """The index of the next probe for ``worker``: the first of the most wanted
        level it ran before, else the most wanted."""
        top = ranked[0][0]
        for index, (level, node, _) in enumerate(ranked):
            if level != top:
                break
            if node.home == worker:
                return index
        return 0

    def _wait(self) -> set[Any]:
        from distributed import wait

        try:
            finished, _ = wait(  # type: ignore[no-untyped-call]
                list(self.out), timeout=WAIT_SECONDS, return_when="FIRST_COMPLETED"
            )
        except TimeoutError:
            finished = set()
        if time.monotonic() - self._counted > 1:  # workers come and go: count again
            self.addresses, self._counted = self._workers(), time.monotonic()
        return set(finished)

    def _workers(self) -> list[str]:
        """The addresses of the cluster's workers now."""
        return sorted(self.client.scheduler_info(n_workers=-1)["workers"])

    def _account(self, future: Any) -> list[Probed]:
        """The results of a finished task, counted; a stopped one stops the solve."""
        probes, _ = self.out.pop(future)
        self.sent_at.pop(future, None)
        self.helpers.discard(future)
        try:
            results: list[Probed] = future.result()
        except Exception as exc:  # a bug in a probe, or one that killed its workers
            raise PliesError(
                f"a probe failed on the cluster: {type(exc).__name__}: {exc}"
            ) from None
        seconds = 0.0
        for probed in results:
            self.nodes += probed.nodes
            seconds += probed.seconds
        self.worker_seconds += seconds
        if probes:  # the mean of the latest, mostly: a worker's first probes are slower
            latest = seconds / len(probes)
            self.per_probe = latest if self.per_probe is None else (self.per_probe + latest) / 2
        if self.progress is not None:
            self.progress(self.nodes)
        for probed in results:
            if probed.stopped is not None:
                raise solve_stopped(probed.stopped, proven=self.proven, moves=self.moves)
        return results

    def _collect(self, future: Any) -> None:
        probes, _ = self.out[future]
        for (node, threshold), probed in zip(probes, self._account(future), strict=True):
            if probed.score > threshold:
                node.low = max(node.low, probed.score)
            else:
                node.high = min(node.high, probed.score)
            node.update()

    def _check(self) -> None:
        """Stop the solve at a limit or a stop request."""
        reason = None
        if self.limits.nodes is not None and self.nodes >= self.limits.nodes:
            reason = "node limit"
        elif time.monotonic() >= self.deadline:
            reason = "time limit"
        elif self.stop is not None and self.stop():
            reason = "stop requested"
        if reason is not None:
            raise solve_stopped(reason, proven=self.proven, moves=self.moves)

    def _task_limits(self) -> Limits:
        """A probe's limits: what is left of the solve's."""
        nodes = None if self.limits.nodes is None else max(1, self.limits.nodes - self.nodes)
        time_left = None
        if self.limits.time is not None:
            time_left = max(0.001, self.deadline - time.monotonic())
        return Limits(nodes=nodes, time=time_left)

    def _stats(self) -> SearchStats:
        return SearchStats(nodes=self.nodes, time=time.perf_counter() - self.started)


class _TreeSolver(ExactSolver):
    """The Python solver whose root searches are answered by the split tree: its
    :meth:`value` picks the thresholds exactly as a serial solve does."""

    def __init__(self, ctx: SearchContext, split: _Split) -> None:
        super().__init__(ctx)
        self.split = split

    def search(self, state: Any, alpha: int, beta: int, ply: int = 0) -> int:
        """The root's fail-soft score in the null window ``(alpha, alpha + 1)``."""
        assert state is self.split.root.state and beta == alpha + 1 and ply == 0
        root = self.split.root
        return root.lower if self.split.test(root, alpha) else root.upper


def _run_probes(
    job: ProbeJob, probes: list[tuple[Any, int, int]], limits: Limits, seed: int = 0
) -> list[Probed]:
    """On a worker: probes ``(state, ply, threshold)`` one after the other (see
    :meth:`ProbeJob.probe`; ``seed``, a helper's), until one is stopped."""
    results = []
    for state, ply, threshold in probes:
        results.append(job.probe(state, ply, threshold, limits, seed=seed))
        if results[-1].stopped is not None:
            break
    results.extend(Probed(stopped=results[-1].stopped) for _ in probes[len(results) :])
    return results


def _run_line(job: ProbeJob, state: Any, ply: int, value: int, limits: Limits) -> list[Probed]:
    """On a worker: the rest of a line (see :meth:`ProbeJob.line`)."""
    return [job.line(state, ply, value, limits)]


def helper_seed(count: int) -> int:
    """The seed of a split solve's ``count``-th helper (odd: 0 is the usual order)."""
    return (HELPER_SEED * count) % 2**64 | 1


def _all_expected(node: Node) -> bool:
    """Whether ``node`` is expected to be an *all* node, every child searched: the
    root is taken for a *cut* node (its eldest child decides it), the eldest child of
    a cut node is an all node, every child of an all node a cut node."""
    return node.ply % 2 == 1


def _host(address: str) -> str:
    """The machine part of a worker's address (``tcp://HOST:PORT``)."""
    return address.rsplit(":", 1)[0]
