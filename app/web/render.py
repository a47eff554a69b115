"""HTML answers: the board page, the htmx partials of a move, error pages (jinja2-fragments)."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Any

import jinja2
from jinja2_fragments.fastapi import Jinja2Blocks
from starlette.requests import Request
from starlette.responses import Response

from app import i18n
from app.engine import DealCode
from app.store import Prefs, StoredGame
from app.web.views import MODES, deal_dict, game_dict

BOARD = "board.html"
ERROR = "error.html"
START = "start.html"
STATS = "stats.html"
CONFIRM_DEAL = "confirm_deal.html"
# One URL answers both a full page and htmx partials: caches must keep them apart.
VARY = {"Vary": "HX-Request", "Cache-Control": "no-store"}


def is_htmx(request: Request) -> bool:
    return request.headers.get("hx-request") == "true"


class Renderer:
    """Renders templates/board.html (whole, or some of its blocks) and error.html."""

    def __init__(self, directory: Path, *, idle_limit: float = 60.0) -> None:
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
        # The page's clock counts on from the server's last answer at most this far, as
        # the server does between two actions (Settings.idle_limit_seconds).
        env.globals["idle_limit"] = int(idle_limit)
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
        results: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        return {
            "game": game,
            "prefs": _prefs(prefs),
            "oob": oob,
            "message": message,
            # A hint answer: its move (None when it has none) lights up the card.
            "hint": hint,
            # A won game's results screen: the score's parts and the mode's statistics.
            "results": results,
            "modes": MODES,
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
        results: dict[str, Any] | None = None,
    ) -> Response:
        """The whole board page (with a message, the move of a hint, and a won game's
        results, if any)."""
        context = self._context(game_dict(stored), prefs, False, message, hint, results)
        return self.templates.TemplateResponse(
            request, BOARD, context, status_code=status_code, headers=VARY
        )

    def update(
        self,
        request: Request,
        stored: StoredGame,
        blocks: list[str],
        results: dict[str, Any] | None = None,
    ) -> Response:
        """The blocks an action changed (`blocks`, views.changed_blocks), each an
        out-of-band swap (with the results screen, when the action won the game)."""
        context = self._context(game_dict(stored), None, True, None, results=results)
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

    def start(self, request: Request, prefs: Prefs) -> Response:
        """The start window on a page of its own: a first visit, or no game in progress."""
        context = {"prefs": _prefs(prefs), "modes": MODES, "game": None}
        return self.templates.TemplateResponse(request, START, context, headers=VARY)

    def fragment(
        self, request: Request, template: str, block: str, context: dict[str, Any]
    ) -> Response:
        """One block of a template (an htmx fragment)."""
        return self.templates.TemplateResponse(
            request, template, context, block_name=block, headers=VARY
        )

    def stats(self, request: Request, rows: dict[str, dict[str, Any]], casino: Any) -> Response:
        """The statistics page: every mode's row and chart, and the casino bankroll."""
        context = {"rows": rows, "casino": casino, "modes": MODES}
        return self.templates.TemplateResponse(request, STATS, context, headers=VARY)

    def confirm_deal(self, request: Request, code: DealCode, current: StoredGame) -> Response:
        """A shared deal opened during a game in progress: the deal, and a question first."""
        context = {"deal": deal_dict(code), "current": game_dict(current), "modes": MODES}
        return self.templates.TemplateResponse(request, CONFIRM_DEAL, context, headers=VARY)


def _prefs(prefs: Prefs | None) -> dict[str, Any]:
    """The player's choices as the templates read them (the defaults for a partial)."""
    return asdict(prefs or Prefs())
