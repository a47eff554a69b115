"""What the client sees of a game: the SPEC §7 game dict, and which page blocks a move changed."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import pydantic_core

from app import i18n
from app.engine import (
    CHOSEN_LEVELS,
    DRAW,
    FOUNDATION,
    PRESETS,
    RANKS,
    SUITS,
    DealCode,
    Game,
    Move,
    Position,
    Rules,
    legal_moves,
    summary,
)
from app.engine.cards import ORDERED_DECK
from app.stats import Mode, ModeStats, mode_json
from app.stats.chart import Outcome, chart_svg
from app.store import StoredGame

PILE_BLOCKS = (
    "pile_stock",
    "pile_waste",
    "pile_reserve",
    "pile_fC",
    "pile_fD",
    "pile_fH",
    "pile_fS",
    "pile_t1",
    "pile_t2",
    "pile_t3",
    "pile_t4",
)
# Drawn after every applied action: score, moves and pass; and the position in words.
ALWAYS = ("status", "summary")


# _FOUNDATION_CARDS[start_rank][suit]: the names of that foundation's cards, in order.
_FOUNDATION_CARDS = [
    [[RANKS[(start + i) % 13] + SUITS[suit] for i in range(13)] for suit in range(4)]
    for start in range(13)
]


# The notation of every card and every move, looked up: str() is a method call per card
# and per move, on every answer.
_NOTATION = {card: str(card) for card in ORDERED_DECK}
_MOVE_NOTATION = {
    move: str(move)
    for move in [DRAW]
    + [Move(card, target) for card in ORDERED_DECK for target in (FOUNDATION, 0, 1, 2, 3)]
}


@lru_cache(maxsize=256)
def rules_dict(rules: Rules) -> dict[str, Any]:
    """The rules as JSON (cached: rules are immutable; callers must not change the dict)."""
    return rules.to_dict()


def piles(position: Position) -> dict[str, Any]:
    """The pile fields of the game dict, in SPEC §7 order."""
    reserve = position.reserve
    on_foundations = _FOUNDATION_CARDS[position.start_rank]
    counts = position.foundations
    return {
        "start_rank": RANKS[position.start_rank],
        "stock": len(position.stock),
        "waste": [_NOTATION[card] for card in position.waste],
        "pass": position.pass_number,
        "reserve": {"count": len(reserve), "top": _NOTATION[reserve[-1]] if reserve else None},
        "foundations": [
            {"suit": SUITS[suit], "cards": on_foundations[suit][: counts[suit]]}
            for suit in position.foundation_order
        ],
        "tableau": [[_NOTATION[card] for card in column] for column in position.tableau],
    }


def _game_fields(code: str, game: Game) -> dict[str, Any]:
    return {
        "code": code,
        "rules": rules_dict(game.rules),
        "version": game.version,
        **piles(game.position),
        "score": game.score,
        "moves": game.moves,
        "won": game.won,
        "undo_available": game.undo_available,
        "legal_moves": [_MOVE_NOTATION[move] for move in game.legal_moves()],
        "summary": game.summary(i18n.current()),
    }


def game_dict(stored: StoredGame) -> dict[str, Any]:
    """The game as the JSON API and the page templates see it (SPEC §7)."""
    return {
        "id": stored.id,
        **_game_fields(stored.code, stored.game),
        "level": stored.level,
        "result": stored.result,
        "paused": stored.paused,
        "seconds": int(stored.game.seconds),
        "hints_used": stored.hints_used,
        # The computer player has nothing to hint in a finished game (the hint route's 422).
        "hints_available": stored.result == "playing",
    }


def deal_dict(code: DealCode) -> dict[str, Any]:
    """The opening position of a deal, in the game dict's shape without an id."""
    opening = Game(code)  # dealt once: its position, and its score (casino's is −47)
    position, rules = opening.position, code.rules
    return {
        "code": str(code),
        "rules": rules_dict(rules),
        "version": 0,
        **piles(position),
        "score": opening.score,
        "moves": 0,
        "won": False,
        "undo_available": 0,
        "legal_moves": [_MOVE_NOTATION[move] for move in legal_moves(position, rules)],
        "summary": summary(position, i18n.current()),
    }


def to_json(data: dict[str, Any]) -> bytes:
    """Compact UTF-8 JSON: for the game dict's values (str, int, bool, None, lists, dicts)
    byte for byte what `json.dumps(data, separators=(",", ":"), ensure_ascii=False)`
    writes, in a fifth of its time (pydantic-core's encoder)."""
    return pydantic_core.to_json(data)


def _pile_keys(position: Position) -> tuple[object, ...]:
    """Per block of PILE_BLOCKS, in order, exactly what that block shows."""
    reserve = position.reserve
    return (
        # The stock shows its count, and a recycle button while the waste has cards.
        (len(position.stock), bool(position.waste)),
        position.waste,
        (len(reserve), reserve[-1] if reserve else None),
        *position.foundations,
        *position.tableau,
    )


def changed_blocks(before: Position, after: Position) -> list[str]:
    """The page blocks to redraw after an action: the piles whose content changed,
    then `status` and `summary`."""
    changed = [
        name
        for name, old, new in zip(PILE_BLOCKS, _pile_keys(before), _pile_keys(after), strict=True)
        if old != new
    ]
    return [*changed, *ALWAYS]


# What the start window offers: the presets, the levels a player picks, the draws.
MODES: dict[str, tuple[Any, ...]] = {
    "presets": tuple(PRESETS),
    "levels": CHOSEN_LEVELS,
    "draws": (3, 1),
}


def mode_key(preset: str, level: str, draw: int) -> str:
    """A mode's name in the page (`skill-hard-1`)."""
    return f"{preset}-{level}-{draw}"


def mode_row(mode: Mode, figures: ModeStats) -> dict[str, Any]:
    """A mode's statistics row (SPEC §10) with the chart of its last games."""
    outcomes = [Outcome(won, score) for won, score in figures.recent]
    return {**mode_json(mode, figures), "chart": chart_svg(outcomes)}


def mode_rows(modes: dict[Mode, ModeStats]) -> dict[str, dict[str, Any]]:
    """Every played mode's row (`mode_row`), by `mode_key`."""
    return {
        mode_key(*mode): mode_row(mode, figures)
        for mode, figures in sorted(modes.items())
        if figures.played
    }
