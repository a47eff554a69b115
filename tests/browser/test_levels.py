"""Levels, results and statistics in the browser (SPEC §10), as a new player meets them: the
start window on a first visit, a game at level hard, a near-won deal won to the results
screen and its chart, an abandoned game counted as lost on /stats, CONTINUE, and Pause,
which hides the board and stops the clock."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from app.engine import DealCode, Rules

from .board_helpers import DESKTOP, PHONE, card, near_won_deck, size_name, wait_version

Shot = Callable[[Page, str], None]


@pytest.fixture(params=[PHONE, DESKTOP], ids=["phone", "desktop"])
def newcomer(request: pytest.FixtureRequest, browser: Browser, base_url: str) -> Iterator[Page]:
    """A first visit: a browser with no cookie yet, at phone and at desktop size."""
    context = browser.new_context(base_url=base_url, viewport=request.param)
    page = context.new_page()
    page.size = size_name(request.param)  # type: ignore[attr-defined]
    yield page
    context.close()


def name(page: Page, what: str) -> str:
    return f"{page.size}-levels-{what}"  # type: ignore[attr-defined]


def play_near_won_to_the_last_card(page: Page, code: str) -> dict[str, Any]:
    """Open the shared near-won deal and play it through the API up to its last card."""
    page.goto(f"/deal/{code}")
    if "/games/" not in page.url:  # a game in progress: the link asks first
        page.get_by_role("button", name="Play this deal").click()
    page.wait_for_url(re.compile(r"/games/[^/]+$"))
    gid = page.locator("#status").get_attribute("data-game-id")
    request = page.context.request
    game: dict[str, Any] = request.get(f"/api/games/{gid}").json()
    while game["stock"] or len(game["waste"]) != 1:
        to_foundation = [m for m in game["legal_moves"] if m.endswith("-f")]
        answer = request.post(
            f"/api/games/{gid}/moves",
            data={"move": (to_foundation or ["draw"])[0], "version": game["version"]},
        )
        assert answer.status == 200, answer.text()
        game = answer.json()
    return game


def test_a_new_player_chooses_plays_wins_and_sees_the_results(newcomer: Page, shot: Shot) -> None:
    page = newcomer
    page.goto("/")
    # The start window, on a first visit, before anything is dealt.
    start = page.locator("form.start")
    expect(start).to_be_visible()
    expect(start.get_by_role("button", name="Play")).to_be_visible()
    shot(page, name(page, "1-start"))
    start.get_by_label("skill.games").check()
    start.get_by_label("Hard").check()
    start.get_by_label("Draw 1 card").check()
    start.get_by_role("button", name="Play").click()
    page.wait_for_url(re.compile(r"/games/[^/]+$"))
    expect(page.locator("#status")).to_contain_text("1 of 3")  # hard: three passes
    expect(page.locator("#table")).to_have_attribute("data-draw", "1")
    # A near-won deal under the same rules, played to its last card and won on the page.
    code = str(DealCode.for_deck(near_won_deck(), Rules.preset_named("skill", draw=1, passes=3)))
    game = play_near_won_to_the_last_card(page, code)
    page.goto(f"/games/{game['id']}")
    card(page, "KS").click()
    box = page.locator(".win-box")
    # It shows when the cards' cascade ends, 3.8 s of animation by design (51 × 45 ms of
    # delays and 1.5 s): as in test_game, more than Playwright's default 5 s on a busy machine.
    expect(box).to_be_visible(timeout=10_000)
    expect(box).to_contain_text("You won!")
    expect(box.locator(".score-parts")).to_contain_text("51 cards × 10")
    expect(box.locator(".score-parts")).to_contain_text("Time bonus")
    expect(box.locator("svg.chart rect.bar.won")).to_have_count(1)
    shot(page, name(page, "2-results"))


def test_an_abandoned_game_counts_as_lost_after_the_player_agrees(
    newcomer: Page, shot: Shot
) -> None:
    page = newcomer
    page.goto("/")
    page.locator("form.start").get_by_role("button", name="Play").click()
    page.wait_for_url(re.compile(r"/games/[^/]+$"))
    first = page.locator("#status").get_attribute("data-game-id")
    page.locator("#pile-stock button").click()  # an action: the game is now in progress
    wait_version(page, 1)
    # The start window warns before it abandons the game; CONTINUE keeps playing it.
    page.locator("#new").click()
    dialog = page.locator("#new-game")
    warning = dialog.locator("[data-abandon-warning]")
    expect(warning).to_be_visible()
    expect(warning).to_contain_text("will count as lost")
    shot(page, name(page, "3-warning"))
    dialog.get_by_role("button", name="Continue").click()
    expect(dialog).to_be_hidden()
    assert page.locator("#status").get_attribute("data-game-id") == first
    # PLAY after the warning: the game is lost, and /stats shows it.
    page.locator("#new").click()
    dialog.get_by_role("button", name="Play").click()
    page.wait_for_url(re.compile(r"/games/[^/]+$"))
    assert page.locator("#status").get_attribute("data-game-id") != first
    page.goto("/stats")
    row = page.locator("section.mode").first
    expect(row).to_contain_text("Played")
    expect(row.locator(".figures")).to_contain_text("1 loss")
    expect(row.locator("svg.chart rect.bar.lost")).to_have_count(1)
    shot(page, name(page, "4-stats"))


def test_pause_hides_the_board_and_stops_the_clock(newcomer: Page, shot: Shot) -> None:
    page = newcomer
    page.goto("/")
    start = page.locator("form.start")
    start.get_by_label("skill.games").check()
    start.get_by_role("button", name="Play").click()
    page.wait_for_url(re.compile(r"/games/[^/]+$"))
    gid = page.locator("#status").get_attribute("data-game-id")
    page.locator("#pile-stock button").click()
    wait_version(page, 1)
    clock = page.locator("#clock")
    expect(clock).to_have_attribute("data-running", "true")
    page.locator("#menu-button").click()
    page.locator("#menu").get_by_role("button", name="Pause").click()
    cover = page.locator(".paused-cover")
    expect(cover).to_be_visible()
    shot(page, name(page, "5-paused"))
    expect(page.locator("#clock")).to_have_attribute("data-running", "false")
    paused = page.context.request.get(f"/api/games/{gid}").json()
    assert paused["paused"] is True
    page.wait_for_timeout(2500)  # nothing is counted while paused
    assert page.context.request.get(f"/api/games/{gid}").json()["seconds"] == paused["seconds"]
    cover.get_by_role("button", name="Resume").click()
    expect(page.locator(".paused-cover")).to_have_count(0)
    expect(page.locator("#clock")).to_have_attribute("data-running", "true")
    assert page.context.request.get(f"/api/games/{gid}").json()["paused"] is False


def test_the_menu_opens_with_m_and_pauses_with_p(newcomer: Page) -> None:
    page = newcomer
    page.goto("/")
    page.locator("form.start").get_by_role("button", name="Play").click()
    page.wait_for_url(re.compile(r"/games/[^/]+$"))
    menu = page.locator("#menu")
    expect(menu).to_be_hidden()
    page.keyboard.press("m")
    expect(menu).to_be_visible()
    for item in ("Pause", "New game", "Sound", "How to play"):
        expect(menu.get_by_role("button", name=item)).to_be_visible()
    expect(menu.get_by_role("link", name="Statistics")).to_be_visible()
    page.keyboard.press("Escape")
    expect(menu).to_be_hidden()
    page.keyboard.press("p")
    expect(page.locator(".paused-cover")).to_be_visible()
