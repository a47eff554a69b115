"""The search: depth-first over the compact board with a transposition table, under a budget."""

from __future__ import annotations

import gc
import os
import random
import time
from dataclasses import dataclass
from enum import StrEnum

from app.engine import Move, Position, Rules
from app.solver.board import ALL_TECHNIQUES, Key, Problem, State, Step, Successor

try:
    from app.solver import _core

    CORE_BUILT = True
except ImportError:  # the C extension was not built: the Python search does everything
    CORE_BUILT = False

_TABLEAU_MODES = {"any-run": 0, "top-or-all": 1, "all": 2}


class Verdict(StrEnum):
    """What a search found out about a position."""

    WON = "won"  # a winning line was found
    UNWINNABLE = "unwinnable"  # every line was searched: none wins (a proof)
    UNKNOWN = "unknown"  # the budget ran out first


@dataclass(frozen=True, slots=True)
class Budget:
    """How much a search may spend: nodes (positions expanded, by all its threads) and
    wall-clock seconds, on `threads` cores (1 or 2; with two, the compiled core's second
    thread makes the restarts' shuffled runs, its reserve test deeper at first, while the
    first runs the fixed order only, see _core.c's `Team`; the Python search uses one).

    The transposition tables hold an entry or two per node, so `nodes` mostly bounds
    memory (the compiled core: 60-130 bytes a node; Python: a few hundred). Not always: a
    depth-first path can run a million moves deep (app draw 1 with three passes,
    shuffling runs between columns), some 250 bytes a node on the path (the frames nearest
    the root give up their children, made again when the search comes back), so the core
    also stops at `memory` bytes a thread (the search's own, beyond the proofs it keeps
    from earlier searches): the verdict is then unknown, as when time or nodes run out.
    The Python search does not count its memory.
    """

    nodes: int = 1_000_000
    seconds: float = 10.0
    threads: int = 1
    memory: int = 3 << 30

    def __post_init__(self) -> None:
        if self.threads not in (1, 2):
            raise ValueError(f"threads must be 1 or 2, not {self.threads!r}")
        if self.memory < 1:
            raise ValueError(f"memory must be a number of bytes, not {self.memory!r}")


UNTIMED = 1e9
"""The seconds of a budget of nodes alone: some 30 years, no limit in practice (finite, as
the core sets the last quarter of its seconds apart), so the run is the same on any machine."""


@dataclass(frozen=True, slots=True)
class Solution:
    """A verdict, the winning line (engine moves, empty unless won), nodes and seconds spent."""

    verdict: Verdict
    line: tuple[Move, ...]
    nodes: int
    seconds: float

    @property
    def won(self) -> bool:
        return self.verdict is Verdict.WON

    @property
    def decided(self) -> bool:
        return self.verdict is not Verdict.UNKNOWN

    @property
    def notation(self) -> list[str]:
        """The line in SPEC §4 notation."""
        return [str(move) for move in self.line]


def _priority_then_draws(child: Successor) -> tuple[int, int]:
    return child[0], child[1][0]


def _order(children: list[Successor], rng: random.Random | None, depth: int) -> list[Successor]:
    """The children in search order: by priority class, then fewest draws (a stable
    sort, so in generation order after that), or shuffled within those; shuffled
    whatever their class in a shuffled run's first `SHUFFLED_DEPTH` plies."""
    if rng is not None:
        rng.shuffle(children)
        if depth < SHUFFLED_DEPTH:
            return children
    children.sort(key=_priority_then_draws)
    return children


# A shuffled run orders its first plies at random, classes and all (also in _core.c).
# The fixed order spends its first millions of nodes under its first few choices; when
# those lose, a run shuffled only within classes makes the same first choices and sinks
# into much the same corner. Shuffling the first three plies (the start state, its
# children and grandchildren) lets restarts try other openings: app draw 3, deals 321
# and 458 were won after 27 M and 10 M nodes, now 0.3 M and 0.02 M; deals 0-499 within
# 10 s went from 99.2 % to 99.8 % decided (classic draw 3 98.2 -> 98.4, app draw 1 the same),
# and deals 500-1499 within 1 s from 97.2 % to 98.6 % (classic draw 3 93.3 -> 94.0). A
# deeper shuffle (6 plies) did no better.
SHUFFLED_DEPTH = 3


class _Frame:
    """A state on the depth-first path: its ordered children, the next to try, Tarjan data."""

    __slots__ = ("children", "index", "low", "next")

    def __init__(self, children: list[Successor], index: int) -> None:
        self.children = children
        self.next = 0
        self.index = index
        self.low = index


class Solver:
    """Searches positions of one problem (one deal and rules).

    The search is depth-first with a transposition table, in the fixed move
    order, paused now and then for a fresh run in an order shuffled within the
    priority classes (and entirely in its first plies), with half as many nodes
    (both allowances double each time). A fixed order sometimes sinks a million
    nodes into a hopeless corner that another order skips (deals with a heavy
    tail), while it is the best order on average and never loses its work.
    Under draw 1 with a pass limit or skill moves the shuffled runs' half is many
    short runs instead (`short_restarts`). Under classic draw 3 and draw 1 with a pass
    limit a run of relaxed rules (`Problem.relaxed`: drawing one, unlimited passes) gets
    as many nodes again, before the shuffled runs: the states it proves lost are lost
    here too, and so is the search once it proves its start lost (`_relaxed_run`).

    Each run also finds the strongly connected components of what it searched
    (Tarjan's algorithm, folded into the depth-first search): once a component
    is finished with no win found, every state in it is proved lost. Those
    states are remembered, and pruned by every later run and every later
    search of this solver, so restarts lose no proof work, and asking about
    several positions of one game (as the hint does, walking back through its
    history) shares it.
    """

    FIRST_RUN_NODES = 2_000  # also in _core.c
    SHORT_RUN_NODES = 1_000  # also in _core.c
    BEAM_AFTER = 100_000  # the runs' nodes before the first beam (_core.c: Core.beam_after)
    BEAM_FIRST = 1_000  # the first beam's width (_core.c: Core.beam_first)

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        self._dead: dict[Key, int] = {}
        self._relaxed_dead: _Relayed | None = None  # the relaxed run's (`_relaxed_run`)
        self._order = b""  # the talon of the search's root, before settling
        self._core = _core_of(problem)

    @property
    def uses_core(self) -> bool:
        """Whether searches run in the compiled core (see `_core_of`)."""
        return self._core is not None

    @property
    def known_dead(self) -> int:
        """How many states are proved lost so far."""
        return len(self._dead) if self._core is None else self._core.known_dead

    def solve_position(self, position: Position, budget: Budget) -> Solution:
        return self.solve_state(self.problem.state_of(position), budget)

    def solve_state(self, root: State, budget: Budget) -> Solution:
        """Search from `root` (a state before settling) within `budget`."""
        started = time.perf_counter()
        if self._core is None:
            self._order = root[1]
            verdict, steps, nodes = self._search_in_python(root, budget)
        else:
            code, steps, nodes = self._core.search(
                root, budget.nodes, budget.seconds, budget.threads, budget.memory
            )
            verdict = (Verdict.UNKNOWN, Verdict.WON, Verdict.UNWINNABLE)[code]
        problem = self.problem
        line: list[Move] = []
        if verdict is Verdict.WON:
            # Replaying the steps through board.py checks each one.
            state = problem.settle(root, line, cascade=False)
            for step in _shortcut(problem, state, steps, self._core):
                state = problem.play(state, step, line)
        seconds = time.perf_counter() - started
        return Solution(verdict, tuple(line), nodes, seconds)

    def _search_in_python(self, root: State, budget: Budget) -> tuple[Verdict, list[Step], int]:
        """The reference search. Python's cyclic garbage collector is paused meanwhile:
        the search makes millions of small tuples and no cycles, and each collection
        would walk them all (it doubled the time of long searches).
        """
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._search(root, budget)
        finally:
            if collecting:
                gc.enable()

    def _search(self, root: State, budget: Budget) -> tuple[Verdict, list[Step], int]:
        deadline = time.perf_counter() + budget.seconds
        problem = self.problem
        nodes = 1
        start = problem.settle(root, cascade=False)
        verdict: Verdict | None = None
        steps: list[Step] = []
        if problem.won(start):
            verdict = Verdict.WON
        elif self._is_dead(start) or problem.lost(start):
            verdict = Verdict.UNWINNABLE
        else:
            main = _Run(self, start, None)
            relaxed = self._relaxed_run(start)
            allowance = self.FIRST_RUN_NODES
            seed = 0
            # The next beam's width (0: none) and the budget's nodes the beams took.
            width = self.BEAM_FIRST if beams_pay(problem) else 0
            in_beams = 0
            while verdict is None and nodes < budget.nodes and time.perf_counter() < deadline:
                # The fixed-order run goes on for `allowance` more nodes, then a
                # fresh shuffled run gets half as many; both allowances double.
                verdict, steps = main.advance(min(allowance, budget.nodes - nodes), deadline)
                nodes += main.spent
                if verdict is not None or nodes >= budget.nodes:
                    break
                if relaxed is not None and time.perf_counter() < deadline:
                    # As many nodes as the shuffled runs get, before them.
                    code = self._relaxed_advance(
                        relaxed, min(allowance // 2, budget.nodes - nodes), deadline
                    )
                    nodes += relaxed.spent
                    if code is Verdict.WON:
                        relaxed = None  # a win of the relaxed rules proves nothing here
                    elif code is Verdict.UNWINNABLE:
                        verdict = code  # lost under the relaxed rules: lost
                    if verdict is not None or nodes >= budget.nodes:
                        break
                if (
                    width
                    and time.perf_counter() < deadline
                    and self._beam_due(nodes - in_beams, in_beams)
                ):
                    beamed, steps, cost = self._beam(start, width, budget.nodes - nodes)
                    nodes += cost
                    in_beams += cost
                    width = 0 if width > BEAM_WIDEST // 4 else 4 * width
                    if beamed:
                        verdict = Verdict.WON
                        break
                    if nodes >= budget.nodes:
                        break
                if not problem.techniques.restarts:
                    allowance *= 2
                    continue
                verdict, steps, nodes, seed = self._shuffled_runs(
                    start, allowance // 2, budget, deadline, nodes, seed
                )
                allowance *= 2
        return verdict or Verdict.UNKNOWN, steps, nodes

    def _relaxed_run(self, start: State) -> _Run | None:
        """The fixed-order run of the relaxed rules (`Problem.relaxed`) from `start`, its
        proofs kept apart (`_Relayed`), or None. Each round of `_search` gives it as many
        nodes as the shuffled runs, before them (the core's `relaxed_advance`)."""
        relaxed = self.problem.relaxed
        if relaxed is None:
            return None
        if self._relaxed_dead is None:
            self._relaxed_dead = _Relayed()
        return _Run(_RelaxedSearch(relaxed, self._relaxed_dead, self._order), start, None)

    def _relaxed_advance(self, relaxed: _Run, limit: int, deadline: float) -> Verdict | None:
        """`limit` more nodes of the relaxed run at most; each state it proves lost is
        proved lost here too, whatever its pointer (`Problem.relayed_keys`). Its verdict
        (a win says nothing of these rules), or None."""
        verdict, _ = relaxed.advance(limit, deadline)
        proved = self._relaxed_dead
        assert proved is not None
        for key in proved.fresh:
            for own in self.problem.relayed_keys(key):
                _prove(self._dead, own, 0)
        proved.fresh.clear()
        return verdict

    def _shuffled_runs(
        self, start: State, share: int, budget: Budget, deadline: float, nodes: int, seed: int
    ) -> tuple[Verdict | None, list[Step], int, int]:
        """The shuffled runs' `share` of a round's nodes, each run with the next seed: one
        run of it all or, under `short_restarts`, many of `SHORT_RUN_NODES` times
        `luby(seed)` nodes at most: (verdict or None, steps, the search's nodes, the last
        seed)."""
        short = short_restarts(self.problem)
        verdict: Verdict | None = None
        steps: list[Step] = []
        while (
            share > 0
            and verdict is None
            and nodes < budget.nodes
            and time.perf_counter() < deadline
        ):
            seed += 1
            ticket = _Run(self, start, random.Random(seed))
            run = self.SHORT_RUN_NODES * luby(seed) if short else share
            limit = min(run, share, budget.nodes - nodes)
            verdict, steps = ticket.advance(limit, deadline)
            nodes += ticket.spent
            share -= ticket.spent
        return verdict, steps, nodes, seed

    def _beam_due(self, runs: int, in_beams: int) -> bool:
        """Whether the next beam is due: the runs have had `runs` nodes, the beams `in_beams`."""
        return runs >= self.BEAM_AFTER and BEAM_RUNS * in_beams <= runs

    def _beam(self, start: State, width: int, left: int) -> tuple[bool, list[Step], int]:
        """A beam `width` wide from `start` for `BEAM_DEPTH` nodes per state of its width at
        most, within `left` nodes of the budget, each of its nodes counting `BEAM_NODE_COST`:
        (won, its steps, the budget's nodes it took)."""
        cap = min(BEAM_DEPTH * width, left // BEAM_NODE_COST - width + 1)  # it ends its depth
        if cap <= 0:
            return False, [], 0
        steps, beam_nodes = beam(self.problem, start, width, cap, self._dead)
        return steps is not None, steps or [], BEAM_NODE_COST * beam_nodes

    def _is_dead(self, state: State) -> bool:
        """Proved lost, or no stronger than a state proved lost."""
        value = self.problem.value(state)
        key = self.problem.key(state)
        return (
            self._dead.get(key, value + 1) <= value
            or _dominated(self.problem, self._dead, key)
            or _passed(self.problem, self._dead, key, value)
        )


# The one-thread search's beams (`Solver._search`; also in _core.c, `one_beam`), where cards
# come back from the foundations (`beams_pay`): between a round's fixed-order run and its
# shuffled runs (whose order the core draws from its own random numbers, not Python's: before
# them, a test's beam meets the same proofs both ways), once the runs
# have made `Solver.BEAM_AFTER` nodes and BEAM_RUNS times the beams' so far, a beam (`beam`)
# of the next width (`Solver.BEAM_FIRST`, then four times as wide), for BEAM_DEPTH nodes per
# state of its width at most, each of its nodes counting BEAM_NODE_COST nodes of the budget
# (it makes and scores every child of its state; see docs/solver.md). The two-thread search's
# helper searches the same beams by CPU time instead (_core.c's `helper_main`).
BEAM_WIDEST = 1 << 20
BEAM_DEPTH = 128
BEAM_RUNS = 3
BEAM_NODE_COST = 2


def beams_pay(problem: Problem) -> bool:
    """Whether the search searches beams: where cards come back from the foundations (app
    rules); under classic and skill rules they won next to nothing (_core.c's `beams_pay`)."""
    return problem.rules.foundation_to_tableau


def luby(i: int) -> int:
    """The i-th term (from 1) of Luby's sequence 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ...: each
    run length comes twice as often as twice that length, and no length is left out."""
    while True:
        k = i.bit_length()
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1


def short_restarts(problem: Problem) -> bool:
    """Whether the shuffled runs are many short ones (`Solver._shuffled_runs`): under draw 1
    with a pass limit or skill (top-or-all) moves. There a few shuffled openings (one in 10
    to 300) win at once, in a few hundred nodes, and the others sink; the longer runs of the
    other rule sets tried a dozen openings in 7 million nodes, many short ones try hundreds.
    Measured with bench/openings.py (300 seeds at 10,000 nodes each, fresh tables) on the
    deals unknown at 10 s: skill draw 1 deal 453 won in 7, skill draw 1 three passes 430 and
    460 in 5 and 8 (7 M nodes, one thread: 453 won in 1.48 M, 430 in 0.35 M, 460 in 0.67 M);
    none under draw 3 (skill, classic) nor app draw 1 with unlimited passes, where the
    unknown deals won no opening."""
    rules = problem.rules
    return rules.draw == 1 and (rules.passes is not None or rules.tableau_moves == "top-or-all")


class _Relayed(dict[Key, int]):
    """The relaxed search's proofs (`Problem.relaxed`), with the keys new since the last
    look in `fresh`, to be proved lost in the search it runs beside."""

    def __init__(self) -> None:
        super().__init__()
        self.fresh: list[Key] = []

    def __setitem__(self, key: Key, value: int) -> None:
        if key not in self:
            self.fresh.append(key)
        super().__setitem__(key, value)


@dataclass(frozen=True, slots=True)
class _RelaxedSearch:
    """What a `_Run` reads of its solver, for the relaxed rules' run: their problem and
    their own proofs (never the proofs of the rules relaxed from, which need not hold
    there)."""

    problem: Problem
    _dead: _Relayed
    _order: bytes  # the search's first talon (`Problem.back_in_talon`)


def _prove(dead: dict[Key, int], key: Key, value: int) -> None:
    """Records `key` lost from `value` on (the lowest value proved stays)."""
    if dead.get(key, value + 1) > value:
        dead[key] = value


def _dominated(problem: Problem, dead: dict[Key, int], key: Key) -> bool:
    """A state of `key` can do no more than one proved lost (`Problem.stronger_keys`)."""
    return any(k in dead for k in problem.stronger_keys(key))


def _passed(problem: Problem, dead: dict[Key, int], key: Key, value: int) -> bool:
    """The same state in an earlier pass is proved lost (`Problem.earlier_passes`)."""
    return any(dead.get(k, v + 1) <= v for k, v in problem.earlier_passes(key, value))


def _proved_lost(problem: Problem, dead: dict[Key, int], key: Key, value: int) -> bool:
    """A state of `key` and `value` is proved lost: by its own key, or (a child lost by its
    own key needs no second look) `_dominated` or `_passed`."""
    return (
        dead.get(key, value + 1) <= value
        or (problem.fresh_is_weakest and _dominated(problem, dead, key))
        or (problem.passes_order and _passed(problem, dead, key, value))
    )


class _Run:
    """One depth-first search from a start state, which can stop and go on later.

    A state is pruned when it is proved lost (by any run of the solver), or when
    this run has reached it already (with no more passes used). Tarjan's
    bookkeeping: each new state gets the next index; a frame's `low` is the
    smallest index it reaches among states still on the component stack; a
    frame whose `low` is its own index closes a component, all of it lost.
    """

    def __init__(
        self, solver: Solver | _RelaxedSearch, start: State, rng: random.Random | None
    ) -> None:
        problem = solver.problem
        self._problem = problem
        self._dead = solver._dead
        self._rng = rng
        self._index: dict[Key, int] = {}  # key -> index of its best (fewest passes) state
        self._keys: list[Key] = []  # by index
        self._values: list[int] = []  # by index: the pass value
        self._open: list[bool] = []  # by index: still on the component stack
        self._component: list[int] = []  # indices
        self._path: list[Step] = []
        self._order = solver._order  # the search's first talon (`Problem.back_in_talon`)
        self.spent = 0
        key = problem.key(start)
        self._stack = [self._enter(start, key, problem.value(start))]

    def _prove_stuck(self, key: Key, value: int) -> None:
        """Records a state whose reserve is stuck (`Problem.reserve_stuck`) as lost,
        without entering it: it has no children, so it closes at once. The test does
        not look at the stock pointer, so the state is lost whatever its pointer: with
        `Problem.pointer_keys`, from value 0 on in each of them."""
        keys = self._problem.pointer_keys(key)
        for k in keys:
            _prove(self._dead, k, 0)
        if key not in keys:
            _prove(self._dead, key, value)

    def _returns_lost(self, state: State) -> bool:
        """Whether a state that reaches `state` by putting talon cards back on the columns
        (`Problem.back_in_talon`) is proved lost: then so is `state`."""
        problem = self._problem
        if not problem.talon_returns:
            return False
        dead = self._dead
        for before in problem.back_in_talon(state, self._order):
            value = problem.value(before)
            if dead.get(problem.key(before), value + 1) <= value:
                return True
        return False

    def _enter(self, state: State, key: Key, value: int, free: bool = False) -> _Frame:
        index = len(self._keys)
        self._index[key] = index
        self._keys.append(key)
        self._values.append(value)
        self._open.append(True)
        self._component.append(index)
        depth = len(self._stack) if index else 0
        problem = self._problem
        children = problem.successors(state, stuck_tested=free)
        return _Frame(_order(children, self._rng, depth), index)

    def advance(self, limit: int, deadline: float) -> tuple[Verdict | None, list[Step]]:
        """Search `limit` more nodes at most: (WON, its steps), (UNWINNABLE, []) when
        everything was searched, or (None, []) when stopped by `limit` or `deadline`.
        `spent` is then the nodes this call searched."""
        problem = self._problem
        key = problem.key
        value_of = problem.value
        dead = self._dead
        index_of = self._index
        values = self._values
        open_ = self._open
        stack = self._stack
        path = self._path
        clock = time.perf_counter
        nodes = 0
        self.spent = 0
        while stack:
            frame = stack[-1]
            kids = frame.children
            i = frame.next
            if i < len(kids):
                frame.next = i + 1
                _, step, child = kids[i]
                k = key(child)
                value = value_of(child)
                # Looked up only when its turn comes (more is proved by then).
                if _proved_lost(problem, dead, k, value):
                    continue
                index = index_of.get(k, -1)
                if index >= 0 and values[index] <= value:
                    if open_[index] and index < frame.low:
                        frame.low = index
                    continue
                nodes += 1
                if sum(child[4]) == 52:
                    self.spent = nodes
                    return Verdict.WON, [*path, step]
                if problem.reserve_stuck(child) or self._returns_lost(child):
                    self._prove_stuck(k, value)
                else:
                    stack.append(self._enter(child, k, value, free=True))
                    path.append(step)
                if nodes >= limit or (nodes & 255 == 0 and clock() > deadline):
                    self.spent = nodes
                    return None, []
                continue
            # Every child done: close a component, or pass `low` up.
            stack.pop()
            index, low = frame.index, frame.low
            if low == index:
                component = self._component
                keys = self._keys
                while True:
                    member = component.pop()
                    open_[member] = False
                    k, value = keys[member], values[member]
                    _prove(dead, k, value)
                    if member == index:
                        break
            if stack:
                path.pop()
                parent = stack[-1]
                if low < parent.low:
                    parent.low = low
        self.spent = nodes
        return Verdict.UNWINNABLE, []


BEAM_WEIGHTS = {1: (1, 3), 3: (4, 2)}
"""The weights of a card up and of a reserve card in `beam_score`, by the cards drawn at a
time (the core's `beam_up` and `beam_reserve`). Drawing one, cards up weigh little beside
the reserve and the talon (the beams run under app rules, where cards come back from the
foundations): app draw 1 with three passes deal 465's winning line keeps cards in the
columns and empties the reserve and the talon first; with cards up 4 and reserve cards 2
it fell behind the beam's states, which had sent cards up and then stuck. Drawing three,
those weights lost app draw 3 with three passes deal 64 in the 10 s search (docs/solver.md)."""


def beam_score(state: State, up: int, reserve: int) -> int:
    """How far along a state looks, for `beam`: cards up (`up` each), fewer reserve cards
    (`reserve` each), talon cards (3) and passes begun (12), empty columns (1). Without
    the talon and the passes the beams filled with states that had left the talon as it
    was or burnt a pass for nothing (docs/solver.md)."""
    columns, talon, _, reserve_count, found, pass_number, _ = state
    return (
        up * sum(found)
        - reserve * reserve_count
        - 3 * len(talon)
        - 12 * pass_number
        + sum(1 for column in columns if not column)
    )


def beam(
    problem: Problem,
    root: State,
    width: int,
    max_nodes: int,
    dead: dict[Key, int] | None = None,
    weights: tuple[int, int] | None = None,
) -> tuple[list[Step] | None, int]:
    """A beam search for a win from `root` (a state before settling): breadth first,
    keeping at each depth the `width` children that look furthest along (`beam_score`
    with `weights` for cards up and reserve cards, by default the rules' `BEAM_WEIGHTS`;
    ties in the order they came), each state once (one
    whose key was kept before with no higher value is left out, as the runs leave it
    out), none proved lost in `dead`.
    It proves nothing: (the winning steps, nodes) or (None, nodes) when a depth keeps no
    state or `max_nodes` states have had their children made. The depth-first runs
    commit to their first choices and can spend millions of nodes under one that loses;
    the beam looks across all of them at each depth. The core's `beam` searches the same
    states in the same order (the helper thread's, between its shuffled runs).
    """
    dead = {} if dead is None else dead
    up, reserve = weights or BEAM_WEIGHTS[problem.rules.draw]
    start = problem.settle(root, cascade=False)
    seen = {problem.key(start): problem.value(start)}
    level = [start]
    links: list[list[tuple[int, Step]]] = []  # by depth from 1: (parent's index, step)
    nodes = 0
    while level and nodes < max_nodes:
        candidates: list[tuple[int, int, int, Step, State, Key, int]] = []
        for i, state in enumerate(level):
            nodes += 1
            for _, step, child in problem.successors(state):
                if sum(child[4]) == 52:
                    steps = [step]
                    for depth_links in reversed(links):
                        i, step = depth_links[i]
                        steps.append(step)
                    return steps[::-1], nodes
                key, value = problem.key(child), problem.value(child)
                if _proved_lost(problem, dead, key, value) or seen.get(key, value + 1) <= value:
                    continue
                candidates.append(
                    (-beam_score(child, up, reserve), len(candidates), i, step, child, key, value)
                )
        candidates.sort(key=lambda c: (c[0], c[1]))
        level, kept = [], []
        for _, _, i, step, child, key, value in candidates:
            if len(level) == width:
                break
            if seen.get(key, value + 1) <= value:
                continue
            seen[key] = value
            level.append(child)
            kept.append((i, step))
        links.append(kept)
    return None, nodes


def _core_of(problem: Problem) -> _core.Core | None:
    """The compiled core for `problem`: when it is built, every technique is on (the
    ablations are Python's) and CANFIELD_SOLVER is not "python" (for comparisons)."""
    if (
        not CORE_BUILT
        or problem.techniques != ALL_TECHNIQUES
        or os.environ.get("CANFIELD_SOLVER") == "python"
    ):
        return None
    rules = problem.rules
    return _core.Core(
        rules.draw,
        -1 if rules.passes is None else rules.passes,
        _TABLEAU_MODES[rules.tableau_moves],
        rules.empty_column == "any",
        rules.foundation_to_tableau,
        rules.autocomplete,
        problem.reserve,
        problem.start_rank,
    )


def _shortcut(
    problem: Problem, start: State, steps: list[Step], core: _core.Core | None = None
) -> list[Step]:
    """A winning line with its detours cut out.

    Depth-first search wanders (shuffling runs between columns, say) before it
    wins. Walk the line again, each time jumping to the furthest later state of
    the line that one step reaches (matched by key, and with a value no higher,
    so that the rest of the line still works from there). The step is computed
    from the actual state, so its draws may differ from the original's. The core, when
    given, does it all (`Core.shortcut`, the same line): a depth-first line can be
    hundreds of thousands of steps long (app draw 3 with three passes, deal 82: 778,583),
    which board.py made again in some 16 s past the search's 10 (and its
    `closed_game_lost` costs tens of milliseconds a last-pass state). The caller replays
    the line that comes out through board.py, which checks every step.
    """
    if core is not None:
        return core.shortcut(start, steps)
    key = problem.key
    states = [start]
    for step in steps:
        states.append(problem.settle(_child(problem, states[-1], step)))
    index = {key(state): i for i, state in enumerate(states)}
    here, i, out = start, 0, []
    last = len(states) - 1
    while i < last:
        best, best_j = None, i
        for _, step, child in problem.successors(here):
            j = index.get(key(child), -1)
            if j > best_j and problem.value(child) <= problem.value(states[j]):
                best, best_j = (step, child), j
        assert best is not None, "a winning line always has its own next step"
        out.append(best[0])
        here, i = best[1], best_j
    return out


def _child(problem: Problem, state: State, step: Step) -> State:
    for _, candidate, child in problem.moves(state):
        if candidate == step:
            return child
    raise ValueError(f"step {step} is not legal here")


def solve(position: Position, rules: Rules, budget: Budget | None = None) -> Solution:
    """Find a winning line from `position` under `rules`, or prove there is none.

    Returns a `Solution`: `verdict` WON (with `line`, engine moves that replay to
    a win), UNWINNABLE (proved) or UNKNOWN (the budget ran out), plus the nodes
    searched and the seconds taken. Uses only what the deal code fixes (the
    stock's order included), never anything hidden from the rules.
    """
    solver = Solver(Problem.of(position, rules))
    return solver.solve_position(position, budget or Budget())
