"""The computer player over HTTP, on SQLite and PostgreSQL: hints (JSON and page),
"still winnable?", and winnable deals from the shipped lists or found on demand."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

from fastapi.testclient import TestClient
from spoiled_deck import SPOIL, SPOIL_DECK, SPOIL_RULES

from app.engine import DealCode, Game, Position, Rules
from app.solver.deals import winnable_numbers
from app.solver.hint import still_winnable
from app.solver.search import solve

HX = {"HX-Request": "true"}
# Skill's level Hard, draw 3: no line wins this deal at all.
DEAD_CODE = "CF1-S3P3-HELLOAB"


def runway_deck() -> list[str]:
    """A draw-1 deck that plays out card by card onto the foundations (base AC; the
    columns hold the other aces and 2C; the reserve and stock follow in order)."""
    order = [rank + suit for rank in "A23456789TJQK" for suit in "CDHS"]
    return [*reversed(order[5:18]), "AC", *order[1:5], *order[18:]]


def new_game(client: TestClient, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    game: dict[str, Any] = response.json()
    return game


def play(client: TestClient, game: dict[str, Any], move: str) -> dict[str, Any]:
    response = client.post(f"/api/games/{game['id']}/moves", json={"move": move})
    assert response.status_code == 200, response.text
    played: dict[str, Any] = response.json()
    return played


def ask_hint(client: TestClient, game: dict[str, Any], **body: Any) -> Any:
    return client.post(f"/api/games/{game['id']}/hint", json=body)


def hint(client: TestClient, game: dict[str, Any]) -> dict[str, Any]:
    response = ask_hint(client, game, version=game["version"])
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    assert set(answer) == {"move", "message", "winnable", "undo", "game"}
    return answer


def winnable(client: TestClient, game: dict[str, Any], version: int | None = None) -> Any:
    query = "" if version is None else f"?version={version}"
    return client.get(f"/api/games/{game['id']}/winnable{query}")


def deal_number(code: str) -> int:
    number = DealCode.parse(code).number
    assert number is not None, code
    return number


# -- hints -------------------------------------------------------------------------------


def test_a_hint_is_a_legal_move_that_keeps_the_game_winnable(client: TestClient) -> None:
    game = new_game(client, {"deck": SPOIL_DECK, "rules": SPOIL_RULES})
    played: list[str] = []
    for count in range(1, 6):
        answer = hint(client, game)
        move = answer["move"]
        assert move in game["legal_moves"]
        assert answer["winnable"] is True and answer["undo"] is None
        assert move in answer["message"] and answer["message"].startswith("Hint: ")
        assert answer["game"]["hints_used"] == count
        # A hint is not an action: the version stays, the position too.
        assert answer["game"]["version"] == game["version"]
        assert answer["game"]["summary"] == game["summary"]
        game = play(client, game, move)
        played.append(move)
        after = Game.replay(game["code"], played)
        assert still_winnable(after.position, after.rules) is True
    assert game["hints_used"] == 5
    assert client.get(f"/api/games/{game['id']}").json()["hints_used"] == 5


def test_the_game_dict_offers_hints_and_counts_them(client: TestClient) -> None:
    game = new_game(client, {"code": "CF1-D3-AAAAACL"})
    assert game["hints_available"] is True
    assert game["hints_used"] == 0


def test_following_the_hints_wins_and_a_won_game_gets_no_hint(client: TestClient) -> None:
    game = new_game(client, {"deck": runway_deck(), "rules": {"draw": 1}})
    hints = 0
    while not game["won"] and hints < 120:
        game = play(client, game, hint(client, game)["move"])
        hints += 1
    assert game["won"] is True
    assert game["hints_used"] == hints
    response = ask_hint(client, game)
    assert response.status_code == 422
    assert response.json() == {"detail": "The game is won: there is nothing left to hint."}
    assert client.get(f"/api/games/{game['id']}").json()["hints_used"] == hints


def test_a_spoiled_position_says_how_many_undos_lead_back(client: TestClient) -> None:
    game = new_game(client, {"deck": SPOIL_DECK, "rules": SPOIL_RULES})
    assert hint(client, game)["winnable"] is True
    game = play(client, game, SPOIL)
    answer = hint(client, game)
    assert answer["move"] is None and answer["winnable"] is False and answer["undo"] == 1
    assert answer["message"] == (
        "No winning line from here; undo 1 move to get back to a winnable position."
    )
    game = play(client, game, "draw")
    answer = hint(client, game)
    assert answer["undo"] == 2
    assert answer["message"] == (
        "No winning line from here; undo 2 moves to get back to a winnable position."
    )
    # Taking the two moves back really does lead to a position the hints can win.
    for _ in range(2):
        response = client.post(f"/api/games/{game['id']}/undo", json={})
        assert response.status_code == 200
        game = response.json()
    answer = hint(client, game)
    assert answer["winnable"] is True and answer["move"] is not None
    assert answer["game"]["hints_used"] == 4


def test_a_dead_deal_says_nothing_can_win_it(client: TestClient) -> None:
    game = new_game(client, {"code": DEAD_CODE})
    answer = hint(client, game)
    assert answer["move"] is None and answer["winnable"] is False and answer["undo"] is None
    assert answer["message"] == (
        "No winning line from here; this deal cannot be won from its start either."
    )
    assert answer["game"]["hints_used"] == 1


def test_a_stale_version_is_a_409_and_counts_no_hint(client: TestClient) -> None:
    game = new_game(client, {"code": "CF1-D1-HELLOAB"})
    game = play(client, game, "draw")
    response = ask_hint(client, game, version=0)
    assert response.status_code == 409
    assert "version 1" in response.json()["detail"]
    assert client.get(f"/api/games/{game['id']}").json()["hints_used"] == 0


def test_another_players_game_is_a_404_for_hints_and_checks(
    client: TestClient, make_client: Any
) -> None:
    game = new_game(client, {"code": "CF1-D1-HELLOAB"})
    other = make_client()
    for response in (ask_hint(other, game), winnable(other, game)):
        assert response.status_code == 404
        assert "no such game" in response.json()["detail"]
    assert client.get(f"/api/games/{game['id']}").json()["hints_used"] == 0


def test_a_hint_body_with_unknown_fields_is_refused_readably(client: TestClient) -> None:
    game = new_game(client, {"code": "CF1-D1-HELLOAB"})
    response = ask_hint(client, game, version=0, move="draw")
    assert response.status_code == 422
    assert response.json() == {"detail": "Unknown field 'move'."}


# -- still winnable? -----------------------------------------------------------------------


def test_the_winnable_check_answers_for_the_version_asked(client: TestClient) -> None:
    game = new_game(client, {"deck": SPOIL_DECK, "rules": SPOIL_RULES})
    assert winnable(client, game, 0).json() == {"version": 0, "winnable": True}
    game = play(client, game, SPOIL)
    response = winnable(client, game, 0)
    assert response.status_code == 409
    assert winnable(client, game, 1).json() == {"version": 1, "winnable": False}
    assert winnable(client, game).json() == {"version": 1, "winnable": False}
    response = client.post(f"/api/games/{game['id']}/undo", json={"version": 1})
    assert response.status_code == 200
    assert winnable(client, game, 2).json() == {"version": 2, "winnable": True}


def test_the_winnable_check_needs_a_whole_version(client: TestClient) -> None:
    game = new_game(client, {"code": "CF1-D1-HELLOAB"})
    response = winnable(client, game, "two")  # type: ignore[arg-type]
    assert response.status_code == 422
    assert "version" in response.json()["detail"]


# -- winnable deals ------------------------------------------------------------------------


def test_winnable_deals_come_from_the_list_and_are_won(client: TestClient) -> None:
    listed = set(winnable_numbers(Rules.preset_named("app", draw=3)))
    assert listed
    numbers = []
    for _ in range(3):
        game = new_game(client, {"winnable": True})
        assert re.fullmatch(r"CF1-D3-[A-Z]{7}", game["code"])
        numbers.append(deal_number(game["code"]))
    assert set(numbers) <= listed
    assert len(set(numbers)) == 3  # a player gets deals they have not played yet
    code = DealCode.parse(game["code"])
    assert solve(Position.deal(code.deck), code.rules).won


def test_winnable_deals_follow_the_rules_asked_for(client: TestClient) -> None:
    game = new_game(client, {"winnable": True, "preset": "skill", "draw": 1})
    assert game["rules"]["preset"] == "skill" and game["rules"]["draw"] == 1
    rules = Rules.preset_named("skill", draw=1)
    assert deal_number(game["code"]) in winnable_numbers(rules)


def test_when_the_list_is_played_out_the_solver_finds_a_new_deal(client: TestClient) -> None:
    rules = Rules.preset_named("app", draw=1)
    listed = winnable_numbers(rules)
    for number in listed:
        new_game(client, {"code": str(DealCode(rules, number=number))})
    game = new_game(client, {"winnable": True, "draw": 1})
    number = deal_number(game["code"])
    assert number not in listed
    code = DealCode(rules, number=number)
    assert solve(Position.deal(code.deck), rules).won


def test_winnable_with_a_code_or_deck_is_refused_readably(client: TestClient) -> None:
    for body in (
        {"winnable": True, "code": "CF1-D3-AAAAACL"},
        {"winnable": True, "deck": SPOIL_DECK},
    ):
        response = client.post("/api/games", json=body)
        assert response.status_code == 400
        assert "Winnable deals only picks the deal itself" in response.json()["detail"]


# -- the page ------------------------------------------------------------------------------


class Message(HTMLParser):
    """The out-of-band elements of an htmx answer, and the message paragraph's attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.swapped: list[str] = []
        self.paragraph: dict[str, str | None] = {}
        self.text = ""
        self._in_p = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("hx-swap-oob") == "true":
            self.swapped.append(found.get("id") or tag)
        if tag == "p" and not self.paragraph:
            self.paragraph = found
            self._in_p = True

    def handle_endtag(self, tag: str) -> None:
        self._in_p = self._in_p and tag != "p"

    def handle_data(self, data: str) -> None:
        if self._in_p:
            self.text += data


def parse(html: str) -> Message:
    parser = Message()
    parser.feed(html)
    return parser


def test_the_hint_button_with_htmx_lights_up_the_hinted_card(client: TestClient) -> None:
    game = new_game(client, {"deck": SPOIL_DECK, "rules": SPOIL_RULES})
    response = client.post(f"/games/{game['id']}/hint", data={"version": "0"}, headers=HX)
    assert response.status_code == 200
    answer = parse(response.text)
    assert answer.swapped == ["message"]
    move = answer.paragraph["data-move"]
    assert move is not None and move in game["legal_moves"]
    assert answer.paragraph["class"] == "note"
    assert answer.text.startswith("Hint: ") and f"({move})" in answer.text
    assert client.get(f"/api/games/{game['id']}").json()["hints_used"] == 1


def test_a_hint_without_a_move_is_a_note_with_no_card_to_light(client: TestClient) -> None:
    game = new_game(client, {"code": DEAD_CODE})
    response = client.post(f"/games/{game['id']}/hint", data={"version": "0"}, headers=HX)
    assert response.status_code == 200
    answer = parse(response.text)
    assert answer.paragraph == {"class": "note"}
    assert answer.text.startswith("No winning line from here")


def test_the_hint_form_without_javascript_shows_the_board_with_the_hint(
    client: TestClient,
) -> None:
    game = new_game(client, {"deck": SPOIL_DECK, "rules": SPOIL_RULES})
    response = client.post(f"/games/{game['id']}/hint", data={"version": "0"})
    assert response.status_code == 200
    assert 'id="pile-stock"' in response.text and 'id="hint"' in response.text
    assert re.search(r'<p class="note" data-move="[^"]+">Hint: ', response.text)


def test_page_hints_refuse_stale_and_won_games_with_a_message(client: TestClient) -> None:
    game = play(client, new_game(client, {"code": "CF1-D1-HELLOAB"}), "draw")
    response = client.post(f"/games/{game['id']}/hint", data={"version": "0"}, headers=HX)
    assert response.status_code == 409
    assert parse(response.text).swapped == ["message"]
    won = new_game(client, {"deck": runway_deck(), "rules": {"draw": 1}})
    while not won["won"]:
        won = play(client, won, hint(client, won)["move"])
    for headers in (HX, {}):
        response = client.post(f"/games/{won['id']}/hint", headers=headers)
        assert response.status_code == 422
        assert "The game is won" in response.text


def test_the_new_game_dialog_deals_winnable_deals_and_remembers_it(client: TestClient) -> None:
    response = client.post(
        "/games",
        data={"preset": "classic", "draw": "3", "winnable": ["false", "true"]},
        follow_redirects=False,
    )
    assert response.status_code == 303
    game_id = response.headers["location"].rsplit("/", 1)[1]
    game = client.get(f"/api/games/{game_id}").json()
    assert deal_number(game["code"]) in winnable_numbers(Rules.preset_named("classic", draw=3))
    page = client.get(f"/games/{game_id}").text
    assert re.search(r'name="winnable" value="true" checked', page)
    assert '<input type="hidden" name="winnable" value="true">' in page  # the win box's New game
    # Unticked, the next deal is any deal again, and the choice is remembered too.
    client.post("/games", data={"preset": "classic", "draw": "3", "winnable": ["false"]})
    page = client.get(client.get("/", follow_redirects=False).headers["location"]).text
    assert not re.search(r'name="winnable" value="true" checked', page)


def test_the_still_winnable_toggle_is_remembered(client: TestClient) -> None:
    game = new_game(client, {"code": "CF1-D1-HELLOAB"})
    page = client.get(f"/games/{game['id']}").text
    assert re.search(r'id="still-winnable"[^>]*>', page)
    assert not re.search(r'id="still-winnable"[^>]* checked', page)
    assert client.post("/prefs", data={"still_winnable": "true"}).status_code == 204
    page = client.get(f"/games/{game['id']}").text
    assert re.search(r'id="still-winnable"[^>]* checked', page)
    assert client.post("/prefs", data={"still_winnable": "false"}).status_code == 204
    page = client.get(f"/games/{game['id']}").text
    assert not re.search(r'id="still-winnable"[^>]* checked', page)
    # The New game dialog keeps it.
    client.post("/prefs", data={"still_winnable": "true"})
    client.post("/games", data={"preset": "app", "draw": "1"})
    page = client.get(client.get("/", follow_redirects=False).headers["location"]).text
    assert re.search(r'id="still-winnable"[^>]* checked', page)


def test_a_bad_toggle_value_is_a_message_not_a_crash(client: TestClient) -> None:
    response = client.post("/prefs", data={"still_winnable": "maybe"})
    assert response.status_code == 422
    assert "still_winnable" in response.text
