"""Choosing the language (SPEC §11): `?lang=`, the saved choice (pages only), Accept-Language
with its weights, else English; the API's summary, refusals and errors in that language."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.web.language import best_accepted
from tests.shared import SEED_CODE, SEED_OPENING, SPOIL_DECK, SPOIL_RULES

POLISH_OPENING = (
    "Talia: 34 karty; stos odrzuconych kart pusty; rezerwa: 13 kart, wierzch: dama trefl. "
    "Stosy docelowe, ranga początkowa 7: kier do siódemki kier (1), pik pusty, karo puste, "
    "trefl pusty. kolumna 1: 6 trefl; kolumna 2: król kier; kolumna 3: dama kier; "
    "kolumna 4: as pik."
)
HEBREW_START = "חפיסת משיכה: 34 קלפים; ערימת זריקה ריקה; רזרבה: 13 קלפים"
RUSSIAN_START = "Колода: 34 карты; сброс пуст; резерв: 13 карт, верхняя: дама треф."


def seed_game(client: TestClient) -> dict[str, Any]:
    response = client.post("/api/games", json={"code": SEED_CODE})
    assert response.status_code == 201, response.text
    game: dict[str, Any] = response.json()
    return game


def summary_of(client: TestClient, game: dict[str, Any], **headers: str) -> str:
    path = headers.pop("path", f"/api/games/{game['id']}")
    response = client.get(path, headers=headers)
    assert response.status_code == 200, response.text
    text: str = response.json()["summary"]
    return text


@pytest.mark.parametrize(
    ("header", "language"),
    [
        ("pl", "pl"),
        ("pl-PL,pl;q=0.9,en-US;q=0.8,en;q=0.7", "pl"),
        ("en;q=0.5, he;q=0.9, pl;q=0.8", "he"),
        ("fr-FR, ru;q=0.3, de;q=0.9", "ru"),
        ("RU-ru", "ru"),
        ("he-IL;q=1.0, pl;q=1.0", "he"),  # equal weights: the header's order
        ("pl;q=0, ru;q=0.1", "ru"),  # q=0 means "not this one"
        ("xx, fr;q=0.9, *;q=0.5", None),
        ("pl;q=abc", None),
        (";;;,,, =q;q=", None),
        ("", None),
        ("pl;q=2", None),
    ],
)
def test_accept_language_is_read_with_its_weights(header: str, language: str | None) -> None:
    assert best_accepted(header) == language


def test_the_api_speaks_accept_language_and_lang_wins_over_it(client: TestClient) -> None:
    game = seed_game(client)
    assert game["summary"] == SEED_OPENING
    assert summary_of(client, game, **{"Accept-Language": "pl-PL,pl;q=0.9"}) == POLISH_OPENING
    he = summary_of(client, game, **{"Accept-Language": "en;q=0.5, he;q=0.9, pl;q=0.8"})
    assert he.startswith(HEBREW_START)
    path = f"/api/games/{game['id']}?lang=ru"
    assert summary_of(client, game, path=path, **{"Accept-Language": "pl"}).startswith(
        RUSSIAN_START
    )
    # An unknown ?lang= is passed over; an unknown or malformed header reads English.
    path = f"/api/games/{game['id']}?lang=xx"
    assert summary_of(client, game, path=path, **{"Accept-Language": "pl"}) == POLISH_OPENING
    assert summary_of(client, game, **{"Accept-Language": "xx-YY, fr"}) == SEED_OPENING
    assert summary_of(client, game, **{"Accept-Language": "pl;q=abc;;,"}) == SEED_OPENING
    # Caches keep the languages apart.
    deal = client.get(f"/api/deals/{SEED_CODE}", headers={"Accept-Language": "ru"})
    assert deal.json()["summary"].startswith(RUSSIAN_START)
    assert deal.headers["content-language"] == "ru"
    varies = {part.strip() for value in deal.headers.get_list("vary") for part in value.split(",")}
    assert "Accept-Language" in varies


def test_refusals_and_errors_follow_the_language(client: TestClient) -> None:
    game = seed_game(client)
    url = f"/api/games/{game['id']}/moves"
    cases = {
        "pl": "Dama trefl przykrywa 8 kier w rezerwie.",
        "he": "הקלף מלכה תלתן מכסה את הקלף 8 לב ברזרבה.",
        "ru": "Дама треф закрывает 8 червей в резерве.",
        "en": "The queen of clubs covers the 8 of hearts in the reserve.",
    }
    for language, detail in cases.items():
        response = client.post(f"{url}?lang={language}", json={"move": "8H-f"})
        assert response.status_code == 422
        assert response.json() == {"detail": detail}
    response = client.post(url, json={"move": "AS-f"}, headers={"Accept-Language": "pl"})
    assert response.json()["detail"] == "Stos bazowy tego koloru zaczyna się od siódemki pik."
    response = client.post(url, json={"move": "6C-t3"}, headers={"Accept-Language": "ru"})
    assert response.json()["detail"] == "6 треф не ложится на даму червей."
    response = client.post(f"/api/games/{game['id']}/undo?lang=pl", json={})
    assert response.json()["detail"] == "Nie ma czego cofnąć."
    response = client.get("/api/games/nope?lang=ru")
    assert response.status_code == 404
    assert response.json()["detail"].startswith("Здесь нет такой партии")
    # Nothing changed on the way.
    assert client.get(f"/api/games/{game['id']}").json()["version"] == 0


def test_numbers_in_messages_are_written_the_languages_way(client: TestClient) -> None:
    game = seed_game(client)
    client.post(f"/api/games/{game['id']}/moves", json={"move": "QC-t2"})
    stale = client.post(
        f"/api/games/{game['id']}/moves?lang=pl", json={"move": "8H-f", "version": 0}
    )
    assert stale.status_code == 409
    assert "(jest teraz w wersji 1)" in stale.json()["detail"]
    too_large = client.post(
        "/api/games?lang=pl",
        content=b"{" + b" " * 20_000 + b"}",
        headers={"Content-Type": "application/json"},
    )
    assert too_large.status_code == 413
    assert "16\u00a0384 B" in too_large.json()["detail"]


def test_the_saved_choice_speaks_on_pages_but_not_in_the_api(client: TestClient) -> None:
    game = seed_game(client)
    page_url = f"/games/{game['id']}"
    saved = client.post(
        "/prefs",
        data={"lang": "he"},
        headers={"Referer": f"http://testserver{page_url}?lang=pl"},
        follow_redirects=False,
    )
    assert saved.status_code == 303
    assert saved.headers["location"] == page_url  # back to the page, without ?lang=
    page = client.get(page_url, headers={"Accept-Language": "pl"}).text
    assert '<html lang="he" dir="rtl">' in page
    assert HEBREW_START in page
    # The JSON API follows only ?lang= and Accept-Language.
    assert summary_of(client, game, **{"Accept-Language": "pl"}) == POLISH_OPENING
    assert summary_of(client, game) == SEED_OPENING
    # ?lang= wins over the saved choice, for that request.
    assert '<html lang="ru" dir="ltr">' in client.get(f"{page_url}?lang=ru").text
    # An htmx move answers in the saved language too.
    moved = client.post(f"{page_url}/moves", data={"move": "QC-t2"}, headers={"HX-Request": "true"})
    assert moved.status_code == 200
    assert "רזרבה: 12 קלפים, הקלף העליון: 8 לב" in moved.text
    # `auto` forgets it: Accept-Language decides again.
    client.post("/prefs", data={"lang": "auto"}, follow_redirects=False)
    page = client.get(page_url, headers={"Accept-Language": "pl"}).text
    assert '<html lang="pl" dir="ltr">' in page


def test_an_unknown_saved_language_is_refused_and_changes_nothing(client: TestClient) -> None:
    game = seed_game(client)
    client.post("/prefs", data={"lang": "ru"}, follow_redirects=False)
    refused = client.post("/prefs", data={"lang": "klingon"}, follow_redirects=False)
    assert refused.status_code == 422
    assert "klingon" in refused.text
    assert '<html lang="ru" dir="ltr">' in client.get(f"/games/{game['id']}").text
    # The still-winnable toggle alone keeps its 204 and leaves the language as it was.
    assert client.post("/prefs", data={"still_winnable": "true"}).status_code == 204
    assert '<html lang="ru" dir="ltr">' in client.get(f"/games/{game['id']}").text


def test_the_language_switch_is_on_the_board(client: TestClient) -> None:
    game = seed_game(client)
    page = client.get(f"/games/{game['id']}?lang=pl").text
    switch = '<form class="languages" method="post" action="/prefs"'
    assert page.index('<div id="menu" class="panel menu" popover') < page.index(switch)
    assert '<h2 id="languages-title">Język</h2>' in page
    for code in ("en", "pl", "he", "ru"):
        assert f'name="lang" value="{code}" lang="{code}"' in page
    assert 'value="pl" lang="pl" aria-pressed="true">Polski</button>' in page


def test_error_pages_and_refusals_of_the_security_layer_speak_too(client: TestClient) -> None:
    missing = client.get("/games/nope", headers={"Accept-Language": "he"})
    assert missing.status_code == 404
    assert '<html lang="he" dir="rtl">' in missing.text
    assert "אין משחק כזה" in missing.text and "שגיאה 404" in missing.text
    cross = client.post("/api/games?lang=pl", json={}, headers={"Origin": "https://evil.example"})
    assert cross.status_code == 403
    assert cross.json() == {"detail": "Odrzucono: to żądanie przyszło z innej witryny."}


def test_a_page_opened_with_lang_keeps_it_through_its_htmx_moves(client: TestClient) -> None:
    game = seed_game(client)
    page_url = f"http://testserver/games/{game['id']}?lang=ru"
    moved = client.post(
        f"/games/{game['id']}/moves",
        data={"move": "8H-f"},
        headers={"HX-Request": "true", "HX-Current-URL": page_url, "Accept-Language": "pl"},
    )
    assert moved.status_code == 422
    assert "Дама треф закрывает 8 червей в резерве." in moved.text


def test_a_hint_speaks_the_language_and_names_its_card_in_words(client: TestClient) -> None:
    created = client.post("/api/games", json={"deck": SPOIL_DECK, "rules": SPOIL_RULES})
    game = created.json()
    answer = client.post(f"/api/games/{game['id']}/hint", headers={"Accept-Language": "pl"})
    assert answer.status_code == 200, answer.text
    hint = answer.json()
    assert hint["move"] in game["legal_moves"]  # the notation stays in `move`
    assert hint["message"].startswith("Podpowiedź: ")
    assert hint["move"] not in hint["message"]
    assert hint["game"]["summary"].startswith("Talia: ")


def test_input_that_cannot_be_read_says_what_in_the_language(client: TestClient) -> None:
    bad_code = client.get("/api/deals/CF1-D3-XYZ?lang=pl")
    assert bad_code.status_code == 400
    detail = bad_code.json()["detail"]
    assert detail == "po CF1-D3- powinno być 7 albo 48 liter, a jest 'XYZ'"
    assert client.get("/api/deals/CF1-D3-XYZ").json()["detail"].startswith("expected 7 or 48")
    twice = client.post("/api/games?lang=ru", json={"code": SEED_CODE, "draw": 1})
    assert twice.status_code == 400
    assert twice.json()["detail"].startswith("Укажите либо код раскладки")
    page = client.get("/deal/nonsense", headers={"Accept-Language": "he"})
    assert page.status_code == 400
    assert "קוד משחק שגוי \u2068&#39;nonsense&#39;\u2069" in page.text
    assert 'dir="rtl"' in page.text


def test_lang_survives_the_redirect_to_the_board(client: TestClient) -> None:
    shared = client.get(f"/deal/{SEED_CODE}?lang=pl", follow_redirects=False)
    assert shared.status_code == 303
    assert shared.headers["location"].endswith("?lang=pl")
    page = client.get(shared.headers["location"])
    assert '<html lang="pl" dir="ltr">' in page.text and POLISH_OPENING in page.text
    resumed = client.get("/?lang=he", follow_redirects=False)
    assert resumed.headers["location"].endswith("?lang=he")
