"""Several app servers sharing one PostgreSQL behind nginx: one player's game on any
server, races across servers, a server killed mid-load, migrations run once."""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
from alembic.script import ScriptDirectory

from app.store.db import alembic_config

from .running import UPSTREAM, Cluster


def new_game(client: httpx.Client, code: str = "CF1-D3-AAAAACL") -> dict[str, Any]:
    answer = client.post("/api/games", json={"code": code})
    assert answer.status_code == 201, answer.text
    game: dict[str, Any] = answer.json()
    return game


def test_one_players_game_is_played_through_the_proxy_on_every_server(cluster: Cluster) -> None:
    rng = random.Random(7)
    served: Counter[str] = Counter()
    with cluster.client() as player:
        game = new_game(player)
        # The page's own origin, as a browser sends it with its posts.
        origin = {"Origin": cluster.url}
        for _ in range(30):
            if not game["legal_moves"]:
                break
            move = rng.choice(game["legal_moves"])
            answer = player.post(f"/api/games/{game['id']}/moves", headers=origin,
                                 json={"move": move, "version": game["version"]})
            assert answer.status_code == 200, answer.text
            served[answer.headers[UPSTREAM]] += 1
            assert answer.json()["version"] == game["version"] + 1
            game = answer.json()
        undone = player.post(f"/api/games/{game['id']}/undo", headers=origin,
                             json={"version": game["version"]})
        assert undone.status_code == 200, undone.text
        served[undone.headers[UPSTREAM]] += 1
        page = player.get(f"/games/{game['id']}")
        assert page.status_code == 200
        assert f'data-version="{game["version"] + 1}"' in page.text
        cookies = player.cookies
    # Round robin: every server had its share of the one player's actions.
    assert set(served) == {cluster.address(app) for app in (1, 2, 3)}
    # The same cookie names the same player on each server, straight, without the proxy.
    for app in (1, 2, 3):
        with cluster.client(app=app, cookies=cookies) as direct:
            answer = direct.get(f"/api/games/{game['id']}")
            assert answer.status_code == 200
            assert answer.json()["version"] == game["version"] + 1
    with cluster.client() as stranger:
        assert stranger.get(f"/api/games/{game['id']}").status_code == 404


def test_two_tabs_on_different_servers_race_and_one_gets_409(cluster: Cluster) -> None:
    with cluster.client() as player:
        game = new_game(player)
        tabs = [cluster.client(app=app, cookies=player.cookies) for app in (1, 2)]
    barrier = threading.Barrier(2)

    def draw(tab: httpx.Client, version: int) -> httpx.Response:
        barrier.wait()
        return tab.post(f"/api/games/{game['id']}/moves",
                        json={"move": "draw", "version": version})

    version = 0
    with ThreadPoolExecutor(2) as pool:
        for _ in range(12):
            answers = list(pool.map(draw, tabs, [version, version]))
            codes = sorted(answer.status_code for answer in answers)
            assert codes == [200, 409], [answer.text for answer in answers]
            (won,) = (answer for answer in answers if answer.status_code == 200)
            assert won.json()["version"] == version + 1
            version += 1
    for tab in tabs:
        tab.close()
    # Twelve draws acknowledged, twelve in the log: none lost, none twice.
    log = cluster.sql("SELECT seq, action FROM actions WHERE game_id = %s ORDER BY seq",
                      game["id"])
    assert log == [(seq, "draw") for seq in range(1, 13)]


def test_the_migrations_ran_once_though_the_servers_started_together(cluster: Cluster) -> None:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert cluster.sql("SELECT version_num FROM alembic_version") == [(head,)]
    # The database's log (log_statement=ddl) shows each table made once, by one server.
    log = Path(cluster.state["postgres"]["log"]).read_text()
    for table in ("players", "games", "actions"):
        assert log.count(f"CREATE TABLE {table} ") == 1, table
    # ... and all three servers came up and answer.
    for app in (1, 2, 3):
        with cluster.client(app=app) as direct:
            assert direct.get("/healthz").status_code == 200


class Player:
    """Plays moves through the proxy; keeps every move the server acknowledged."""

    def __init__(self, cluster: Cluster, seed: int) -> None:
        self.client = cluster.client()
        self.rng = random.Random(seed)
        self.game = new_game(self.client)
        self.acknowledged: list[tuple[int, str]] = []  # (the version it made, the move)
        self.failures: list[tuple[float, int]] = []
        self.moves_at: list[float] = []

    def play(self, stop: float) -> None:
        while time.monotonic() < stop:
            game = self.game
            if not game["legal_moves"]:
                self.game = new_game(self.client)  # a new game; the old one's log stays
                continue
            move = self.rng.choice(game["legal_moves"])
            try:
                answer = self.client.post(f"/api/games/{game['id']}/moves",
                                          json={"move": move, "version": game["version"]})
            except httpx.TransportError:
                answer = None
            if answer is not None and answer.status_code == 200:
                self.game = answer.json()
                self.acknowledged.append((self.game["version"], f"{game['id']}:{move}"))
                self.moves_at.append(time.monotonic())
                continue
            # What a page does when its move fails: reload the game and go on.
            self.failures.append((time.monotonic(), 0 if answer is None else answer.status_code))
            reloaded = self.client.get(f"/api/games/{game['id']}")
            assert reloaded.status_code == 200, reloaded.text
            self.game = reloaded.json()


def test_a_server_killed_mid_load_loses_no_acknowledged_move(start_cluster: Any) -> None:
    cluster: Cluster = start_cluster(3)
    players = [Player(cluster, seed) for seed in range(6)]
    stop = time.monotonic() + 5.0
    threads = [threading.Thread(target=player.play, args=(stop,)) for player in players]
    for thread in threads:
        thread.start()
    time.sleep(1.5)
    cluster.kill(2)
    killed_at = time.monotonic()
    for thread in threads:
        thread.join(30)
    for player in players:
        player.client.close()
    # The proxy sends everyone to the two others: each player went on playing after the
    # kill, and only requests in flight at the moment of the kill failed.
    for player in players:
        assert any(moment > killed_at + 1.0 for moment in player.moves_at)
        late = [failure for failure in player.failures if failure[0] > killed_at + 1.0]
        assert late == []
    failed = sum(len(player.failures) for player in players)
    assert failed <= len(players)
    # Every acknowledged move is in the log, at the version it was acknowledged with.
    log = {
        (seq, f"{game_id}:{action}")
        for game_id, seq, action in cluster.sql("SELECT game_id, seq, action FROM actions")
    }
    acknowledged = {entry for player in players for entry in player.acknowledged}
    assert len(acknowledged) > 50
    assert acknowledged <= log
