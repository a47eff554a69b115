"""Card words in English, Polish, Hebrew and Russian (the seeds' vocabulary), with the
grammatical cases a sentence about cards needs and each language's plural of a count.

The position summary's grammar (app/engine/summary.py) and the web layer's refusals and
hints both name cards through `card_words`, so a card has one name per language.
"""

from __future__ import annotations

from typing import Literal

from app.engine.cards import ORDERED_DECK, Card

LANGUAGES = ("en", "pl", "he", "ru")
Case = Literal["nominative", "accusative", "genitive"]

_DIGITS = ("2", "3", "4", "5", "6", "7", "8", "9", "10")

# Rank words, ace to king, per language and case; a case a language does not inflect
# (English, Hebrew) falls back to the nominative.
_RANKS: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {"nominative": ("ace", *_DIGITS, "jack", "queen", "king")},
    "pl": {
        "nominative": ("as", *_DIGITS, "walet", "dama", "król"),
        "accusative": ("asa", *_DIGITS, "waleta", "damę", "króla"),
        # The seeds: "kier do siódemki kier" - after "do", the rank as a word.
        "genitive": (
            "asa", "dwójki", "trójki", "czwórki", "piątki", "szóstki", "siódemki", "ósemki",
            "dziewiątki", "dziesiątki", "waleta", "damy", "króla",
        ),
    },
    "he": {"nominative": ("אס", *_DIGITS, "נסיך", "מלכה", "מלך")},
    "ru": {
        "nominative": ("туз", *_DIGITS, "валет", "дама", "король"),
        "accusative": ("туза", *_DIGITS, "валета", "даму", "короля"),
        "genitive": (
            "туза", "двойки", "тройки", "четвёрки", "пятёрки", "шестёрки", "семёрки",
            "восьмёрки", "девятки", "десятки", "валета", "дамы", "короля",
        ),
    },
}  # fmt: skip

# Suits in CDHS order. `of`: the suit in a card's name ("queen of clubs", "dama trefl",
# "дама треф"); `pile`: the suit naming its foundation ("clubs", "trefl", "трефы").
_SUITS_OF = {
    "en": ("clubs", "diamonds", "hearts", "spades"),
    "pl": ("trefl", "karo", "kier", "pik"),
    "he": ("תלתן", "יהלום", "לב", "עלה"),
    "ru": ("треф", "бубён", "червей", "пик"),
}
_SUITS_PILE = {
    "en": ("clubs", "diamonds", "hearts", "spades"),
    "pl": ("trefl", "karo", "kier", "pik"),
    "he": ("תלתן", "יהלום", "לב", "עלה"),
    "ru": ("трефы", "бубны", "черви", "пики"),
}


def language_of(language: str) -> str:
    """`language` if the engine speaks it, else English."""
    return language if language in _RANKS else "en"


def rank_words(rank: int, language: str, case: Case = "nominative") -> str:
    """A rank (0 = ace .. 12 = king) in words: `queen`, `7`; `siódemki` (Polish genitive)."""
    forms = _RANKS[language_of(language)]
    return forms.get(case, forms["nominative"])[rank]


def suit_words(suit: int, language: str) -> str:
    """A suit (CDHS order) as it names its foundation: `clubs`, `trefl`, `трефы`."""
    return _SUITS_PILE[language_of(language)][suit]


def _name(card: Card, language: str, case: Case) -> str:
    rank = rank_words(card.rank, language, case)
    suit = _SUITS_OF[language][card.suit]
    return f"{rank} of {suit}" if language == "en" else f"{rank} {suit}"


# Every card's name per language and case, by its index in the ordered deck: the summary
# names up to 52 cards on every answer.
_NAMES = {
    (language, case): tuple(_name(card, language, case) for card in ORDERED_DECK)
    for language in LANGUAGES
    for case in ("nominative", "accusative", "genitive")
}


def card_names(language: str, case: Case = "nominative") -> tuple[str, ...]:
    """The names of all 52 cards in `language` and `case`, by `Card.index`."""
    return _NAMES[(language_of(language), case)]


def card_words(card: Card, language: str, case: Case = "nominative") -> str:
    """A card in words: `queen of clubs`, `dama trefl`, `מלכה תלתן`, `дама треф`; in
    Polish and Russian the rank takes `case` (the suit in a card's name does not change)."""
    return card_names(language, case)[card.index]


def plural_form(n: int, language: str) -> int:
    """Which plural form a count takes (gettext's order): English and Hebrew 0 = one,
    1 = many; Polish and Russian 0 = one, 1 = few (2-4, 22-24 ...), 2 = many."""
    language = language_of(language)
    if language == "pl":
        if n == 1:
            return 0
        return 1 if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else 2
    if language == "ru":
        if n % 10 == 1 and n % 100 != 11:
            return 0
        return 1 if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else 2
    return 0 if n == 1 else 1


_CARDS = {
    "en": ("1 card", "{n} cards"),
    "pl": ("1 karta", "{n} karty", "{n} kart"),
    "he": ("קלף אחד", "{n} קלפים"),
    "ru": ("{n} карта", "{n} карты", "{n} карт"),
}


def _count(n: int, language: str) -> str:
    return _CARDS[language][plural_form(n, language)].format(n=n)


# The counts a pile can have (0..52), written once per language.
_COUNTS = {language: tuple(_count(n, language) for n in range(53)) for language in LANGUAGES}


def count_cards(n: int, language: str) -> str:
    """`1 card`, `22 karty`, `25 kart`, `21 карта`, `קלף אחד`."""
    language = language_of(language)
    return _COUNTS[language][n] if 0 <= n <= 52 else _count(n, language)
