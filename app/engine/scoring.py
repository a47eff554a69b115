"""Scoring systems (SPEC §5): `app` and `skill`, behind one small interface."""

from __future__ import annotations

from typing import Protocol


class Scoring(Protocol):
    """How a rule set scores. Points are earned per action; time and the win are applied last.

    `action_points` is what one action earns from the number of cards it put on
    the foundations (negative when it took one off). Undo always gives back
    exactly what the undone action earned. `score` turns the running points
    into the score shown, given the seconds played and whether the game is won.
    """

    undo_counts_as_move: bool

    def action_points(self, cards_to_foundation: int) -> int: ...

    def score(self, points: int, seconds: float, won: bool) -> int: ...


class AppScoring:
    """+5 for each card put on a foundation; taking one off costs nothing; never below 0."""

    undo_counts_as_move = False

    def action_points(self, cards_to_foundation: int) -> int:
        return 5 * max(0, cards_to_foundation)

    def score(self, points: int, seconds: float, won: bool) -> int:
        return max(0, points)


class SkillScoring:
    """skill.games (seed 004): +10 a card to a foundation, -30 for every 30 seconds of
    play, never below 0; a win adds 600000 / seconds played. Undo gives back its
    points and itself counts as a move.

    Seconds played are measured by the server, from the first action on, and a
    gap between two actions longer than the server's idle limit counts only up
    to that limit, so a game left open while the player is away is not charged.
    """

    undo_counts_as_move = True

    def action_points(self, cards_to_foundation: int) -> int:
        return 10 * max(0, cards_to_foundation)

    def score(self, points: int, seconds: float, won: bool) -> int:
        whole_seconds = max(1, int(seconds))
        total = max(0, points - 30 * (int(seconds) // 30))
        if won:
            total += 600_000 // whole_seconds
        return total


SCORING_SYSTEMS: dict[str, Scoring] = {"app": AppScoring(), "skill": SkillScoring()}
