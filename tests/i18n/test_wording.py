"""Refusals and hints in each language (app/i18n/wording.py): every kind worded from its
facts, cards named in words in the case the sentence needs, never in move notation."""

from __future__ import annotations

import re

import pytest

from app import i18n
from app.engine import Card, Move
from app.engine.refusals import Refusal, Why
from app.i18n import wording

TRANSLATED = ("pl", "he", "ru")
NOTATION = re.compile(r"\b[A2-9TJQK][CDHS]\b|\b\d+[CDHS]\b|-t\d|-f\b")
ENGLISH_WORDS = re.compile(
    r"\b(the|of|is|card|cards|column|foundation|stock|waste|reserve|move|hint|clubs|"
    r"diamonds|hearts|spades|queen|king|jack|ace)\b",
    re.IGNORECASE,
)
QC, EIGHT_H, SEVEN_S = Card.parse("QC"), Card.parse("8H"), Card.parse("7S")


def every_refusal() -> list[Refusal]:
    return [Refusal(why, (EIGHT_H, QC), number=3, suit=2) for why in Why]


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_every_refusal_is_one_whole_sentence_in_each_language(language: str) -> None:
    with i18n.using(language):
        for refusal in every_refusal():
            text = wording.refusal(refusal)
            assert text[:1] == text[:1].upper() and text.endswith("."), text
            assert "%(" not in text and "{" not in text, text
            assert not NOTATION.search(text), text
            if language != "en":
                assert not ENGLISH_WORDS.search(text), text


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "The queen of clubs covers the 8 of hearts in the reserve."),
    ("pl", "Dama trefl przykrywa 8 kier w rezerwie."),
    ("ru", "Дама треф закрывает 8 червей в резерве."),
    ("he", "הקלף מלכה תלתן מכסה את הקלף 8 לב ברזרבה."),
])  # fmt: skip
def test_the_covering_card_is_the_subject(language: str, expected: str) -> None:
    with i18n.using(language):
        assert wording.refusal(Refusal(Why.UNDER_IN_RESERVE, (EIGHT_H, QC))) == expected


@pytest.mark.parametrize(("language", "expected"), [
    ("pl", "Dama trefl nie pasuje na damę kier."),
    ("ru", "Дама треф не ложится на даму червей."),
])  # fmt: skip
def test_a_card_that_does_not_fit_names_its_target_in_the_accusative(
    language: str, expected: str
) -> None:
    refusal = Refusal(Why.DOES_NOT_FIT, (QC, Card.parse("QH")))
    with i18n.using(language):
        assert wording.refusal(refusal) == expected


@pytest.mark.parametrize(("language", "expected"), [
    ("pl", "Stos bazowy tego koloru zaczyna się od siódemki pik."),
    ("ru", "Основание этой масти начинается с семёрки пик."),
    ("he", "היסוד של הסמל הזה מתחיל בקלף 7 עלה."),
])  # fmt: skip
def test_a_foundation_starts_from_its_card_in_the_genitive(language: str, expected: str) -> None:
    with i18n.using(language):
        assert wording.refusal(Refusal(Why.FOUNDATION_STARTS_AT, (SEVEN_S,))) == expected


@pytest.mark.parametrize(("language", "to_column", "to_foundation"), [
    ("en", "Hint: move the queen of clubs to column 2.",
     "Hint: put the 8 of hearts on its foundation."),
    ("pl", "Podpowiedź: przenieś damę trefl do kolumny 2.",
     "Podpowiedź: połóż 8 kier na stosie bazowym."),
    ("ru", "Подсказка: перенесите даму треф в столбец 2.",
     "Подсказка: положите 8 червей на основание."),
    ("he", "רמז: העבירו את הקלף מלכה תלתן לעמודה 2.",
     "רמז: הניחו את הקלף 8 לב על היסוד שלו."),
])  # fmt: skip
def test_a_hint_names_its_card_in_words(language: str, to_column: str, to_foundation: str) -> None:
    with i18n.using(language):
        assert wording.hint_move(Move.parse("QC-t2"), stock=True) == to_column
        assert wording.hint_move(Move.parse("8H-f"), stock=True) == to_foundation
        draw = wording.hint_move(Move.parse("draw"), stock=True)
        turn_over = wording.hint_move(Move.parse("draw"), stock=False)
        assert draw != turn_over
        assert not NOTATION.search(draw + turn_over)


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_hint_without_a_move_is_translated(language: str) -> None:
    cases = [
        ("won", None),
        ("unknown", None),
        ("from-start", None),
        ("no-undo", None),
        ("in-time", None),
        ("no-earlier", None),
    ] + [("undo", n) for n in (1, 2, 5, 22)]
    for why, undo in cases:
        with i18n.using("en"):
            english = wording.no_hint(why, undo, 3)
        with i18n.using(language):
            text = wording.no_hint(why, undo, 3)
        assert text != english and not ENGLISH_WORDS.search(text), text


@pytest.mark.parametrize(("n", "polish", "russian"), [
    (1, "cofnij 1 ruch,", "отмените 1 ход,"),
    (2, "cofnij 2 ruchy,", "отмените 2 хода,"),
    (5, "cofnij 5 ruchów,", "отмените 5 ходов,"),
    (21, "cofnij 21 ruchów,", "отмените 21 ход,"),
    (22, "cofnij 22 ruchy,", "отмените 22 хода,"),
    (25, "cofnij 25 ruchów,", "отмените 25 ходов,"),
])  # fmt: skip
def test_undo_counts_take_each_languages_plural(n: int, polish: str, russian: str) -> None:
    with i18n.using("pl"):
        assert polish in wording.no_hint("undo", n, 0)
    with i18n.using("ru"):
        assert russian in wording.no_hint("undo", n, 0)
