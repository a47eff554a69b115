"""htmx answers to form posts: exactly the elements each kind of action changed, each
out of band, and far fewer bytes than the page."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.shared import SEED_CODE

HX = {"HX-Request": "true"}


class OutOfBand(HTMLParser):
    """Collects the ids of the elements marked hx-swap-oob, and every id seen."""

    def __init__(self) -> None:
        super().__init__()
        self.swapped: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("hx-swap-oob") == "true":
            self.swapped.append(found.get("id") or f"<{tag} without id>")


def swapped(html: str) -> list[str]:
    parser = OutOfBand()
    parser.feed(html)
    return parser.swapped


def new_game(client: TestClient, code: str = SEED_CODE) -> dict[str, Any]:
    game: dict[str, Any] = client.post("/api/games", json={"code": code}).json()
    return game


def post(client: TestClient, game: dict[str, Any], action: str, **fields: Any) -> Any:
    version = client.get(f"/api/games/{game['id']}").json()["version"]
    return client.post(
        f"/games/{game['id']}/{action}", data={"version": version, **fields}, headers=HX
    )


def play(client: TestClient, game: dict[str, Any], *moves: str) -> Any:
    response = None
    for move in moves:
        response = post(client, game, "moves", move=move)
        assert response.status_code == 200, response.text
    return response


STATUS = {"status", "summary"}


@pytest.mark.parametrize(
    ("code", "setup", "move", "changed"),
    [
        (SEED_CODE, [], "QC-t2", {"pile-reserve", "pile-t2"}),
        (SEED_CODE, ["QC-t2"], "8H-f", {"pile-reserve", "pile-fH"}),
        # The seeds' third move: column 2 empties and the reserve refills it.
        (SEED_CODE, ["QC-t2", "8H-f"], "KH-t4", {"pile-reserve", "pile-t2", "pile-t4"}),
        ("CF1-D3-AAAAAAD", ["QC-t3"], "QC-t4", {"pile-t3", "pile-t4"}),
        (SEED_CODE, [], "draw", {"pile-stock", "pile-waste"}),
        # 34 cards in threes: 12 draws empty the stock; the 13th turns the waste over.
        (SEED_CODE, ["draw"] * 12, "draw", {"pile-stock", "pile-waste"}),
        # app lets a foundation card come back to a column.
        # (Deal 0's base card 8C goes onto the 9H that refilled column 1.)
        ("CF1-D3-AAAAAAA", ["QS-t2"], "8C-t1", {"pile-fC", "pile-t1"}),
    ],
    ids=[
        "reserve-to-column",
        "reserve-to-foundation",
        "column-to-column-with-refill",
        "column-to-column",
        "draw",
        "recycle",
        "foundation-to-column",
    ],
)
def test_a_move_redraws_exactly_the_piles_it_changed(
    client: TestClient, code: str, setup: list[str], move: str, changed: set[str]
) -> None:
    game = new_game(client, code)
    if setup:
        play(client, game, *setup)
    response = post(client, game, "moves", move=move)
    assert response.status_code == 200, response.text
    ids = swapped(response.text)
    assert sorted(ids) == sorted(changed | STATUS)
    assert len(ids) == len(set(ids))
    assert "HX-Request" in response.headers["vary"]


def test_a_reserve_to_column_move_redraws_reserve_column_and_status_only(
    client: TestClient,
) -> None:
    """SPEC §8's own example, with the summary in its own element."""
    game = new_game(client)
    response = post(client, game, "moves", move="QC-t2")
    assert set(swapped(response.text)) == {"pile-reserve", "pile-t2", "status", "summary"}
    assert 'data-card="QC"' in response.text
    assert 'data-version="1"' in response.text


def test_undo_redraws_what_the_undone_move_changed(client: TestClient) -> None:
    game = new_game(client)
    play(client, game, "QC-t2", "8H-f", "KH-t4")
    response = post(client, game, "undo")
    assert response.status_code == 200
    assert set(swapped(response.text)) == {"pile-reserve", "pile-t2", "pile-t4"} | STATUS
    play(client, game, "draw")
    response = post(client, game, "undo")
    assert set(swapped(response.text)) == {"pile-stock", "pile-waste"} | STATUS


def test_a_tap_redraws_the_piles_of_its_resolved_move(client: TestClient) -> None:
    game = new_game(client)
    response = post(client, game, "tap", card="QC")
    assert response.status_code == 200
    assert set(swapped(response.text)) == {"pile-reserve", "pile-t2"} | STATUS


def test_an_illegal_move_answers_422_with_only_the_reason(client: TestClient) -> None:
    game = new_game(client)
    response = post(client, game, "moves", move="8H-f")
    assert response.status_code == 422
    assert swapped(response.text) == ["message"]
    assert "The queen of clubs covers the 8 of hearts in the reserve." in response.text
    assert client.get(f"/api/games/{game['id']}").json()["version"] == 0


def test_a_stale_version_answers_409_with_only_the_message(client: TestClient) -> None:
    game = new_game(client)
    play(client, game, "draw")
    response = client.post(
        f"/games/{game['id']}/moves", data={"move": "draw", "version": "0"}, headers=HX
    )
    assert response.status_code == 409
    assert swapped(response.text) == ["message"]
    assert "version 1" in response.text
    assert client.get(f"/api/games/{game['id']}").json()["version"] == 1


def test_a_partial_is_a_small_fraction_of_the_page(client: TestClient) -> None:
    """Bytes per move against the full page (figures printed with -s)."""
    game = new_game(client)
    page = len(client.get(f"/games/{game['id']}").content)
    sizes = {}
    for move in ("QC-t2", "8H-f", "KH-t4", "draw"):
        sizes[move] = len(post(client, game, "moves", move=move).content)
    sizes["undo"] = len(post(client, game, "undo").content)
    print(f"\nfull page {page} bytes; partials: " + ", ".join(
        f"{move} {size} B ({size / page:.0%})" for move, size in sizes.items()
    ))
    assert all(size < page / 2 for size in sizes.values())
