"""`canfield solve`: one deal code, or a batch of deal numbers."""

from __future__ import annotations

import pytest

from app.cli import main as canfield
from app.solver.cli import UsageError, main, parse_budget, parse_deals, parse_range
from app.solver.search import UNTIMED, Budget


def test_a_deal_code_prints_the_verdict_and_the_winning_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert canfield(["solve", "CF1-D3-AAAAAAB", "--budget", "30s"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("CF1-D3-AAAAAAB: won (")
    assert "winning line (" in out
    assert "draw" in out


def test_an_unwinnable_deal_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["CF1-D3-AAAAAAE"]) == 0
    assert capsys.readouterr().out.startswith("CF1-D3-AAAAAAE: unwinnable (")


@pytest.mark.parametrize("threads", ["1", "2"])
def test_a_batch_counts_the_verdicts(threads: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--batch", "0-5", "--rules", "D3", "--budget", "20s,100k", "--threads", threads]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "6 deals, rules D3" in out
    labels = ("winnable", "unwinnable", "unknown")
    rows = [line.split() for line in out.splitlines()]
    counts = [int(row[1]) for row in rows if row[0] in labels and row[1].isdigit()]
    assert sum(counts) == 6
    assert "median" in out and "p95" in out
    assert "unknown deals:" in out


def test_a_budget_of_nodes_alone_has_no_time_limit(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--batch", "0-1", "--rules", "S1", "--budget", "50k", "--threads", "1"]) == 0
    assert "2 deals, rules S1, budget 50000 nodes each" in capsys.readouterr().out
    assert main(["--batch", "0-1", "--rules", "S1", "--budget", "3s,50k"]) == 0
    assert "budget 3 s or 50000 nodes each" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["CF1-D3-AAAAAAB", "--budget", "ten"], "bad budget 'ten'"),
        (["CF1-D3-AAAAAAB", "--budget", "0s"], "more than zero"),
        (["--batch", "9-1"], "START must not exceed END"),
        (["--batch", "1-x"], "bad range '1-x'"),
        (["--batch", "0-1", "--rules", "X3"], "unknown rules 'X3'"),
        (["CF1-D3-AAAAAAB", "--batch", "0-1"], "either a deal code or --batch"),
        ([], "give a deal code"),
        (["CF1-Q3-AAAAAAB"], "unknown rules"),
        (["CF1-D3-AAAAAAB", "--threads", "3"], "--threads must be 1 or 2"),
    ],
)
def test_bad_arguments_get_a_clear_message(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_budgets_read_seconds_and_nodes() -> None:
    assert parse_budget("10s") == Budget(nodes=15_000_000, seconds=10)
    assert parse_budget("500k") == Budget(nodes=500_000, seconds=UNTIMED)
    assert parse_budget("2.5s, 2m") == Budget(nodes=2_000_000, seconds=2.5)
    assert parse_budget("1234n") == Budget(nodes=1234, seconds=UNTIMED)
    with pytest.raises(UsageError):
        parse_budget("")


def test_ranges_are_inclusive() -> None:
    assert parse_range("3-5") == range(3, 6)


def test_deal_lists_mix_numbers_and_ranges_each_once() -> None:
    assert parse_deals("3-5") == [3, 4, 5]
    assert parse_deals("263, 35,0-2,35,1") == [263, 35, 0, 1, 2]
    for bad in ("", "3,", "5-3", "a"):
        with pytest.raises(UsageError):
            parse_deals(bad)
