"""Solver figures: verdicts and times over a range of deals, and hint times in mid-game.

    .venv/bin/python bench/solver.py [--rules D3,C3,...] [--deals 0-49 | 35,263,0-99] [--seconds 10]
                                     [--threads 2] [--jobs 1] [--hints 20]
    .venv/bin/python bench/solver.py --ablate 100000 --deals 0-49 --rules D3,C3,D1
    CANFIELD_SOLVER=python .venv/bin/python bench/solver.py ...  (the Python search)

Prints one table, a row per rule set (by default all twelve a player can choose:
each preset with draw 3 and draw 1, with the preset's passes and with three, the
level Hard): the share of deals winnable, unwinnable and unknown within the
budget, the median, p95 and longest time per deal, the nodes, the peak memory of
the solving process and the search speed (thousands of nodes a second). Then hint
times from mid-game positions of winnable deals: on the winning line (a third to
two thirds in), and the same after three random moves (which may have lost the
game, so the hint may walk back through undo). With --ablate: what each technique
buys. The search runs in the compiled core unless CANFIELD_SOLVER=python; the
ablations always run in Python. The default run (deals 0-49) takes some ten
minutes on a busy two-core machine; the README's table is `--deals 0-499`.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from app.engine import DealCode, EngineError, Game, Position, Rules
from app.engine.rules import decode_token
from app.solver.batch import percentile, run_batch
from app.solver.board import Techniques
from app.solver.cli import parse_deals
from app.solver.hint import KNOWN_LINES, hint
from app.solver.search import Budget, Verdict, solve

# Every rule set a player can pick: preset and draw, with the preset's passes (unlimited)
# and with the level Hard's three.
ALL_RULES = "D3,C3,D1,C1,S3,S1,D3P3,C3P3,D1P3,C1P3,S3P3,S1P3"
_PRESET_NAMES = {"D": "app", "C": "classic", "S": "skill"}


def rule_sets(tokens: str) -> dict[str, Rules]:
    """The rule sets of a comma-separated list of rules tokens, by a readable name."""
    out = {}
    for token in (t.strip() for t in tokens.split(",") if t.strip()):
        try:
            rules = decode_token(token)
        except EngineError as error:
            raise SystemExit(f"bench/solver.py: {error}") from None
        passes = "" if rules.passes is None else f", {rules.passes} passes"
        out[f"{rules.token} {_PRESET_NAMES[rules.token[0]]} draw {rules.draw}{passes}"] = rules
    return out


def _listed(numbers: list[int]) -> str:
    """Deal numbers as START-END when they run on, else listed."""
    if numbers == list(range(numbers[0], numbers[0] + len(numbers))):
        return f"{numbers[0]}-{numbers[-1]}"
    return ",".join(map(str, numbers))


def bench_deals(
    configs: dict[str, Rules], numbers: list[int], seconds: float, threads: int, jobs: int
) -> dict[str, list[int]]:
    """Print the verdict table; return each rule set's won deal numbers."""
    budget = Budget(nodes=10**9, seconds=seconds, threads=threads)
    print(
        f"deals {_listed(numbers)}, {seconds:g} s per deal, "
        f"{threads} threads per deal, {jobs} processes"
    )
    print(
        f"{'rules':<31}{'won':>7}{'lost':>7}{'unknown':>9}{'decided':>9}"
        f"{'median':>9}{'p95':>9}{'max':>8}{'nodes p50':>10}{'p95':>9}{'peak MiB':>9}{'wall':>7}"
        f"{'kn/s':>7}"
    )
    won: dict[str, list[int]] = {}
    for name, rules in configs.items():
        started = time.perf_counter()
        if jobs > 1:
            report = run_batch(rules, numbers, budget, jobs)
        else:  # in a fresh process, so that the peak memory is this rule set's own
            with ProcessPoolExecutor(1) as pool:
                report = pool.submit(run_batch, rules, numbers, budget).result()
        wall = time.perf_counter() - started
        decided = 100 - report.share(Verdict.UNKNOWN)
        # Search speed over the deals: thousands of nodes per second of solving.
        speed = sum(r.nodes for r in report.results) / sum(r.seconds for r in report.results)
        print(
            f"{name:<31}{report.share(Verdict.WON):6.1f}%{report.share(Verdict.UNWINNABLE):6.1f}%"
            f"{report.share(Verdict.UNKNOWN):8.1f}%{decided:8.1f}%"
            f"{report.seconds(50):8.3f}s{report.seconds(95):8.3f}s{report.seconds(100):7.1f}s"
            f"{report.nodes(50):10.0f}{report.nodes(95):9.0f}{report.peak_mib:9.0f}{wall:6.0f}s"
            f"{speed / 1000:7.0f}",
            flush=True,
        )
        print(f"  unknown: {' '.join(map(str, report.unknown)) or 'none'}", flush=True)
        won[name] = [r.number for r in report.results if r.verdict is Verdict.WON]
    return won


def mid_game(rules: Rules, number: int, rng: random.Random, detour: int) -> Game | None:
    """A game of a won deal played a third to two thirds along its winning line."""
    code = DealCode(rules, number=number)
    solution = solve(Position.deal(code.deck), rules, Budget(nodes=2_000_000, seconds=30))
    if not solution.won:
        return None
    game = Game(code)
    length = len(solution.line)
    for move in solution.line[: rng.randint(length // 3, 2 * length // 3)]:
        game.play(move)
    for _ in range(detour):
        moves = game.legal_moves()
        if moves:
            game.play(rng.choice(moves))
    return game


def bench_hints(configs: dict[str, Rules], won: dict[str, list[int]], count: int) -> None:
    print(f"\nhints from mid-game positions of won deals (default hint budget), {count} per row")
    print("(wall time; cpu: the hint's own CPU time, its search runs in the calling thread)")
    print(f"{'rules':<31}{'detour':>7}{'median':>9}{'p95':>9}{'max':>8}{'cpu p95':>9}  verdicts")
    for name, rules in configs.items():
        for detour in (0, 3):
            rng = random.Random(f"{name}/{detour}")
            times: list[float] = []
            cpu: list[float] = []
            verdicts: dict[str, int] = {}
            for number in won.get(name, [])[:count]:
                game = mid_game(rules, number, rng, detour)
                if game is None:
                    continue
                KNOWN_LINES.clear()  # time a fresh search, not the cache
                started, used = time.perf_counter(), time.thread_time()
                answer = hint(game)
                times.append(time.perf_counter() - started)
                cpu.append(time.thread_time() - used)
                label = answer.verdict.value + ("+undo" if answer.undo else "")
                verdicts[label] = verdicts.get(label, 0) + 1
            if not times:
                print(f"{name:<31}{detour:>7}  no won deal in these deals", flush=True)
                continue
            print(
                f"{name:<31}{detour:>7}{percentile(times, 50):8.3f}s{percentile(times, 95):8.3f}s"
                f"{percentile(times, 100):7.2f}s{percentile(cpu, 95):8.3f}s  {verdicts}",
                flush=True,
            )


def ablate(configs: dict[str, Rules], numbers: list[int], nodes: int, jobs: int) -> None:
    """What each technique buys: the same deals under a node budget, each one off."""
    budget = Budget(nodes=nodes, seconds=float("inf"))
    print(f"\nablation: deals {_listed(numbers)}, {nodes} nodes per deal")
    print(
        f"{'rules':<31}{'without':<19}{'decided':>8}{'won':>6}{'nodes':>12}{'p50':>8}{'seconds':>9}"
    )
    variants = ["(nothing)", *Techniques.__slots__]
    for name, rules in configs.items():
        for off in variants:
            techniques = Techniques() if off == "(nothing)" else Techniques(**{off: False})
            report = run_batch(rules, numbers, budget, jobs, techniques)
            total = sum(r.nodes for r in report.results)
            seconds = sum(r.seconds for r in report.results)
            print(
                f"{name:<31}{off:<19}{100 - report.share(Verdict.UNKNOWN):7.0f}%"
                f"{report.count(Verdict.WON):6d}{total:12d}{report.nodes(50):8.0f}{seconds:8.0f}s",
                flush=True,
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="solver figures")
    parser.add_argument(
        "--rules", default=ALL_RULES, help=f"rules tokens, comma-separated (default {ALL_RULES})"
    )
    parser.add_argument(
        "--deals", default="0-49", help="deal numbers: START-END, or a list such as 0-99,184,212"
    )
    parser.add_argument("--seconds", type=float, default=10.0, help="budget per deal")
    parser.add_argument("--threads", type=int, default=2, help="threads per deal (1 or 2)")
    parser.add_argument("--jobs", type=int, default=1, help="processes")
    parser.add_argument("--hints", type=int, default=20, help="hint positions per row (0: none)")
    parser.add_argument(
        "--ablate",
        metavar="NODES",
        type=int,
        default=0,
        help="instead: each technique off in turn, NODES per deal (e.g. 100000 on 0-49)",
    )
    args = parser.parse_args(argv)
    configs = rule_sets(args.rules)
    if args.ablate:
        ablate(configs, parse_deals(args.deals), args.ablate, args.jobs)
        return 0
    won = bench_deals(configs, parse_deals(args.deals), args.seconds, args.threads, args.jobs)
    if args.hints:
        bench_hints(configs, won, args.hints)
    return 0


if __name__ == "__main__":
    sys.exit(main())
