"""A DirectRoute answers every request as FastAPI's own route would, and is documented alike."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Annotated, Any

import pytest
from fastapi import APIRouter, Depends, FastAPI, Request, Response
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from app.web import api
from app.web.direct import DirectRoute
from app.web.errors import install_error_handlers
from app.web.schemas import GameOut, MoveBody, UndoBody


async def who(request: Request) -> str:
    return request.headers.get("x-player", "nobody")


PlayerName = Annotated[str, Depends(who)]


async def play(game_id: str, body: MoveBody, player: PlayerName) -> Response:
    return JSONResponse({"game_id": game_id, "body": body.model_dump(), "player": player})


async def undo(game_id: str, player: PlayerName, body: UndoBody | None = None) -> Response:
    return JSONResponse({"game_id": game_id, "body": body and body.model_dump()})


def make_app(route_class: type[APIRoute], *, our_errors: bool) -> FastAPI:
    app = FastAPI()
    router = APIRouter(prefix="/api", tags=["api"])
    for path, endpoint in (("moves", play), ("undo", undo)):
        router.add_api_route(
            f"/games/{{game_id}}/{path}",
            endpoint,
            methods=["POST"],
            response_model=GameOut,
            route_class_override=route_class,
        )
    app.include_router(router)
    if our_errors:
        install_error_handlers(app)
    return app


@pytest.fixture(scope="module", params=[False, True], ids=["fastapi-errors", "our-errors"])
def clients(request: pytest.FixtureRequest) -> Iterator[tuple[TestClient, TestClient]]:
    with (
        TestClient(make_app(APIRoute, our_errors=request.param)) as fastapi_route,
        TestClient(make_app(DirectRoute, our_errors=request.param)) as direct_route,
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


@pytest.mark.parametrize("path", ["/api/games/g1/moves", "/api/games/g1/undo"])
@pytest.mark.parametrize(("body", "content_type"), FIXED_BODIES)
def test_a_body_gets_the_answer_fastapi_gives(
    clients: tuple[TestClient, TestClient], path: str, body: bytes, content_type: str
) -> None:
    fastapi_route, direct_route = clients
    request = {"content": body, "headers": {"content-type": content_type, "x-player": "p"}}
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
    for path in ("/api/games/g1/moves", "/api/games/g1/undo"):
        request = {"content": body, "headers": {"content-type": JSON}}
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


def test_the_openapi_document_is_fastapi_s() -> None:
    assert make_app(DirectRoute, our_errors=True).openapi() == make_app(
        APIRoute, our_errors=True
    ).openapi()


async def takes_a_query(game_id: str, limit: int = 3) -> Response:
    return Response()


def takes_no_await(game_id: str) -> Response:
    return Response()


async def wants_a_game_id(game_id: str) -> str:
    return game_id


async def takes_a_deeper_dependency(
    game_id: str, found: Annotated[str, Depends(wants_a_game_id)]
) -> Response:
    return Response()


async def takes_an_int(number: int) -> Response:
    return Response()


@pytest.mark.parametrize(
    ("path", "endpoint"),
    [
        ("/{game_id}", takes_a_query),
        ("/{game_id}", takes_no_await),
        ("/{game_id}", takes_a_deeper_dependency),
        ("/{number}", takes_an_int),
    ],
)
def test_what_a_direct_route_cannot_read_is_refused_when_it_is_made(
    path: str, endpoint: Callable[..., Any]
) -> None:
    router = APIRouter()
    with pytest.raises(TypeError, match="DirectRoute"):
        router.add_api_route(path, endpoint, methods=["POST"], route_class_override=DirectRoute)


def test_the_app_s_move_route_is_a_direct_route() -> None:
    routes = [route for route in api.router.routes if isinstance(route, APIRoute)]
    moves = [route for route in routes if route.path.endswith("/moves")]
    assert [type(route) for route in moves] == [DirectRoute]
