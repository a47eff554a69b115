"""The plain-text position summary of SPEC §6 and §11 in English, Polish, Hebrew and
Russian: one small grammar per language, in the seeds' wording."""

from __future__ import annotations

from dataclasses import dataclass

from app.engine.cards import Card
from app.engine.position import Position
from app.engine.words import card_names, count_cards, language_of, rank_words, suit_words


@dataclass(frozen=True, slots=True)
class _Grammar:
    """One language's sentences. Placeholders: `{count}` (cards, with their noun), `{card}`,
    `{rank}`, `{suit}`, `{number}` (a column), `{foundations}` (the foundations' list)."""

    stock: str
    stock_empty: str
    waste: str
    waste_empty: str
    reserve: str
    reserve_empty: str
    foundations: str
    foundation: str
    # A foundation with no card, per suit in CDHS order (Polish: its gender).
    foundation_empty: tuple[str, str, str, str]
    column: str
    column_empty: str
    # The seeds' Polish starts its sentence of columns in lower case ("... trefl pusty.
    # kolumna 1: 6 trefl; ...").
    capital_columns: bool = True


_GRAMMARS = {
    "en": _Grammar(
        stock="stock: {count}",
        stock_empty="stock empty",
        waste="waste: {count}, top: {card}",
        waste_empty="waste empty",
        reserve="reserve: {count}, top: {card}",
        reserve_empty="reserve empty",
        foundations="foundations, start rank {rank}: {foundations}",
        foundation="{suit} up to {card} ({count})",
        foundation_empty=("clubs empty", "diamonds empty", "hearts empty", "spades empty"),
        column="column {number}: {cards}",
        column_empty="column {number}: empty",
    ),
    "pl": _Grammar(
        stock="talia: {count}",
        stock_empty="talia pusta",
        waste="stos odrzuconych kart: {count}, wierzch: {card}",
        waste_empty="stos odrzuconych kart pusty",
        reserve="rezerwa: {count}, wierzch: {card}",
        reserve_empty="rezerwa pusta",
        foundations="stosy docelowe, ranga początkowa {rank}: {foundations}",
        foundation="{suit} do {card} ({count})",
        foundation_empty=("trefl pusty", "karo puste", "kier pusty", "pik pusty"),
        column="kolumna {number}: {cards}",
        column_empty="kolumna {number}: pusta",
        capital_columns=False,
    ),
    "he": _Grammar(
        stock="חפיסת משיכה: {count}",
        stock_empty="חפיסת משיכה ריקה",
        waste="ערימת זריקה: {count}, הקלף העליון: {card}",
        waste_empty="ערימת זריקה ריקה",
        reserve="רזרבה: {count}, הקלף העליון: {card}",
        reserve_empty="רזרבה ריקה",
        foundations="ערימות יסוד, דרגת פתיחה {rank}: {foundations}",
        foundation="{suit} עד {card} ({count})",
        foundation_empty=("תלתן ריק", "יהלום ריק", "לב ריק", "עלה ריק"),
        column="עמודה {number}: {cards}",
        column_empty="עמודה {number}: ריקה",
    ),
    "ru": _Grammar(
        stock="колода: {count}",
        stock_empty="колода пуста",
        waste="сброс: {count}, верхняя: {card}",
        waste_empty="сброс пуст",
        reserve="резерв: {count}, верхняя: {card}",
        reserve_empty="резерв пуст",
        foundations="основания, начальное достоинство {rank}: {foundations}",
        foundation="{suit} до {card} ({count})",
        foundation_empty=("трефы пусты", "бубны пусты", "черви пусты", "пики пусты"),
        column="столбец {number}: {cards}",
        column_empty="столбец {number}: пуст",
    ),
}


def _capitalised(sentence: str) -> str:
    return sentence[:1].upper() + sentence[1:]


def summary(position: Position, language: str = "en") -> str:
    """The summary in `language` (`en`, `pl`, `he`, `ru`; any other reads English), in
    the seeds' shape and, for Polish and Hebrew, their exact words (SPEC §6, §11)."""
    language = language_of(language)
    words = _GRAMMARS[language]
    names = card_names(language)

    def pile(cards: tuple[Card, ...], full: str, empty: str) -> str:
        if not cards:
            return empty
        top = names[cards[-1].index]
        return full.format(count=count_cards(len(cards), language), card=top)

    first = "; ".join(
        (
            pile(position.stock, words.stock, words.stock_empty),
            pile(position.waste, words.waste, words.waste_empty),
            pile(position.reserve, words.reserve, words.reserve_empty),
        )
    )
    foundations = []
    for suit in position.foundation_order:
        top = position.foundation_top(suit)
        if top is None:
            foundations.append(words.foundation_empty[suit])
        else:
            foundations.append(
                words.foundation.format(
                    suit=suit_words(suit, language),
                    card=card_names(language, "genitive")[top.index],
                    count=position.foundations[suit],
                )
            )
    second = words.foundations.format(
        rank=rank_words(position.start_rank, language), foundations=", ".join(foundations)
    )
    columns = "; ".join(
        words.column.format(
            number=i, cards=", ".join(names[card.index] for card in column)
        )
        if column
        else words.column_empty.format(number=i)
        for i, column in enumerate(position.tableau, start=1)
    )
    if words.capital_columns:
        columns = _capitalised(columns)
    return f"{_capitalised(first)}. {_capitalised(second)}. {columns}."
