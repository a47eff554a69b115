"""The move route reads its body itself (app/web/bodies.py) and answers every request as
FastAPI's own route would; FastAPI's route for it documents it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import APIRouter, FastAPI, Request, Response
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.routing import Match, Route

from app.web import api
from app.web.app import create_app
from app.web.bodies import json_body
from app.web.errors import install_error_handlers
from app.web.schemas import GameOut, MoveBody
from app.web.settings import Settings

PATH = "/api/games/{game_id}/moves"


async def play(game_id: str, body: MoveBody) -> Response:
    return JSONResponse({"game_id": game_id, "body": body.model_dump()})


async def play_directly(request: Request) -> Response:
    return await play(request.path_params["game_id"], await json_body(request, MoveBody))


def make_app(*, direct: bool, our_errors: bool) -> FastAPI:
    """FastAPI's own route for `play`, or the same endpoint read by `json_body`."""
    app = FastAPI()
    if direct:
        app.router.add_route(PATH, play_directly, methods=["POST"], include_in_schema=False)
    router = APIRouter()
    router.add_api_route(PATH, play, methods=["POST"], response_model=GameOut)
    app.include_router(router)
    if our_errors:
        install_error_handlers(app)
    return app


@pytest.fixture(scope="module", params=[False, True], ids=["fastapi-errors", "our-errors"])
def clients(request: pytest.FixtureRequest) -> Iterator[tuple[TestClient, TestClient]]:
    with (
        TestClient(make_app(direct=False, our_errors=request.param)) as fastapi_route,
        TestClient(make_app(direct=True, our_errors=request.param)) as direct_route,
    ):
        yield fastapi_route, direct_route


def answers(client: TestClient, method: str, path: str, **request: Any) -> tuple[Any, ...]:
    try:
        response = client.request(method, path, **request)
    except ValueError as error:  # FastAPI's own handler cannot write NaN or Infinity inputs
        return "raised", type(error).__name__, str(error)
    headers = {k: v for k, v in response.headers.items() if k != "content-length"}
    return response.status_code, response.text, headers


JSON = "application/json"
FIXED_BODIES: list[tuple[bytes, str]] = [
    (b'{"move": "QC-t2", "version": 3}', JSON),
    (b'{"move": "draw"}', JSON),
    (b"", JSON),
    (b"null", JSON),
    (b"[]", JSON),
    (b'"draw"', JSON),
    (b'{"move": ', JSON),
    (b"{move: 1}", JSON),
    (b'{"move": "\xff"}', JSON),
    (b"[" * 5000 + b"]" * 5000, JSON),
    (b'{"move": "draw", "extra": 1}', JSON),
    (b'{"version": 1}', JSON),
    (b'{"move": 5, "version": "x"}', JSON),
    (b'{"move": "draw", "version": 2.5}', JSON),
    (b'{"move": "draw", "version": "3"}', JSON),
    (b"Infinity", JSON),
    (b'{"move": "draw", "version": NaN}', JSON),
    (b'{"move": "draw"}', "application/merge-patch+json"),
    (b'{"move": "draw"}', "application/json; charset=utf-8"),
    (b'{"move": "draw"}', "text/plain"),
    (b'{"move": "draw"}', ""),
    ('{"move": "draw"}'.encode("utf-16"), JSON),
    (b'\xef\xbb\xbf{"move": "draw"}', JSON),
]


@pytest.mark.parametrize(("body", "content_type"), FIXED_BODIES)
def test_a_body_gets_the_answer_fastapi_gives(
    clients: tuple[TestClient, TestClient], body: bytes, content_type: str
) -> None:
    fastapi_route, direct_route = clients
    request = {"content": body, "headers": {"content-type": content_type}}
    path = "/api/games/g1/moves"
    assert answers(direct_route, "POST", path, **request) == answers(
        fastapi_route, "POST", path, **request
    )
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=6,
)
move_bodies = st.fixed_dictionaries(
    {},
    optional={
        "move": json_values | st.sampled_from(["draw", "QC-t2", "8H-f"]),
        "version": json_values | st.integers(),
        "card": json_values,
    },
)


@settings(max_examples=150, deadline=None)
@given(value=json_values | move_bodies, raw=st.none() | st.binary(max_size=12))
def test_any_json_or_bytes_get_the_answer_fastapi_gives(
    clients: tuple[TestClient, TestClient], value: Any, raw: bytes | None
) -> None:
    fastapi_route, direct_route = clients
    body = json.dumps(value).encode() if raw is None else raw
    request = {"content": body, "headers": {"content-type": JSON}}
    path = "/api/games/g1/moves"
    assert answers(direct_route, "POST", path, **request) == answers(
        fastapi_route, "POST", path, **request
    )


def test_another_method_is_refused_as_fastapi_refuses_it(
    clients: tuple[TestClient, TestClient],
) -> None:
    fastapi_route, direct_route = clients
    for method in ("GET", "PUT", "DELETE"):
        path = "/api/games/g1/moves"
        assert answers(direct_route, method, path) == answers(fastapi_route, method, path)
        assert answers(direct_route, method, path)[0] == 405


@pytest.fixture(scope="module")
def canfield(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FastAPI]:
    folder = tmp_path_factory.mktemp("move-route")
    settings = Settings(
        database_url=f"sqlite:///{folder / 'db.sqlite'}", data_dir=folder, secret_key="k"
    )
    app = create_app(settings)
    yield app
    app.state.store.close()


def test_the_app_answers_a_move_directly(canfield: FastAPI) -> None:
    scope = {"type": "http", "method": "POST", "path": "/api/games/g1/moves"}
    matching = [route for route in canfield.router.routes if route.matches(scope)[0] == Match.FULL]
    first = matching[0]
    assert isinstance(first, Route) and first.endpoint is api.play_move_directly
    with TestClient(canfield) as client:
        created = client.post("/api/games", json={"code": "CF1-D3-AAAAACL"}).json()
        moved = client.post(f"/api/games/{created['id']}/moves", json={"move": "draw"})
        assert moved.status_code == 200
        assert moved.json()["version"] == 1
        assert moved.headers["cache-control"] == "no-store"


def test_the_openapi_document_describes_the_move_route(canfield: FastAPI) -> None:
    operation = canfield.openapi()["paths"][PATH]["post"]
    body = operation["requestBody"]["content"]["application/json"]["schema"]
    assert body == {"$ref": "#/components/schemas/MoveBody"}
    answer = operation["responses"]["200"]["content"]["application/json"]["schema"]
    assert answer == {"$ref": "#/components/schemas/GameOut"}
    assert {"404", "409", "422"} <= set(operation["responses"])
