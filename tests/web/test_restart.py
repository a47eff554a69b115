"""A real `canfield serve` process killed with SIGKILL and started again keeps every
committed game, its undo history and the player's cookie."""

from __future__ import annotations

import httpx

from tests.shared import SEED_CODE, ServerProcess


def test_a_killed_server_comes_back_with_the_game_and_its_undo_history(
    server_process: ServerProcess,
) -> None:
    server_process.start()
    with httpx.Client(base_url=server_process.url, timeout=10) as player:
        game = player.post("/api/games", json={"code": SEED_CODE}).json()
        url = f"/api/games/{game['id']}"
        for move in ("QC-t2", "8H-f", "KH-t4", "draw"):
            game = player.post(url + "/moves", json={"move": move}).json()
        before = player.get(url).json()
        assert before["version"] == 4

        server_process.kill()
        server_process.start()

        after = player.get(url).json()
        assert after == before
        assert after["undo_available"] == 4
        resumed = player.get("/", follow_redirects=False)
        assert resumed.headers["location"] == f"/games/{game['id']}"
        undone = player.post(url + "/undo", json={"version": 4}).json()
        assert undone["stock"] == 34
        assert undone["reserve"] == {"count": 10, "top": "JS"}
        for _ in range(3):
            undone = player.post(url + "/undo").json()
        assert undone["reserve"] == {"count": 13, "top": "QC"}
        assert undone["tableau"] == [["6C"], ["KH"], ["QH"], ["AS"]]
        assert undone["version"] == 8
        assert player.post(url + "/undo").status_code == 422
