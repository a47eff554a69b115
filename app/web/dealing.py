"""New games for the routes (JSON and page): the rate limits on new games, and winnable deals
(a listed deal the player has not played, else one the computer player finds)."""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.requests import Request

from app.engine import DealCode, Rules
from app.web import messages
from app.web.computer import ComputerBusy, ComputerPlayer, NoWinnableDeal, SearchRefused
from app.web.limits import RateLimits, search_refused


async def allow_new_game(request: Request, player_id: str) -> None:
    """Count a new game of the player; HTTPException 429 over the limits (SPEC §12)."""
    limits: RateLimits = request.app.state.limits
    await limits.new_game(request, player_id)


async def winnable_code(player_id: str, computer: ComputerPlayer, rules: Rules) -> DealCode:
    """A deal verified winnable under `rules`, preferring one the player has not played;
    HTTPException 503 when none can be found now, 429 while the player's own search runs."""
    try:
        return await computer.winnable_deal(player_id, rules)
    except NoWinnableDeal as error:
        raise HTTPException(503, messages.no_winnable_deal()) from error
    except ComputerBusy as error:
        raise HTTPException(503, messages.computer_busy()) from error
    except SearchRefused as error:
        raise await search_refused() from error
