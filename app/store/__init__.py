"""Storage: the schema, the database engines and migrations, and the game store."""

from app.store.db import make_engine, migrate
from app.store.games import (
    GameNotFound,
    GameOver,
    Prefs,
    Store,
    StoredGame,
    StoreError,
    VersionConflict,
)

__all__ = [
    "GameNotFound",
    "GameOver",
    "Prefs",
    "Store",
    "StoreError",
    "StoredGame",
    "VersionConflict",
    "make_engine",
    "migrate",
]
