"""Hints used per game; the players' "Winnable deals only" and "Still winnable?" choices.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-07
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Plain ALTER TABLE ... ADD COLUMN, never batch mode: on SQLite batch mode would copy
    # the table for a server default given as SQL, and dropping the old `players` (or
    # `games`) with foreign keys on deletes every game (or action) through ON DELETE
    # CASCADE. The server defaults fill the rows already there.
    op.add_column(
        "games", sa.Column("hints_used", sa.Integer(), server_default=sa.text("0"), nullable=False)
    )
    op.add_column(
        "players",
        sa.Column("winnable_only", sa.Boolean(), server_default=sa.false(), nullable=False),
    )
    op.add_column(
        "players",
        sa.Column("still_winnable", sa.Boolean(), server_default=sa.false(), nullable=False),
    )


def downgrade() -> None:
    # SQLite (3.35+) drops a column in place too.
    op.drop_column("players", "still_winnable")
    op.drop_column("players", "winnable_only")
    op.drop_column("games", "hints_used")
