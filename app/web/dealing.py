"""Winnable deals for the New game routes (JSON and page): a listed deal the player has
not played, else one the computer player finds; the player's prefs say when to."""

from __future__ import annotations

from starlette.exceptions import HTTPException

from app.engine import DealCode, Rules
from app.store import Store
from app.store.aio import AsyncStore
from app.web import messages
from app.web.computer import ComputerBusy, ComputerPlayer, NoWinnableDeal


async def winnable_code(
    store: AsyncStore, player_id: str, computer: ComputerPlayer, rules: Rules
) -> DealCode:
    """A deal verified winnable under `rules`, preferring one the player has not played;
    HTTPException 503 when none can be found now."""
    played = await store.run(Store.played_numbers, player_id)
    try:
        return await computer.winnable_deal(rules, played)
    except NoWinnableDeal as error:
        raise HTTPException(503, messages.no_winnable_deal()) from error
    except ComputerBusy as error:
        raise HTTPException(503, messages.computer_busy()) from error
