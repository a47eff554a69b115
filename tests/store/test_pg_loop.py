"""PostgreSQL's actions on the event loop (app/store/pg_loop.py): what they commit is what
the store reads back and the replay rebuilds; a row that changed between the read and the
write (another action, a pause, a new game, a hint) is written by nobody but the store's own
path; a win is counted; every event loop has its own pool."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Iterator
from typing import Any, TypeVar

import pytest
from sqlalchemy import Engine, func, select

from app.engine import DealCode, Game
from app.store import (
    GameNotFound,
    GameOver,
    Prefs,
    Store,
    StoredGame,
    VersionConflict,
)
from app.store.aio import AsyncStore
from app.store.games import Action
from app.store.models import actions
from app.store.pg_loop import EventLoopGames
from tests.shared import Clock, run_in_own_loop
from tests.store.test_results import winning_line

CODE = DealCode.parse("CF1-D3-AAAAACL")
PLAYER = "player"
T = TypeVar("T")
Between = Callable[[Store, str], object]


@pytest.fixture
def engine(postgresql_engine: Engine) -> Engine:
    return postgresql_engine


@pytest.fixture
def store(engine: Engine, clock: Clock) -> Store:
    return Store(engine, clock=clock)


@pytest.fixture
def on_loop(store: Store, engine: Engine) -> Iterator[EventLoopGames]:
    games = EventLoopGames(store, engine, pool_size=2)
    yield games
    games.terminate()


def run(games: EventLoopGames, call: Coroutine[Any, Any, T]) -> T:
    """Await `call` on a loop of its own, and close that loop's pool."""

    async def main() -> T:
        try:
            return await call
        finally:
            await games.close()

    return run_in_own_loop(main())


def action(text: str) -> Action:
    return lambda game, prefs: game.apply_action(text)


def act(
    games: EventLoopGames, game_id: str, text: str, version: int | None = None
) -> StoredGame | None:
    return run(games, games.act(PLAYER, game_id, action(text), version=version))


def test_actions_on_the_event_loop_commit_what_the_store_and_the_replay_read(
    store: Store, on_loop: EventLoopGames, clock: Clock
) -> None:
    created = store.create_game(PLAYER, CODE)
    line = ["draw", "draw", "undo", "draw", "undo", "undo", "draw"]
    for version, text in enumerate(line):
        clock.advance(2)
        done = act(on_loop, created.id, text, version)
        assert isinstance(done, StoredGame), f"{text} at {version} was left to the store"
        assert done.version == version + 1
        stored = store.load_game(PLAYER, created.id)
        assert (stored.version, stored.game.position) == (done.version, done.game.position)
        assert stored.game.seconds == done.game.seconds == 2.0 * (version + 1)
        assert stored.updated_at == done.updated_at == clock.now
    assert store.log(created.id) == line
    replayed = store.replay(PLAYER, created.id)
    assert replayed.position == store.load_game(PLAYER, created.id).game.position
    # The store's own path goes on from what the event loop wrote: its undo entries too.
    store.act(PLAYER, created.id, action("undo"))
    assert store.replay(PLAYER, created.id).position == Game(CODE).position


def test_an_undo_past_the_entry_read_with_the_row_is_left_to_the_store(
    store: Store, on_loop: EventLoopGames
) -> None:
    created = store.create_game(PLAYER, CODE)
    for _ in range(2):
        store.act(PLAYER, created.id, action("draw"))

    def two_undos(game: Game, prefs: Prefs) -> None:
        game.undo()
        game.undo()

    assert run(on_loop, on_loop.act(PLAYER, created.id, two_undos, version=2)) is None
    assert store.log(created.id) == ["draw", "draw"]


def test_refusals_change_nothing(store: Store, on_loop: EventLoopGames) -> None:
    created = store.create_game(PLAYER, CODE)
    with pytest.raises(GameNotFound):
        run(on_loop, on_loop.act("stranger", created.id, action("draw"), version=None))
    with pytest.raises(GameNotFound):
        run(on_loop, on_loop.load_game(PLAYER, "no such id!"))
    with pytest.raises(VersionConflict) as conflict:
        act(on_loop, created.id, "draw", 3)
    assert conflict.value.current == 0
    with pytest.raises(Exception, match="undo"):
        act(on_loop, created.id, "undo", 0)
    assert store.log(created.id) == []
    assert run(on_loop, on_loop.load_game(PLAYER, created.id)).version == 0


def interrupted(store: Store, game_id: str, between: Between) -> Action:
    """A draw during which, the first time only, `between(store, game_id)` commits
    something else first: as if another server (or tab) got in between this path's read
    and its write."""
    calls = []

    def draw(game: Game, prefs: Prefs) -> None:
        if not calls:
            calls.append(game.version)
            between(store, game_id)
        game.play("draw")

    return draw


@pytest.mark.parametrize(
    "between",
    [
        lambda store, game_id: store.act(PLAYER, game_id, action("draw")),
        lambda store, game_id: store.pause(PLAYER, game_id),
        lambda store, game_id: store.create_game(PLAYER, CODE),
        lambda store, game_id: store.record_hint(PLAYER, game_id, version=1),
    ],
    ids=["another action", "a pause", "a new game", "a hint"],
)
def test_a_row_that_changed_since_it_was_read_is_not_written(
    store: Store, on_loop: EventLoopGames, clock: Clock, between: Between
) -> None:
    created = store.create_game(PLAYER, CODE)
    store.act(PLAYER, created.id, action("draw"))
    before = store.load_game(PLAYER, created.id)
    clock.advance(5)
    draw = interrupted(store, created.id, between)
    assert run(on_loop, on_loop.act(PLAYER, created.id, draw, version=None)) is None
    after = store.load_game(PLAYER, created.id)
    # Only what came in between was written.
    assert store.log(created.id) == ["draw"] * after.version
    assert after.version in (before.version, before.version + 1)


def test_the_async_store_gives_a_changed_row_to_the_store_which_decides(
    store: Store, on_loop: EventLoopGames, engine: Engine
) -> None:
    async_store = AsyncStore(store, threads=1, games=on_loop)
    try:
        created = store.create_game(PLAYER, CODE)
        racing = interrupted(store, created.id, lambda s, i: s.act(PLAYER, i, action("draw")))
        # With the version the player saw: 409, as under the row lock.
        with pytest.raises(VersionConflict) as conflict:
            run(on_loop, async_store.act(PLAYER, created.id, racing, version=0))
        assert conflict.value.current == 1
        # Without: the draw again, on the row as it is now (one more racing draw first).
        racing = interrupted(store, created.id, lambda s, i: s.act(PLAYER, i, action("draw")))
        done = run(on_loop, async_store.act(PLAYER, created.id, racing))
        assert done.version == 3
        assert store.log(created.id) == ["draw", "draw", "draw"]
        # A new game in between: the store says the game is over.
        ending = interrupted(store, created.id, lambda s, i: s.create_game(PLAYER, CODE))
        with pytest.raises(GameOver):
            run(on_loop, async_store.act(PLAYER, created.id, ending, version=3))
        with engine.connect() as connection:
            count = connection.scalar(select(func.count()).select_from(actions))
        assert count == 3
    finally:
        async_store.close()


def test_a_winning_action_is_counted_by_the_store(
    store: Store, on_loop: EventLoopGames
) -> None:
    async_store = AsyncStore(store, threads=1, games=on_loop)
    try:
        code, line = winning_line("app", 3)
        created = store.create_game(PLAYER, code)
        for text in line:
            done = run(on_loop, async_store.act(PLAYER, created.id, action(text)))
        assert done.result == "won"
        modes, _ = store.stats(PLAYER)
        figures = modes[("app", "medium", 3)]
        assert (figures.played, figures.won) == (1, 1)
        assert store.replay(PLAYER, created.id).won
    finally:
        async_store.close()


def test_each_event_loop_has_a_pool_of_its_own(
    store: Store, on_loop: EventLoopGames
) -> None:
    created = store.create_game(PLAYER, CODE)

    async def two_at_once() -> list[StoredGame]:
        return list(
            await asyncio.gather(
                on_loop.load_game(PLAYER, created.id), on_loop.load_game(PLAYER, created.id)
            )
        )

    first = run_in_own_loop(two_at_once())  # this loop's pool stays open: it is not used again
    second = run(on_loop, on_loop.load_game(PLAYER, created.id))
    assert [game.version for game in first] == [0, 0]
    assert second.version == 0
