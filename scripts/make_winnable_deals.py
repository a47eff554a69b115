"""Write app/solver/data/winnable.json: deal numbers the solver has won, per preset and draw.

Reproducible: each list scans deal numbers upwards from a fixed first number and
solves each under a fixed node budget (no time limit, so the machine's speed
does not matter), keeping the won ones until it has COUNT of them or has looked
at MAX_SCANNED deals. Run it from the repository root:

    .venv/bin/python scripts/make_winnable_deals.py [--count 60] [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from app.engine import DealCode, Position, Rules
from app.solver.search import Budget, solve

LISTS = {
    "app-d3": ("app", 3),
    "app-d1": ("app", 1),
    "classic-d3": ("classic", 3),
    "classic-d1": ("classic", 1),
    "skill-d3": ("skill", 3),
    "skill-d1": ("skill", 1),
}
FIRST_DEAL = 1_000_000
NODES = 100_000
MAX_SCANNED = 400
OUT = Path(__file__).resolve().parent.parent / "app" / "solver" / "data" / "winnable.json"


def won(job: tuple[str, int, int]) -> tuple[int, bool]:
    preset, draw, number = job
    rules = Rules.preset_named(preset, draw=draw)
    code = DealCode(rules, number=number)
    budget = Budget(nodes=NODES, seconds=float("inf"))
    return number, solve(Position.deal(code.deck), rules, budget).won


def make_list(pool: ProcessPoolExecutor, preset: str, draw: int, count: int) -> list[int]:
    numbers = range(FIRST_DEAL, FIRST_DEAL + MAX_SCANNED)
    found: list[int] = []
    jobs = ((preset, draw, n) for n in numbers)
    for number, ok in pool.map(won, jobs, chunksize=4):
        if ok:
            found.append(number)
            if len(found) == count:
                break
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=60, help="deals per list")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    args = parser.parse_args(argv)
    lists: dict[str, list[int]] = {}
    with ProcessPoolExecutor(args.jobs) as pool:
        for name, (preset, draw) in LISTS.items():
            started = time.perf_counter()
            lists[name] = make_list(pool, preset, draw, args.count)
            seconds = time.perf_counter() - started
            print(f"{name}: {len(lists[name])} deals in {seconds:.0f} s", file=sys.stderr)
    header = {
        "generated_by": "scripts/make_winnable_deals.py",
        "first_deal": FIRST_DEAL,
        "node_budget": NODES,
        "max_scanned": MAX_SCANNED,
    }
    # One line per list keeps the file short and its diffs readable.
    lines = [f" {json.dumps(key)}: {json.dumps(value)}," for key, value in header.items()]
    body = ",\n".join(f"  {json.dumps(name)}: {json.dumps(nums)}" for name, nums in lists.items())
    text = "{\n" + "\n".join(lines) + '\n "lists": {\n' + body + "\n }\n}\n"
    json.loads(text)  # the file must stay valid JSON
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
