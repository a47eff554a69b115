"""The computer player's worker process: searches run beside the event loop, never on it;
a newer "still winnable?" check replaces an older one still waiting; a dead worker is
replaced; a full queue turns work away at once."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.engine import DealCode, Game
from app.web.computer import ComputerBusy, ComputerPlayer

CODE = "CF1-D1-HELLOAB"
T = TypeVar("T")


def run_in_own_loop(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine on a fresh event loop in its own thread: the browser tests'
    Playwright keeps a loop running in the main thread for the whole session."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def occupy(computer: ComputerPlayer, seconds: float) -> None:
    """Keep the worker busy, and the two places ahead of new jobs taken, for `seconds`.

    Jobs handed to the worker process are past cancelling; up to two wait in its queue,
    so two quick fillers follow the sleep and a job submitted next is still cancellable.
    """
    pool = computer._pool()  # the test borrows the app's worker
    pool.submit(time.sleep, seconds)
    pool.submit(abs, 0)
    pool.submit(abs, 0)


def test_a_search_in_progress_holds_up_no_other_request(app: FastAPI, client: TestClient) -> None:
    busy = client.post("/api/games", json={"code": CODE}).json()
    other = client.post("/api/games", json={"code": CODE}).json()
    assert client.post(f"/api/games/{busy['id']}/hint", json={}).status_code == 200
    occupy(app.state.computer, 2.0)
    answers: dict[str, Any] = {}

    def ask() -> None:
        answers["hint"] = client.post(f"/api/games/{busy['id']}/hint", json={})

    asking = threading.Thread(target=ask)
    asking.start()
    for version in range(5):  # moves and pages go on while the hint waits for the worker
        response = client.post(
            f"/api/games/{other['id']}/moves", json={"move": "draw", "version": version}
        )
        assert response.status_code == 200
        assert client.get(f"/games/{other['id']}").status_code == 200
    assert asking.is_alive()
    asking.join(30)
    assert answers["hint"].status_code == 200
    assert answers["hint"].json()["game"]["hints_used"] == 2


def test_a_newer_check_of_a_game_replaces_one_still_waiting() -> None:
    async def scenario() -> tuple[bool | None, bool | None]:
        computer = ComputerPlayer()
        try:
            occupy(computer, 1.0)
            opening = Game(DealCode.parse(CODE))
            first = asyncio.create_task(computer.still_winnable("g", opening, []))
            await asyncio.sleep(0)  # the first check is submitted and waits
            drawn = Game.replay(CODE, ["draw"])
            second = await computer.still_winnable("g", drawn, ["draw"])
            return await first, second
        finally:
            computer.shutdown()

    first, second = run_in_own_loop(scenario())
    assert first is None  # replaced: "not sure", and the page has moved on anyway
    assert second is True  # HELLOAB draw 1 can be won (tests/web/test_hints.py)


def test_a_dead_worker_is_replaced_by_the_next_job() -> None:
    async def scenario() -> None:
        computer = ComputerPlayer()
        try:
            game = Game(DealCode.parse(CODE))
            with pytest.raises(ComputerBusy):
                await computer._wait(computer._submit(os._exit, 3))  # the worker dies
            answer = await computer.hint(CODE, [])
            assert answer.move is not None and answer.move in {
                str(move) for move in game.legal_moves()
            }
        finally:
            computer.shutdown()

    run_in_own_loop(scenario())


def test_a_full_queue_turns_work_away_at_once() -> None:
    async def scenario() -> None:
        computer = ComputerPlayer(max_waiting=1)
        try:
            occupy(computer, 1.0)
            waiting = asyncio.create_task(computer.hint(CODE, []))
            await asyncio.sleep(0)
            with pytest.raises(ComputerBusy):
                await computer.hint(CODE, [])
            # A check asked meanwhile is simply "not sure".
            assert await computer.still_winnable("g", Game(DealCode.parse(CODE)), []) is None
            assert (await waiting).move is not None
        finally:
            computer.shutdown()

    run_in_own_loop(scenario())
