"""The store's side of hints and winnable deals, on SQLite and PostgreSQL: migration 0002
keeps every player, game and action; a hint is counted only for the version it was for;
a player's deal numbers; the new choices are remembered."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from conftest import Databases
from sqlalchemy import text

from app.engine import DealCode
from app.store import GameNotFound, Prefs, Store, VersionConflict, make_engine, migrate

CODE = "CF1-D3-AAAAACL"


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    engine = make_engine(database_url)
    migrate(engine)
    store = Store(engine)
    yield store
    store.close()
    engine.dispose()


def test_migration_0002_keeps_every_row_and_fills_the_new_columns(databases: Databases) -> None:
    engine = make_engine(databases.new(migrated=False))
    try:
        migrate(engine, "0001")
        with engine.begin() as connection:
            connection.execute(
                text(
                    "INSERT INTO players (id, created_at, double_click, preset, draw) "
                    "VALUES ('p', CURRENT_TIMESTAMP, :yes, 'skill', 1)"
                ),
                {"yes": True},
            )
            connection.execute(
                text(
                    "INSERT INTO games (id, player_id, code, rules, status, version, score, "
                    "points, moves, seconds, position, undo_count, created_at, updated_at) "
                    "VALUES ('g', 'p', :code, '{}', 'playing', 1, 0, 0, 1, 0, 'x', 0, "
                    "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
                ),
                {"code": CODE},
            )
            connection.execute(
                text("INSERT INTO actions (game_id, seq, action, at) VALUES ('g', 1, 'draw', "
                     "CURRENT_TIMESTAMP)")
            )
        migrate(engine)
        with engine.connect() as connection:
            player = connection.execute(
                text("SELECT preset, draw, winnable_only, still_winnable FROM players")
            ).one()
            game = connection.execute(text("SELECT id, version, hints_used FROM games")).one()
            logged = connection.execute(text("SELECT game_id, seq, action FROM actions")).all()
        assert tuple(player) == ("skill", 1, False, False)
        assert tuple(game) == ("g", 1, 0)
        assert [tuple(row) for row in logged] == [("g", 1, "draw")]
    finally:
        engine.dispose()


def test_a_hint_is_counted_for_its_version_only(store: Store) -> None:
    stored = store.create_game("alice", DealCode.parse(CODE))
    assert store.record_hint("alice", stored.id, version=0).hints_used == 1
    store.act("alice", stored.id, lambda game, prefs: game.play("draw"))
    with pytest.raises(VersionConflict) as conflict:
        store.record_hint("alice", stored.id, version=0)
    assert conflict.value.current == 1
    counted = store.record_hint("alice", stored.id, version=1)
    assert (counted.hints_used, counted.version) == (2, 1)
    loaded = store.load_game("alice", stored.id)
    assert (loaded.hints_used, loaded.version) == (2, 1)  # a hint is not an action
    with pytest.raises(GameNotFound):
        store.record_hint("mallory", stored.id, version=1)


def test_a_game_and_its_log_are_read_together(store: Store) -> None:
    stored = store.create_game("alice", DealCode.parse(CODE))
    for action in ("draw", "draw"):
        store.act("alice", stored.id, lambda game, prefs, action=action: game.play(action))
    store.act("alice", stored.id, lambda game, prefs: game.undo())
    game, log = store.game_and_log("alice", stored.id)
    assert log == ["draw", "draw", "undo"] and game.version == 3
    with pytest.raises(GameNotFound):
        store.game_and_log("mallory", stored.id)


def test_a_players_deal_numbers_leave_out_custom_deals(store: Store) -> None:
    store.create_game("alice", DealCode.parse(CODE))
    store.create_game("alice", DealCode.parse("CF1-C1-AAAAAAB"))
    store.create_game(
        "alice", DealCode.parse("CF1-D3-AAAAAAAOEGYXXBLQBCLVSVVBKAUAXFBHCBYLVAMIYTIVUUAA")
    )
    store.create_game("bob", DealCode.parse("CF1-D3-AAAAAAC"))
    assert store.played_numbers("alice") == {63, 1}
    assert store.played_numbers("carol") == set()


def test_the_new_choices_are_remembered(store: Store) -> None:
    chosen = Prefs(double_click=False, preset="classic", draw=1, winnable_only=True)
    store.save_prefs("alice", chosen)
    assert store.prefs("alice") == chosen
    store.save_prefs("alice", Prefs(still_winnable=True))
    assert store.prefs("alice") == Prefs(still_winnable=True)
    assert store.prefs("bob") == Prefs()
