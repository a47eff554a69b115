"""Storage: the schema, the database engines and migrations, and the game store."""

from app.store.db import make_engine, migrate
from app.store.games import GameNotFound, Prefs, Store, StoredGame, VersionConflict

__all__ = [
    "GameNotFound",
    "Prefs",
    "Store",
    "StoredGame",
    "VersionConflict",
    "make_engine",
    "migrate",
]
