"""Two clients of one player race moves on one game through a real server: each action
is applied exactly once or refused with 409, and the game equals a replay of its log."""

from __future__ import annotations

import random
import threading
from typing import Any

import httpx
import pytest
from conftest import ServerProcess

from app.engine import Game
from app.store import Store, make_engine
from app.web.views import piles

ROUNDS = 60
FREE_DRAWS = 15


@pytest.mark.parametrize("workers", [1, 2], ids=["one-process", "two-processes"])
def test_racing_clients_apply_each_action_once_or_get_409(
    server_process: ServerProcess, workers: int
) -> None:
    server_process.workers = workers
    server_process.start()
    # A new connection for every request, so that two server processes share the work.
    limits = httpx.Limits(max_keepalive_connections=0)
    first = httpx.Client(base_url=server_process.url, timeout=20, limits=limits)
    game = first.post("/api/games", json={"rules": {"undo_limit": None}}).json()
    url = f"/api/games/{game['id']}"
    second = httpx.Client(
        base_url=server_process.url,
        timeout=20,
        limits=limits,
        cookies={"canfield_player": first.cookies["canfield_player"]},
    )
    results: list[tuple[int, str, int, dict[str, Any]]] = []
    lock = threading.Lock()
    start = threading.Barrier(2)

    def racer(client: httpx.Client, seed: int) -> None:
        rng = random.Random(seed)
        start.wait()
        for _ in range(ROUNDS):
            seen = client.get(url).json()
            version = seen["version"]
            if seen["undo_available"] and rng.random() < 0.2:
                action = "undo"
                response = client.post(url + "/undo", json={"version": version})
            elif seen["legal_moves"]:
                action = rng.choice(seen["legal_moves"])
                response = client.post(url + "/moves", json={"move": action, "version": version})
            else:
                return
            with lock:
                results.append((version, action, response.status_code, response.json()))

    def free_draws(client: httpx.Client) -> None:
        start.wait()
        for _ in range(FREE_DRAWS):
            response = client.post(url + "/moves", json={"move": "draw"})
            with lock:
                results.append((-1, "draw", response.status_code, response.json()))

    for target, args in ((racer, ((first, 1), (second, 2))), (free_draws, ((first,), (second,)))):
        threads = [threading.Thread(target=target, args=a) for a in args]  # type: ignore[arg-type]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

    final = first.get(url).json()
    first.close()
    second.close()
    statuses = {status for _, _, status, _ in results}
    assert statuses <= {200, 409}, results
    applied = [(v, a, body) for v, a, status, body in results if status == 200]
    conflicts = [body for _, _, status, body in results if status == 409]
    assert conflicts, "the clients never collided; the race proved nothing"
    assert all("version" in body["detail"] for body in conflicts)
    # Every applied action made exactly one new version, and no version was made twice.
    assert sorted(body["version"] for _, _, body in applied) == list(
        range(1, final["version"] + 1)
    )
    engine = make_engine(server_process.database_url)
    try:
        log = Store(engine).log(game["id"])
    finally:
        engine.dispose()
    assert len(log) == final["version"]
    for version, action, body in applied:
        assert log[body["version"] - 1] == action
        if version >= 0:
            assert body["version"] == version + 1
    assert log.count("draw") >= 2 * FREE_DRAWS
    replayed = Game.replay(final["code"], log)
    expected = piles(replayed.position)
    assert {key: final[key] for key in expected} == expected
    assert (final["score"], final["moves"], final["undo_available"]) == (
        replayed.score,
        replayed.moves,
        replayed.undo_available,
    )
