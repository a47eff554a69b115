"""The computer player across servers (SPEC §12): one player's search held on one server
refuses their next on another (the limit is in the database), while another player's
search on that server is answered."""

from __future__ import annotations

import threading
import time

import httpx

from .running import Cluster

# Classic deal 263: its position takes the solver seconds to judge (it cannot be won).
SLOW_CODE = "CF1-C3-AAAAAKD"


def test_a_players_search_on_one_server_holds_their_next_on_another(cluster: Cluster) -> None:
    with cluster.client(app=1) as first:
        slow = first.post("/api/games", json={"code": SLOW_CODE}).json()
        quick = first.post("/api/games", json={"code": "CF1-D3-AAAAACL"}).json()
        cookies = first.cookies
        answers: dict[str, httpx.Response] = {}

        def ask_still_winnable() -> None:
            answers["first"] = first.get(
                f"/api/games/{slow['id']}/winnable", params={"version": 0}
            )

        thinking = threading.Thread(target=ask_still_winnable)
        thinking.start()
        # The search is running on app server 1: the database holds the player's search.
        (player,) = cluster.sql("SELECT player_id FROM games WHERE id = %s", slow["id"])[0]
        deadline = time.monotonic() + 30
        while not cluster.sql("SELECT 1 FROM searches WHERE player_id = %s", player):
            assert time.monotonic() < deadline, "the search was never taken"
            time.sleep(0.02)
        with cluster.client(app=2, cookies=cookies) as second:
            held = second.post(f"/api/games/{quick['id']}/hint", json={})
        with cluster.client(app=2) as other:
            theirs = other.post("/api/games", json={"code": "CF1-D3-AAAAACL"}).json()
            answered = other.post(f"/api/games/{theirs['id']}/hint", json={})
        thinking.join(60)
    assert held.status_code == 429, held.text
    assert "Retry-After" in held.headers and held.json()["detail"]
    assert answered.status_code == 200, answered.text
    assert answered.json()["message"]
    assert answers["first"].status_code == 200
    # Once the first search is over, the player may ask again, on any server.
    with cluster.client(app=2, cookies=cookies) as second:
        again = second.post(f"/api/games/{quick['id']}/hint", json={})
    assert again.status_code == 200, again.text
