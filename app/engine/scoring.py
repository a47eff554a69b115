"""Scoring systems (SPEC §5, §10): `app`, `skill` and `casino`, behind one small interface."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

PartKind = Literal["cards", "deck", "time_penalty", "time_bonus"]


@dataclass(frozen=True, slots=True)
class ScorePart:
    """One term of a score, for the results screen: `cards` (count cards x points each),
    `deck` (casino's stake), `time_penalty` (count periods of 30 s), `time_bonus`
    (600000 / count seconds). `points` is what it adds to the score."""

    kind: PartKind
    points: int
    count: int = 0


class Scoring(Protocol):
    """How a rule set scores. Points are earned per action; time and the win are applied last.

    `opening_points` is what the deal itself is worth (the cards it puts on the
    foundations); `action_points` is what one action earns from the number of cards it put on
    the foundations (negative when it took one off). Undo always gives back
    exactly what the undone action earned. `score` turns the running points
    into the score shown, given the seconds played and whether the game is won.
    """

    undo_counts_as_move: bool
    # A finished game's score counts towards the player's bankroll (casino only).
    stakes: bool

    def opening_points(self, cards_on_foundations: int) -> int: ...

    def action_points(self, cards_to_foundation: int) -> int: ...

    def score(self, points: int, seconds: float, won: bool) -> int: ...

    def parts(self, points: int, seconds: float, won: bool) -> list[ScorePart]:
        """The terms that `score` adds up (before its floor at zero, where it has one)."""
        ...


class AppScoring:
    """+5 for each card put on a foundation; taking one off costs nothing; never below 0."""

    undo_counts_as_move = False
    stakes = False

    def opening_points(self, cards_on_foundations: int) -> int:
        return 0

    def action_points(self, cards_to_foundation: int) -> int:
        return 5 * max(0, cards_to_foundation)

    def score(self, points: int, seconds: float, won: bool) -> int:
        return max(0, points)

    def parts(self, points: int, seconds: float, won: bool) -> list[ScorePart]:
        return [ScorePart("cards", points, points // 5)]


class SkillScoring:
    """skill.games (seed 004): +10 a card to a foundation, -30 for every 30 seconds of
    play, never below 0; a win adds 600000 / seconds played. Undo gives back its
    points and itself counts as a move.

    Seconds played are measured by the server, from the first action on, and a
    gap between two actions longer than the server's idle limit counts only up
    to that limit, so a game left open while the player is away is not charged.
    """

    undo_counts_as_move = True
    stakes = False

    def opening_points(self, cards_on_foundations: int) -> int:
        return 0

    def action_points(self, cards_to_foundation: int) -> int:
        return 10 * max(0, cards_to_foundation)

    def score(self, points: int, seconds: float, won: bool) -> int:
        whole_seconds = max(1, int(seconds))
        total = max(0, points - 30 * (int(seconds) // 30))
        if won:
            total += 600_000 // whole_seconds
        return total

    def parts(self, points: int, seconds: float, won: bool) -> list[ScorePart]:
        periods = int(seconds) // 30
        terms = [
            ScorePart("cards", points, points // 10),
            ScorePart("time_penalty", -30 * periods, periods),
        ]
        if won:
            whole_seconds = max(1, int(seconds))
            terms.append(ScorePart("time_bonus", 600_000 // whole_seconds, whole_seconds))
        return terms


class CasinoScoring:
    """Canfield's casino (seeds 000, 003; SPEC §10): the deck is bought for 52 and each card
    on a foundation pays 5, the base card included. So the score is 5 x the cards on the
    foundations - 52: -47 at the start, +208 for a won game. It may be negative; a card
    taken off a foundation takes its 5 back, and so does undo.
    """

    undo_counts_as_move = False
    stakes = True

    def opening_points(self, cards_on_foundations: int) -> int:
        return 5 * cards_on_foundations

    def action_points(self, cards_to_foundation: int) -> int:
        return 5 * cards_to_foundation

    def score(self, points: int, seconds: float, won: bool) -> int:
        return points - 52

    def parts(self, points: int, seconds: float, won: bool) -> list[ScorePart]:
        return [ScorePart("cards", points, points // 5), ScorePart("deck", -52)]


SCORING_SYSTEMS: dict[str, Scoring] = {
    "app": AppScoring(),
    "skill": SkillScoring(),
    "casino": CasinoScoring(),
}
