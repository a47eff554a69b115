"""The computer player on the page: Hint (button and H key) lights up the hinted card,
level Easy deals a listed deal, and the "Still winnable?" switch shows its
verdict after each move; all of it fits a phone and a desktop."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from app.engine import DealCode, Rules
from app.engine.cards import ORDERED_DECK
from app.solver.deals import winnable_numbers
from tests.shared import SPOIL_DECK, SPOIL_RULES

from .board_helpers import (
    COMPUTER_WAIT,
    DESKTOP,
    PHONE,
    PILES,
    api_game,
    box_of,
    card,
    open_new_game,
    overlap,
    size_name,
    wait_version,
)

Shot = Callable[[Page, str], None]


def open_deck(page: Page, deck: list[str], rules: dict[str, Any]) -> str:
    response = page.context.request.post("/api/games", data={"deck": deck, "rules": rules})
    assert response.status == 201, response.text()
    gid: str = response.json()["id"]
    page.goto(f"/games/{gid}")
    wait_version(page, 0)
    return gid


HINT_WORDS = re.compile(
    r"^Hint: (?:(?P<draw>draw from the stock|turn the waste over into the stock)"
    r"|put the (?P<home>.+) on its foundation|move the (?P<card>.+) to column (?P<n>\d))\.$"
)
CARD_BY_WORDS = {c.name: str(c) for c in ORDERED_DECK}


def hinted_move(page: Page) -> str:
    """The move the hint message says in words ("Hint: move the queen of clubs to column
    2." is QC-t2): cards and piles in words, never the move's notation (SPEC §11)."""
    message = page.locator("#message p.note")
    expect(message).to_have_text(re.compile(r"^Hint: .*\.$"), timeout=COMPUTER_WAIT)
    found = HINT_WORDS.match(message.inner_text())
    assert found, message.inner_text()
    if found["draw"]:
        return "draw"
    if found["home"]:
        return f"{CARD_BY_WORDS[found['home']]}-f"
    return f"{CARD_BY_WORDS[found['card']]}-t{found['n']}"


def lit(page: Page, move: str) -> Locator:
    """The element the page lights up for a hinted move: its card, or the stock."""
    if move == "draw":
        return page.locator("#pile-stock button")
    return card(page, move.split("-")[0])


def test_the_h_key_lights_up_the_hinted_card_and_says_the_move(page: Page) -> None:
    gid = open_deck(page, SPOIL_DECK, SPOIL_RULES)
    page.keyboard.press("h")
    move = hinted_move(page)
    assert move in api_game(page, gid)["legal_moves"]
    expect(lit(page, move)).to_have_class(re.compile(r"\bhinted\b"))
    expect(page.locator(".hinted")).to_have_count(1)
    # Asking changed nothing on the board, but the hint is counted.
    wait_version(page, 0)
    assert api_game(page, gid)["hints_used"] == 1


def test_the_hint_button_gives_the_next_move_and_following_it_plays_on(page: Page) -> None:
    gid = open_deck(page, SPOIL_DECK, SPOIL_RULES)
    for count in range(1, 4):
        page.locator("#hint").click()
        move = hinted_move(page)
        expect(lit(page, move)).to_have_class(re.compile(r"\bhinted\b"))
        response = page.context.request.post(f"/api/games/{gid}/moves", data={"move": move})
        assert response.status == 200, response.text()
        page.reload()
        wait_version(page, count)
    assert api_game(page, gid)["hints_used"] == 3


def test_a_spoiled_position_is_told_plainly(page: Page) -> None:
    gid = open_deck(page, SPOIL_DECK, SPOIL_RULES)
    card(page, "KS").click()  # a tap sends KS onto the ace of hearts: KS-t2
    wait_version(page, 1)
    assert api_game(page, gid)["tableau"][1] == ["AH", "KS"]
    page.locator("#hint").click()
    message = page.locator("#message p.note")
    expect(message).to_have_text(
        "No winning line from here; undo 1 move to get back to a winnable position.",
        timeout=COMPUTER_WAIT,
    )
    expect(page.locator(".hinted")).to_have_count(0)


def test_level_easy_deals_a_listed_deal(page: Page) -> None:
    open_deck(page, SPOIL_DECK, SPOIL_RULES)
    dialog = open_new_game(page, "Classic", "1 card")
    dialog.get_by_label("Easy").check()
    dialog.get_by_role("button", name="Play").click()
    page.wait_for_url(re.compile(r"/games/[^/]+$"))
    wait_version(page, 0)
    code = DealCode.parse(page.locator("#table").get_attribute("data-code") or "")
    assert str(code).startswith("CF1-C1-")
    assert code.number in winnable_numbers(Rules.preset_named("classic", draw=1))
    # The choice is remembered: the start window opens at level easy.
    page.locator("#new").click()
    expect(dialog.get_by_label("Easy")).to_be_checked()


def test_the_still_winnable_switch_shows_its_verdict_after_each_move(page: Page) -> None:
    gid = open_deck(page, SPOIL_DECK, SPOIL_RULES)
    switch = page.get_by_role("checkbox", name="Still winnable?")
    verdict = page.locator("#winnable")
    expect(verdict).to_have_text("Still winnable?")
    switch.check()
    expect(verdict).to_have_text("Still winnable", timeout=COMPUTER_WAIT)
    card(page, "KS").click()  # KS-t2 spoils the game
    wait_version(page, 1)
    expect(verdict).to_have_text("No longer winnable", timeout=COMPUTER_WAIT)
    expect(verdict).to_have_attribute("data-state", "no")
    page.locator("#undo").click()
    wait_version(page, 2)
    expect(verdict).to_have_text("Still winnable", timeout=COMPUTER_WAIT)
    # Remembered for the player: a reload (and their next game) opens with it on.
    page.reload()
    expect(switch).to_be_checked()
    expect(verdict).to_have_text("Still winnable", timeout=COMPUTER_WAIT)
    switch.uncheck()
    expect(verdict).to_have_text("Still winnable?")
    page.reload()
    expect(switch).not_to_be_checked()
    assert api_game(page, gid)["version"] == 2


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("code", ["CF1-D3-HELLOAB", "CF1-S3P3-HELLOAB"], ids=["app", "skill"])
def test_the_hint_button_and_switch_fit_the_layout(
    browser: Browser, base_url: str, size: dict[str, int], code: str, shot: Shot
) -> None:
    context = browser.new_context(
        base_url=base_url, viewport=size, reduced_motion="reduce", has_touch=size is PHONE
    )
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(f"/deal/{code}")
        wait_version(page, 0)
        page.get_by_role("checkbox", name="Still winnable?").check()
        page.locator("#pile-stock button").click()  # a fanned waste beside the switch
        wait_version(page, 1)
        expect(page.locator("#winnable")).not_to_have_text(
            re.compile("Checking|\\?$"), timeout=COMPUTER_WAIT
        )
        page.locator("#hint").click()
        expect(page.locator("#message p.note")).to_be_visible(timeout=COMPUTER_WAIT)
        width, height = size["width"], size["height"]
        switch = box_of(page.locator(".assist .toggle"))
        assert switch["height"] >= 20  # big enough to hit
        for pile in PILES:
            assert not overlap(switch, box_of(page.locator(f"#{pile}"))), pile
        names = ("undo", "hint", "share", "new", "guide-button", "sound")
        buttons = [box_of(page.locator(f"#{name}")) for name in names]
        stats = [box_of(stat) for stat in page.locator("#status .stat").all()]
        for thing in [switch, *buttons, *stats]:
            assert thing["x"] >= 0 and thing["x"] + thing["width"] <= width
            assert thing["y"] >= 0 and thing["y"] + thing["height"] <= height
        for i, a in enumerate([switch, *buttons, *stats]):
            for b in [switch, *buttons, *stats][i + 1 :]:
                assert not overlap(a, b)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert page.evaluate("document.documentElement.scrollHeight") <= height
        assert errors == []
        rules = "skill" if "S3P3" in code else "app"
        shot(page, f"{size_name(size)}-11-hint-{rules}")
        page.locator("#new").click()
        expect(page.locator("#new-game")).to_be_visible()
        dialog = box_of(page.locator("#new-game"))
        assert dialog["y"] >= 0 and dialog["y"] + dialog["height"] <= height
        shot(page, f"{size_name(size)}-12-new-game-{rules}")
    finally:
        context.close()


def test_a_hint_asked_during_the_still_winnable_check_waits_for_it(
    browser: Browser, base_url: str
) -> None:
    """The computer player takes one search of a player at a time; the page asks it one
    thing at a time, so a Hint pressed while the check of a position it takes seconds to
    judge (classic deal 263, which cannot be won) still runs is answered, not refused."""
    context = browser.new_context(base_url=base_url, viewport=DESKTOP, reduced_motion="reduce")
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        refused: list[int] = []
        page.on("response", lambda r: refused.append(r.status) if r.status == 429 else None)
        page.goto("/deal/CF1-C3-AAAAAKD")
        wait_version(page, 0)
        page.get_by_role("checkbox", name="Still winnable?").check()
        expect(page.locator("#winnable")).to_have_text("Checking…")
        page.locator("#hint").click()  # at once, while the check runs
        expect(page.locator("#message p.note")).to_be_visible(timeout=40_000)
        expect(page.locator("#winnable")).to_have_text(
            re.compile("No longer winnable|Not sure"), timeout=40_000
        )
        assert refused == [] and errors == []
    finally:
        context.close()
