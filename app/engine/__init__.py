"""The Canfield rules engine: pure Python, no web, database or template code.

>>> from app.engine import Game, DealCode
>>> game = Game(DealCode.parse("CF1-D3-AAAAACL"))
>>> game.position.start_rank  # the base card is the two of clubs
1
"""

from app.engine.cards import RANKS, SUITS, Card, fits_on, next_rank, parse_rank
from app.engine.codes import DealCode, check_deck, deck_for_number
from app.engine.errors import (
    EngineError,
    IllegalMoveError,
    InvalidCardError,
    InvalidCodeError,
    InvalidDeckError,
    InvalidMoveError,
    InvalidRulesError,
    UnreadableError,
)
from app.engine.game import UNDO, Game
from app.engine.levels import (
    CHOSEN_LEVELS,
    DEFAULT_LEVEL,
    LEVELS,
    Level,
    parse_level,
    rules_for_level,
)
from app.engine.moves import DRAW, FOUNDATION, Move
from app.engine.position import Position, apply_move, check_move, legal_moves, pile_name
from app.engine.rules import PRESETS, Rules
from app.engine.scoring import (
    SCORING_SYSTEMS,
    AppScoring,
    CasinoScoring,
    ScorePart,
    Scoring,
    SkillScoring,
)
from app.engine.summary import summary
from app.engine.tap import is_safe_for_foundation, resolve_tap

__all__ = [
    "CHOSEN_LEVELS",
    "DEFAULT_LEVEL",
    "DRAW",
    "FOUNDATION",
    "LEVELS",
    "PRESETS",
    "RANKS",
    "SCORING_SYSTEMS",
    "SUITS",
    "UNDO",
    "AppScoring",
    "Card",
    "CasinoScoring",
    "DealCode",
    "EngineError",
    "Game",
    "IllegalMoveError",
    "InvalidCardError",
    "InvalidCodeError",
    "InvalidDeckError",
    "InvalidMoveError",
    "InvalidRulesError",
    "Level",
    "Move",
    "Position",
    "Rules",
    "ScorePart",
    "Scoring",
    "SkillScoring",
    "UnreadableError",
    "apply_move",
    "check_deck",
    "check_move",
    "deck_for_number",
    "fits_on",
    "is_safe_for_foundation",
    "legal_moves",
    "next_rank",
    "parse_level",
    "parse_rank",
    "pile_name",
    "resolve_tap",
    "rules_for_level",
    "summary",
]
