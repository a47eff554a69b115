"""The JSON API of SPEC §7 over HTTP (httpx via the test client), on SQLite and PostgreSQL."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.shared import SEED_AFTER_THREE as AFTER_THREE
from tests.shared import SEED_CODE, SEED_DECK
from tests.shared import SEED_OPENING as OPENING

# Draw 1, start rank ace: every stock card goes straight up; 85 actions win it.
WINNABLE_CODE = "CF1-D1-ZEJQDTVCINRUVSCRSGPTQOFQSQFKMFLQDVNABRNTQSZHUYHU"
APP_RULES = {
    "preset": "app",
    "draw": 3,
    "passes": None,
    "tableau_moves": "any-run",
    "empty_column": "any",
    "foundation_to_tableau": True,
    "undo_limit": 100,
    "scoring": "app",
    "autocomplete": False,
}
GAME_KEYS = [
    "id",
    "code",
    "rules",
    "version",
    "start_rank",
    "stock",
    "waste",
    "pass",
    "reserve",
    "foundations",
    "tableau",
    "score",
    "moves",
    "won",
    "undo_available",
    "legal_moves",
    "summary",
    "level",
    "result",
    "paused",
    "seconds",
    "hints_used",
    "hints_available",
]


def new_game(client: TestClient, body: dict[str, Any] | None = None) -> dict[str, Any]:
    response = client.post("/api/games", json={} if body is None else body)
    assert response.status_code == 201, response.text
    game: dict[str, Any] = response.json()
    return game


def move(client: TestClient, game: dict[str, Any], notation: str, **extra: Any) -> Any:
    return client.post(f"/api/games/{game['id']}/moves", json={"move": notation, **extra})


def detail(response: Any) -> str:
    body = response.json()
    assert set(body) == {"detail"}
    assert isinstance(body["detail"], str) and body["detail"]
    text: str = body["detail"]
    return text


# -- creating games ------------------------------------------------------------------


def test_an_empty_object_deals_a_random_app_draw_three_game(client: TestClient) -> None:
    game = new_game(client)
    assert list(game) == GAME_KEYS
    assert re.fullmatch(r"CF1-D3-[A-Z]{7}", game["code"])
    assert game["rules"] == APP_RULES
    assert (game["version"], game["score"], game["moves"], game["won"]) == (0, 0, 0, False)
    assert game["undo_available"] == 0
    assert game["stock"] == 34 and game["waste"] == [] and game["pass"] == 1
    assert game["reserve"]["count"] == 13
    assert [len(column) for column in game["tableau"]] == [1, 1, 1, 1]
    assert "draw" in game["legal_moves"]
    assert game["summary"].startswith("Stock: 34 cards; waste empty; reserve: 13 cards")
    assert len(game["id"]) >= 20


def test_random_deals_differ(client: TestClient) -> None:
    codes = {new_game(client)["code"] for _ in range(5)}
    assert len(codes) == 5


def test_an_empty_body_is_an_empty_object(client: TestClient) -> None:
    response = client.post("/api/games")
    assert response.status_code == 201
    assert response.json()["rules"] == APP_RULES


def test_a_code_deals_that_deal_with_its_rules(client: TestClient) -> None:
    game = new_game(client, {"code": "cf1-d1-helloab"})
    assert game["code"] == "CF1-D1-HELLOAB"
    assert game["rules"]["draw"] == 1
    # The golden vector of HELLOAB: base 9S, reserve top 7D, columns QH 3C 8C QD.
    assert game["start_rank"] == "9"
    assert game["foundations"][0] == {"suit": "S", "cards": ["9S"]}
    assert game["reserve"] == {"count": 13, "top": "7D"}
    assert game["tableau"] == [["QH"], ["3C"], ["8C"], ["QD"]]


def test_a_preset_and_draw_deal_a_random_game_with_those_rules(client: TestClient) -> None:
    game = new_game(client, {"preset": "classic", "draw": 1})
    assert re.fullmatch(r"CF1-C1-[A-Z]{7}", game["code"])
    assert game["rules"]["tableau_moves"] == "all"
    assert game["rules"]["foundation_to_tableau"] is False
    assert game["rules"]["draw"] == 1


def test_rules_options_override_their_preset_which_keeps_its_name(client: TestClient) -> None:
    game = new_game(client, {"rules": {"preset": "skill", "passes": 3}})
    assert re.fullmatch(r"CF1-S3P3-[A-Z]{7}", game["code"])
    assert game["rules"]["preset"] == "skill"
    assert game["rules"]["passes"] == 3
    assert game["rules"]["scoring"] == "skill"
    options = new_game(client, {"rules": {"undo_limit": None}})
    assert options["rules"]["preset"] == "app"
    assert options["rules"]["undo_limit"] is None


def test_a_custom_deck_gets_its_long_code(client: TestClient) -> None:
    game = new_game(client, {"deck": SEED_DECK, "rules": {"draw": 3}})
    assert game["code"] == SEED_CODE
    assert game["summary"] == OPENING
    assert game["start_rank"] == "7"
    assert [f["suit"] for f in game["foundations"]] == ["H", "S", "D", "C"]


# -- the seeds' example (SPEC §9) ---------------------------------------------------------


def test_the_seeds_example_game_through_the_api(client: TestClient) -> None:
    game = new_game(client, {"code": SEED_CODE})
    assert game["summary"] == OPENING
    refused = move(client, game, "8H-f")
    assert refused.status_code == 422
    assert detail(refused) == "The queen of clubs covers the 8 of hearts in the reserve."
    refused = move(client, game, "AS-f")
    assert refused.status_code == 422
    assert detail(refused) == "The foundation of this suit starts from the 7 of spades."
    for version, notation in enumerate(("QC-t2", "8H-f", "KH-t4")):
        response = move(client, game, notation, version=version)
        assert response.status_code == 200, response.text
        game = response.json()
        assert game["version"] == version + 1
    assert game["summary"] == AFTER_THREE
    assert game["score"] == 5
    assert game["moves"] == 3
    assert game["reserve"] == {"count": 10, "top": "JS"}
    assert game["tableau"] == [["6C"], ["QS"], ["QH"], ["AS", "KH", "QC"]]
    assert game["undo_available"] == 3
    again = client.get(f"/api/games/{game['id']}")
    assert again.status_code == 200
    assert again.json() == game


def test_undo_takes_back_the_refill_and_its_points(client: TestClient) -> None:
    game = new_game(client, {"code": SEED_CODE})
    for notation in ("QC-t2", "8H-f", "KH-t4"):
        game = move(client, game, notation).json()
    response = client.post(f"/api/games/{game['id']}/undo", json={"version": 3})
    assert response.status_code == 200
    undone = response.json()
    assert undone["version"] == 4
    assert undone["tableau"] == [["6C"], ["KH", "QC"], ["QH"], ["AS"]]
    assert undone["reserve"] == {"count": 11, "top": "QS"}
    assert undone["score"] == 5
    assert undone["moves"] == 2
    assert undone["undo_available"] == 2
    undone = client.post(f"/api/games/{game['id']}/undo").json()
    assert undone["score"] == 0
    assert undone["reserve"]["top"] == "8H"


def test_undo_with_nothing_to_undo_is_refused(client: TestClient) -> None:
    game = new_game(client, {"code": SEED_CODE})
    response = client.post(f"/api/games/{game['id']}/undo", json={})
    assert response.status_code == 422
    assert detail(response) == "There is nothing to undo."
    assert client.get(f"/api/games/{game['id']}").json()["version"] == 0


# -- versions and refusals change nothing ---------------------------------------------------


def test_a_stale_version_is_409_and_changes_nothing(client: TestClient) -> None:
    game = new_game(client, {"code": SEED_CODE})
    assert move(client, game, "QC-t2", version=0).status_code == 200
    for response in (
        move(client, game, "8H-f", version=0),
        move(client, game, "8H-f", version=7),
        client.post(f"/api/games/{game['id']}/undo", json={"version": 0}),
        client.post(f"/api/games/{game['id']}/tap", json={"card": "8H", "version": 0}),
    ):
        assert response.status_code == 409
        assert "version 1" in detail(response)
    after = client.get(f"/api/games/{game['id']}").json()
    assert after["version"] == 1
    assert after["reserve"]["top"] == "8H"


def test_an_illegal_move_is_422_and_changes_nothing(client: TestClient) -> None:
    game = new_game(client, {"code": SEED_CODE})
    before = client.get(f"/api/games/{game['id']}").json()
    response = move(client, game, "6C-t3", version=0)
    assert response.status_code == 422
    assert detail(response) == "The 6 of clubs does not fit on the queen of hearts."
    assert client.get(f"/api/games/{game['id']}").json() == before


def test_a_move_without_a_version_applies_to_the_current_game(client: TestClient) -> None:
    game = new_game(client, {"code": SEED_CODE})
    assert move(client, game, "draw").json()["version"] == 1
    assert move(client, game, "draw").json()["version"] == 2


# -- tap --------------------------------------------------------------------------------------


def test_a_tap_plays_the_resolved_move(client: TestClient) -> None:
    game = new_game(client, {"code": SEED_CODE})
    # QC has no foundation move; it goes to the longest column that takes it: KH.
    response = client.post(f"/api/games/{game['id']}/tap", json={"card": "qc", "version": 0})
    assert response.status_code == 200
    game = response.json()
    assert game["tableau"][1] == ["KH", "QC"]
    # 8H now tops the reserve and goes to its foundation.
    game = client.post(f"/api/games/{game['id']}/tap", json={"card": "8H"}).json()
    assert game["foundations"][0] == {"suit": "H", "cards": ["7H", "8H"]}
    assert game["score"] == 5


def test_a_tap_with_double_click_off_only_goes_to_a_foundation(client: TestClient) -> None:
    game = new_game(client, {"code": SEED_CODE})
    response = client.post(
        f"/api/games/{game['id']}/tap", json={"card": "QC", "double_click": False}
    )
    assert response.status_code == 422
    assert detail(response) == "The queen of clubs has no move just now."


def test_a_tap_on_a_card_without_a_move_is_422(client: TestClient) -> None:
    game = new_game(client, {"code": SEED_CODE})
    response = client.post(f"/api/games/{game['id']}/tap", json={"card": "KS"})
    assert response.status_code == 422
    assert "king of spades" in detail(response)


# -- winning ----------------------------------------------------------------------------------


def test_a_won_game_has_no_moves_and_refuses_everything(client: TestClient) -> None:
    game = new_game(client, {"code": WINNABLE_CODE})
    for _ in range(200):
        if game["won"]:
            break
        up = [m for m in game["legal_moves"] if m.endswith("-f")]
        game = move(client, game, up[0] if up else "draw", version=game["version"]).json()
    assert game["won"] is True
    assert game["score"] == 255
    assert game["legal_moves"] == []
    assert game["undo_available"] == 0
    assert [len(f["cards"]) for f in game["foundations"]] == [13, 13, 13, 13]
    for response in (
        move(client, game, "draw"),
        client.post(f"/api/games/{game['id']}/undo"),
        client.post(f"/api/games/{game['id']}/tap", json={"card": "KS"}),
    ):
        assert response.status_code == 422
        assert detail(response)


# -- players ----------------------------------------------------------------------------------


def test_another_players_cookie_gets_404_for_every_request(
    client: TestClient, make_client: Callable[[], TestClient]
) -> None:
    game = new_game(client, {"code": SEED_CODE})
    other = make_client()
    game_url = f"/api/games/{game['id']}"
    for response in (
        other.get(game_url),
        other.post(game_url + "/moves", json={"move": "QC-t2"}),
        other.post(game_url + "/undo", json={}),
        other.post(game_url + "/tap", json={"card": "QC"}),
    ):
        assert response.status_code == 404
        assert "no such game" in detail(response)
    assert client.get(game_url).json()["version"] == 0


def test_an_unknown_game_is_404(client: TestClient) -> None:
    response = client.get("/api/games/not-a-game")
    assert response.status_code == 404
    detail(response)


# -- deals ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("deal", "base", "reserve_top", "columns", "stock_count"),
    [
        ("AAAAAAA", "8C", "9H", [["QS"], ["KH"], ["5H"], ["2C"]], 34),
        ("AAAAAAB", "2D", "3C", [["JH"], ["5H"], ["7H"], ["4H"]], 34),
        ("AAAAACL", "2C", "TC", [["9C"], ["7S"], ["AH"], ["6H"]], 34),
        ("ZZZZZZZ", "6H", "3C", [["8H"], ["TH"], ["JS"], ["6D"]], 34),
    ],
)
def test_a_deal_shows_its_opening_and_creates_no_game(
    client: TestClient,
    deal: str,
    base: str,
    reserve_top: str,
    columns: list[list[str]],
    stock_count: int,
) -> None:
    response = client.get(f"/api/deals/CF1-D3-{deal}")
    assert response.status_code == 200
    opening = response.json()
    assert "id" not in opening
    assert opening["code"] == f"CF1-D3-{deal}"
    assert opening["foundations"][0]["cards"] == [base]
    assert opening["reserve"] == {"count": 13, "top": reserve_top}
    assert opening["tableau"] == columns
    assert opening["stock"] == stock_count
    assert opening["version"] == 0
    assert response.headers.get("set-cookie") is None


def test_a_deal_of_the_seeds_long_code_reads_as_the_seeds(client: TestClient) -> None:
    opening = client.get(f"/api/deals/{SEED_CODE.lower()}").json()
    assert opening["code"] == SEED_CODE
    assert opening["summary"] == OPENING
    assert set(opening["legal_moves"]) >= {"QC-t2", "draw"}


@pytest.mark.parametrize(
    ("code", "says"),
    [
        ("CF1-D3-AAAA", "7 or 48 letters"),
        ("CF1-X3-AAAAAAA", "unknown rules"),
        ("CF2-D3-AAAAAAA", "expected CF1-<rules>-<deal>"),
        ("CF1-D3-" + "Z" * 48, "52!"),
        ("CF1-D2-AAAAAAA", "unknown rules"),
        ("hello", "expected CF1-<rules>-<deal>"),
    ],
)
def test_a_bad_code_is_400_with_what_is_wrong(client: TestClient, code: str, says: str) -> None:
    for response in (
        client.get(f"/api/deals/{code}"),
        client.post("/api/games", json={"code": code}),
    ):
        assert response.status_code == 400
        assert says in detail(response)


# -- bad input: 4xx with a message, never a 500 -------------------------------------------------


@pytest.mark.parametrize(
    ("body", "status", "says"),
    [
        ({"deck": SEED_DECK[:51]}, 400, "51 cards, need 52 (missing KS)"),
        ({"deck": [*SEED_DECK[:51], "AC"]}, 400, "duplicate card AC"),
        ({"deck": [*SEED_DECK[:51], "ZZ"]}, 400, "unknown card 'ZZ'"),
        ({"preset": "hoyle"}, 400, "unknown preset 'hoyle'"),
        ({"draw": 2}, 400, "bad value 2 for rule 'draw'"),
        ({"rules": {"colour": "red"}}, 400, "unknown rule option 'colour'"),
        ({"rules": {"passes": 0}}, 400, "passes"),
        ({"code": SEED_CODE, "preset": "app"}, 400, "either a deal code"),
        ({"preset": "app", "rules": {"preset": "skill"}}, 400, "preset is given twice"),
        ({"colour": "red"}, 422, "Unknown field 'colour'"),
        ({"deck": "AC 2C"}, 422, "'deck'"),
        ({"draw": "three"}, 422, "'draw'"),
        ({"rules": [1, 2]}, 422, "'rules'"),
    ],
)
def test_bad_new_game_bodies_say_what_is_wrong(
    client: TestClient, body: dict[str, Any], status: int, says: str
) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code == status, response.text
    assert says in detail(response)


@pytest.mark.parametrize(
    ("body", "status", "says"),
    [
        ({"move": "QC-t5"}, 400, "unknown move 'QC-t5'"),
        ({"move": "qc-t2"}, 400, "unknown move"),
        ({"move": ""}, 400, "unknown move"),
        ({}, 422, "'move' is required"),
        ({"move": 5}, 422, "'move'"),
        ({"move": "draw", "version": "new"}, 422, "'version'"),
        ({"move": "draw", "extra": 1}, 422, "Unknown field 'extra'"),
    ],
)
def test_bad_move_bodies_say_what_is_wrong(
    client: TestClient, body: dict[str, Any], status: int, says: str
) -> None:
    game = new_game(client, {"code": SEED_CODE})
    response = client.post(f"/api/games/{game['id']}/moves", json=body)
    assert response.status_code == status, response.text
    assert says in detail(response)
    assert client.get(f"/api/games/{game['id']}").json()["version"] == 0


@pytest.mark.parametrize(
    ("body", "status", "says"),
    [
        ({"card": "1C"}, 400, "unknown card '1C'"),
        ({"card": "QCC"}, 400, "unknown card"),
        ({}, 422, "'card' is required"),
        ({"card": "QC", "double": "maybe"}, 422, "'double'"),
    ],
)
def test_bad_tap_bodies_say_what_is_wrong(
    client: TestClient, body: dict[str, Any], status: int, says: str
) -> None:
    game = new_game(client, {"code": SEED_CODE})
    response = client.post(f"/api/games/{game['id']}/tap", json=body)
    assert response.status_code == status, response.text
    assert says in detail(response)


@pytest.mark.parametrize(
    ("content", "status", "says"),
    [
        (b"{bad json", 400, "not valid JSON"),
        (b'{"move": "draw",}', 400, "not valid JSON"),
        (b"[1, 2, 3]", 422, "must be a JSON object"),
        (b'"draw"', 422, "must be a JSON object"),
        (b"null", 422, "must be a JSON object"),
        (b"\xff\xfe", 400, "not valid JSON"),
    ],
)
def test_bad_json_says_what_is_wrong(
    client: TestClient, content: bytes, status: int, says: str
) -> None:
    game = new_game(client, {"code": SEED_CODE})
    response = client.post(
        f"/api/games/{game['id']}/moves",
        content=content,
        headers={"content-type": "application/json"},
    )
    assert response.status_code == status, response.text
    assert says in detail(response)


def test_unknown_paths_and_methods_answer_json_under_api(client: TestClient) -> None:
    assert client.get("/api/nothing").status_code == 404
    detail(client.get("/api/nothing"))
    response = client.delete("/api/games/x")
    assert response.status_code == 405
    assert "DELETE" in detail(response)


@pytest.mark.parametrize("game_id", ["%00", "x" * 300, "%F0%9F%82%A1", "a%27%3B--"])
def test_an_id_that_cannot_be_a_game_is_404(client: TestClient, game_id: str) -> None:
    assert client.get(f"/api/games/{game_id}").status_code == 404
    response = client.post(f"/api/games/{game_id}/moves", json={"move": "draw"})
    assert response.status_code == 404
    assert "no such game" in detail(response)
    assert client.get(f"/games/{game_id}").status_code == 404
