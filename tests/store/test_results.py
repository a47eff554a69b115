"""Results and statistics in the store (SPEC §10): a win and an abandon are counted in the
transaction that decides them, a finished game takes no action, the clock pauses, and the
running statistics always equal a recount from the stored games."""

from __future__ import annotations

import json
import uuid
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from app.engine import DealCode, Game, Rules
from app.stats import Finished, recount
from app.store import GameOver, Store
from app.store.models import games
from tests.engine.table import play_greedily, sorted_deck
from tests.shared import Clock


@cache
def winning_line(preset: str, draw: int) -> tuple[DealCode, tuple[str, ...]]:
    """A deal that deals itself out under the preset, and the actions that win it."""
    code = DealCode.for_deck(sorted_deck(), Rules.preset_named(preset, draw=draw))
    game = Game(code)
    play_greedily(game)
    assert game.won
    return code, tuple(game.actions)


def act(store: Store, player: str, game_id: str, action: str) -> None:
    store.act(player, game_id, lambda game, prefs: game.apply_action(action))


def win(
    store: Store,
    player: str,
    preset: str,
    draw: int,
    level: str = "medium",
    clock: Clock | None = None,
) -> str:
    code, line = winning_line(preset, draw)
    stored = store.create_game(player, code, level)  # type: ignore[arg-type]
    if clock is not None:
        # The game this one abandons finishes now, the win a second later: the recount
        # orders the finished games by that moment.
        clock.advance(1)
    for action in line:
        act(store, player, stored.id, action)
    return stored.id


def test_a_win_is_counted_in_the_winning_action(store: Store, clock: Clock) -> None:
    game_id = win(store, "alice", "skill", 3, "hard")
    stored = store.load_game("alice", game_id)
    assert stored.result == "won"
    modes, bankroll = store.stats("alice")
    figures = modes[("skill", "hard", 3)]
    assert (figures.played, figures.won, figures.streak) == (1, 1, 1)
    assert figures.best_score == stored.game.score
    assert figures.fewest_moves == stored.game.moves
    assert figures.recent == ((True, stored.game.score),)
    assert bankroll.games == 0


def test_a_new_game_loses_the_one_in_progress_and_drops_an_untouched_one(
    store: Store, clock: Clock
) -> None:
    played = store.create_game("alice", DealCode.parse("CF1-C3-HELLOAB"))
    act(store, "alice", played.id, "draw")
    clock.advance(1)
    untouched = store.create_game("alice", DealCode.parse("CF1-S1-HELLOAB"))
    lost = store.load_game("alice", played.id)
    assert lost.result == "lost"
    modes, bankroll = store.stats("alice")
    assert modes[("classic", "medium", 3)].streak == -1
    # The casino game counts in the bankroll at its score when it was abandoned.
    assert (bankroll.games, bankroll.bankroll) == (1, -47)
    clock.advance(1)
    newest = store.create_game("alice", DealCode.parse("CF1-D3-HELLOAB"))
    # The untouched game is dropped: not counted, no longer the game in progress.
    assert set(store.stats("alice")[0]) == {("classic", "medium", 3)}
    resumed = store.resume("alice")
    assert resumed is not None and resumed.id == newest.id
    assert store.load_game("alice", untouched.id).result == "playing"
    # Played after all, it is the game in progress again, and the next new game loses it.
    clock.advance(1)
    act(store, "alice", untouched.id, "draw")
    resumed = store.resume("alice")
    assert resumed is not None and resumed.id == untouched.id
    clock.advance(1)
    store.create_game("alice", DealCode.parse("CF1-D3-HELLOAC"))
    assert store.load_game("alice", untouched.id).result == "lost"
    assert store.stats("alice")[0][("skill", "medium", 1)].played == 1
    # Another player's game is never touched.
    assert store.stats("bob") == ({}, type(bankroll)())


def test_a_finished_game_takes_no_action_nor_pause(store: Store) -> None:
    played = store.create_game("alice", DealCode.parse("CF1-D3-HELLOAB"))
    act(store, "alice", played.id, "draw")
    store.create_game("alice", DealCode.parse("CF1-D3-HELLOAC"))
    for attempt in (
        lambda: act(store, "alice", played.id, "draw"),
        lambda: store.pause("alice", played.id),
        lambda: store.resume_clock("alice", played.id),
    ):
        with pytest.raises(GameOver, match="lost"):
            attempt()
    assert store.load_game("alice", played.id).version == 1
    won = win(store, "alice", "app", 1)
    with pytest.raises(GameOver, match="won"):
        store.pause("alice", won)


def test_pause_stops_the_clock_until_the_next_action(store: Store, clock: Clock) -> None:
    stored = store.create_game("alice", DealCode.parse("CF1-S3-HELLOAB"))
    act(store, "alice", stored.id, "draw")
    clock.advance(10)
    paused = store.pause("alice", stored.id, version=1)
    assert paused.paused and paused.game.seconds == 10 and paused.version == 1
    clock.advance(3000)  # away for long: none of it counts
    assert store.pause("alice", stored.id).game.seconds == 10  # pausing twice changes nothing
    resumed = store.resume_clock("alice", stored.id)
    assert not resumed.paused and resumed.game.seconds == 10
    clock.advance(5)
    act(store, "alice", stored.id, "draw")
    after = store.load_game("alice", stored.id)
    assert after.game.seconds == 15 and after.version == 2 and not after.paused
    # The next action also starts a paused clock again, without charging the pause.
    store.pause("alice", stored.id)
    clock.advance(40)
    act(store, "alice", stored.id, "draw")
    assert store.load_game("alice", stored.id).game.seconds == 15


def recount_stored(store: Store, player: str) -> tuple[object, object]:
    """The statistics recounted from the stored games alone."""
    query = (
        select(
            games.c.rules, games.c.level, games.c.status, games.c.score, games.c.seconds,
            games.c.moves,
        )
        .where(games.c.player_id == player, games.c.status.in_(["won", "lost"]))
        .order_by(games.c.finished_at, games.c.id)
    )
    with store.engine.connect() as connection:
        rows = connection.execute(query).all()
    finished = []
    for rules, level, status, score, seconds, moves in rows:
        rules = rules if isinstance(rules, dict) else json.loads(rules)
        finished.append(
            Finished(
                preset=rules["preset"],
                level=level,
                draw=rules["draw"],
                won=status == "won",
                score=score,
                seconds=int(seconds),
                moves=moves,
                casino=rules["scoring"] == "casino",
            )
        )
    return recount(finished)


STEP = st.tuples(
    st.sampled_from(["win", "abandon", "drop"]),
    st.sampled_from(["app", "classic", "skill"]),
    st.sampled_from([1, 3]),
    st.sampled_from(["easy", "medium", "hard"]),
)


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(STEP, min_size=1, max_size=6))
def test_the_statistics_always_equal_a_recount(
    store: Store, clock: Clock, steps: list[tuple[str, str, int, str]]
) -> None:
    player = uuid.uuid4().hex
    for kind, preset, draw, level in steps:
        clock.advance(1)
        if kind == "win":
            win(store, player, preset, draw, level, clock)
            continue
        code = DealCode(Rules.preset_named(preset, draw=draw), number=len(steps))
        stored = store.create_game(player, code, level)  # type: ignore[arg-type]
        if kind == "abandon":
            act(store, player, stored.id, "draw")
        # The next step's new game (or the last one below) abandons or drops it.
    clock.advance(1)
    store.create_game(player, DealCode.parse("CF1-D3-HELLOAB"))
    assert store.stats(player) == recount_stored(store, player)
