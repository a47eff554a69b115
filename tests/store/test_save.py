"""What a save writes: the status and finish time change with the winning move only."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from sqlalchemy import select

from app.engine import DealCode, Game, Rules
from app.solver.deals import winnable_numbers
from app.solver.hint import hint
from app.store import Store, make_engine, migrate
from app.store.models import games

MOMENT = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    engine = make_engine(database_url)
    migrate(engine)
    store = Store(engine, clock=lambda: MOMENT)
    yield store
    store.close()
    engine.dispose()


def test_only_the_winning_move_writes_the_status_and_the_finish_time(store: Store) -> None:
    rules = Rules.preset_named("app", draw=1)
    code = DealCode(rules, number=winnable_numbers(rules)[0])
    line = [str(move) for move in hint(Game(code)).line]
    stored = store.create_game("alice", code)
    query = select(games.c.status, games.c.finished_at).where(games.c.id == stored.id)
    seen = []
    for move in line:
        stored = store.act("alice", stored.id, lambda game, prefs, move=move: game.play(move))
        with store.engine.connect() as connection:
            status, finished_at = connection.execute(query).one()
        seen.append((status, finished_at and finished_at.replace(tzinfo=UTC)))
    assert stored.game.won
    assert seen[:-1] == [("playing", None)] * (len(line) - 1)
    assert seen[-1] == ("won", MOMENT)
