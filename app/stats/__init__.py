"""A player's statistics (SPEC §10): per mode (preset, level, draw) over finished games,
and the casino bankroll. The fold here is the one definition of every figure: the store
keeps its running totals with it, and a recount from the stored games uses it too."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

# (preset, level, draw): the rows of the statistics, sorted in this order.
Mode = tuple[str, str, int]
# How many of a mode's last finished games its results chart shows.
RECENT = 20


@dataclass(frozen=True, slots=True)
class Finished:
    """One finished game, as the statistics see it."""

    preset: str
    level: str
    draw: int
    won: bool
    score: int
    seconds: int
    moves: int
    casino: bool

    @property
    def mode(self) -> Mode:
        return (self.preset, self.level, self.draw)


@dataclass(frozen=True, slots=True)
class ModeStats:
    """The running figures of one mode. `streak` > 0 counts the wins in a row at the end,
    < 0 the losses; the best figures are over won games (None before the first win)."""

    played: int = 0
    won: int = 0
    streak: int = 0
    best_streak: int = 0
    best_score: int | None = None
    best_seconds: int | None = None
    fewest_moves: int | None = None
    # The last RECENT finished games, oldest first, as (won, score).
    recent: tuple[tuple[bool, int], ...] = ()

    def after(self, game: Finished) -> ModeStats:
        """These figures with one more game finished."""
        recent = (*self.recent, (game.won, game.score))[-RECENT:]
        if not game.won:
            return replace(
                self, played=self.played + 1, streak=min(self.streak, 0) - 1, recent=recent
            )
        streak = max(self.streak, 0) + 1
        return ModeStats(
            played=self.played + 1,
            won=self.won + 1,
            streak=streak,
            best_streak=max(self.best_streak, streak),
            best_score=_best(max, self.best_score, game.score),
            best_seconds=_best(min, self.best_seconds, game.seconds),
            fewest_moves=_best(min, self.fewest_moves, game.moves),
            recent=recent,
        )

    def columns(self) -> dict[str, Any]:
        """The figures as the store keeps them (`recent` as JSON lists)."""
        return {
            "played": self.played,
            "won": self.won,
            "streak": self.streak,
            "best_streak": self.best_streak,
            "best_score": self.best_score,
            "best_seconds": self.best_seconds,
            "fewest_moves": self.fewest_moves,
            "recent": [[won, score] for won, score in self.recent],
        }

    @staticmethod
    def from_columns(row: dict[str, Any]) -> ModeStats:
        """The figures from the store's columns (the inverse of `columns`)."""
        return ModeStats(
            played=row["played"],
            won=row["won"],
            streak=row["streak"],
            best_streak=row["best_streak"],
            best_score=row["best_score"],
            best_seconds=row["best_seconds"],
            fewest_moves=row["fewest_moves"],
            recent=tuple((bool(won), int(score)) for won, score in row["recent"]),
        )

    @property
    def lost(self) -> int:
        return self.played - self.won

    @property
    def win_rate(self) -> float:
        return round(self.won / self.played, 4) if self.played else 0.0


def _best(pick: Any, old: int | None, new: int) -> int:
    return new if old is None else int(pick(old, new))


@dataclass(frozen=True, slots=True)
class Bankroll:
    """The player's finished casino games and the sum of their scores."""

    games: int = 0
    bankroll: int = 0

    def after(self, game: Finished) -> Bankroll:
        if not game.casino:
            return self
        return Bankroll(self.games + 1, self.bankroll + game.score)


def recount(finished: Iterable[Finished]) -> tuple[dict[Mode, ModeStats], Bankroll]:
    """Every mode's figures and the bankroll from the finished games, in finishing order."""
    modes: dict[Mode, ModeStats] = {}
    bankroll = Bankroll()
    for game in finished:
        modes[game.mode] = modes.get(game.mode, ModeStats()).after(game)
        bankroll = bankroll.after(game)
    return modes, bankroll


def mode_json(mode: Mode, figures: ModeStats) -> dict[str, Any]:
    """One row of `GET /api/stats` (SPEC §10)."""
    preset, level, draw = mode
    return {
        "preset": preset,
        "level": level,
        "draw": draw,
        "played": figures.played,
        "won": figures.won,
        "lost": figures.lost,
        "win_rate": figures.win_rate,
        "streak": figures.streak,
        "best_streak": figures.best_streak,
        "best_score": figures.best_score,
        "best_seconds": figures.best_seconds,
        "fewest_moves": figures.fewest_moves,
    }


def stats_json(modes: dict[Mode, ModeStats], bankroll: Bankroll) -> dict[str, Any]:
    """The answer of `GET /api/stats` (SPEC §10): rows sorted by preset, level, draw."""
    return {
        "modes": [
            mode_json(mode, figures)
            for mode, figures in sorted(modes.items())
            if figures.played
        ],
        "casino": {"games": bankroll.games, "bankroll": bankroll.bankroll},
    }
