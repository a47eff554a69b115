"""Hints and "still winnable?": the solver asked about a game in progress.

Winning lines found are remembered (a bounded cache of position -> rest of the
line), so a player who follows the hints gets each next one at once.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, replace

from app.engine import UNDO, Game, Move, Position, Rules, apply_move
from app.solver.board import Problem
from app.solver.search import Budget, Solution, Solver, Verdict

# The compiled core searches about a million nodes a second and holds about 100 bytes a
# node, so these cap a hint at about a second and 100 MB, "still winnable?" at about
# two seconds and 200 MB (the seconds are for the Python search, 30-50 times slower);
# a search that goes very deep holds more a node, so each also stops at 512 MiB.
SEARCH_MEMORY = 512 << 20
HINT_BUDGET = Budget(nodes=1_000_000, seconds=2.0, memory=SEARCH_MEMORY)
STILL_WINNABLE_BUDGET = Budget(nodes=2_000_000, seconds=10.0, memory=SEARCH_MEMORY)


@dataclass(frozen=True, slots=True)
class Hint:
    """What the computer player says about a game's position.

    - `move`: the next move of a winning line, or None when there is none to give;
    - `message`: the same in plain words, for the player;
    - `verdict`: about the current position (WON means a winning line exists);
    - `undo`: when the position cannot be won, how many undos lead back to a
      position that can, if one was found;
    - `line`: the winning line found (from here, or from that earlier position);
    - `nodes`, `seconds`: what the search spent;
    - `why`: when there is no move, which case `message` words, for other languages:
      `won`, `unknown`, `undo`, `from-start`, `no-earlier` (none of the positions undo
      reaches), `no-undo` (nothing to undo), `in-time` (none found in time).
    """

    move: Move | None
    message: str
    verdict: Verdict
    undo: int | None
    line: tuple[Move, ...]
    nodes: int
    seconds: float
    why: str = ""


def _packed(position: Position) -> bytes:
    """A position as a few dozen bytes (the cache holds many)."""
    out = bytearray((position.pass_number % 256, position.start_rank, position.base_suit))
    out += bytes(position.foundations)
    for pile in (position.stock, position.waste, position.reserve, *position.tableau):
        out.append(len(pile))
        out += bytes(card.index for card in pile)
    return bytes(out)


class _KnownLines:
    """Positions on winning lines already found, each with the rest of its line (LRU)."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._lines: OrderedDict[tuple[Rules, bytes], tuple[tuple[Move, ...], int]] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, position: Position, rules: Rules, line: tuple[Move, ...]) -> None:
        entries = []
        for i, move in enumerate(line):
            entries.append(((rules, _packed(position)), (line, i)))
            position = apply_move(position, rules, move)
        with self._lock:
            for key, value in entries:
                self._lines[key] = value
                self._lines.move_to_end(key)
            while len(self._lines) > self._size:
                self._lines.popitem(last=False)

    def rest(self, position: Position, rules: Rules) -> tuple[Move, ...] | None:
        """The rest of a known winning line from `position`, or None."""
        key = (rules, _packed(position))
        with self._lock:
            found = self._lines.get(key)
            if found is None:
                return None
            self._lines.move_to_end(key)
        line, i = found
        return line[i:]

    def clear(self) -> None:
        with self._lock:
            self._lines.clear()


KNOWN_LINES = _KnownLines(50_000)  # about 15 MB when full


def still_winnable(position: Position, rules: Rules, budget: Budget | None = None) -> bool | None:
    """Can `position` still be won under `rules`? True, False (proved), or None (out of budget)."""
    if position.won or KNOWN_LINES.rest(position, rules) is not None:
        return True
    solution = Solver(Problem.of(position, rules)).solve_position(
        position, budget or STILL_WINNABLE_BUDGET
    )
    if solution.won:
        KNOWN_LINES.add(position, rules, solution.line)
        return True
    return False if solution.verdict is Verdict.UNWINNABLE else None


def hint(game: Game, budget: Budget | None = None) -> Hint:
    """The next move of a winning line from the game's position, or why there is none.

    When the position cannot be won, walks back through the positions undo can
    return to (the nearest first) and says how many undos reach one that can:
    "no winning line from here; undo 3 moves to get back to a winnable position".
    The whole walk shares one `budget`; states proved lost on the way are not
    searched again.
    """
    budget = budget or HINT_BUDGET
    rules = game.rules
    position = game.position
    if position.won:
        message = "The game is won: there is nothing left to hint."
        return Hint(None, message, Verdict.WON, None, (), 0, 0.0, "won")
    known = KNOWN_LINES.rest(position, rules)
    if known is not None:
        return _next_move(known, 0, 0.0)
    solver = Solver(_problem_of(game))
    solution = solver.solve_position(position, budget)
    if solution.won:
        KNOWN_LINES.add(position, rules, solution.line)
        return _next_move(solution.line, solution.nodes, solution.seconds)
    if solution.verdict is Verdict.UNKNOWN:
        return Hint(
            None,
            "The computer player could not tell in time whether this position can still be won.",
            Verdict.UNKNOWN,
            None,
            (),
            solution.nodes,
            solution.seconds,
            "unknown",
        )
    return _walk_back(game, solver, solution, budget)


def _next_move(line: tuple[Move, ...], nodes: int, seconds: float) -> Hint:
    move = line[0]
    words = "draw from the stock" if move.card is None else f"play {move}"
    return Hint(move, f"Next: {words} ({move}).", Verdict.WON, None, line, nodes, seconds)


def _problem_of(game: Game) -> Problem:
    """The problem of the whole deal (its full reserve), shared by every position of the game."""
    start = Position.deal(game.code.deck)
    return Problem.of(start, game.rules)


def _undo_targets(game: Game) -> tuple[list[Position], bool]:
    """The positions undo can go back to, nearest first, and whether they reach the deal's start."""
    rules = game.rules
    stack = [Position.deal(game.code.deck)]
    for action in game.actions:
        if action == UNDO:
            stack.pop()
        else:
            stack.append(apply_move(stack[-1], rules, Move.parse(action)))
    earlier = stack[:-1][::-1]
    return earlier[: game.undo_available], game.undo_available >= len(earlier)


def _walk_back(game: Game, solver: Solver, here: Solution, budget: Budget) -> Hint:
    nodes, seconds = here.nodes, here.seconds
    targets, to_start = _undo_targets(game)
    for undo, position in enumerate(targets, start=1):
        left = replace(budget, nodes=budget.nodes - nodes, seconds=budget.seconds - seconds)
        if left.nodes <= 0 or left.seconds <= 0:
            break
        found = solver.solve_position(position, left)
        nodes += found.nodes
        seconds += found.seconds
        if found.won:
            KNOWN_LINES.add(position, game.rules, found.line)
            moves = "move" if undo == 1 else "moves"
            return Hint(
                None,
                f"No winning line from here; undo {undo} {moves} to get back to a winnable "
                "position.",
                Verdict.UNWINNABLE,
                undo,
                found.line,
                nodes,
                seconds,
                "undo",
            )
        if found.verdict is Verdict.UNKNOWN:
            break
    else:
        if to_start:
            why = "from-start"
            message = "No winning line from here; this deal cannot be won from its start either."
        elif targets:
            why = "no-earlier"
            count = "position" if len(targets) == 1 else f"{len(targets)} positions"
            message = f"No winning line from here, nor from the {count} undo can go back to."
        else:
            why = "no-undo"
            message = "No winning line from here, and there is no move to undo."
        return Hint(None, message, Verdict.UNWINNABLE, None, (), nodes, seconds, why)
    return Hint(
        None,
        "No winning line from here; no winnable earlier position was found in time.",
        Verdict.UNWINNABLE,
        None,
        (),
        nodes,
        seconds,
        "in-time",
    )
