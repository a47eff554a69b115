"""`canfield solve`: solve one deal code, or count a range of deal numbers."""

from __future__ import annotations

import argparse
import re
import sys
import textwrap
from dataclasses import replace

from app.engine import DealCode, EngineError, Position, Rules
from app.engine.codes import MAX_DEAL_NUMBER
from app.engine.rules import decode_token
from app.solver.batch import run_batch
from app.solver.search import UNTIMED, Budget, solve

DEFAULT_BUDGET = Budget(nodes=15_000_000, seconds=10.0)
_BUDGET_PART = re.compile(r"(\d+(?:\.\d+)?)(s|n|k|m)", re.IGNORECASE)


class UsageError(ValueError):
    """Arguments that cannot be used; the message says why."""


def parse_budget(text: str) -> Budget:
    """`10s`, `500000n`, `500k` or `2m` nodes, or both: `10s,2m`. Raises UsageError.
    Nodes alone set no time limit (`UNTIMED`), so the run is the same on any machine;
    seconds alone keep the default node cap."""
    seconds, nodes = None, DEFAULT_BUDGET.nodes
    parts = [p for p in text.replace(" ", "").split(",") if p]
    if not parts:
        raise UsageError("empty budget: give seconds (10s), nodes (500000n, 500k, 2m) or both")
    for part in parts:
        match = _BUDGET_PART.fullmatch(part)
        if match is None:
            raise UsageError(
                f"bad budget {part!r}: expected seconds such as 10s, or nodes such as "
                "500000n, 500k or 2m"
            )
        value, unit = float(match.group(1)), match.group(2).lower()
        if unit == "s":
            seconds = value
        else:
            nodes = int(value * {"n": 1, "k": 1_000, "m": 1_000_000}[unit])
        if value <= 0:
            raise UsageError(f"bad budget {part!r}: it must be more than zero")
    return Budget(nodes=nodes, seconds=UNTIMED if seconds is None else seconds)


def parse_range(text: str) -> range:
    """`START-END` (inclusive) of deal numbers; raises UsageError."""
    match = re.fullmatch(r"(\d+)-(\d+)", text.strip())
    if match is None:
        raise UsageError(f"bad range {text!r}: expected START-END, such as 0-499")
    start, end = int(match.group(1)), int(match.group(2))
    if start > end or end > MAX_DEAL_NUMBER:
        raise UsageError(
            f"bad range {text!r}: START must not exceed END, and END must not exceed "
            f"{MAX_DEAL_NUMBER}"
        )
    return range(start, end + 1)


def parse_deals(text: str) -> list[int]:
    """Deal numbers, comma-separated, each one number or a `START-END` range (inclusive),
    such as `0-99,184,212`; in the order given, each once. Raises UsageError."""
    numbers: list[int] = []
    for part in (p.strip() for p in text.split(",")):
        if re.fullmatch(r"\d+", part):
            part = f"{part}-{part}"
        numbers.extend(n for n in parse_range(part) if n not in numbers)
    return numbers


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="canfield solve",
        description="Solve a Canfield deal, or count how many of a range of deals can be won.",
        epilog="Budgets: 10s (seconds), 500000n, 500k or 2m (nodes), or both: 10s,2m. "
        f"Default {DEFAULT_BUDGET.seconds:g}s,{DEFAULT_BUDGET.nodes}n.",
    )
    parser.add_argument("code", nargs="?", help="a deal code such as CF1-D3-AAAAACL")
    parser.add_argument("--budget", default=None, help="per deal: seconds and/or nodes")
    parser.add_argument(
        "--batch", metavar="START-END", help="solve the deal numbers START to END (inclusive)"
    )
    parser.add_argument(
        "--rules", default="D3", help="the rules token of a deal code for --batch (default D3)"
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes for --batch (default 1)")
    parser.add_argument(
        "--threads",
        type=int,
        default=2,
        help="threads per deal, 1 or 2 (default 2; with --jobs above 1, 1 is better)",
    )
    return parser


def main(argv: list[str]) -> int:
    """Run `canfield solve` with `argv`; returns the exit status (2 for bad arguments)."""
    parser = _parser()
    args = parser.parse_args(argv[1:] if argv[:1] == ["--"] else argv)
    try:
        budget = parse_budget(args.budget) if args.budget is not None else DEFAULT_BUDGET
        if args.threads not in (1, 2):
            raise UsageError("--threads must be 1 or 2")
        budget = replace(budget, threads=args.threads)
        if args.batch is not None:
            if args.code is not None:
                raise UsageError("give either a deal code or --batch, not both")
            if not 1 <= args.jobs <= 8:
                raise UsageError("--jobs must be from 1 to 8")
            return _batch(parse_range(args.batch), decode_token(args.rules), budget, args.jobs)
        if args.code is None:
            raise UsageError("give a deal code (such as CF1-D3-AAAAACL) or --batch START-END")
        return _single(DealCode.parse(args.code), budget)
    except (UsageError, EngineError) as error:
        print(f"canfield solve: {error}", file=sys.stderr)
        return 2


def _single(code: DealCode, budget: Budget) -> int:
    solution = solve(Position.deal(code.deck), code.rules, budget)
    print(f"{code}: {solution.verdict} ({solution.nodes} nodes, {solution.seconds:.2f} s)")
    if solution.won:
        print(f"winning line ({len(solution.line)} moves):")
        print(textwrap.fill(" ".join(solution.notation), width=100))
    return 0


def _batch(numbers: range, rules: Rules, budget: Budget, jobs: int) -> int:
    report = run_batch(rules, numbers, budget, jobs)
    print(f"deals {numbers.start}-{numbers.stop - 1}:")
    for line in report.lines():
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
