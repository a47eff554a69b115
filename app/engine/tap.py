"""Tap resolution (SPEC §4): which move a tap or double tap on a card makes."""

from __future__ import annotations

from app.engine.cards import Card
from app.engine.moves import FOUNDATION, Move
from app.engine.position import Position, legal_moves
from app.engine.rules import Rules


def is_safe_for_foundation(position: Position, card: Card) -> bool:
    """`skill`'s safe foundation rule.

    A card is safe to send to its foundation when no card could still want to be
    built on it in a column: the start-rank card always is, and any other card is
    when both cards of the other colour one rank below it (counting from the start
    rank) are already on their foundations.
    """
    offset = (card.rank - position.start_rank) % 13
    if offset == 0:
        return True
    below_offset = offset - 1
    other_suits = (0, 3) if card.red else (1, 2)
    return all(position.foundations[suit] > below_offset for suit in other_suits)


def resolve_tap(
    position: Position,
    rules: Rules,
    card: Card,
    *,
    double_click: bool = True,
    double: bool = False,
) -> Move | None:
    """The move a tap on `card` makes, or None when nothing moves.

    `app`: to its foundation when legal; otherwise, with `double_click` on, to the
    longest column that accepts it (ties: leftmost), then the leftmost empty one.
    `skill` (rules whose scoring is `skill`): a single tap goes to the foundation
    only when that is safe (`is_safe_for_foundation`), else to a column as above,
    else to the foundation after all; a double tap goes straight to the foundation.
    A tap on a foundation card never moves it.
    """
    own = [m for m in legal_moves(position, rules) if m.card == card]
    if position.foundation_top(card.suit) == card:
        return None
    to_foundation = next((m for m in own if m.target == FOUNDATION), None)
    skill = rules.scoring == "skill"
    if double and skill:
        return to_foundation
    if to_foundation is not None and (not skill or is_safe_for_foundation(position, card)):
        return to_foundation
    if double_click:
        to_columns = [m for m in own if m.target != FOUNDATION]
        filled = [m for m in to_columns if position.tableau[m.target]]
        if filled:
            return max(filled, key=lambda m: (len(position.tableau[m.target]), -m.target))
        if to_columns:
            return min(to_columns, key=lambda m: m.target)
    return to_foundation if skill else None
