"""HTML answers: the board page, the htmx partials of a move, error pages (jinja2-fragments)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jinja2
from jinja2_fragments.fastapi import Jinja2Blocks
from starlette.requests import Request
from starlette.responses import Response

from app import i18n
from app.store import Prefs, StoredGame
from app.web.views import changed_blocks, game_dict

BOARD = "board.html"
ERROR = "error.html"
# One URL answers both a full page and htmx partials: caches must keep them apart.
VARY = {"Vary": "HX-Request", "Cache-Control": "no-store"}


def is_htmx(request: Request) -> bool:
    return request.headers.get("hx-request") == "true"


class Renderer:
    """Renders templates/board.html (whole, or some of its blocks) and error.html."""

    def __init__(self, directory: Path) -> None:
        env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(directory),
            autoescape=True,
            extensions=["jinja2.ext.i18n"],
        )
        # Every sentence in a template goes through gettext: `{{ _("...", name=value) }}`.
        env.install_gettext_callables(  # type: ignore[attr-defined]
            i18n.gettext, i18n.ngettext, newstyle=True, pgettext=i18n.pgettext
        )
        env.globals["language"] = i18n.current
        env.globals["direction"] = i18n.direction
        # Numbers and times as the player's language writes them: {{ number(game.score) }}.
        env.globals["number"] = i18n.number
        env.globals["percent"] = i18n.percent
        env.globals["duration"] = i18n.duration
        self.templates = Jinja2Blocks(env=env)

    def _context(
        self,
        game: dict[str, Any] | None,
        prefs: Prefs | None,
        oob: bool,
        message: str | None,
        hint: str | None = None,
    ) -> dict[str, Any]:
        shown = prefs or Prefs()
        return {
            "game": game,
            "prefs": {
                "double_click": shown.double_click,
                "preset": shown.preset,
                "draw": shown.draw,
                "winnable_only": shown.winnable_only,
                "still_winnable": shown.still_winnable,
            },
            "oob": oob,
            "message": message,
            # A hint answer: its move (None when it has none) lights up the card.
            "hint": hint,
        }

    def page(
        self,
        request: Request,
        stored: StoredGame,
        prefs: Prefs,
        *,
        message: str | None = None,
        status_code: int = 200,
        hint: str | None = None,
    ) -> Response:
        """The whole board page (with a message, and the move of a hint, if any)."""
        context = self._context(game_dict(stored), prefs, False, message, hint)
        return self.templates.TemplateResponse(
            request, BOARD, context, status_code=status_code, headers=VARY
        )

    def update(self, request: Request, stored: StoredGame) -> Response:
        """The blocks an action changed, each an out-of-band swap."""
        before = stored.before if stored.before is not None else stored.game.position
        blocks = changed_blocks(before, stored.game.position)
        context = self._context(game_dict(stored), None, True, None)
        return self.templates.TemplateResponse(
            request, BOARD, context, block_names=blocks, headers=VARY
        )

    def message(
        self,
        request: Request,
        message: str,
        status_code: int,
        game: dict[str, Any] | None = None,
        hint: str | None = None,
    ) -> Response:
        """Only the message block (out of band): an htmx request that was refused, or a
        hint (`hint` is its move, "" when it has none)."""
        context = self._context(game, None, True, message, hint)
        return self.templates.TemplateResponse(
            request, BOARD, context, block_name="message", status_code=status_code, headers=VARY
        )

    def error(self, request: Request, status_code: int, message: str) -> Response:
        """The friendly error page."""
        context = {"message": message, "status_code": status_code}
        return self.templates.TemplateResponse(
            request, ERROR, context, status_code=status_code, headers=VARY
        )
