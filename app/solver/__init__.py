"""The computer player: solve positions, give hints, pick winnable deals.

>>> from app.engine import DealCode, Game, Position
>>> from app.solver import Budget, hint, solve
>>> code = DealCode.parse("CF1-D3-AAAAAAB")
>>> solution = solve(Position.deal(code.deck), code.rules, Budget(nodes=100_000, seconds=5))
>>> solution.verdict.value, solution.notation[:2]
('won', ['draw', 'draw'])
>>> hint(Game(code)).move  # the first move of a winning line
Move.parse('draw')

- `solve(position, rules, budget) -> Solution`: verdict WON (with the line, in
  engine moves), UNWINNABLE (proved) or UNKNOWN (budget spent), nodes, seconds.
- `hint(game, budget) -> Hint`: the next move of a winning line, or how many
  undos lead back to a winnable position, with a message for the player.
- `still_winnable(position, rules, budget) -> bool | None`.
- `winnable_deal(rules, used, budget) -> int`: a deal number the solver has won
  (skill's level Easy), from the shipped lists first.

Every function is thread-safe; a call takes at most its budget's seconds (plus a
few milliseconds), so the web layer can run it in a worker thread. Searches run
in the compiled core (app/solver/_core.c, about 30 times faster, releasing the
GIL) when it is built, else in Python (search.py, board.py: the reference).
"""

from app.solver.deals import NoWinnableDealError, winnable_deal, winnable_numbers
from app.solver.hint import HINT_BUDGET, STILL_WINNABLE_BUDGET, Hint, hint, still_winnable
from app.solver.search import Budget, Solution, Solver, Verdict, solve

__all__ = [
    "HINT_BUDGET",
    "STILL_WINNABLE_BUDGET",
    "Budget",
    "Hint",
    "NoWinnableDealError",
    "Solution",
    "Solver",
    "Verdict",
    "hint",
    "solve",
    "still_winnable",
    "winnable_deal",
    "winnable_numbers",
]
