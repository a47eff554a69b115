"""The position summary in Polish, Hebrew and Russian (SPEC §11): the seeds' sentences
character for character, each language's plurals, and a few hundred random positions."""

from __future__ import annotations

import random
import re

import pytest

from app.engine import Card, DealCode, Game, Position, Rules, summary
from app.engine.words import card_words, count_cards
from tests.shared import SEED_AFTER_THREE, SEED_CODE, SEED_OPENING, seed_summaries

from .table import table

THREE_MOVES = ("QC-t2", "8H-f", "KH-t4")


def seed_game() -> Game:
    return Game(DealCode.parse(SEED_CODE))


@pytest.mark.parametrize(("seed", "language", "first_words"), [
    ("000", "pl", "Talia: "),
    ("002", "he", "חפיסת משיכה: "),
])  # fmt: skip
def test_the_seed_game_reads_the_seeds_own_sentences(
    seed: str, language: str, first_words: str
) -> None:
    opening, after_three = seed_summaries(seed, first_words)
    game = seed_game()
    assert game.summary(language) == opening
    for move in THREE_MOVES:
        game.play(move)
    assert game.summary(language) == after_three


def test_english_is_unchanged_and_the_default() -> None:
    game = seed_game()
    assert game.summary() == game.summary("en") == SEED_OPENING
    assert game.summary("xx") == SEED_OPENING
    for move in THREE_MOVES:
        game.play(move)
    assert game.summary() == SEED_AFTER_THREE


def test_russian_uses_seed_004s_names_for_cards_and_piles() -> None:
    game = seed_game()
    assert game.summary("ru") == (
        "Колода: 34 карты; сброс пуст; резерв: 13 карт, верхняя: дама треф. "
        "Основания, начальное достоинство 7: черви до семёрки червей (1), пики пусты, "
        "бубны пусты, трефы пусты. Столбец 1: 6 треф; столбец 2: король червей; "
        "столбец 3: дама червей; столбец 4: туз пик."
    )


@pytest.mark.parametrize(("n", "polish", "russian", "hebrew"), [
    (1, "1 karta", "1 карта", "קלף אחד"),
    (2, "2 karty", "2 карты", "2 קלפים"),
    (4, "4 karty", "4 карты", "4 קלפים"),
    (5, "5 kart", "5 карт", "5 קלפים"),
    (12, "12 kart", "12 карт", "12 קלפים"),
    (13, "13 kart", "13 карт", "13 קלפים"),
    (20, "20 kart", "20 карт", "20 קלפים"),
    (21, "21 kart", "21 карта", "21 קלפים"),
    (22, "22 karty", "22 карты", "22 קלפים"),
    (24, "24 karty", "24 карты", "24 קלפים"),
    (25, "25 kart", "25 карт", "25 קלפים"),
    (34, "34 karty", "34 карты", "34 קלפים"),
    (112, "112 kart", "112 карт", "112 קלפים"),
])  # fmt: skip
def test_counts_follow_each_languages_plural_rules(
    n: int, polish: str, russian: str, hebrew: str
) -> None:
    assert count_cards(n, "pl") == polish
    assert count_cards(n, "ru") == russian
    assert count_cards(n, "he") == hebrew
    assert count_cards(n, "en") == ("1 card" if n == 1 else f"{n} cards")


def test_a_position_with_one_card_in_the_stock_reads_it_in_the_singular() -> None:
    position = table("KS", "QH", "", "TC", stock="2D", waste="3C 4D 5D", rest="reserve")
    assert summary(position, "pl").startswith(
        "Talia: 1 karta; stos odrzuconych kart: 3 karty, wierzch: 5 karo; rezerwa: "
    )
    assert summary(position, "ru").startswith("Колода: 1 карта; сброс: 3 карты, верхняя: 5 бубён;")
    assert summary(position, "he").startswith(
        "חפיסת משיכה: קלף אחד; ערימת זריקה: 3 קלפים, הקלף העליון: 5 יהלום; רזרבה: "
    )


def test_empty_piles_and_full_foundations_in_every_language() -> None:
    position = table("", "QH", "", "", foundations="KC KD", rest="reserve", start="A", base="D")
    assert summary(position, "pl") == (
        "Talia pusta; stos odrzuconych kart pusty; rezerwa: 25 kart, wierzch: "
        f"{card_words(position.reserve[-1], 'pl')}. Stosy docelowe, ranga początkowa as: "
        "karo do króla karo (13), trefl do króla trefl (13), kier pusty, pik pusty. "
        "kolumna 1: pusta; kolumna 2: dama kier; kolumna 3: pusta; kolumna 4: pusta."
    )
    assert summary(position, "ru").endswith(
        "Основания, начальное достоинство туз: бубны до короля бубён (13), трефы до короля "
        "треф (13), черви пусты, пики пусты. Столбец 1: пуст; столбец 2: дама червей; "
        "столбец 3: пуст; столбец 4: пуст."
    )
    assert summary(position, "he").endswith(
        "ערימות יסוד, דרגת פתיחה אס: יהלום עד מלך יהלום (13), תלתן עד מלך תלתן (13), "
        "לב ריק, עלה ריק. עמודה 1: ריקה; עמודה 2: מלכה לב; עמודה 3: ריקה; עמודה 4: ריקה."
    )
    empty = table("KS", "QH", "JD", "TC", waste="9H", rest="stock")
    drained = Position(
        (), empty.waste, (), empty.foundations, empty.tableau, 1, empty.start_rank, 0
    )
    assert summary(drained, "pl").startswith(
        "Talia pusta; stos odrzuconych kart: 1 karta, wierzch: 9 kier; rezerwa pusta."
    )
    assert summary(drained, "ru").startswith(
        "Колода пуста; сброс: 1 карта, верхняя: 9 червей; резерв пуст."
    )
    assert summary(drained, "he").startswith(
        "חפיסת משיכה ריקה; ערימת זריקה: קלף אחד, הקלף העליון: 9 לב; רזרבה ריקה."
    )


@pytest.mark.parametrize(("rank", "polish", "russian", "hebrew"), [
    ("A", "asa", "туза", "אס"),
    ("2", "dwójki", "двойки", "2"),
    ("3", "trójki", "тройки", "3"),
    ("4", "czwórki", "четвёрки", "4"),
    ("5", "piątki", "пятёрки", "5"),
    ("6", "szóstki", "шестёрки", "6"),
    ("7", "siódemki", "семёрки", "7"),
    ("8", "ósemki", "восьмёрки", "8"),
    ("9", "dziewiątki", "девятки", "9"),
    ("T", "dziesiątki", "десятки", "10"),
    ("J", "waleta", "валета", "נסיך"),
    ("Q", "damy", "дамы", "מלכה"),
    ("K", "króla", "короля", "מלך"),
])  # fmt: skip
def test_every_rank_reads_on_a_foundation(
    rank: str, polish: str, russian: str, hebrew: str
) -> None:
    position = table(foundations=f"{rank}S", start="A", base="S")
    assert f"pik do {polish} pik (" in summary(position, "pl")
    assert f"пики до {russian} пик (" in summary(position, "ru")
    assert f"עלה עד {hebrew} עלה (" in summary(position, "he")


@pytest.mark.parametrize(("start", "polish", "russian", "hebrew"), [
    ("A", "as", "туз", "אס"),
    ("T", "10", "10", "10"),
    ("J", "walet", "валет", "נסיך"),
    ("Q", "dama", "дама", "מלכה"),
    ("K", "król", "король", "מלך"),
])  # fmt: skip
def test_the_start_rank_is_a_word_for_court_cards_and_aces(
    start: str, polish: str, russian: str, hebrew: str
) -> None:
    position = table(start=start, base="H", foundations=f"{start}H")
    assert f"ranga początkowa {polish}: " in summary(position, "pl")
    assert f"начальное достоинство {russian}: " in summary(position, "ru")
    assert f"דרגת פתיחה {hebrew}: " in summary(position, "he")


def test_every_suit_names_its_cards() -> None:
    names = {lang: [card_words(Card.parse(f"Q{suit}"), lang) for suit in "CDHS"]
             for lang in ("pl", "ru", "he")}  # fmt: skip
    assert names["pl"] == ["dama trefl", "dama karo", "dama kier", "dama pik"]
    assert names["ru"] == ["дама треф", "дама бубён", "дама червей", "дама пик"]
    assert names["he"] == ["מלכה תלתן", "מלכה יהלום", "מלכה לב", "מלכה עלה"]


# Every word of the English summary: none may be left in another language's text.
ENGLISH = set(re.findall(r"[a-z]+", (SEED_OPENING + SEED_AFTER_THREE).lower())) | {
    "empty", "card", "cards", "top", "diamonds", "ace", "jack", "king", "queen", "of",
    "waste", "stock", "reserve", "column", "foundations", "start", "rank", "up", "to",
}  # fmt: skip
LETTERS = {
    "pl": re.compile(r"[a-ząćęłńóśźż]+"),
    "he": re.compile(r"[\u05d0-\u05ea']+"),
    "ru": re.compile(r"[а-яё]+"),
}


def random_positions(count: int) -> list[Position]:
    """Positions met by playing random legal moves from random deals (empty wastes and
    columns, drained reserves and stocks, foundations up to full on the way)."""
    rng = random.Random(20)
    rules = Rules.preset_named("app", draw=1)
    positions = []
    while len(positions) < count:
        game = Game(DealCode(rules, number=rng.randrange(10**9)))
        for _ in range(rng.randrange(0, 400)):
            moves = game.legal_moves()
            if not moves:
                break
            # Prefer moves to the foundations, so that late positions come up too.
            to_foundation = [m for m in moves if str(m).endswith("-f")]
            game.play(rng.choice(to_foundation or moves))
        positions.append(game.position)
    return positions


@pytest.mark.parametrize("language", ["pl", "he", "ru"])
def test_random_positions_read_whole_in_every_language(language: str) -> None:
    for position in random_positions(300):
        text = summary(position, language)
        english = summary(position, "en")
        # The same shape: three sentences, as many list items and numbers as English.
        assert text.count(". ") == english.count(". ") == 2, text
        assert text.count(";") == english.count(";"), text
        assert text.count(",") == english.count(","), text
        assert re.findall(r"\(\d+\)", text) == re.findall(r"\(\d+\)", english), text
        assert "{" not in text and "None" not in text and "  " not in text, text
        words = re.findall(r"[^\W\d_]+", text.lower())
        assert not ENGLISH & set(words), text
        assert all(LETTERS[language].fullmatch(word) for word in words), text
