"""The JSON API's request and response bodies (SPEC §7), as the OpenAPI document shows them."""

from __future__ import annotations

import secrets
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from app.engine import DealCode, InvalidRulesError, Rules
from app.engine.codes import MAX_DEAL_NUMBER
from app.web import messages


class WordedRulesError(InvalidRulesError):
    """Rules this layer refuses, already worded in the player's language."""


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
        default=False, description="a deal verified winnable for the rules (skill's Easy)"
    )

    def winnable_rules(self) -> Rules:
        """The rules a winnable deal is wanted for; raises InvalidRulesError with a code or deck."""
        if self.code is not None or self.deck is not None:
            raise WordedRulesError(messages.winnable_with_deal())
        return rules_from(self.preset, self.draw, self.rules)

    def deal_code(self) -> DealCode:
        """The deal this asks for; raises EngineError (or InvalidRulesError) with the reason."""
        if self.code is not None:
            if (self.preset, self.draw, self.rules, self.deck) != (None, None, None, None):
                raise WordedRulesError(messages.code_and_options())
            return DealCode.parse(self.code)
        rules = rules_from(self.preset, self.draw, self.rules)
        if self.deck is not None:
            return DealCode.for_deck(self.deck, rules)
        return random_deal(rules)


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
    """A game (SPEC §7), plus `seconds`: the playing time the server counts (skill scoring),
    `hints_used`: hints asked for in this game, and `hints_available`: the server gives hints."""

    id: str
    seconds: int
    hints_used: int
    hints_available: bool


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
