"""SPEC §12 over HTTP: the rate limits on new games and searches (per player and per
client address, 429 with Retry-After and a sentence, also on the page), counted
together by two apps on one database; another player's hint is answered during one
player's flood; a cookie-less first visit writes nothing."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import Engine, text

from app.web.app import create_app
from app.web.limits import RateLimits
from app.web.settings import Settings

pytestmark = pytest.mark.usefixtures("workers_end")
CODE = "CF1-D1-HELLOAB"
HX = {"HX-Request": "true"}


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return settings.model_copy(
        update={
            "games_per_player": "3/minute",
            "games_per_address": "5/minute",
            "searches_per_player": "4/minute",
            "searches_per_address": "100/minute",
        }
    )


def test_the_default_limits_are_the_specs() -> None:
    defaults = Settings(database_url="sqlite://", secret_key="k")
    # SPEC §12's per minute, and a cap on bursts within a second.
    assert defaults.games_per_player == "120/minute;5/second"
    assert defaults.games_per_address == "1200/minute;50/second"
    assert defaults.searches_per_player == "60/minute"


def test_every_rate_of_a_limit_counts(
    app: FastAPI, settings: Settings
) -> None:
    app.state.limits = RateLimits(
        app.state.store, settings.model_copy(update={"games_per_player": "120/minute;3/hour"})
    )
    with player_at(app, "10.0.3.1") as alice:
        answers = [alice.post("/api/games", json={}).status_code for _ in range(4)]
    assert answers == [201, 201, 201, 429]


def player_at(app: FastAPI, address: str) -> TestClient:
    return TestClient(app, base_url="http://testserver", client=(address, 40000))


def refused(response: Any) -> str:
    assert response.status_code == 429, response.text
    assert 1 <= int(response.headers["retry-after"]) <= 60
    text: str = response.text
    if response.headers["content-type"].startswith("application/json"):
        text = response.json()["detail"]
        assert text.startswith("Too many requests: slow down and try again in ")
    assert "Too many requests: slow down and try again in " in text
    return text


def test_a_player_may_start_so_many_games_a_minute_then_429(app: FastAPI) -> None:
    with player_at(app, "10.0.0.1") as alice, player_at(app, "10.0.0.2") as bob:
        for _ in range(3):
            assert alice.post("/api/games", json={}).status_code == 201
        refused(alice.post("/api/games", json={"code": CODE}))
        refused(alice.get(f"/deal/{CODE}"))  # every way to a new game counts
        assert bob.post("/api/games", json={}).status_code == 201  # others are not held up


def test_one_address_may_start_so_many_games_whatever_its_cookies(app: FastAPI) -> None:
    players = [player_at(app, "10.0.0.3") for _ in range(6)]
    answers = [player.post("/api/games", json={}).status_code for player in players]
    assert answers == [201] * 5 + [429]
    with player_at(app, "10.0.0.4") as elsewhere:
        assert elsewhere.post("/api/games", json={}).status_code == 201


def test_the_page_shows_the_refusal(app: FastAPI) -> None:
    with player_at(app, "10.0.0.5") as alice:
        for _ in range(3):
            alice.post("/api/games", json={})
        response = alice.post("/games", data={"preset": "app", "draw": "3"}, headers=HX)
        assert response.status_code == 429
        assert 'id="message"' in response.text
        assert "Too many requests: slow down and try again in" in response.text


def test_a_player_may_ask_so_many_searches_a_minute(app: FastAPI) -> None:
    with player_at(app, "10.0.0.6") as alice, player_at(app, "10.0.0.7") as bob:
        game = alice.post("/api/games", json={"code": CODE}).json()
        for _ in range(4):
            assert alice.post(f"/api/games/{game['id']}/hint", json={}).status_code == 200
        refused(alice.post(f"/api/games/{game['id']}/hint", json={}))
        refused(alice.get(f"/api/games/{game['id']}/winnable"))
        theirs = bob.post("/api/games", json={"code": CODE}).json()
        assert bob.post(f"/api/games/{theirs['id']}/hint", json={}).status_code == 200


def test_two_servers_on_one_database_count_together(app: FastAPI, settings: Settings) -> None:
    other_server = create_app(settings)
    try:
        with player_at(app, "10.0.0.8") as here:
            cookie = None
            for _ in range(2):
                assert here.post("/api/games", json={}).status_code == 201
            cookie = here.cookies.get("canfield_player")
        with player_at(other_server, "10.0.0.9") as there:
            there.cookies.set("canfield_player", cookie or "")
            assert there.post("/api/games", json={}).status_code == 201
            refused(there.post("/api/games", json={}))
    finally:
        other_server.state.store.close()


def test_another_players_hint_is_answered_during_a_flood(
    app: FastAPI, settings: Settings
) -> None:
    app.state.settings = settings.model_copy(update={"solver_workers": 1})
    flood = player_at(app, "10.0.1.1")
    game = flood.post("/api/games", json={"code": CODE}).json()
    statuses: list[int] = []
    stop = time.monotonic() + 4.0

    def flooding() -> None:
        while time.monotonic() < stop:
            statuses.append(flood.post(f"/api/games/{game['id']}/hint", json={}).status_code)

    loops = [threading.Thread(target=flooding) for _ in range(8)]
    for loop in loops:
        loop.start()
    with player_at(app, "10.0.1.2") as bob:
        theirs = bob.post("/api/games", json={"code": CODE}).json()
        answers = [bob.post(f"/api/games/{theirs['id']}/hint", json={}) for _ in range(3)]
    for loop in loops:
        loop.join()
    flood.close()
    assert [answer.status_code for answer in answers] == [200, 200, 200]
    assert 503 not in statuses and 429 in statuses  # the flood's excess is refused


def test_a_cookieless_first_visit_writes_no_game(app: FastAPI) -> None:
    engine: Engine = app.state.store.store.engine
    with player_at(app, "10.0.2.1") as visitor:
        for _ in range(5):
            visitor.cookies.clear()  # a client that keeps no cookie
            page = visitor.get("/", follow_redirects=False)
            # The start window (SPEC §10): nothing is written until the player presses PLAY.
            assert page.status_code == 200 and 'action="/games"' in page.text
        with engine.connect() as connection:
            assert connection.execute(text("SELECT count(*) FROM games")).scalar_one() == 0
            assert connection.execute(text("SELECT count(*) FROM players")).scalar_one() == 0
        # A browser keeps the cookie, presses PLAY and lands on its game; the next visit
        # resumes it.
        played = visitor.post("/games", data={"level": "medium"})
        assert played.url.path.startswith("/games/")
        assert visitor.get("/").url.path == played.url.path


