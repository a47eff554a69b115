"""The players' saved language (SPEC §11): `en`, `pl`, `he`, `ru`, or none chosen.

Revision ID: 0003_language
Revises: 0002
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003_language"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # A plain nullable ADD COLUMN (no batch mode, see 0002): NULL = no choice saved, so
    # Accept-Language decides.
    op.add_column("players", sa.Column("lang", sa.String(8), nullable=True))


def downgrade() -> None:
    op.drop_column("players", "lang")
