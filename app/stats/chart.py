"""A small server-rendered SVG chart of a mode's last finished games (SPEC §10 results)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from app.i18n import gettext as _
from app.i18n import ngettext

LAST_GAMES = 20
WIDTH, HEIGHT = 240, 80
_GAP = 2
# Wins stand above the line in the top part of the chart, losses hang below it.
_WON_SHARE = 0.7
_SHORTEST = 6.0  # a score of 0 still shows its bar


@dataclass(frozen=True, slots=True)
class Outcome:
    """One finished game on the chart."""

    won: bool
    score: int


def chart_svg(outcomes: Sequence[Outcome]) -> str:
    """The last `LAST_GAMES` outcomes (oldest first) as bars: a won game's bar stands above
    the line, as tall as its score allows; a lost game's hangs below it. Each bar's title
    says the game's result and score."""
    shown = list(outcomes)[-LAST_GAMES:]
    won = sum(outcome.won for outcome in shown)
    label = ngettext(
        "Your last %(count)s game: %(won)s won",
        "Your last %(count)s games: %(won)s won",
        len(shown),
    ) % {"count": len(shown), "won": won}
    largest = max((abs(outcome.score) for outcome in shown), default=0) or 1
    zero = HEIGHT * _WON_SHARE
    slot = WIDTH / LAST_GAMES
    bars = []
    for index, outcome in enumerate(shown):
        room = zero if outcome.won else HEIGHT - zero
        size = max(_SHORTEST, room * abs(outcome.score) / largest)
        top = zero - size if outcome.won else zero
        kind = "won" if outcome.won else "lost"
        title = (
            _("Game %(number)s: won, score %(score)s")
            if outcome.won
            else _("Game %(number)s: lost, score %(score)s")
        ) % {"number": index + 1, "score": outcome.score}
        bars.append(
            f'<rect class="bar {kind}" x="{index * slot + _GAP / 2:.1f}" y="{top:.1f}" '
            f'width="{slot - _GAP:.1f}" height="{size:.1f}"><title>{escape(title)}</title></rect>'
        )
    return (
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" '
        f'role="img" aria-label="{escape(label)}" xmlns="http://www.w3.org/2000/svg">'
        f'<line class="zero" x1="0" x2="{WIDTH}" y1="{zero:.1f}" y2="{zero:.1f}"/>'
        + "".join(bars)
        + "</svg>"
    )
