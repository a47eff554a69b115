"""The search: depth-first over the compact board with a transposition table, under a budget."""

from __future__ import annotations

import time
from dataclasses import dataclass
from enum import StrEnum
from operator import itemgetter

from app.engine import Move, Position, Rules
from app.solver.board import Key, Problem, State, Step


class Verdict(StrEnum):
    """What a search found out about a position."""

    WON = "won"  # a winning line was found
    UNWINNABLE = "unwinnable"  # every line was searched: none wins (a proof)
    UNKNOWN = "unknown"  # the budget ran out first


@dataclass(frozen=True, slots=True)
class Budget:
    """How much a search may spend: nodes (positions expanded) and wall-clock seconds.

    The transposition table holds one entry per node, so `nodes` also bounds memory
    (roughly 200 bytes a node).
    """

    nodes: int = 1_000_000
    seconds: float = 10.0


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


_PRIORITY = itemgetter(0)


class Solver:
    """Searches positions of one problem (one deal and rules).

    States proved unwinnable by earlier complete searches are remembered and
    pruned in later ones, so asking about several positions of the same game
    (as the hint does, walking back through the history) shares the work.
    """

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        self._dead: dict[Key, int] = {}

    @property
    def known_dead(self) -> int:
        """How many states earlier searches proved unwinnable."""
        return len(self._dead)

    def solve_position(self, position: Position, budget: Budget) -> Solution:
        return self.solve_state(self.problem.state_of(position), budget)

    def solve_state(self, root: State, budget: Budget) -> Solution:
        """Search from `root` (a state before settling) within `budget`."""
        started = time.perf_counter()
        problem = self.problem
        key = problem.key
        successors = problem.successors
        limited = problem.rules.passes is not None
        dead = self._dead
        seen: dict[Key, int] = {}

        def finish(verdict: Verdict, steps: list[Step], nodes: int) -> Solution:
            line: list[Move] = []
            if verdict is Verdict.WON:
                state = problem.settle(root, line, cascade=False)
                for step in _shortcut(problem, state, steps):
                    state = problem.play(state, step, line)
            elif verdict is Verdict.UNWINNABLE:
                dead.update(seen)
            return Solution(verdict, tuple(line), nodes, time.perf_counter() - started)

        start = problem.settle(root, cascade=False)
        nodes = 1
        if problem.won(start):
            return finish(Verdict.WON, [], nodes)
        start_key = key(start)
        value = start[5] if limited else 0
        if dead.get(start_key, value + 1) <= value:
            return finish(Verdict.UNWINNABLE, [], nodes)
        seen[start_key] = value
        children = successors(start)
        children.sort(key=_PRIORITY)
        stack: list[list[object]] = [[children, 0]]
        path: list[Step] = []
        node_limit = budget.nodes
        deadline = started + budget.seconds
        clock = time.perf_counter
        while stack:
            frame = stack[-1]
            kids: list[tuple[int, Step, State]] = frame[0]  # type: ignore[assignment]
            i: int = frame[1]  # type: ignore[assignment]
            if i == len(kids):
                stack.pop()
                if path:
                    path.pop()
                continue
            frame[1] = i + 1
            _, step, child = kids[i]
            k = key(child)
            value = child[5] if limited else 0
            if seen.get(k, value + 1) <= value or dead.get(k, value + 1) <= value:
                continue
            seen[k] = value
            nodes += 1
            if sum(child[4]) == 52:
                path.append(step)
                return finish(Verdict.WON, path, nodes)
            if nodes >= node_limit or (nodes & 255 == 0 and clock() > deadline):
                return finish(Verdict.UNKNOWN, [], nodes)
            children = successors(child)
            children.sort(key=_PRIORITY)
            stack.append([children, 0])
            path.append(step)
        return finish(Verdict.UNWINNABLE, [], nodes)


def _shortcut(problem: Problem, start: State, steps: list[Step]) -> list[Step]:
    """A winning line with its detours cut out.

    Depth-first search wanders (shuffling runs between columns, say) before it
    wins. Walk the line again, each time jumping to the furthest later state of
    the line that one step reaches. States are matched by key, so the step is
    recomputed from the actual state (its draws may differ); with a pass limit,
    only onto a state with no more passes used.
    """
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
            if j > best_j and child[5] <= states[j][5]:
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
