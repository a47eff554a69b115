"""Solving ranges of deal numbers: verdict counts, time percentiles, peak memory, and
the soundness check along known winning lines."""

from __future__ import annotations

import math
import resource
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from app.engine import DealCode, Move, Position, Rules, apply_move
from app.engine.rules import decode_token
from app.solver.board import ALL_TECHNIQUES, Problem, Techniques
from app.solver.search import UNTIMED, Budget, Solver, Verdict, solve


@dataclass(frozen=True, slots=True)
class DealResult:
    """One deal's outcome; `peak_kib` is the solving process's peak memory so far."""

    number: int
    verdict: Verdict
    nodes: int
    seconds: float
    peak_kib: int


def solve_number(
    rules: Rules, number: int, budget: Budget, techniques: Techniques = ALL_TECHNIQUES
) -> DealResult:
    code = DealCode(rules, number=number)
    position = Position.deal(code.deck)
    solution = Solver(Problem.of(position, rules, techniques)).solve_position(position, budget)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return DealResult(number, solution.verdict, solution.nodes, solution.seconds, peak)


def _solve_job(job: tuple[Rules, int, Budget, Techniques]) -> DealResult:
    return solve_number(*job)


def solve_numbers(
    rules: Rules,
    numbers: Iterable[int],
    budget: Budget,
    jobs: int = 1,
    techniques: Techniques = ALL_TECHNIQUES,
) -> Iterator[DealResult]:
    """Solve each deal number, in order, in `jobs` processes."""
    work = ((rules, number, budget, techniques) for number in numbers)
    if jobs <= 1:
        yield from map(_solve_job, work)
        return
    with ProcessPoolExecutor(jobs) as pool:
        yield from pool.map(_solve_job, work)


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank `q`-th percentile (0 < q <= 100) of `values`; NaN when empty."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


@dataclass(frozen=True, slots=True)
class BatchReport:
    """The outcome of a range of deals."""

    rules: Rules
    budget: Budget
    results: tuple[DealResult, ...]

    def count(self, verdict: Verdict) -> int:
        return sum(1 for r in self.results if r.verdict is verdict)

    def share(self, verdict: Verdict) -> float:
        """The percentage of deals with `verdict`."""
        return 100 * self.count(verdict) / len(self.results) if self.results else 0.0

    @property
    def unknown(self) -> list[int]:
        return [r.number for r in self.results if r.verdict is Verdict.UNKNOWN]

    def seconds(self, q: float) -> float:
        return percentile([r.seconds for r in self.results], q)

    def nodes(self, q: float) -> float:
        return percentile([float(r.nodes) for r in self.results], q)

    @property
    def peak_mib(self) -> float:
        return max((r.peak_kib for r in self.results), default=0) / 1024

    def lines(self) -> list[str]:
        """The report as text lines."""
        total = len(self.results)
        nodes = f"{self.budget.nodes} nodes"
        limit = nodes if self.budget.seconds >= UNTIMED else f"{self.budget.seconds:g} s or {nodes}"
        out = [f"{total} deals, rules {self.rules.token}, budget {limit} each"]
        for verdict, label in (
            (Verdict.WON, "winnable"),
            (Verdict.UNWINNABLE, "unwinnable"),
            (Verdict.UNKNOWN, "unknown"),
        ):
            out.append(f"{label:<11}{self.count(verdict):>6}  {self.share(verdict):5.1f}%")
        out.append(
            f"time per deal: median {self.seconds(50):.3f} s, p95 {self.seconds(95):.3f} s, "
            f"max {self.seconds(100):.3f} s; peak memory {self.peak_mib:.0f} MiB"
        )
        unknown = self.unknown
        out.append("unknown deals: " + (" ".join(map(str, unknown)) if unknown else "none"))
        return out


def run_batch(
    rules: Rules,
    numbers: Iterable[int],
    budget: Budget,
    jobs: int = 1,
    techniques: Techniques = ALL_TECHNIQUES,
) -> BatchReport:
    results = tuple(solve_numbers(rules, numbers, budget, jobs, techniques))
    return BatchReport(rules, budget, results)


@dataclass(frozen=True, slots=True)
class LinesReport:
    """What `check_lines` found: positions solved, how many stayed unknown, and where
    a position on a winning line was proved lost (which only a wrong cut can do)."""

    positions: int
    unknown: int
    wrongly_lost: list[str]


def winning_lines(tokens: Iterable[str], numbers: range, nodes: int) -> dict[str, str]:
    """`TOKEN/NUMBER` -> the winning line (moves in notation, space-separated) of each
    deal the search wins within `nodes`."""
    lines = {}
    for token in tokens:
        rules = decode_token(token)
        for number in numbers:
            position = Position.deal(DealCode(rules, number=number).deck)
            solution = solve(position, rules, Budget(nodes=nodes, seconds=3600))
            if solution.verdict is Verdict.WON:
                lines[f"{token}/{number}"] = " ".join(solution.notation)
    return lines


def positions_on_line(key: str, line: str, every: int) -> Iterator[tuple[int, Position, Rules]]:
    """Every `every`-th position along a winning line (`key` is `TOKEN/NUMBER`), with
    the number of moves played, replayed in the engine (which refuses a wrong move);
    raises ValueError if the line does not end in a win."""
    token, number = key.split("/")
    rules = decode_token(token)
    position = Position.deal(DealCode(rules, number=int(number)).deck)
    for played, notation in enumerate(line.split(), start=1):
        position = apply_move(position, rules, Move.parse(notation))
        if played % every == 0 and not position.won:
            yield played, position, rules
    if not position.won:
        raise ValueError(f"{key}: the line does not end in a win")


def check_lines(lines: dict[str, str], every: int, nodes: int) -> LinesReport:
    """Solve every `every`-th position along each winning line within `nodes`: none may
    come out unwinnable."""
    positions = unknown = 0
    wrong = []
    for key, line in lines.items():
        for played, position, rules in positions_on_line(key, line, every):
            solution = solve(position, rules, Budget(nodes=nodes, seconds=3600))
            positions += 1
            unknown += solution.verdict is Verdict.UNKNOWN
            if solution.verdict is Verdict.UNWINNABLE:
                wrong.append(f"{key} after {played} moves")
    return LinesReport(positions, unknown, wrong)
