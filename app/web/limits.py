"""Rate limits on new games and on the computer player, per player and per client
address (SPEC §12), counted in the database so that every server counts together."""

from __future__ import annotations

import asyncio
import math
import time
from collections import OrderedDict
from functools import partial

from limits import RateLimitItem, parse_many
from limits.strategies import FixedWindowRateLimiter
from starlette.exceptions import HTTPException
from starlette.requests import Request

from app.i18n import gettext as _
from app.i18n import ngettext
from app.store.aio import AsyncStore
from app.store.limits import CounterStorage
from app.web.settings import Settings

# Refusals this process remembers (key -> until when), so that a flood of refused
# requests costs no database write each; the counters stay the database's.
BLOCKED_KEPT = 4096
# A refusal is answered after this pause (at most; never past Retry-After): a client
# that ignores Retry-After and asks again at once then asks about once a second, not
# hundreds of times, and the players it shares the server with do not pay for it.
# Nobody within the limits ever waits for it.
REFUSAL_PAUSE = 1.0


class RateLimits:
    """The app's rate limits; `new_game` and `search` raise HTTPException 429 with
    Retry-After when one is spent."""

    def __init__(self, store: AsyncStore, settings: Settings) -> None:
        self.store = store
        self.storage = CounterStorage(store.store)
        self.limiter = FixedWindowRateLimiter(self.storage)
        self.games_per_player = parse_many(settings.games_per_player)
        self.games_per_address = parse_many(settings.games_per_address)
        self.searches_per_player = parse_many(settings.searches_per_player)
        self.searches_per_address = parse_many(settings.searches_per_address)
        self._blocked: OrderedDict[str, float] = OrderedDict()

    async def new_game(self, request: Request, player_id: str) -> None:
        """Count a new game of the player; 429 over either limit."""
        await self._hit(self.games_per_player, "games", "player", player_id)
        await self._hit(self.games_per_address, "games", "address", client_address(request))

    async def search(self, request: Request, player_id: str) -> None:
        """Count a search the player asks for; 429 over either limit."""
        await self._hit(self.searches_per_player, "searches", "player", player_id)
        await self._hit(self.searches_per_address, "searches", "address", client_address(request))

    async def _hit(self, items: list[RateLimitItem], *identifiers: str) -> None:
        for item in items:
            await self._hit_one(item, *identifiers)

    async def _hit_one(self, item: RateLimitItem, *identifiers: str) -> None:
        key = item.key_for(*identifiers)
        now = time.time()
        until = self._blocked.get(key)
        if until is not None and until > now:
            await asyncio.sleep(min(REFUSAL_PAUSE, until - now))
            raise too_many(until - time.time())
        if await self.store.call(partial(self.limiter.hit, item, *identifiers)):
            return
        reset = await self.store.call(partial(self.storage.get_expiry, key))
        self._blocked[key] = reset
        while len(self._blocked) > BLOCKED_KEPT:
            self._blocked.popitem(last=False)
        await asyncio.sleep(min(REFUSAL_PAUSE, max(reset - now, 0.0)))
        raise too_many(reset - time.time())


def client_address(request: Request) -> str:
    """The client's address (uvicorn puts a trusted proxy's X-Forwarded-For here)."""
    return request.client.host if request.client else "unknown"


def too_many(wait: float) -> HTTPException:
    seconds = max(1, math.ceil(wait))
    detail = ngettext(
        "Too many requests: slow down and try again in %(seconds)d second.",
        "Too many requests: slow down and try again in %(seconds)d seconds.",
        seconds,
    ) % {"seconds": seconds}
    return HTTPException(429, detail, headers={"Retry-After": str(seconds)})


async def search_refused() -> HTTPException:
    """The player's own earlier question is still being thought about (answered after a
    short pause, like the other refusals)."""
    await asyncio.sleep(REFUSAL_PAUSE / 2)
    detail = _(
        "The computer player is still thinking about your previous question; "
        "wait for its answer, then ask again."
    )
    return HTTPException(429, detail, headers={"Retry-After": "1"})


async def count_search(request: Request, player_id: str) -> None:
    """Count a search the player asks for against the app's limits; 429 over them."""
    limits: RateLimits = request.app.state.limits
    await limits.search(request, player_id)
