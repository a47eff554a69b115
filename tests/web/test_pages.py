"""The page routes of SPEC §8: resume, the board, share links, new game, form posts."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SEED_CODE = "CF1-D3-AAAAAAAOEGYXXBLQBCLVSVVBKAUAXFBHCBYLVAMIYTIVUUAA"
PILE_IDS = [
    "pile-stock", "pile-waste", "pile-reserve", "pile-fC", "pile-fD", "pile-fH", "pile-fS",
    "pile-t1", "pile-t2", "pile-t3", "pile-t4", "status", "summary",
]


def game_id(location: str) -> str:
    match = re.fullmatch(r"/games/([\w-]+)", location)
    assert match, location
    return match.group(1)


def api_game(client: TestClient, gid: str) -> dict[str, Any]:
    response = client.get(f"/api/games/{gid}")
    assert response.status_code == 200
    game: dict[str, Any] = response.json()
    return game


def test_the_first_visit_deals_a_game_and_the_next_resumes_it(client: TestClient) -> None:
    check = client.get("/", follow_redirects=False)
    assert check.status_code == 303 and check.headers["location"] == "/?welcome=1"
    assert "canfield_player=" in check.headers["set-cookie"]
    first = client.get(check.headers["location"], follow_redirects=False)
    assert first.status_code == 303
    gid = game_id(first.headers["location"])
    client.post(f"/games/{gid}/moves", data={"move": "draw", "version": "0"})
    again = client.get("/", follow_redirects=False)
    assert again.status_code == 303
    assert game_id(again.headers["location"]) == gid
    assert api_game(client, gid)["version"] == 1


def test_the_board_page_shows_every_pile_and_the_summary(client: TestClient) -> None:
    created = client.post("/api/games", json={"code": SEED_CODE}).json()
    page = client.get(f"/games/{created['id']}")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    for element in PILE_IDS:
        assert f'id="{element}"' in page.text
    assert 'data-card="QC"' in page.text
    assert created["summary"] in page.text
    assert "hx-swap-oob" not in page.text
    assert "HX-Request" in page.headers["vary"]


def test_another_players_board_is_a_404_page(
    client: TestClient, make_client: Callable[[], TestClient]
) -> None:
    created = client.post("/api/games", json={"code": SEED_CODE}).json()
    page = make_client().get(f"/games/{created['id']}")
    assert page.status_code == 404
    assert page.headers["content-type"].startswith("text/html")
    assert "no such game" in page.text


def test_a_share_link_deals_that_game_for_whoever_opens_it(
    client: TestClient, make_client: Callable[[], TestClient]
) -> None:
    created = client.post("/api/games", json={"code": "CF1-S1P3-HELLOAB"}).json()
    client.post(f"/api/games/{created['id']}/moves", json={"move": "draw"})
    friend = make_client()
    opened = friend.get(f"/deal/{created['code'].lower()}", follow_redirects=False)
    assert opened.status_code == 303
    theirs = api_game(friend, game_id(opened.headers["location"]))
    assert theirs["id"] != created["id"]
    assert theirs["code"] == "CF1-S1P3-HELLOAB"
    assert theirs["rules"]["passes"] == 3
    assert theirs["version"] == 0
    # The sharer's game is untouched, and still theirs alone.
    assert api_game(client, created["id"])["version"] == 1
    assert friend.get(f"/api/games/{created['id']}").status_code == 404


def test_a_bad_share_code_is_a_friendly_400_page(client: TestClient) -> None:
    page = client.get("/deal/CF1-D3-ABC")
    assert page.status_code == 400
    assert page.headers["content-type"].startswith("text/html")
    assert "Expected 7 or 48 letters" in page.text


def test_new_game_remembers_the_players_choices(client: TestClient) -> None:
    response = client.post(
        "/games",
        data={"preset": "classic", "draw": "1", "double_click": ["false"]},
        follow_redirects=False,
    )
    assert response.status_code == 303
    game = api_game(client, game_id(response.headers["location"]))
    assert game["rules"]["preset"] == "classic"
    assert game["rules"]["draw"] == 1
    page = client.get(f"/games/{game['id']}")
    assert 'data-double-click="false"' in page.text


def test_new_game_with_htmx_redirects_by_header(client: TestClient) -> None:
    response = client.post(
        "/games", data={"preset": "skill", "draw": "3"}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    game = api_game(client, game_id(response.headers["hx-redirect"]))
    assert game["rules"]["scoring"] == "skill"


def test_new_game_with_a_bad_preset_says_so(client: TestClient) -> None:
    response = client.post("/games", data={"preset": "poker", "draw": "3"})
    assert response.status_code == 400
    assert "Unknown preset" in response.text


def test_a_form_move_without_htmx_redirects_back_to_the_board(client: TestClient) -> None:
    created = client.post("/api/games", json={"code": SEED_CODE}).json()
    response = client.post(
        f"/games/{created['id']}/moves",
        data={"move": "QC-t2", "version": "0"},
        follow_redirects=False,
    )
    assert response.status_code == 303
    assert response.headers["location"] == f"/games/{created['id']}"
    assert api_game(client, created["id"])["tableau"][1] == ["KH", "QC"]


def test_a_refused_form_move_without_htmx_shows_the_board_with_the_reason(
    client: TestClient,
) -> None:
    created = client.post("/api/games", json={"code": SEED_CODE}).json()
    response = client.post(f"/games/{created['id']}/moves", data={"move": "AS-f"})
    assert response.status_code == 422
    assert "The spade foundation starts at 7S." in response.text
    assert 'id="pile-reserve"' in response.text
    stale = client.post(f"/games/{created['id']}/undo", data={"version": "5"})
    assert stale.status_code == 409
    assert "version 0" in stale.text


def test_form_posts_with_bad_fields_get_a_message_not_a_crash(client: TestClient) -> None:
    created = client.post("/api/games", json={"code": SEED_CODE}).json()
    base = f"/games/{created['id']}"
    for path, data, status in (
        ("/moves", {"move": "QC-t9"}, 400),
        ("/moves", {}, 422),
        ("/moves", {"move": "draw", "version": "two"}, 422),
        ("/tap", {"card": "XX"}, 400),
        ("/tap", {"card": "QC", "double": "perhaps"}, 422),
    ):
        for headers in ({}, {"HX-Request": "true"}):
            response = client.post(base + path, data=data, headers=headers)
            assert response.status_code == status, (path, data, response.text)
            assert response.headers["content-type"].startswith("text/html")
    assert api_game(client, created["id"])["version"] == 0


def test_a_form_tap_follows_the_players_setting_unless_told(client: TestClient) -> None:
    client.post("/games", data={"preset": "app", "draw": "3", "double_click": ["false"]})
    created = client.post("/api/games", json={"code": SEED_CODE}).json()
    refused = client.post(f"/games/{created['id']}/tap", data={"card": "QC"})
    assert refused.status_code == 422
    moved = client.post(
        f"/games/{created['id']}/tap",
        data={"card": "QC", "double_click": "true"},
        follow_redirects=False,
    )
    assert moved.status_code == 303
    assert api_game(client, created["id"])["tableau"][1] == ["KH", "QC"]


def test_unknown_pages_are_friendly_404_pages(client: TestClient) -> None:
    page = client.get("/nowhere")
    assert page.status_code == 404
    assert page.headers["content-type"].startswith("text/html")
    assert "no such page" in page.text.lower()


def test_healthz_answers(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}


form_values = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["draw", "QC-t2", "8H-f", "QC", "0", "-1", "3", "true", "skill", "classic"]),
)


@given(
    action=st.sampled_from(["moves", "undo", "tap", "nowhere"]),
    fields=st.dictionaries(
        st.sampled_from(
            ["move", "card", "version", "double_click", "double", "preset", "draw", "x"]
        ),
        form_values,
        max_size=4,
    ),
    game=st.sampled_from(["real", "other", "%00", "x" * 40]),
    htmx=st.booleans(),
)
@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_no_form_post_gets_a_server_error(
    client: TestClient,
    action: str,
    fields: dict[str, str],
    game: str,
    htmx: bool,
) -> None:
    created = client.post("/api/games", json={"code": SEED_CODE}).json()
    game_id = created["id"] if game == "real" else game
    headers = {"HX-Request": "true"} if htmx else {}
    response = client.post(f"/games/{game_id}/{action}", data=fields, headers=headers)
    assert response.status_code < 500, response.text
    new = client.post("/games", data={k: v for k, v in fields.items() if k != "x"})
    assert new.status_code < 500, new.text
