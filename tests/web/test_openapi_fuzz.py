"""schemathesis over /openapi.json, in-process through the ASGI app: no input gets a 500,
and every answer is documented and fits its schema."""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from conftest import DATABASES, Databases
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from app.web.settings import Settings

SEED_CODE = "CF1-D3-AAAAAAAOEGYXXBLQBCLVSVVBKAUAXFBHCBYLVAMIYTIVUUAA"
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


@pytest.fixture(scope="module", params=DATABASES)
def fuzzed_app(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[FastAPI]:
    """The app over SQLite, then over PostgreSQL (each fuzzed in full)."""
    from app.web.app import create_app

    data: Path = tmp_path_factory.mktemp("fuzz")
    databases = Databases(
        request.param,
        data,
        request.getfixturevalue("postgres_server") if request.param == "postgresql" else None,
    )
    application = create_app(
        Settings(database_url=databases.new(), data_dir=data, secret_key="k")
    )
    yield application
    application.state.store.close()
    databases.drop_all()


@pytest.fixture(scope="module")
def player(fuzzed_app: FastAPI) -> dict[str, str]:
    """A real game and its owner's cookie, so fuzzed moves reach a game too."""
    with TestClient(fuzzed_app) as client:
        game = client.post("/api/games", json={"code": SEED_CODE}).json()
        cookie = client.cookies["canfield_player"]
    return {"game_id": game["id"], "cookie": f"canfield_player={cookie}"}


@pytest.fixture(scope="module")
def api_schema(fuzzed_app: FastAPI) -> Any:
    return schemathesis.openapi.from_asgi("/openapi.json", fuzzed_app)


schema = schemathesis.pytest.from_fixture("api_schema")


@schema.parametrize()
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_no_input_gets_a_server_error(case: Any, player: dict[str, str]) -> None:
    headers = {}
    if "game_id" in (case.path_parameters or {}) and zlib.crc32(repr(case.body).encode()) % 2:
        # Half the cases play on the real game, as its owner.
        case.path_parameters["game_id"] = player["game_id"]
        headers["Cookie"] = player["cookie"]
    case.call_and_validate(headers=headers, checks=CHECKS)


def test_the_openapi_document_describes_the_api(fuzzed_app: FastAPI) -> None:
    with TestClient(fuzzed_app) as client:
        document = client.get("/openapi.json").json()
    paths = document["paths"]
    assert set(paths) == {
        "/api/games",
        "/api/games/{game_id}",
        "/api/games/{game_id}/moves",
        "/api/games/{game_id}/undo",
        "/api/games/{game_id}/tap",
        "/api/games/{game_id}/hint",
        "/api/games/{game_id}/winnable",
        "/api/deals/{code}",
        "/healthz",
    }
    moves = paths["/api/games/{game_id}/moves"]["post"]
    assert {"200", "400", "404", "409", "422"} <= set(moves["responses"])
    game = document["components"]["schemas"]["GameOut"]["properties"]
    assert {"id", "code", "version", "legal_moves", "summary", "pass"} <= set(game)
