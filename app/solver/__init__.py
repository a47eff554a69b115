"""The computer player: solve positions, give hints, pick winnable deals."""

from app.solver.search import Budget, Solution, Solver, Verdict, solve

__all__ = ["Budget", "Solution", "Solver", "Verdict", "solve"]
