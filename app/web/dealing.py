"""Winnable deals for the New game routes (JSON and page): a listed deal the player has
not played, else one the computer player finds; the player's prefs say when to."""

from __future__ import annotations

from starlette.exceptions import HTTPException

from app.engine import DealCode, Rules
from app.web import messages
from app.web.computer import ComputerBusy, ComputerPlayer, NoWinnableDeal, SearchRefused
from app.web.deps import Player
from app.web.limits import search_refused


async def winnable_code(player: Player, computer: ComputerPlayer, rules: Rules) -> DealCode:
    """A deal verified winnable under `rules`, preferring one the player has not played;
    HTTPException 503 when none can be found now, 429 while the player's own search runs."""
    try:
        return await computer.winnable_deal(player.id, rules)
    except NoWinnableDeal as error:
        raise HTTPException(503, messages.NO_WINNABLE_DEAL) from error
    except ComputerBusy as error:
        raise HTTPException(503, messages.COMPUTER_BUSY) from error
    except SearchRefused as error:
        raise await search_refused() from error
