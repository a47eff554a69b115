"""The README's engine example runs as written, and `canfield deal CODE` prints a deal."""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
import sys
from pathlib import Path

from app.engine import Game
from tests.shared import SEED_AFTER_THREE as AFTER_THREE
from tests.shared import SEED_CODE, seed_summaries
from tests.shared import SEED_OPENING as OPENING

ROOT = Path(__file__).resolve().parents[2]


def readme_engine_example() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks: list[str] = re.findall(r"```python\n(.*?)```", readme, flags=re.DOTALL)
    assert len(blocks) == 1, "the README has one python example"
    return blocks[0]


def test_the_readme_example_runs_as_written_and_prints_what_its_comments_say() -> None:
    namespace: dict[str, object] = {}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(readme_engine_example(), namespace)  # its own asserts run too
    score, summary, polish, first_moves = out.getvalue().splitlines()
    assert score == "5"
    assert summary == AFTER_THREE
    assert polish == seed_summaries("000", "Talia: ")[1]
    # After the three moves only the reserve's jack of spades onto the queen of hearts, and
    # a draw, are legal: the README prints them in the engine's order.
    assert first_moves == "['JS-t3', 'draw']"
    after_three = Game.replay(SEED_CODE, ["QC-t2", "8H-f", "KH-t4"])
    assert first_moves == repr([str(move) for move in after_three.legal_moves()][:3])
    game = namespace["game"]
    assert isinstance(game, Game)
    # "KH and QC go back to column 2, QS back to the reserve"
    assert [str(card) for card in game.position.tableau[1]] == ["KH", "QC"]
    assert str(game.position.reserve[-1]) == "QS"


def canfield(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_canfield_deal_prints_the_code_and_the_opening_summary() -> None:
    result = canfield("deal", SEED_CODE.lower())
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [SEED_CODE, OPENING]


def test_canfield_deal_refuses_a_bad_code_on_stderr() -> None:
    result = canfield("deal", "CF1-D3-AAAA")
    assert result.returncode != 0
    assert result.stdout == ""
    assert "expected 7 or 48 letters after CF1-D3-" in result.stderr


def test_canfield_stops_quietly_when_its_reader_goes_away() -> None:
    # `canfield deal CODE | head -c0`: the pipe is closed before anything is written.
    process = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "deal", SEED_CODE],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    process.stdout.close()
    _, errors = process.communicate(timeout=60)
    assert errors == ""
    assert process.returncode == 1
