"""Security basics: headers, the player cookie, cross-site refusals (SPEC §8), JSON-only
API bodies, and the body size limit."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.web.settings import Settings
from tests.shared import SEED_CODE

EVIL = {"Origin": "https://evil.example"}


def new_game_id(client: TestClient) -> str:
    response = client.post("/api/games", json={"code": SEED_CODE})
    assert response.status_code == 201
    game_id: str = response.json()["id"]
    return game_id


@pytest.mark.parametrize("path", ["/healthz", "/api/deals/CF1-D3-AAAAAAA", "/", "/nowhere"])
def test_every_answer_carries_the_security_headers(client: TestClient, path: str) -> None:
    response = client.get(path, follow_redirects=False)
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy
    assert "unsafe-inline" not in policy
    assert "frame-ancestors 'none'" in policy
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "same-origin"


def test_the_player_cookie_is_signed_http_only_and_lax(client: TestClient) -> None:
    response = client.post("/api/games", json={})
    cookie = response.headers["set-cookie"]
    assert cookie.startswith("canfield_player=")
    for flag in ("HttpOnly", "SameSite=Lax", "Path=/"):
        assert flag in cookie
    assert "Secure" not in cookie
    # Only a new player is sent a cookie.
    assert "set-cookie" not in client.post("/api/games", json={}).headers


def test_the_cookie_is_secure_behind_https(app: FastAPI) -> None:
    with TestClient(app, base_url="https://canfield.example") as client:
        cookie = client.post("/api/games", json={}).headers["set-cookie"]
    assert "; Secure" in cookie


def test_a_tampered_cookie_names_nobody(client: TestClient, app: FastAPI) -> None:
    game_id = new_game_id(client)
    value = client.cookies["canfield_player"]
    player, signature = value.rsplit(".", 1)
    with TestClient(app) as forger:
        forger.cookies.set("canfield_player", f"{player}x.{signature}")
        response = forger.get(f"/api/games/{game_id}")
        assert response.status_code == 404
        assert response.headers["set-cookie"].startswith("canfield_player=")


@pytest.mark.parametrize(
    "origin", ["https://evil.example", "http://testserver.evil.example", "null", "garbage"]
)
def test_a_cross_site_post_is_refused_and_changes_nothing(client: TestClient, origin: str) -> None:
    game_id = new_game_id(client)
    headers = {"Origin": origin}
    api = client.post(f"/api/games/{game_id}/moves", json={"move": "draw"}, headers=headers)
    assert api.status_code == 403
    assert api.json() == {"detail": "Refused: this request came from another site."}
    form = client.post(f"/games/{game_id}/moves", data={"move": "draw"}, headers=headers)
    assert form.status_code == 403
    assert form.headers["content-type"].startswith("text/html")
    created = client.post("/games", data={"preset": "app"}, headers=headers)
    assert created.status_code == 403
    assert client.get(f"/api/games/{game_id}").json()["version"] == 0


def test_same_origin_and_originless_posts_are_judged_as_usual(client: TestClient) -> None:
    game_id = new_game_id(client)
    same = client.post(
        f"/api/games/{game_id}/moves",
        json={"move": "draw"},
        headers={"Origin": "http://testserver"},
    )
    assert same.status_code == 200
    form = client.post(
        f"/games/{game_id}/moves",
        data={"move": "draw"},
        headers={"Origin": "http://testserver:80", "HX-Request": "true"},
    )
    assert form.status_code == 200
    bare = client.post(f"/api/games/{game_id}/moves", json={"move": "draw"})
    assert bare.status_code == 200
    assert bare.json()["version"] == 3


def test_reading_from_another_site_is_not_refused(client: TestClient) -> None:
    assert client.get("/api/deals/CF1-D3-AAAAAAA", headers=EVIL).status_code == 200


@pytest.fixture
def proxied_app(settings: Settings) -> Iterator[FastAPI]:
    from app.web.app import create_app

    application = create_app(
        settings.model_copy(update={"allowed_origins": ["https://cards.example"]})
    )
    yield application
    application.state.store.close()


def test_an_allowed_origin_may_post(proxied_app: FastAPI) -> None:
    with TestClient(proxied_app) as client:
        ok = client.post("/api/games", json={}, headers={"Origin": "https://cards.example"})
        assert ok.status_code == 201
        refused = client.post("/api/games", json={}, headers=EVIL)
        assert refused.status_code == 403


@pytest.mark.parametrize(
    "content_type",
    ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"],
)
def test_the_api_takes_only_json_bodies(client: TestClient, content_type: str) -> None:
    response = client.post(
        "/api/games", content=b'{"code": "CF1-D3-AAAAAAA"}', headers={"content-type": content_type}
    )
    assert response.status_code == 415
    assert "application/json" in response.json()["detail"]


@pytest.mark.parametrize(
    "content_type", ["application/json", "application/json; charset=utf-8", "Application/JSON"]
)
def test_json_with_parameters_is_json(client: TestClient, content_type: str) -> None:
    response = client.post(
        "/api/games", content=b'{"code": "CF1-D3-AAAAAAA"}', headers={"content-type": content_type}
    )
    assert response.status_code == 201


def test_a_body_over_the_limit_is_413(client: TestClient) -> None:
    big = b'{"code": "' + b"A" * 20_000 + b'"}'
    response = client.post("/api/games", content=big, headers={"content-type": "application/json"})
    assert response.status_code == 413
    assert "at most 16,384 bytes" in response.json()["detail"]


def test_a_streamed_body_over_the_limit_is_413(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"code": "'
        for _ in range(40):
            yield b"A" * 1000
        yield b'"}'

    response = client.post(
        "/api/games", content=chunks(), headers={"content-type": "application/json"}
    )
    assert response.status_code == 413


def test_a_form_over_the_limit_is_413(client: TestClient) -> None:
    game_id = new_game_id(client)
    response = client.post(f"/games/{game_id}/moves", data={"move": "A" * 20_000})
    assert response.status_code == 413
    assert response.headers["content-type"].startswith("text/html")
