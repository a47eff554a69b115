"""Levels, results and statistics over HTTP (SPEC §10), on SQLite and PostgreSQL: every
route that starts a game, the result and its refusals, pause, the statistics' shape, and
casino scores and the bankroll."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.engine import DealCode, Game, Rules
from app.solver.deals import winnable_numbers
from tests.engine.table import play_greedily, sorted_deck
from tests.shared import SEED_CODE

SORTED = [str(card) for card in sorted_deck()]


def new_game(client: TestClient, body: dict[str, Any] | None = None) -> dict[str, Any]:
    response = client.post("/api/games", json=body or {})
    assert response.status_code == 201, response.text
    game: dict[str, Any] = response.json()
    return game


def act(client: TestClient, game: dict[str, Any], move: str) -> dict[str, Any]:
    response = client.post(f"/api/games/{game['id']}/moves", json={"move": move})
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def won_game(client: TestClient, preset: str, draw: int = 1) -> dict[str, Any]:
    """A game of the self-dealing deck, played to the win through the API."""
    game = new_game(client, {"deck": SORTED, "preset": preset, "draw": draw})
    line = Game(DealCode.for_deck(sorted_deck(), Rules.preset_named(preset, draw=draw)))
    play_greedily(line)
    for action in line.actions:
        game = act(client, game, action)
    assert game["won"] and game["result"] == "won"
    return game


def stats(client: TestClient) -> dict[str, Any]:
    response = client.get("/api/stats")
    assert response.status_code == 200
    answer: dict[str, Any] = response.json()
    return answer


# -- levels ------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["app", "classic", "skill"])
@pytest.mark.parametrize("draw", [1, 3])
def test_every_preset_and_draw_has_every_level(client: TestClient, preset: str, draw: int) -> None:
    rules = Rules.preset_named(preset, draw=draw)
    easy = new_game(client, {"preset": preset, "draw": draw, "level": "easy"})
    assert easy["level"] == "easy" and easy["rules"]["passes"] == rules.passes
    assert DealCode.parse(easy["code"]).number in winnable_numbers(rules)
    medium = new_game(client, {"preset": preset, "draw": draw})
    assert medium["level"] == "medium" and medium["rules"]["passes"] is None
    hard = new_game(client, {"preset": preset, "draw": draw, "level": "hard"})
    assert hard["level"] == "hard" and hard["rules"]["passes"] == 3
    assert hard["code"].split("-")[1] == rules.token + "P3"


def test_winnable_is_an_alias_of_easy_and_codes_and_decks_are_shared(client: TestClient) -> None:
    assert new_game(client, {"winnable": True})["level"] == "easy"
    assert new_game(client, {"winnable": True, "level": "easy"})["level"] == "easy"
    assert new_game(client, {"code": "CF1-S3P3-HELLOAB"})["level"] == "shared"
    assert new_game(client, {"deck": SORTED})["level"] == "shared"
    assert new_game(client, {"code": "CF1-D1-HELLOAB", "level": "shared"})["level"] == "shared"


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"code": "CF1-D3-HELLOAB", "level": "hard"}, "always played at level shared"),
        ({"deck": SORTED, "level": "easy"}, "always played at level shared"),
        ({"level": "shared"}, "give one"),
        ({"winnable": True, "level": "hard"}, "is level easy"),
        ({"level": "expert"}, "Unknown level"),
    ],
)
def test_a_level_that_does_not_fit_is_refused_readably(
    client: TestClient, body: dict[str, Any], words: str
) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code == 400
    assert words in response.json()["detail"]
    assert stats(client)["modes"] == []


# -- results and abandon -----------------------------------------------------------------


def test_a_win_is_counted_at_once(client: TestClient) -> None:
    game = won_game(client, "skill")
    (row,) = stats(client)["modes"]
    assert (row["preset"], row["level"], row["draw"]) == ("skill", "shared", 1)
    assert (row["played"], row["won"], row["lost"], row["streak"]) == (1, 1, 0, 1)
    assert row["best_score"] == game["score"] and row["fewest_moves"] == game["moves"]


def test_a_new_game_by_the_api_loses_the_game_in_progress(client: TestClient) -> None:
    first = new_game(client, {"preset": "skill", "level": "hard"})
    act(client, first, "draw")
    new_game(client)
    assert client.get(f"/api/games/{first['id']}").json()["result"] == "lost"
    (row,) = stats(client)["modes"]
    assert (row["preset"], row["level"], row["lost"], row["streak"]) == ("skill", "hard", 1, -1)


def test_a_game_without_an_action_is_dropped_not_lost(client: TestClient) -> None:
    untouched = new_game(client)
    new_game(client)
    assert client.get(f"/api/games/{untouched['id']}").json()["result"] == "playing"
    assert stats(client)["modes"] == []


def test_a_new_game_from_the_page_loses_the_game_in_progress(client: TestClient) -> None:
    first = new_game(client)
    act(client, first, "draw")
    response = client.post("/games", data={"preset": "app", "draw": "3", "level": "medium"})
    assert response.status_code == 200
    assert client.get(f"/api/games/{first['id']}").json()["result"] == "lost"


def test_a_shared_link_during_a_game_asks_first(client: TestClient) -> None:
    first = new_game(client)
    act(client, first, "draw")
    asked = client.get(f"/deal/{SEED_CODE}", follow_redirects=False)
    assert asked.status_code == 200
    assert "will count as lost" in asked.text and f'action="/deal/{SEED_CODE}"' in asked.text
    assert client.get(f"/api/games/{first['id']}").json()["result"] == "playing"
    played = client.post(f"/deal/{SEED_CODE}", follow_redirects=False)
    assert played.status_code == 303
    shared = client.get("/api" + played.headers["location"]).json()
    assert (shared["code"], shared["level"]) == (SEED_CODE, "shared")
    assert client.get(f"/api/games/{first['id']}").json()["result"] == "lost"
    # With no game in progress the link deals at once.
    again = client.get(f"/deal/{SEED_CODE}", follow_redirects=False)
    assert again.status_code == 303


def test_a_finished_game_takes_no_action(client: TestClient) -> None:
    lost = new_game(client)
    act(client, lost, "draw")
    won = won_game(client, "app")
    assert client.get(f"/api/games/{lost['id']}").json()["result"] == "lost"
    for game, words in ((lost, "counted as lost"), (won, "won")):
        for path, body in (
            ("moves", {"move": "draw"}),
            ("undo", {}),
            ("tap", {"card": "KS"}),
            ("pause", {}),
            ("resume", {}),
        ):
            response = client.post(f"/api/games/{game['id']}/{path}", json=body)
            assert response.status_code == 422, (path, response.text)
            assert words in response.json()["detail"]
    assert client.get(f"/api/games/{lost['id']}").json()["version"] == 1


# -- pause -------------------------------------------------------------------------------


def test_pause_and_resume_are_not_actions(client: TestClient) -> None:
    game = act(client, new_game(client, {"preset": "skill"}), "draw")
    paused = client.post(f"/api/games/{game['id']}/pause", json={"version": 1}).json()
    assert paused["paused"] is True and paused["version"] == 1
    stale = client.post(f"/api/games/{game['id']}/pause", json={"version": 0})
    assert stale.status_code == 409
    resumed = client.post(f"/api/games/{game['id']}/resume").json()
    assert resumed["paused"] is False and resumed["version"] == 1
    client.post(f"/api/games/{game['id']}/pause")
    after = act(client, game, "draw")  # the next action starts the clock again
    assert after["paused"] is False and after["version"] == 2


def test_the_paused_board_is_hidden_on_the_page(client: TestClient) -> None:
    game = new_game(client, {"preset": "skill"})
    assert "paused-cover" not in client.get(f"/games/{game['id']}").text
    client.post(f"/games/{game['id']}/pause", data={})
    page = client.get(f"/games/{game['id']}").text
    assert "paused-cover" in page and 'form="f-resume"' in page


# -- statistics and casino -----------------------------------------------------------------


def test_the_statistics_have_exactly_the_specified_shape(
    client: TestClient, make_client: Callable[[], TestClient]
) -> None:
    won_game(client, "classic")
    won_game(client, "classic")
    lost = new_game(client, {"preset": "classic", "level": "hard", "draw": 1})
    act(client, lost, "draw")
    new_game(client, {"preset": "app"})
    answer = stats(client)
    assert list(answer) == ["modes", "casino"]
    keys = [
        "preset", "level", "draw", "played", "won", "lost", "win_rate", "streak",
        "best_streak", "best_score", "best_seconds", "fewest_moves",
    ]
    for row in answer["modes"]:
        assert list(row) == keys
    rows = [(r["preset"], r["level"], r["draw"]) for r in answer["modes"]]
    assert rows == [("classic", "hard", 1), ("classic", "shared", 1)]
    hard, shared = answer["modes"]
    assert (hard["played"], hard["won"], hard["win_rate"], hard["best_score"]) == (1, 0, 0.0, None)
    assert (shared["played"], shared["won"], shared["win_rate"]) == (2, 2, 1.0)
    assert (shared["streak"], shared["best_streak"], shared["best_score"]) == (2, 2, 208)
    # Casino: two wins at +208 and a game abandoned at -47 (its base card only).
    assert answer["casino"] == {"games": 3, "bankroll": 208 + 208 - 47}
    assert stats(make_client()) == {"modes": [], "casino": {"games": 0, "bankroll": 0}}


def test_a_casino_game_starts_at_minus_47_and_the_preview_says_so(client: TestClient) -> None:
    game = new_game(client, {"preset": "classic"})
    assert (game["rules"]["scoring"], game["score"]) == ("casino", -47)
    preview = client.get(f"/api/deals/{game['code']}").json()
    assert preview["score"] == -47


def test_the_statistics_page_shows_each_mode_with_its_chart(client: TestClient) -> None:
    assert "No finished game yet" in client.get("/stats").text
    won_game(client, "skill", 3)
    page = client.get("/stats").text
    assert 'id="mode-skill-shared-3"' in page
    assert page.count('class="bar won"') == 1 and "<svg" in page


def test_the_results_screen_follows_the_winning_move(client: TestClient) -> None:
    game = new_game(client, {"deck": SORTED, "preset": "skill", "draw": 1})
    line = Game(DealCode.for_deck(sorted_deck(), Rules.preset_named("skill", draw=1)))
    play_greedily(line)
    *before, last = line.actions
    for action in before:
        game = act(client, game, action)
    answer = client.post(
        f"/games/{game['id']}/moves",
        data={"move": last, "version": str(game["version"])},
        headers={"HX-Request": "true"},
    )
    assert answer.status_code == 200
    for words in ("You won!", "51 cards × 10", "Time bonus", 'class="bar won"', "Score"):
        assert words in answer.text
