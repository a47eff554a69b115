"""The JSON API's request and response bodies (SPEC §7), as the OpenAPI document shows them."""

from __future__ import annotations

import secrets
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from app.engine import (
    DealCode,
    EngineError,
    InvalidRulesError,
    Level,
    Rules,
    parse_level,
    rules_for_level,
)
from app.engine.codes import MAX_DEAL_NUMBER
from app.web import messages


class WordedRulesError(EngineError):
    """Rules or a level this layer refuses, already worded in the player's language."""


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewGame(Body):
    """A new game: `{}` deals a random `app` draw-3 game; or a deal `code`; or a
    `preset`/`draw` and `rules` options (omitted options take the preset's), with
    an optional custom `deck` of 52 cards in dealing order. `winnable`: deal a deal
    the computer player has won under those rules (not with a code or deck)."""

    code: str | None = Field(default=None, examples=["CF1-D1-HELLOAB"])
    preset: str | None = Field(default=None, examples=["classic"])
    draw: int | None = Field(default=None, examples=[1])
    rules: dict[str, Any] | None = Field(
        default=None, examples=[{"preset": "skill", "draw": 1, "passes": 3}]
    )
    deck: list[str] | None = Field(default=None, description="52 cards in dealing order d")
    winnable: bool = Field(
        default=False, description="an alias of level easy: a deal the computer player has won"
    )
    level: str | None = Field(
        default=None,
        examples=["hard"],
        description="easy (a deal the computer player has won), medium (the default: "
        "random), hard (random, at most 3 passes); a code or deck is always shared",
    )

    def chosen_level(self) -> Level:
        """The new game's level (SPEC §10); raises WordedRulesError when the fields disagree."""
        shared = self.code is not None or self.deck is not None
        level = None if self.level is None else level_named(self.level)
        if shared:
            if self.winnable:
                raise WordedRulesError(messages.winnable_with_deal())
            if level not in (None, "shared"):
                raise WordedRulesError(messages.level_with_deal(str(level)))
            return "shared"
        if level == "shared":
            raise WordedRulesError(messages.shared_without_deal())
        if self.winnable:
            if level not in (None, "easy"):
                raise WordedRulesError(messages.winnable_and_level(str(level)))
            return "easy"
        return level or "medium"

    def level_rules(self) -> Rules:
        """The rules of a new random (or winnable) deal, at its level; raises EngineError."""
        return rules_for_level(rules_from(self.preset, self.draw, self.rules), self.chosen_level())

    def deal_code(self) -> DealCode:
        """The deal this asks for, when it is not an easy one (which the computer player
        picks); raises EngineError (or WordedRulesError) with the reason."""
        if self.code is not None:
            if (self.preset, self.draw, self.rules, self.deck) != (None, None, None, None):
                raise WordedRulesError(messages.code_and_options())
            return DealCode.parse(self.code)
        if self.deck is not None:
            return DealCode.for_deck(self.deck, rules_from(self.preset, self.draw, self.rules))
        return random_deal(self.level_rules())


def level_named(text: str) -> Level:
    """A level by its name; WordedRulesError for any other."""
    try:
        return parse_level(text)
    except InvalidRulesError:
        raise WordedRulesError(messages.unknown_level(text)) from None


def rules_from(
    preset: str | None, draw: int | None, options: dict[str, Any] | None = None
) -> Rules:
    """Rules from a preset, a draw count and other options, each optional."""
    merged = dict(options or {})
    if preset is not None:
        if merged.get("preset", preset) != preset:
            raise WordedRulesError(messages.preset_conflict(preset, merged["preset"]))
        merged["preset"] = preset
    if draw is not None:
        if merged.get("draw", draw) != draw:
            raise WordedRulesError(messages.draw_conflict(draw, merged["draw"]))
        merged["draw"] = draw
    return Rules.from_dict(merged)


def random_deal(rules: Rules) -> DealCode:
    """A deal number drawn from the operating system's randomness."""
    return DealCode(rules, number=secrets.randbelow(MAX_DEAL_NUMBER + 1))


class MoveBody(Body):
    move: str = Field(examples=["QC-t2", "draw", "8H-f"])
    version: int | None = Field(
        default=None, description="the version the move was chosen in; 409 if the game moved on"
    )


class UndoBody(Body):
    version: int | None = None


class TapBody(Body):
    card: str = Field(examples=["KH"])
    double_click: bool | None = Field(
        default=None, description="overrides the player's double click setting for this tap"
    )
    double: bool = Field(default=False, description="a double tap (skill: to the foundation)")
    version: int | None = None


class RulesOut(BaseModel):
    preset: str
    draw: int
    passes: int | None
    tableau_moves: str
    empty_column: str
    foundation_to_tableau: bool
    undo_limit: int | None
    scoring: str
    autocomplete: bool


class ReserveOut(BaseModel):
    count: int
    top: str | None


class FoundationOut(BaseModel):
    suit: str
    cards: list[str]


class DealOut(BaseModel):
    """A deal's opening position, or a game's position: lists run bottom to top."""

    model_config = ConfigDict(populate_by_name=True)

    code: str
    rules: RulesOut
    version: int
    start_rank: str
    stock: int
    waste: list[str]
    pass_: int = Field(alias="pass")
    reserve: ReserveOut
    foundations: list[FoundationOut]
    tableau: list[list[str]]
    score: int
    moves: int
    won: bool
    undo_available: int
    legal_moves: list[str]
    summary: str


class GameOut(DealOut):
    """A game (SPEC §7, §10), plus `seconds`: the playing time the server counts (skill
    scoring), `hints_used`: hints asked for in this game, and `hints_available`: whether the
    computer player gives a hint for the game now (false once it is finished)."""

    id: str
    level: str = Field(examples=["medium"], description="easy, medium, hard or shared")
    result: str = Field(examples=["playing"], description="playing, won or lost")
    paused: bool = Field(description="the game's clock is stopped (POST .../pause)")
    seconds: int
    hints_used: int
    hints_available: bool


class ClockBody(Body):
    version: int | None = Field(
        default=None, description="the version shown; 409 if the game moved on"
    )


class ModeStatsOut(BaseModel):
    """One mode's statistics over its finished games (SPEC §10)."""

    preset: str
    level: str
    draw: int
    played: int
    won: int
    lost: int
    win_rate: float
    streak: int = Field(description="the current run: > 0 wins, < 0 losses")
    best_streak: int
    best_score: int | None
    best_seconds: int | None
    fewest_moves: int | None


class CasinoOut(BaseModel):
    games: int
    bankroll: int


class StatsOut(BaseModel):
    """The player's statistics per mode (preset, level, draw) and their casino bankroll."""

    modes: list[ModeStatsOut]
    casino: CasinoOut


class HintBody(Body):
    version: int | None = Field(
        default=None, description="the version the hint is for; 409 if the game moved on"
    )


class HintOut(BaseModel):
    """The computer player's hint: the next move of a winning line, or why there is none."""

    move: str | None = Field(examples=["QC-t2", "draw", None])
    message: str = Field(examples=["Hint: move the queen of clubs to column 2 (QC-t2)."])
    winnable: bool | None = Field(
        description="whether the position can still be won (null: not known in time)"
    )
    undo: int | None = Field(
        description="when it cannot: the undos that lead back to a winnable position, if found"
    )
    game: GameOut


class WinnableOut(BaseModel):
    """Whether the game's position at `version` can still be won (null: not sure)."""

    version: int
    winnable: bool | None


class ErrorOut(BaseModel):
    detail: str = Field(examples=["8H is under QC in the reserve"])
