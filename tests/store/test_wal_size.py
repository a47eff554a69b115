"""SQLite's write-ahead log is cut back to journal_size_limit once a checkpoint has copied
it: a burst of writes does not leave a large WAL file behind for good."""

from __future__ import annotations

from pathlib import Path

from app.engine import DealCode
from app.store import Store, make_engine, migrate
from app.store.db import Checkpointer

LIMIT = 64 * 1024


def test_the_wal_shrinks_back_to_its_limit_after_a_checkpoint(tmp_path: Path) -> None:
    path = tmp_path / "wal.sqlite"
    engine = make_engine(f"sqlite:///{path}", background_checkpoints=True, wal_limit_bytes=LIMIT)
    try:
        migrate(engine)
        store = Store(engine)
        wal = Path(f"{path}-wal")
        code = DealCode.parse("CF1-D3-AAAAACL")
        for _ in range(400):  # a burst: no checkpoint runs meanwhile
            store.create_game("burst", code)
        assert wal.stat().st_size > 8 * LIMIT
        connection = engine.raw_connection()
        try:
            busy, frames, copied = Checkpointer(engine).checkpoint(connection)
            assert busy == 0 and copied == frames
        finally:
            connection.close()
        store.create_game("after", code)  # the next writer starts the WAL over, cut back
        assert wal.stat().st_size <= LIMIT
        store.close()
    finally:
        engine.dispose()
