"""The computer player's workers: searches run beside the event loop, never on it; each
player has one search running or waiting, and a newer one takes the place of one still
waiting; a dead worker is replaced; a full queue turns work away at once."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.engine import DealCode, Game
from app.web.computer import ComputerBusy, ComputerPlayer, SearchRefused, computer_for
from app.web.settings import Settings
from tests.shared import run_in_own_loop

pytestmark = pytest.mark.usefixtures("workers_end")
CODE = "CF1-D1-HELLOAB"
T = TypeVar("T")


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return settings.model_copy(update={"solver_workers": 1})


async def until(condition: Callable[[], object], seconds: float = 30.0) -> None:
    """Wait on the loop until `condition()` holds (what the scenario waits for, however
    busy the machine), for at most `seconds`."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"waited {seconds} s for {condition}"
        await asyncio.sleep(0.01)


@contextmanager
def occupied(computer: ComputerPlayer) -> Iterator[None]:
    """Every worker taken (the test holds their places in the queue), then free again."""
    gate = computer.pool.gate
    for _ in range(computer.pool.workers):
        run_in_own_loop(gate.enter())  # free places are taken at once
    try:
        yield
    finally:
        for _ in range(computer.pool.workers):
            gate.leave()


def test_a_search_waiting_for_a_worker_holds_up_no_other_request(
    app: FastAPI, client: TestClient, make_client: Any
) -> None:
    busy = client.post("/api/games", json={"code": CODE}).json()
    other_player = make_client()
    other = other_player.post("/api/games", json={"code": CODE}).json()
    assert client.post(f"/api/games/{busy['id']}/hint", json={}).status_code == 200
    answers: dict[str, Any] = {}

    def ask() -> None:
        answers["hint"] = client.post(f"/api/games/{busy['id']}/hint", json={})

    with occupied(computer_for(app)):
        asking = threading.Thread(target=ask)
        asking.start()
        for version in range(5):  # moves and pages go on while the hint waits for a worker
            response = other_player.post(
                f"/api/games/{other['id']}/moves", json={"move": "draw", "version": version}
            )
            assert response.status_code == 200
            assert other_player.get(f"/games/{other['id']}").status_code == 200
        assert asking.is_alive()
    asking.join(30)
    assert answers["hint"].status_code == 200
    assert answers["hint"].json()["game"]["hints_used"] == 2


def test_a_players_newer_search_takes_the_place_of_their_waiting_one(app: FastAPI) -> None:
    computer = computer_for(app)
    gate = computer.pool.gate

    async def scenario() -> tuple[BaseException | bool | None, bool | None]:
        opening = Game(DealCode.parse(CODE))
        first = asyncio.create_task(computer.still_winnable("alice", opening, []))
        await until(lambda: gate.waiting == 1)  # the first check holds alice's search and waits
        drawn = Game.replay(CODE, ["draw"])
        second = asyncio.create_task(computer.still_winnable("alice", drawn, ["draw"]))
        await until(lambda: first.done() and gate.waiting == 1)  # the second waits in its place
        gate.leave()  # the worker is free again
        earlier = (await asyncio.gather(first, return_exceptions=True))[0]
        return earlier, await second

    with occupied(computer):
        try:
            first, second = run_in_own_loop(scenario())
        finally:
            run_in_own_loop(computer.pool.gate.enter())  # `occupied` gives one back
    assert isinstance(first, SearchRefused)  # answered 429 by the routes
    assert second is True  # HELLOAB draw 1 can be won (tests/web/test_hints.py)


def test_a_player_with_a_search_running_elsewhere_is_refused_and_others_are_not(
    app: FastAPI,
) -> None:
    computer = computer_for(app)
    # Another server holds alice's search (the database says so).
    assert computer.searches.take("alice", "elsewhere", 60.0)

    async def scenario() -> None:
        with pytest.raises(SearchRefused):
            await computer.hint("alice", CODE, [])
        answer = await computer.hint("bob", CODE, [])
        assert answer.move is not None

    run_in_own_loop(scenario())
    computer.searches.give_back("alice", "elsewhere")
    run_in_own_loop(computer.hint("alice", CODE, []))


def test_a_search_held_by_a_server_that_died_is_free_after_its_lease(app: FastAPI) -> None:
    computer = computer_for(app)
    assert computer.searches.take("alice", "died", 0.0)  # its lease is already over
    assert computer.searches.take("alice", "next", 60.0)
    assert not computer.searches.take("alice", "third", 60.0)


def test_a_dead_worker_is_replaced_by_the_next_job(app: FastAPI) -> None:
    computer = computer_for(app)

    async def scenario() -> None:
        game = Game(DealCode.parse(CODE))
        with pytest.raises(ComputerBusy):
            await computer._search("alice", os._exit, 3)  # the worker dies
        answer = await computer.hint("alice", CODE, [])
        assert answer.move is not None and answer.move in {
            str(move) for move in game.legal_moves()
        }

    run_in_own_loop(scenario())


def test_a_full_queue_turns_work_away_at_once(app: FastAPI) -> None:
    computer = computer_for(app)
    computer.max_waiting = 1

    async def scenario() -> None:
        waiting = asyncio.create_task(computer.hint("alice", CODE, []))
        await until(lambda: computer.pool.gate.waiting == 1)  # alice's waits for the worker
        with pytest.raises(ComputerBusy):
            await computer.hint("bob", CODE, [])
        computer.pool.gate.leave()
        assert (await waiting).move is not None

    with occupied(computer):
        try:
            run_in_own_loop(scenario())
        finally:
            run_in_own_loop(computer.pool.gate.enter())


def test_a_search_whose_client_left_holds_the_players_place_until_it_ends(
    app: FastAPI, tmp_path: Path
) -> None:
    computer = computer_for(app)
    started = tmp_path / "started"

    async def scenario() -> None:
        # A search of 1.5 s that says when the worker has begun it.
        job = f"touch {started} && sleep 1.5"
        leaving = asyncio.create_task(computer._search("alice", os.system, job))
        await until(started.exists)  # the worker has it (and has started, after a spawn)
        leaving.cancel()
        await asyncio.gather(leaving, return_exceptions=True)
        with pytest.raises(SearchRefused):  # it still runs: alice has her one search
            await computer.hint("alice", CODE, [])
        # ... until it ends: then it is given back.
        await until(lambda: computer.searches.take("alice", "probe", 60.0))
        computer.searches.give_back("alice", "probe")
        assert computer.pool.gate.waiting == 0
        assert (await computer.hint("alice", CODE, [])).move is not None

    run_in_own_loop(computer.hint("bob", CODE, []))  # the worker is up
    run_in_own_loop(scenario())
