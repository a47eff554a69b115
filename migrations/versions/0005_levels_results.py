"""Levels, results and statistics (SPEC §10): each game's level and paused clock, the
players' casino bankroll, and their running statistics per mode.

Revision ID: 0005_levels_results
Revises: 0004_fairness
Create Date: 2026-12-01
"""

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0005_levels_results"
down_revision: str | None = "0004_fairness"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# A custom deal's code has 48 deal letters, a deal number's 7: the longest rules token
# with a deal number stays well under this.
SHORT_CODE = 40


def upgrade() -> None:
    # Plain ADD COLUMN (see 0002: batch mode would copy tables with cascading keys).
    op.add_column(
        "games", sa.Column("level", sa.String(8), server_default="medium", nullable=False)
    )
    op.add_column(
        "games", sa.Column("paused", sa.Boolean(), server_default=sa.false(), nullable=False)
    )
    op.add_column(
        "players",
        sa.Column("casino_games", sa.Integer(), server_default=sa.text("0"), nullable=False),
    )
    op.add_column(
        "players", sa.Column("bankroll", sa.Integer(), server_default=sa.text("0"), nullable=False)
    )
    op.add_column(
        "players", sa.Column("level", sa.String(8), server_default="medium", nullable=False)
    )
    op.add_column(
        "players", sa.Column("sound", sa.Boolean(), server_default=sa.false(), nullable=False)
    )
    # "Winnable deals only" was level easy before there were levels.
    op.execute("UPDATE players SET level = 'easy' WHERE winnable_only")
    op.create_table(
        "player_stats",
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("preset", sa.String(16), nullable=False),
        sa.Column("level", sa.String(8), nullable=False),
        sa.Column("draw", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("played", sa.Integer(), nullable=False),
        sa.Column("won", sa.Integer(), nullable=False),
        sa.Column("streak", sa.Integer(), nullable=False),
        sa.Column("best_streak", sa.Integer(), nullable=False),
        sa.Column("best_score", sa.Integer(), nullable=True),
        sa.Column("best_seconds", sa.Integer(), nullable=True),
        sa.Column("fewest_moves", sa.Integer(), nullable=True),
        sa.Column("recent", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_player_stats_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint(
            "player_id", "preset", "level", "draw", name=op.f("pk_player_stats")
        ),
    )
    bind = op.get_bind()
    # Games started from a code or a deck with 48 letters were shared deals; a deal
    # number cannot tell, so those stay medium.
    bind.execute(
        sa.text("UPDATE games SET level = 'shared' WHERE length(code) > :short"),
        {"short": SHORT_CODE},
    )
    _classic_becomes_casino(bind)
    _count_won_games(bind)


def _classic_becomes_casino(bind: Any) -> None:
    """The classic preset now scores as a casino game (5 a card on the foundations, the
    base card included, - 52). Its games in progress change with it: their running
    points (and those kept for undo) gain the base card's 5. Finished games keep the
    score they were won with."""
    games = sa.table(
        "games",
        sa.column("id"),
        sa.column("code"),
        sa.column("rules", sa.JSON),
        sa.column("status"),
        sa.column("points"),
        sa.column("score"),
    )
    actions = sa.table("actions", sa.column("game_id"), sa.column("undo_points"))
    rows = bind.execute(
        sa.select(games.c.id, games.c.code, games.c.rules, games.c.points).where(
            games.c.status == "playing", games.c.code.like("CF1-C%")
        )
    ).all()
    for game_id, code, rules, points in rows:
        token = code.split("-")[1]
        if rules.get("scoring") != "app" or "G" in token[2:]:
            continue  # the player chose its scoring: it stays
        bind.execute(
            sa.update(games)
            .where(games.c.id == game_id)
            .values(rules={**rules, "scoring": "casino"}, points=points + 5, score=points + 5 - 52)
        )
        bind.execute(
            sa.update(actions)
            .where(actions.c.game_id == game_id, actions.c.undo_points.is_not(None))
            .values(undo_points=actions.c.undo_points + 5)
        )


def _count_won_games(bind: Any) -> None:
    """The statistics of the games already won (the only finished games before levels),
    folded in the order they were won, so they equal a recount from the stored games."""
    from app.stats import Finished, recount  # the one definition of the figures

    games = sa.table(
        "games",
        *(sa.column(name) for name in ("player_id", "level", "score", "seconds", "moves")),
        sa.column("rules", sa.JSON),
        sa.column("status"),
        sa.column("finished_at"),
        sa.column("id"),
    )
    rows = bind.execute(
        sa.select(
            games.c.player_id, games.c.rules, games.c.level, games.c.score, games.c.seconds,
            games.c.moves,
        )
        .where(games.c.status == "won")
        .order_by(games.c.player_id, games.c.finished_at, games.c.id)
    ).all()
    by_player: dict[str, list[Finished]] = {}
    for player_id, rules, level, score, seconds, moves in rows:
        by_player.setdefault(player_id, []).append(
            Finished(
                preset=rules["preset"],
                level=level,
                draw=rules["draw"],
                won=True,
                score=score,
                seconds=int(seconds),
                moves=moves,
                casino=rules.get("scoring") == "casino",
            )
        )
    stats = sa.table(
        "player_stats",
        *(sa.column(name) for name in ("player_id", "preset", "level", "draw")),
        *(sa.column(name) for name in ("played", "won", "streak", "best_streak")),
        *(sa.column(name) for name in ("best_score", "best_seconds", "fewest_moves")),
        sa.column("recent", sa.JSON),
    )
    values = [
        {
            "player_id": player_id,
            "preset": preset,
            "level": level,
            "draw": draw,
            **figures.columns(),
        }
        for player_id, finished in by_player.items()
        for (preset, level, draw), figures in recount(finished)[0].items()
    ]
    if values:
        bind.execute(sa.insert(stats), values)
    players = sa.table(
        "players", sa.column("id"), sa.column("casino_games"), sa.column("bankroll")
    )
    for player_id, finished in by_player.items():
        bankroll = recount(finished)[1]
        if bankroll.games:
            bind.execute(
                sa.update(players)
                .where(players.c.id == player_id)
                .values(casino_games=bankroll.games, bankroll=bankroll.bankroll)
            )


def downgrade() -> None:
    op.drop_table("player_stats")
    op.drop_column("players", "sound")
    op.drop_column("players", "level")
    op.drop_column("players", "bankroll")
    op.drop_column("players", "casino_games")
    op.drop_column("games", "paused")
    op.drop_column("games", "level")
