"""The errors that do not come from the engine speak the player's language too: a body that
does not fit its schema (pydantic's own English is never shown), bad JSON, a missing body,
an unknown level, unknown pages and methods, a body too large or not JSON, another site's
request."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.i18n.unreadable_cases import (
    IDENTIFIERS,
    TRANSLATED,
    english_left,
    page_message,
    words_of,
)
from tests.shared import SEED_CODE

JSON = {"content-type": "application/json"}
# (method, path, request keywords, status); `{game}` is a game of the seeds' deal.
BAD_REQUESTS: list[tuple[str, str, dict[str, Any], int]] = [
    ("POST", "/api/games", {"json": {"draw": "three"}}, 422),
    ("POST", "/api/games", {"json": {"draw": 1.5}}, 422),
    ("POST", "/api/games", {"json": {"deck": "AC 2C"}}, 422),
    ("POST", "/api/games", {"json": {"rules": [1, 2]}}, 422),
    ("POST", "/api/games", {"json": {"code": 7}}, 422),
    ("POST", "/api/games", {"json": {"winnable": "perhaps"}}, 422),
    ("POST", "/api/games", {"json": {"colour": "red"}}, 422),
    ("POST", "/api/games", {"json": [1, 2]}, 422),
    ("POST", "/api/games", {"json": {"level": "expert"}}, 400),
    ("POST", "/api/games", {"content": b"{bad json", "headers": JSON}, 400),
    ("POST", "/api/games", {"content": b'{"code": "\xff"}', "headers": JSON}, 400),
    ("POST", "/api/games/{game}/moves", {"content": b'{"move": "\xff"}', "headers": JSON}, 400),
    ("POST", "/api/games/{game}/moves", {"content": b"", "headers": JSON}, 422),
    ("POST", "/api/games/{game}/moves", {"json": {}}, 422),
    ("POST", "/api/games/{game}/moves", {"json": {"move": "draw", "version": "new"}}, 422),
    ("POST", "/api/games/{game}/tap", {"json": {"card": "QC", "double": "maybe"}}, 422),
    ("POST", "/api/games", {"content": b"x" * 20_000, "headers": JSON}, 413),
    ("POST", "/api/games", {"content": b"draw=1", "headers": {"content-type": "text/plain"}}, 415),
    ("POST", "/api/games", {"json": {}, "headers": {"origin": "http://elsewhere.example"}}, 403),
    ("GET", "/api/nothing", {}, 404),
    ("DELETE", "/api/games", {}, 405),
]
PAGE_REQUESTS: list[tuple[str, str, dict[str, Any], int]] = [
    ("GET", "/nothing/here", {}, 404),
    ("GET", "/static/nothing.css", {}, 404),
    ("PUT", "/games/{game}", {}, 405),
    ("POST", "/games/{game}/moves", {"data": {"move": "draw", "version": "two"}}, 422),
    ("POST", "/games/{game}/tap", {"data": {"card": "QC", "double": "perhaps"}}, 422),
    ("POST", "/games", {"data": {"draw": "three"}}, 422),
    ("POST", "/games", {"data": {"level": "expert"}}, 400),
]
# Words of a message that stay as they are in every language.
KEPT = IDENTIFIERS | {"a", "to", "as"}


def send(client: TestClient, request: tuple[str, str, dict[str, Any], int], **headers: str) -> Any:
    method, path, keywords, status = request
    if "{game}" in path:
        created = client.post("/api/games", json={"code": SEED_CODE})
        path = path.format(game=created.json()["id"])
    keywords = {**keywords, "headers": {**keywords.get("headers", {}), **headers}}
    response = client.request(method, path, **keywords)
    assert response.status_code == status, (path, response.text)
    return response


def message(response: Any) -> str:
    if response.headers["content-type"].startswith("application/json"):
        detail: str = response.json()["detail"]
        return detail
    return page_message(response.text)


@pytest.mark.parametrize("request_", BAD_REQUESTS + PAGE_REQUESTS, ids=lambda r: f"{r[0]} {r[1]}")
def test_an_error_speaks_the_players_language(client: TestClient, request_: Any) -> None:
    english = message(send(client, request_))
    english_words = set(words_of(english)) - KEPT
    assert english_words, english
    for language in TRANSLATED:
        text = message(send(client, request_, **{"Accept-Language": language}))
        assert text != english
        assert english_left(text, language, english_words) == [], text


def test_pydantics_english_is_never_shown(client: TestClient) -> None:
    for request_ in BAD_REQUESTS + PAGE_REQUESTS:
        text = message(send(client, request_))
        assert "Input should" not in text and "unable to" not in text, text
