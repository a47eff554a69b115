"""Alembic environment: the server passes its connection; by hand, DATABASE_URL is used."""

from __future__ import annotations

from logging.config import fileConfig

from alembic import context
from sqlalchemy import Connection

from app.store.db import make_engine
from app.store.models import Base
from app.web.settings import Settings

config = context.config
if config.config_file_name is not None and not config.attributes.get("connection"):
    fileConfig(config.config_file_name)


def run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
        # SQLite DDL is transactional too once pysqlite leaves BEGIN to us (app/store/db.py).
        transactional_ddl=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_offline() -> None:
    context.configure(
        url=Settings().resolved_database_url(),
        target_metadata=Base.metadata,
        literal_binds=True,
    )
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_offline()
elif (given := config.attributes.get("connection")) is not None:
    run(given)
else:
    engine = make_engine(Settings().resolved_database_url())
    with engine.connect() as connection:
        run(connection)
        connection.commit()
    engine.dispose()
