"""Route dependencies as Annotated aliases: the store, the player, the player's game."""

from __future__ import annotations

from typing import Annotated, cast

from fastapi import Depends, HTTPException, Request

from app.store import StoredGame
from app.store.aio import AsyncStore
from app.web import messages
from app.web.identity import player_id
from app.web.render import Renderer
from app.web.settings import Settings


def get_store(request: Request) -> AsyncStore:
    return cast(AsyncStore, request.app.state.store)


def get_renderer(request: Request) -> Renderer:
    return cast(Renderer, request.app.state.renderer)


def get_settings(request: Request) -> Settings:
    return cast(Settings, request.app.state.settings)


StoreDep = Annotated[AsyncStore, Depends(get_store)]
PlayerDep = Annotated[str, Depends(player_id)]
RendererDep = Annotated[Renderer, Depends(get_renderer)]
SettingsDep = Annotated[Settings, Depends(get_settings)]


async def get_game(game_id: str, player: PlayerDep, store: StoreDep) -> StoredGame:
    """The requesting player's game `game_id`; 404 for anyone else's."""
    return await store.load_game(player, game_id)


GameDep = Annotated[StoredGame, Depends(get_game)]


def _is_json(content_type: str) -> bool:
    media = content_type.split(";", 1)[0].strip().lower()
    return media == "application/json" or (
        media.startswith("application/") and media.endswith("+json")
    )


def require_json(request: Request) -> None:
    """The JSON API takes bodies only as application/json: a cross-site form cannot
    send that without the browser asking first (CSRF, SPEC §8). An empty body is fine."""
    headers = request.headers
    has_body = headers.get("content-length", "0") != "0" or "transfer-encoding" in headers
    if has_body and not _is_json(headers.get("content-type", "")):
        raise HTTPException(415, messages.NOT_JSON)
