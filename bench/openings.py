"""How often a deal's shuffled openings win: many single shuffled runs, each with fresh tables.

    .venv/bin/python bench/openings.py --rules S1P3 --deals 96,129 [--seeds 300] [--nodes 10000]

For each deal, runs the compiled core's shuffled run of seeds 1..N (the run the search's
restart schedule makes n-th, `Core.opening`), each alone for at most `--nodes` nodes with
fresh tables (so no run profits from another's proofs), and prints how many won, the
fewest nodes a win took and the first winning seeds. A deal whose openings win often
within a few thousand nodes is one many short restarts reach; one that wins none needs
longer runs (`--nodes 1000000 --seeds 20`) or a proof. Every win is replayed through
board.py. One thread; deterministic (node counts, not the clock).
"""

from __future__ import annotations

import argparse
import time

from app.engine import DealCode, Position
from app.engine.rules import decode_token
from app.solver.board import Problem
from app.solver.cli import parse_range
from app.solver.search import Budget, Solver, Verdict


def deal_numbers(text: str) -> list[int]:
    """`96,129,200-210` as deal numbers."""
    out: list[int] = []
    for part in text.split(","):
        if "-" in part:
            out.extend(parse_range(part))
        elif part.strip():
            out.append(int(part))
    return out


def openings(token: str, number: int, seeds: int, nodes: int) -> tuple[list[int], list[int]]:
    """The winning seeds of 1..`seeds` and the nodes each win took."""
    rules = decode_token(token)
    position = Position.deal(DealCode(rules, number=number).deck)
    problem = Problem.of(position, rules)
    wins: list[int] = []
    spent: list[int] = []
    for seed in range(1, seeds + 1):
        solver = Solver(problem)
        core = solver._core
        if core is None:
            raise SystemExit("bench/openings.py needs the compiled core (make setup)")
        core.opening = seed
        solution = solver.solve_position(position, Budget(nodes=nodes, seconds=3600))
        if solution.verdict is Verdict.WON:
            wins.append(seed)
            spent.append(solution.nodes)
    return wins, spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", required=True, help="one rules token, such as S1P3")
    parser.add_argument("--deals", required=True, help="deal numbers: 96,129,200-210")
    parser.add_argument("--seeds", type=int, default=300)
    parser.add_argument("--nodes", type=int, default=10_000)
    args = parser.parse_args()
    print(
        f"rules {args.rules}: seeds 1-{args.seeds}, at most {args.nodes} nodes each, fresh tables"
    )
    print(f"{'deal':>5}{'wins':>6}{'fewest':>9}{'seconds':>9}  first winning seeds")
    for number in deal_numbers(args.deals):
        started = time.perf_counter()
        wins, spent = openings(args.rules, number, args.seeds, args.nodes)
        fewest = str(min(spent)) if spent else "-"
        seconds = time.perf_counter() - started
        seeds = " ".join(map(str, wins[:12]))
        print(f"{number:>5}{len(wins):>6}{fewest:>9}{seconds:>9.1f}  {seeds}", flush=True)


if __name__ == "__main__":
    main()
