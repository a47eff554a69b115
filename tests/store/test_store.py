"""The store: one transaction per action, the cached state equals the replay, and
nothing survives a refused action."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select, text, update

from app.engine import DealCode, Game, IllegalMoveError, Rules
from app.engine.codes import MAX_DEAL_NUMBER
from app.store import GameNotFound, Prefs, Store, VersionConflict, make_engine, migrate
from app.store.games import Action
from app.store.models import actions, games

SEED_CODE = "CF1-D3-AAAAAAAOEGYXXBLQBCLVSVVBKAUAXFBHCBYLVAMIYTIVUUAA"


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store(database_url: str, clock: Clock) -> Iterator[Store]:
    engine = make_engine(database_url)
    migrate(engine)
    store = Store(engine, idle_limit=60.0, clock=clock)
    yield store
    store.close()
    engine.dispose()


def play(move: str) -> Action:
    return lambda game, prefs: game.play(move)


def undo() -> Action:
    return lambda game, prefs: game.undo()


def test_a_new_game_is_stored_at_its_opening(store: Store) -> None:
    stored = store.create_game("alice", DealCode.parse(SEED_CODE))
    loaded = store.load_game("alice", stored.id)
    assert loaded.code == SEED_CODE
    assert loaded.game.position == Game(DealCode.parse(SEED_CODE)).position
    assert (loaded.version, loaded.game.score, loaded.status) == (0, 0, "playing")
    assert len(stored.id) >= 20


def test_game_ids_are_random_and_distinct(store: Store) -> None:
    code = DealCode.parse("CF1-D3-AAAAACL")
    ids = {store.create_game("alice", code).id for _ in range(20)}
    assert len(ids) == 20


def test_another_players_game_is_not_found(store: Store) -> None:
    stored = store.create_game("alice", DealCode.parse(SEED_CODE))
    with pytest.raises(GameNotFound):
        store.load_game("mallory", stored.id)
    with pytest.raises(GameNotFound):
        store.act("mallory", stored.id, play("QC-t2"))
    assert store.load_game("alice", stored.id).version == 0


def test_the_seeds_moves_are_logged_in_order_with_their_times(store: Store, clock: Clock) -> None:
    stored = store.create_game("alice", DealCode.parse(SEED_CODE))
    for move in ("QC-t2", "8H-f", "KH-t4"):
        clock.advance(2)
        after = store.act("alice", stored.id, play(move))
    assert after.version == 3
    assert after.game.score == 5
    assert store.log(stored.id) == ["QC-t2", "8H-f", "KH-t4"]
    with store.engine.connect() as connection:
        times = connection.execute(
            select(actions.c.at).where(actions.c.game_id == stored.id).order_by(actions.c.seq)
        ).scalars()
        moments = [t if t.tzinfo else t.replace(tzinfo=UTC) for t in times]
    assert moments == [
        datetime(2026, 1, 1, 12, 0, s, tzinfo=UTC) for s in (2, 4, 6)
    ]


def test_an_illegal_move_changes_nothing(store: Store) -> None:
    stored = store.create_game("alice", DealCode.parse(SEED_CODE))
    store.act("alice", stored.id, play("QC-t2"))
    with pytest.raises(IllegalMoveError, match="the spade foundation starts at 7S"):
        store.act("alice", stored.id, play("AS-f"))
    loaded = store.load_game("alice", stored.id)
    assert loaded.version == 1
    assert store.log(stored.id) == ["QC-t2"]
    assert loaded.game.position == Game.replay(SEED_CODE, ["QC-t2"]).position


def test_a_stale_version_is_a_conflict_and_changes_nothing(store: Store) -> None:
    stored = store.create_game("alice", DealCode.parse(SEED_CODE))
    store.act("alice", stored.id, play("QC-t2"), version=0)
    with pytest.raises(VersionConflict) as conflict:
        store.act("alice", stored.id, play("8H-f"), version=0)
    assert conflict.value.current == 1
    assert store.log(stored.id) == ["QC-t2"]


def test_undo_restores_the_refill_and_survives_a_new_store(
    store: Store, database_url: str, clock: Clock
) -> None:
    stored = store.create_game("alice", DealCode.parse(SEED_CODE))
    for move in ("QC-t2", "8H-f", "KH-t4"):
        store.act("alice", stored.id, play(move))
    # A second store on the same database: as after a server restart.
    engine = make_engine(database_url)
    try:
        again = Store(engine, clock=clock)
        after = again.act("alice", stored.id, undo())
        assert after.game.position == Game.replay(SEED_CODE, ["QC-t2", "8H-f"]).position
        assert after.game.undo_available == 2
        assert after.version == 4
    finally:
        engine.dispose()


def random_action(game: Game, rng: random.Random) -> str:
    if game.undo_available and rng.random() < 0.25:
        return "undo"
    moves = game.legal_moves()
    return str(rng.choice(moves)) if moves else "undo"


@pytest.mark.parametrize("preset", ["app", "classic", "skill"])
@pytest.mark.parametrize("undo_limit", [None, 0, 3])
def test_the_cached_game_equals_the_replay_of_its_log(
    store: Store, preset: str, undo_limit: int | None
) -> None:
    rng = random.Random(f"{preset}-{undo_limit}")
    rules = Rules.preset_named(preset, undo_limit=undo_limit)
    stored = store.create_game("alice", DealCode(rules, number=rng.randrange(MAX_DEAL_NUMBER)))
    for _ in range(60):
        current = store.load_game("alice", stored.id).game
        if current.won:
            break
        action = random_action(current, rng)
        if action == "undo" and not current.undo_available:
            break
        store.act("alice", stored.id, undo() if action == "undo" else play(action))
    cached = store.load_game("alice", stored.id).game
    replayed = store.replay("alice", stored.id)
    assert cached.position == replayed.position
    assert (cached.points, cached.moves, cached.version, cached.undo_available) == (
        replayed.points,
        replayed.moves,
        replayed.version,
        replayed.undo_available,
    )
    assert cached.score == replayed.score
    # Undo to the bottom: every step as the replayed game's.
    while replayed.undo_available:
        replayed.undo()
        after = store.act("alice", stored.id, undo()).game
        assert after.position == replayed.position
        assert after.points == replayed.points
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        store.act("alice", stored.id, undo())


def test_playing_time_counts_gaps_up_to_the_idle_limit(store: Store, clock: Clock) -> None:
    """Seconds played: the gaps between actions from creation, each at most 60 s."""
    rules = Rules.preset_named("skill")
    stored = store.create_game("alice", DealCode(rules, number=63))
    clock.advance(10)
    store.act("alice", stored.id, play("draw"))
    clock.advance(3600)  # away for an hour: charged 60 s
    store.act("alice", stored.id, play("draw"))
    clock.advance(5)
    after = store.act("alice", stored.id, undo())
    assert after.game.seconds == pytest.approx(75.0)
    # skill: -30 for every 30 seconds played, never below 0.
    assert after.game.score == 0
    with store.engine.connect() as connection:
        row = connection.execute(select(games.c.seconds).where(games.c.id == stored.id)).one()
    assert row.seconds == pytest.approx(75.0)


def test_a_won_game_is_finished_and_not_resumed(store: Store) -> None:
    stored = store.create_game("alice", DealCode.parse(SEED_CODE))
    with store.engine.begin() as connection:
        connection.execute(update(games).where(games.c.id == stored.id).values(status="won"))
    assert store.resume("alice") is None


def test_resume_finds_the_latest_unfinished_game(store: Store, clock: Clock) -> None:
    first = store.create_game("alice", DealCode.parse(SEED_CODE))
    clock.advance(1)
    second = store.create_game("alice", DealCode.parse("CF1-D3-AAAAACL"))
    clock.advance(1)
    store.create_game("bob", DealCode.parse("CF1-D3-AAAAACL"))
    resumed = store.resume("alice")
    assert resumed is not None and resumed.id == second.id
    clock.advance(1)
    store.act("alice", first.id, play("QC-t2"))
    resumed = store.resume("alice")
    assert resumed is not None and resumed.id == first.id
    assert store.resume("carol") is None


def test_prefs_are_remembered_per_player(store: Store) -> None:
    assert store.prefs("alice") == Prefs()
    store.save_prefs("alice", Prefs(double_click=False, preset="skill", draw=1))
    assert store.prefs("alice") == Prefs(double_click=False, preset="skill", draw=1)
    assert store.prefs("bob") == Prefs()


def test_concurrent_actions_on_one_version_apply_exactly_once(store: Store) -> None:
    stored = store.create_game("alice", DealCode.parse("CF1-D3-AAAAACL"))
    outcomes: list[str] = []
    barrier = threading.Barrier(4)

    def attempt() -> None:
        barrier.wait()
        try:
            store.act("alice", stored.id, play("draw"), version=0)
            outcomes.append("applied")
        except VersionConflict:
            outcomes.append("conflict")

    threads = [threading.Thread(target=attempt) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["applied", "conflict", "conflict", "conflict"]
    assert store.log(stored.id) == ["draw"]


def test_concurrent_actions_without_a_version_all_apply_in_some_order(store: Store) -> None:
    stored = store.create_game("alice", DealCode.parse("CF1-D3-AAAAACL"))

    def draws() -> None:
        for _ in range(5):
            store.act("alice", stored.id, play("draw"))

    threads = [threading.Thread(target=draws) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert store.log(stored.id) == ["draw"] * 15
    assert store.load_game("alice", stored.id).game.position == store.replay(
        "alice", stored.id
    ).position


def test_sqlite_runs_in_wal_mode_with_its_safety_settings(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'pragmas.sqlite'}")
    try:
        with engine.connect() as connection:
            values = {
                pragma: connection.execute(text(f"PRAGMA {pragma}")).scalar()
                for pragma in ("journal_mode", "synchronous", "busy_timeout", "foreign_keys")
            }
    finally:
        engine.dispose()
    # synchronous 1 is NORMAL.
    assert values == {
        "journal_mode": "wal",
        "synchronous": 1,
        "busy_timeout": 5000,
        "foreign_keys": 1,
    }
