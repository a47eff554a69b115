"""The app on PostgreSQL plays its moves, undos and game loads on the event loop
(app/store/pg_loop.py) and leaves the store's threads alone; CANFIELD_DB_EVENT_LOOP=false
puts them back on the threads."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.store import Store
from app.web.app import create_app
from app.web.settings import Settings
from tests.shared import Databases


@pytest.mark.parametrize("on_loop", [True, False], ids=["event loop", "threads"])
def test_moves_run_where_the_setting_says(
    postgres_server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, on_loop: bool
) -> None:
    on_threads: list[str] = []
    act, load_game = Store.act, Store.load_game

    def counted_act(self: Store, *args: Any, **kwargs: Any) -> Any:
        on_threads.append("act")
        return act(self, *args, **kwargs)

    def counted_load(self: Store, *args: Any, **kwargs: Any) -> Any:
        on_threads.append("load")
        return load_game(self, *args, **kwargs)

    monkeypatch.setattr(Store, "act", counted_act)
    monkeypatch.setattr(Store, "load_game", counted_load)
    databases = Databases("postgresql", tmp_path, postgres_server)
    settings = Settings(
        database_url=databases.new(),
        data_dir=tmp_path / "data",
        secret_key="test-secret-key",
        db_event_loop=on_loop,
    )
    app = create_app(settings)
    try:
        with TestClient(app, base_url="http://testserver") as client:
            game = client.post("/api/games", json={}).json()
            path = f"/api/games/{game['id']}"
            for version in range(3):
                answer = client.post(f"{path}/moves", json={"move": "draw", "version": version})
                assert answer.status_code == 200, answer.text
            assert client.post(f"{path}/undo", json={"version": 3}).json()["version"] == 4
            stale = client.post(f"{path}/moves", json={"move": "draw", "version": 3})
            assert stale.status_code == 409
            assert client.get(path).json()["version"] == 4
    finally:
        app.state.store.close()
        databases.drop_all()
    expected = [] if on_loop else ["act"] * 5 + ["load"]
    assert on_threads == expected
