"""Soundness along winning lines: positions on stored winning lines are never proved lost.

The lines in data/winning_lines.json were found by the solver at 7ed28c7 (`bench/
soundness.py lines`): per rule set, the four won deals of 0-99 that took it the most
nodes. Every position on a winning line is winnable, so a cut that proves one lost is
wrong, even if it holds on every small position (a cut on cards brought back from their
foundations did just that on D3P3 deal 47). A wide run: `bench/soundness.py`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.solver import batch
from app.solver.batch import check_lines, positions_on_line
from app.solver.search import Solution, Verdict

LINES: dict[str, str] = json.loads(
    (Path(__file__).parent / "data" / "winning_lines.json").read_text(encoding="utf-8")
)


# Every rule set a player can pick (bench/solver.py's ALL_RULES).
TOKENS = ["D3", "C3", "D1", "C1", "S3", "S1", "D3P3", "C3P3", "D1P3", "C1P3", "S3P3", "S1P3"]


@pytest.mark.parametrize("token", TOKENS)
def test_no_position_on_a_winning_line_is_proved_lost(token: str) -> None:
    lines = {key: line for key, line in LINES.items() if key.startswith(f"{token}/")}
    assert len(lines) == 4
    report = check_lines(lines, every=10, nodes=30_000)
    assert report.wrongly_lost == []
    # The check says something only where the search decides: most positions.
    assert report.positions >= 30
    assert report.unknown <= report.positions // 2


def test_the_check_names_a_position_a_wrong_search_proves_lost(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A search that proves lost what it cannot win at once (a cut that is always
    wrong) is caught on the first positions it sees."""
    real = batch.solve

    def hasty(*args: object, **kwargs: object) -> Solution:
        solution = real(*args, **kwargs)  # type: ignore[arg-type]
        if solution.nodes > 50:
            return Solution(Verdict.UNWINNABLE, (), solution.nodes, solution.seconds)
        return solution

    monkeypatch.setattr(batch, "solve", hasty)
    report = check_lines({"D3P3/49": LINES["D3P3/49"]}, every=10, nodes=30_000)
    assert report.wrongly_lost
    assert report.wrongly_lost[0].startswith("D3P3/49 after ")


def test_a_line_that_does_not_win_is_refused() -> None:
    line = LINES["C1/34"].split()
    assert [played for played, _, _ in positions_on_line("C1/34", " ".join(line), 100)]
    with pytest.raises(ValueError, match="C1/34: the line does not end in a win"):
        list(positions_on_line("C1/34", " ".join(line[:-1]), 100))
