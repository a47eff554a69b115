"""Soundness along winning lines: no position on a known winning line may be proved lost.

    .venv/bin/python bench/soundness.py lines --rules D3P3,S3 --deals 0-99 > lines.json
    .venv/bin/python bench/soundness.py check lines.json [--every 3] [--nodes 150000]

A wrong cut proves some winnable position lost. The exhaustive small-position tests
catch most wrong cuts, not all: a cut can hold on every small position and still fail
on a real deal (two cards brought back from their foundations sharing one use, D3P3 deal
47). So `lines` writes the winning lines that the solver on PYTHONPATH finds (run it
with the code BEFORE a change, e.g. PYTHONPATH=<a checkout of main>), and `check`
solves positions along each line with the code AFTER it: every position on a winning
line is winnable, so a verdict `unwinnable` there is a wrong cut; `check` names the
position and exits 1. tests/solver/test_lines.py checks a stored set
(tests/solver/data/winning_lines.json) in every test run.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from app.solver.batch import check_lines, winning_lines
from app.solver.cli import parse_range


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    lines = commands.add_parser("lines", help="write winning lines as JSON on stdout")
    lines.add_argument("--rules", default="C1,S3,S1,S1P3,S3P3,D3P3", help="rules tokens")
    lines.add_argument("--deals", default="0-99", help="deal numbers START-END")
    lines.add_argument("--nodes", type=int, default=400_000, help="node budget per deal")
    check = commands.add_parser("check", help="solve positions along the lines of a file")
    check.add_argument("file", help="a JSON file written by `lines`")
    check.add_argument("--every", type=int, default=3, help="check every n-th position")
    check.add_argument("--nodes", type=int, default=150_000, help="node budget per position")
    args = parser.parse_args(argv)
    if args.command == "lines":
        tokens = [t.strip() for t in args.rules.split(",") if t.strip()]
        found = winning_lines(tokens, parse_range(args.deals), args.nodes)
        print(json.dumps(found, indent=0))
        return 0
    with open(args.file, encoding="utf-8") as handle:
        lines_read = json.load(handle)
    started = time.perf_counter()
    report = check_lines(lines_read, args.every, args.nodes)
    for where in report.wrongly_lost:
        print(f"PROVED LOST ON A WINNING LINE: {where}")
    print(
        f"lines {len(lines_read)}, positions {report.positions}, unknown {report.unknown}, "
        f"wrongly lost {len(report.wrongly_lost)}, {time.perf_counter() - started:.0f} s"
    )
    return 1 if report.wrongly_lost else 0


if __name__ == "__main__":
    sys.exit(main())
