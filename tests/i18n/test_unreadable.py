"""Input the engine cannot read, worded in each language from its facts
(app/i18n/wording.py): the engine's English unchanged, no English left in Polish, Hebrew
or Russian, the bad value named as typed, cards in words, counts in each language's plural."""

from __future__ import annotations

import pytest

from app.engine import Card
from app.engine.codes import check_deck
from app.engine.unreadable import What
from tests.i18n.unreadable_cases import (
    CASES,
    ENGLISH,
    TRANSLATED,
    english_left,
    raised,
    worded,
)
from tests.shared import SEED_DECK


def test_every_kind_has_a_case() -> None:
    assert set(CASES) == set(What)
    assert {"unknown", "card", "expected", "deck", "rules", "the"} <= ENGLISH


@pytest.mark.parametrize("what", list(What))
def test_english_is_the_engines_own_sentence(what: What) -> None:
    error = raised(CASES[what][0])
    assert error.fact.what == what
    assert worded(error, "en") == str(error)
    assert CASES[what][1] in str(error)


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("what", list(What))
def test_each_kind_reads_whole_in_each_language(what: What, language: str) -> None:
    make, value = CASES[what]
    error = raised(make)
    text = worded(error, language)
    assert english_left(str(error), language) != []  # the check would see English
    assert english_left(text, language) == [], text
    assert "%(" not in text and "{" not in text, text
    assert value in text, text


def test_a_deal_codes_rules_say_what_is_wrong_with_them_in_the_language() -> None:
    error = raised(CASES[What.RULES_IN_CODE][0])
    assert worded(error, "pl") == (
        "zasady 'D3P100': błędna wartość 100 dla opcji 'passes': podaj null (bez limitu) "
        "albo liczbę całkowitą od 1 do 99"
    )


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "duplicate card ac: the ace of clubs is in the deck twice"),
    ("pl", "powtórzona karta 'ac': as trefl występuje w talii dwa razy"),
    ("ru", "повторяющаяся карта 'ac': туз треф встречается в колоде дважды"),
    # In Hebrew what was typed is isolated (FSI ... PDI): its punctuation stays with it.
    ("he", "קלף כפול '\u2068ac\u2069': הקלף אס תלתן מופיע בחפיסה פעמיים"),
])  # fmt: skip
def test_a_duplicate_card_is_named_as_typed_and_in_words(language: str, expected: str) -> None:
    assert worded(raised(CASES[What.DUPLICATE_CARD][0]), language) == expected


def deck_without(*missing: str) -> list[str]:
    return [card for card in SEED_DECK if card not in missing]


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "49 cards, need 52 (missing 7C QC KS): the deck lacks the 7 of clubs, "
           "queen of clubs, and king of spades"),
    ("pl", "49 kart zamiast 52 (brakuje 7C QC KS): w talii nie ma siódemki trefl, "
           "damy trefl i króla pik"),
    ("ru", "49 карт вместо 52 (не хватает 7C QC KS): в колоде нет семёрки треф, "
           "дамы треф и короля пик"),
    ("he", "49 קלפים במקום 52 (חסר: \u20687C QC KS\u2069): אין בחפיסה 7 תלתן, מלכה תלתן "
           "ומלך עלה"),
])  # fmt: skip
def test_the_missing_cards_of_a_short_deck_are_named_in_words(
    language: str, expected: str
) -> None:
    error = raised(lambda: check_deck(deck_without("7C", "QC", "KS")))
    assert worded(error, language) == expected


@pytest.mark.parametrize(("n", "polish", "russian"), [
    (1, "1 karta zamiast 52", "1 карта вместо 52"),
    (2, "2 karty zamiast 52", "2 карты вместо 52"),
    (5, "5 kart zamiast 52", "5 карт вместо 52"),
    (12, "12 kart zamiast 52", "12 карт вместо 52"),
    (21, "21 kart zamiast 52", "21 карта вместо 52"),
    (22, "22 karty zamiast 52", "22 карты вместо 52"),
    (25, "25 kart zamiast 52", "25 карт вместо 52"),
    (50, "50 kart zamiast 52", "50 карт вместо 52"),
    (51, "51 kart zamiast 52", "51 карта вместо 52"),
])  # fmt: skip
def test_a_short_decks_count_takes_each_languages_plural(
    n: int, polish: str, russian: str
) -> None:
    error = raised(lambda: check_deck(SEED_DECK[:n]))
    assert worded(error, "pl").startswith(polish)
    assert worded(error, "ru").startswith(russian)
    english = worded(error, "en")
    assert english.startswith(f"{n} card, " if n == 1 else f"{n} cards, ")
    hebrew = worded(error, "he")
    assert hebrew.startswith("קלף אחד במקום 52" if n == 1 else f"{n} קלפים במקום 52")


def test_many_missing_cards_are_listed_in_notation_only() -> None:
    error = raised(lambda: check_deck(SEED_DECK[:40]))
    missing = sorted(SEED_DECK[40:], key=lambda name: Card.parse(name).index)
    for language, suit_word in (("en", "clubs"), ("pl", "trefl"), ("ru", "треф"), ("he", "תלתן")):
        text = worded(error, language)
        end = "\u2069" if language == "he" else ""  # the isolate's end, in Hebrew
        assert f"{' '.join(missing)}{end})" in text, text
        assert suit_word not in text, text
