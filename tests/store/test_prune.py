"""The clean-up removes games with no action of players not seen for 30 days, players left
with nothing, and spent counters; nothing else (SQLite and PostgreSQL)."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import Engine, text

from app.engine import DealCode
from app.store import GameNotFound, Store, make_engine, migrate
from app.store.limits import CounterStorage
from app.store.prune import Pruning
from tests.shared import ROOT, Databases

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
CODE = DealCode.parse("CF1-D3-AAAAACL")


def count(engine: Engine, table: str) -> int:
    with engine.connect() as connection:
        return int(connection.execute(text(f"SELECT count(*) FROM {table}")).scalar_one())


def test_prune_removes_only_unplayed_games_of_players_not_seen_for_30_days(
    databases: Databases,
) -> None:
    engine = make_engine(databases.new())

    def at(days_ago: float) -> Store:
        """A store whose clock says `days_ago` days before NOW."""
        return Store(engine, clock=lambda: NOW - timedelta(days=days_ago))

    try:
        migrate(engine)
        old = at(40)
        gone = old.create_game("gone", CODE)  # never played, player never back: removed
        played = old.create_game("played", CODE)
        old.act("played", played.id, lambda game, prefs: game.play("draw"))
        kept_for_player = old.create_game("back", CODE)  # unplayed, but the player came back
        at(2).create_game("back", CODE)
        recent = at(10).create_game("recent", CODE)  # not 30 days yet
        counters = CounterStorage(old, clock=lambda: NOW.timestamp() - 3600)
        counters.incr("spent", 60)
        CounterStorage(old, clock=lambda: NOW.timestamp()).incr("live", 60)
        assert count(engine, "games") == 5 and count(engine, "players") == 4

        pruned = Pruning(at(0)).run(days=30, moment=NOW)

        assert (pruned.games, pruned.players, pruned.counters) == (1, 1, 1)
        store = at(0)
        for player, stored in (
            ("played", played), ("back", kept_for_player), ("recent", recent)
        ):
            assert store.load_game(player, stored.id).id == stored.id
        assert store.log(played.id) == ["draw"]
        try:
            store.load_game("gone", gone.id)
            raise AssertionError("the unplayed game of a player gone 40 days is kept")
        except GameNotFound:
            pass
        assert count(engine, "games") == 4 and count(engine, "players") == 3
        assert count(engine, "counters") == 1
        # A second run finds nothing more.
        assert Pruning(store).run(days=30, moment=NOW).games == 0
    finally:
        engine.dispose()


def test_canfield_prune_cleans_a_database_from_the_shell(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'prune.sqlite'}"
    engine = make_engine(url)
    try:
        migrate(engine)
        Store(engine, clock=lambda: datetime.now(UTC) - timedelta(days=31)).create_game("a", CODE)
        Store(engine).create_game("b", CODE)
        result = subprocess.run(
            [sys.executable, "-m", "app.cli", "prune"],
            cwd=ROOT,
            env={"DATABASE_URL": url, "PATH": "/usr/bin:/bin"},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert result.returncode == 0, result.stderr
        assert result.stdout.startswith("removed 1 games with no action and 1 players")
        assert count(engine, "games") == 1
    finally:
        engine.dispose()
