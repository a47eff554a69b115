"""Fairness and bounds: rate-limit counters, each player's one search, and the indexes
for winnable deals (a player's codes), resuming (a player's unfinished games by creation)
and the clean-up (games with no action).

Revision ID: 0004_fairness
Revises: 0003_language
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004_fairness"
down_revision: str | None = "0003_language"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "counters",
        sa.Column("key", sa.String(200), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_counters")),
    )
    op.create_table(
        "searches",
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("token", sa.String(32), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_searches")),
    )
    op.create_index("ix_games_player_code", "games", ["player_id", "code"])
    op.create_index(
        "ix_games_player_status_created", "games", ["player_id", "status", "created_at"]
    )
    op.drop_index("ix_games_player_status", table_name="games")
    op.create_index(
        "ix_games_unplayed",
        "games",
        ["updated_at"],
        sqlite_where=sa.text("version = 0"),
        postgresql_where=sa.text("version = 0"),
    )


def downgrade() -> None:
    op.drop_index("ix_games_unplayed", table_name="games")
    op.create_index("ix_games_player_status", "games", ["player_id", "status"])
    op.drop_index("ix_games_player_status_created", table_name="games")
    op.drop_index("ix_games_player_code", table_name="games")
    op.drop_table("searches")
    op.drop_table("counters")
