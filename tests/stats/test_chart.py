"""The results chart: one bar a finished game, the last 20, won filled and lost outlined."""

import re
import xml.etree.ElementTree as ET

from app.stats.chart import LAST_GAMES, Outcome, chart_svg

SVG = "{http://www.w3.org/2000/svg}"


def bars(svg: str) -> list[ET.Element]:
    return ET.fromstring(svg).findall(f"{SVG}rect")


def test_the_chart_shows_only_the_last_twenty_games_oldest_first() -> None:
    outcomes = [Outcome(won=i % 3 == 0, score=i * 10) for i in range(30)]
    svg = chart_svg(outcomes)
    shown = bars(svg)
    assert len(shown) == LAST_GAMES
    titles = [bar.findtext(f"{SVG}title") for bar in shown]
    assert titles[0] == "Game 1: lost, score 100"  # game 10 of 30 is the oldest shown
    assert titles[-1] == "Game 20: lost, score 290"
    assert ET.fromstring(svg).get("aria-label") == "Your last 20 games: 6 won"


def test_a_higher_score_is_a_taller_bar_and_a_lost_game_hangs_below_the_line() -> None:
    svg = chart_svg([Outcome(False, -47), Outcome(True, 208), Outcome(True, 100)])
    lost, big, small = bars(svg)
    zero = float(ET.fromstring(svg).find(f"{SVG}line").get("y1"))  # type: ignore[union-attr]
    assert float(big.get("height")) > float(small.get("height"))  # type: ignore[arg-type]
    assert float(lost.get("y")) == zero  # type: ignore[arg-type]
    assert float(big.get("y")) + float(big.get("height")) == zero  # type: ignore[arg-type]
    assert re.search(r'class="bar lost"', svg) and re.search(r'class="bar won"', svg)


def test_no_games_is_an_empty_chart() -> None:
    svg = chart_svg([])
    assert bars(svg) == []
    assert ET.fromstring(svg).get("aria-label") == "Your last 0 games: 0 won"
