"""Input the engine cannot read answers 400 in the player's language (SPEC §11): the JSON
API by `?lang=` and by Accept-Language, the page as an htmx message or an error page; the
sentence is the fact worded in that language, names the bad value and has no English left."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.engine.unreadable import What
from app.web.errors import sentence
from tests.i18n.unreadable_cases import (
    CASES,
    TRANSLATED,
    english_left,
    page_message,
    raised,
    worded,
)
from tests.shared import SEED_CODE, SEED_DECK

# Each kind a player can send over HTTP: the JSON request that carries it (`{game}` is a
# game of the seeds' deal).
API_CASES: dict[What, tuple[str, str, dict[str, Any] | None]] = {
    What.UNKNOWN_CARD: ("POST", "/api/games/{game}/tap", {"card": "1C"}),
    What.UNKNOWN_MOVE: ("POST", "/api/games/{game}/moves", {"move": "QC-t5"}),
    What.DUPLICATE_CARD: ("POST", "/api/games", {"deck": [*SEED_DECK[:51], "ac"]}),
    What.SHORT_DECK: ("POST", "/api/games", {"deck": SEED_DECK[:51]}),
    What.UNKNOWN_PRESET: ("POST", "/api/games", {"preset": "hoyle"}),
    What.UNKNOWN_OPTION: ("POST", "/api/games", {"rules": {"colour": "red"}}),
    What.BAD_CHOICE: ("POST", "/api/games", {"draw": 2}),
    What.BAD_COUNT: ("POST", "/api/games", {"rules": {"passes": 0}}),
    What.BAD_SWITCH: ("POST", "/api/games", {"rules": {"autocomplete": "yes"}}),
    What.BAD_CODE: ("GET", "/api/deals/nonsense", None),
    What.UNKNOWN_RULES: ("GET", "/api/deals/CF1-X3-AAAAAAA", None),
    What.UNKNOWN_RULE_LETTER: ("GET", "/api/deals/CF1-D3Z1-AAAAAAA", None),
    What.RULE_LETTER_TWICE: ("POST", "/api/games", {"code": "CF1-D3P2P3-AAAAAAA"}),
    What.BAD_RULE_LETTER_VALUE: ("GET", "/api/deals/CF1-D3TQ-AAAAAAA", None),
    What.RULE_TAKES_A_NUMBER: ("GET", "/api/deals/CF1-D3PX-AAAAAAA", None),
    What.RULES_IN_CODE: ("GET", "/api/deals/CF1-D3P100-AAAAAAA", None),
    What.NOT_CANONICAL: ("POST", "/api/games", {"code": "CF1-D3TA-AAAAAAA"}),
    What.BAD_DEAL_LETTERS: ("GET", "/api/deals/CF1-D3-XYZ", None),
    What.NO_SUCH_DECK: ("GET", "/api/deals/CF1-D3-" + "Z" * 48, None),
}
# Kinds no request can carry: the schema turns the value away first (422), the web layer
# words it itself (a level), or only the engine's own code can make it.
NOT_FROM_A_REQUEST = {
    What.DECK_NOT_A_LIST, What.RULES_NOT_AN_OBJECT, What.CODE_NOT_TEXT, What.UNKNOWN_LEVEL,
    What.NO_SUCH_CARD, What.UNKNOWN_RANK, What.DEAL_NUMBER_RANGE, What.DEAL_NUMBER_LETTERS,
    What.NOT_A_STORED_POSITION,
}  # fmt: skip
# The page's forms and links that carry a kind: (path, form fields or None for a GET).
PAGE_CASES: dict[What, tuple[str, dict[str, str] | None]] = {
    What.UNKNOWN_CARD: ("/games/{game}/tap", {"card": "1C"}),
    What.UNKNOWN_MOVE: ("/games/{game}/moves", {"move": "QC-t5"}),
    What.UNKNOWN_PRESET: ("/games", {"preset": "hoyle", "draw": "3"}),
    What.BAD_CHOICE: ("/games", {"preset": "app", "draw": "2"}),
    What.BAD_CODE: ("/deal/nonsense", None),
    What.UNKNOWN_RULES: ("/deal/CF1-X3-AAAAAAA", None),
    What.NOT_CANONICAL: ("/deal/CF1-D3TA-AAAAAAA", None),
    What.BAD_DEAL_LETTERS: ("/deal/CF1-D3-XYZ", None),
}


def seed_game(client: TestClient) -> str:
    response = client.post("/api/games", json={"code": SEED_CODE})
    assert response.status_code == 201, response.text
    game_id: str = response.json()["id"]
    return game_id


def expected(what: What, language: str) -> str:
    """The fact of the same input worded in `language`, as the engine raises it."""
    return worded(raised(CASES[what][0]), language)


def test_every_kind_a_request_can_carry_is_asked() -> None:
    assert set(API_CASES) | NOT_FROM_A_REQUEST == set(What)
    assert set(PAGE_CASES) <= set(API_CASES)


def check(text: str, what: What, language: str) -> None:
    assert english_left(text, language) == [], text
    assert CASES[what][1] in text, text


@pytest.mark.parametrize("what", list(API_CASES))
def test_the_api_words_unreadable_input_in_the_asked_language(
    client: TestClient, what: What
) -> None:
    method, path, body = API_CASES[what]
    path = path.format(game=seed_game(client) if "{game}" in path else "")
    english = client.request(method, path, json=body)
    assert english.status_code == 400, english.text
    assert english.json()["detail"] == expected(what, "en")
    for language in TRANSLATED:
        by_query = client.request(method, f"{path}?lang={language}", json=body)
        by_header = client.request(method, path, json=body, headers={"Accept-Language": language})
        for response in (by_query, by_header):
            assert response.status_code == 400, response.text
            assert response.headers["content-language"] == language
            detail = response.json()["detail"]
            assert detail == expected(what, language)
            check(detail, what, language)


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
@pytest.mark.parametrize("what", list(PAGE_CASES))
def test_the_page_words_unreadable_input_in_the_players_language(
    client: TestClient, what: What, htmx: bool
) -> None:
    path, form = PAGE_CASES[what]
    path = path.format(game=seed_game(client) if "{game}" in path else "")
    for language, query, headers in (
        ("pl", "?lang=pl", {}),
        ("he", "", {"Accept-Language": "he-IL,he;q=0.9"}),
        ("ru", "?lang=ru", {"Accept-Language": "pl"}),
    ):
        if htmx:
            headers = {**headers, "HX-Request": "true"}
        if form is None:
            response = client.get(path + query, headers=headers)
        else:
            response = client.post(path + query, data=form, headers=headers)
        assert response.status_code == 400, response.text
        assert response.headers["content-type"].startswith("text/html")
        message = page_message(response.text)
        assert message == sentence(expected(what, language))
        check(message, what, language)
        if language == "he" and not htmx:  # a whole page, right to left
            assert 'dir="rtl"' in response.text
