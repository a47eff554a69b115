"""The plain-text position summary of SPEC §6 (screen readers and tests)."""

from __future__ import annotations

from app.engine.cards import RANK_WORDS, SUIT_WORDS
from app.engine.position import Position


def _count(n: int) -> str:
    return "1 card" if n == 1 else f"{n} cards"


def _capitalised(sentence: str) -> str:
    return sentence[:1].upper() + sentence[1:]


def summary(position: Position) -> str:
    """The summary in English, in the seeds' shape (SPEC §6)."""
    stock = f"stock: {_count(len(position.stock))}" if position.stock else "stock empty"
    waste = (
        f"waste: {_count(len(position.waste))}, top: {position.waste[-1].name}"
        if position.waste
        else "waste empty"
    )
    reserve = (
        f"reserve: {_count(len(position.reserve))}, top: {position.reserve[-1].name}"
        if position.reserve
        else "reserve empty"
    )
    foundations = []
    for suit in position.foundation_order:
        top = position.foundation_top(suit)
        if top is None:
            foundations.append(f"{SUIT_WORDS[suit]} empty")
        else:
            count = position.foundations[suit]
            foundations.append(f"{SUIT_WORDS[suit]} up to {top.name} ({count})")
    columns = []
    for i, column in enumerate(position.tableau, start=1):
        cards = ", ".join(card.name for card in column) if column else "empty"
        columns.append(f"column {i}: {cards}")
    sentences = [
        f"{stock}; {waste}; {reserve}.",
        f"foundations, start rank {RANK_WORDS[position.start_rank]}: {', '.join(foundations)}.",
        "; ".join(columns) + ".",
    ]
    return " ".join(_capitalised(s) for s in sentences)
