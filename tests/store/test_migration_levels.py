"""Migration 0005 (levels and results) keeps every game and counts the games already won."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from sqlalchemy import text

from app.engine import DealCode, Game, Rules
from app.stats import Finished, recount
from app.store.db import make_engine, migrate
from tests.shared import SEED_CODE, Databases


def _insert_game(  # type: ignore[no-untyped-def]
    connection, game_id: str, code: str, status: str, score: int, at: datetime, **rules: object
):
    game = Game(DealCode.parse(code))
    connection.execute(
        text(
            "INSERT INTO games (id, player_id, code, rules, status, version, score, points, "
            "moves, seconds, position, undo_count, undo_top, created_at, updated_at, "
            "finished_at, hints_used) VALUES (:id, 'p1', :code, :rules, :status, 3, :score, "
            "0, 90, 123.7, 'x', 0, NULL, :at, :at, :finished, 0)"
        ),
        {
            "id": game_id,
            "code": code,
            "rules": json.dumps({**game.rules.to_dict(), **rules}),
            "status": status,
            "score": score,
            "at": at,
            "finished": at if status == "won" else None,
        },
    )


def test_existing_games_get_a_level_and_their_wins_are_counted(databases: Databases) -> None:
    engine = make_engine(databases.new(migrated=False))
    start = datetime(2026, 11, 1, tzinfo=UTC)
    skill = str(DealCode(Rules.preset_named("skill"), number=5))
    try:
        migrate(engine, "0002")
        with engine.begin() as connection:
            connection.execute(
                text(
                    "INSERT INTO players (id, created_at, double_click, preset, draw) "
                    "VALUES ('p1', :at, true, 'app', 3)"
                ),
                {"at": start},
            )
            _insert_game(connection, "g1", skill, "won", 900, start)
            _insert_game(connection, "g2", skill, "won", 1200, start + timedelta(hours=1))
            _insert_game(connection, "g3", SEED_CODE, "playing", 0, start)
            # Classic games before casino scoring: won with app scores; one in progress.
            _insert_game(connection, "g4", "CF1-C3-AAAAAAB", "won", 255, start, scoring="app")
            _insert_game(connection, "g5", "CF1-C3-AAAAAAC", "playing", 10, start, scoring="app")
        migrate(engine)
        with engine.connect() as connection:
            levels = dict(connection.execute(text("SELECT id, level FROM games")).all())
            stats = connection.execute(
                text(
                    "SELECT preset, level, draw, played, won, streak, best_streak, best_score, "
                    "best_seconds, fewest_moves FROM player_stats ORDER BY preset"
                )
            ).all()
            bankroll = connection.execute(
                text("SELECT casino_games, bankroll FROM players")
            ).one()
            g5 = connection.execute(
                text("SELECT rules, points, score FROM games WHERE id = 'g5'")
            ).one()
    finally:
        engine.dispose()
    assert levels == {
        "g1": "medium", "g2": "medium", "g3": "shared", "g4": "medium", "g5": "medium"
    }
    expected, _ = recount(
        Finished("skill", "medium", 3, True, score, 123, 90, False) for score in (900, 1200)
    )
    figures = expected[("skill", "medium", 3)]
    assert [tuple(row) for row in stats] == [
        ("classic", "medium", 3, 1, 1, 1, 1, 255, 123, 90),
        (
            "skill", "medium", 3, figures.played, figures.won, figures.streak,
            figures.best_streak, 1200, 123, 90,
        ),
    ]
    # The classic game won before casino scoring was not a casino game: no bankroll.
    assert tuple(bankroll) == (0, 0)
    # The classic game in progress is a casino game now: the base card's 5 - 52.
    rules = g5.rules if isinstance(g5.rules, dict) else json.loads(g5.rules)
    assert (rules["scoring"], g5.points, g5.score) == ("casino", 5, 5 - 52)
