"""The board explains itself: pile labels, the guide (button and ? key) with the rules of
the game's own rule set, an honest Undo (off when nothing can be undone, the undo limit
named), and sound that is off until the player turns it on."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.shared import SEED_CODE

from .board_helpers import (
    DESKTOP,
    PHONE,
    api_game,
    box_of,
    card,
    near_won_game,
    open_deal,
    overlap,
    wait_version,
)

Shot = Callable[[Page, str], None]

# Every oscillator the page starts, by frequency: what the player would hear.
RECORD_TONES = """
window.tones = [];
const start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...args) {
    window.tones.push(this.frequency.value);
    return start.apply(this, args);
};
"""


def _tones(page: Page) -> list[float]:
    """The tones played since window.tones was last emptied, once some have played."""
    page.wait_for_function("window.tones.length > 0")
    page.wait_for_timeout(100)  # a sound's later tones start within a few milliseconds
    tones: list[float] = page.evaluate("window.tones")
    return tones


def test_undo_is_off_at_the_undo_limit_and_says_so(page: Page) -> None:
    response = page.context.request.post(
        "/api/games", data={"code": "CF1-D3U2-HELLOAB"}
    )  # the app rules with an undo limit of 2
    assert response.status == 201, response.text()
    page.goto(f"/games/{response.json()['id']}")
    undo = page.locator("#undo")
    expect(undo).to_be_disabled()  # a new game has nothing to undo
    expect(undo).to_have_accessible_description("Nothing to undo yet.")
    for version in (1, 2, 3):
        page.keyboard.press("d")
        wait_version(page, version)
    expect(undo).to_be_enabled()
    undo.click()
    wait_version(page, 4)
    undo.click()
    wait_version(page, 5)
    # One draw is still played but no longer kept: the limit, not "nothing to undo".
    limit = "Undo limit reached: these rules take back at most 2 moves."
    expect(undo).to_be_disabled()
    expect(undo).to_have_accessible_description(limit)
    expect(page.locator("#announce")).to_have_text(limit)
    page.keyboard.press("Control+z")
    expect(page.locator("#message")).to_have_text(limit)
    game = api_game(page, page.locator("#status").get_attribute("data-game-id") or "")
    assert (game["version"], game["moves"], game["undo_available"]) == (5, 1, 0)
    page.keyboard.press("d")  # a new action can be undone again
    wait_version(page, 6)
    expect(undo).to_be_enabled()


def test_every_pile_is_named_on_the_board(sized: Page, shot: Shot) -> None:
    page = sized
    size = page.viewport_size or DESKTOP
    desktop = size["width"] >= 700
    open_deal(page, SEED_CODE)
    expect(page.locator("#pile-stock .caption")).to_have_text("Stock 34")
    expect(page.locator("#pile-reserve .caption")).to_have_text("Reserve 13")
    labels = page.locator(".row-label")
    expect(labels.locator(".up")).to_have_text("Foundations, from 7")
    expect(labels.locator(".down")).to_have_text("Columns")
    # The labels sit where they name: the foundations' above the columns' cards, the
    # reserve's under the reserve; none covers a card.
    row = box_of(labels)
    assert box_of(page.locator(".foundations"))["y"] < row["y"]
    assert row["y"] + row["height"] <= box_of(page.locator("#pile-t1 .card"))["y"] + 1
    for caption in page.locator(".caption").all():
        for other in page.locator("#table .card").all():
            assert not overlap(box_of(caption), box_of(other))
    reserve = box_of(page.locator("#pile-reserve .caption"))
    reserve_card = box_of(page.locator("#pile-reserve .card"))
    assert (
        abs(reserve["x"] + reserve["width"] / 2 - reserve_card["x"] - reserve_card["width"] / 2) < 2
    )
    if desktop:
        # The room under the waste holds the rules at a glance, not a gap.
        glance = page.locator(".glance")
        expect(glance).to_be_visible()
        expect(glance).to_contain_text("Build the columns down in alternating colours")
        waste = box_of(page.locator("#pile-waste"))
        box = box_of(glance)
        assert box["x"] >= waste["x"] - 1 and box["y"] > waste["y"] + waste["height"]
    else:
        expect(page.locator(".glance")).to_be_hidden()
    shot(page, f"{'desktop' if desktop else 'phone'}-15-labels")


@pytest.mark.parametrize(
    ("code", "says", "not_says"),
    [
        (
            SEED_CODE,
            [
                "starts with a card of rank 7",
                "Any card of a column moves to another column together with the cards on it.",
                "A foundation's top card may come back down onto a column.",
                "Undo takes back at most the last 100 moves.",
                "Score: 5 points for each card put on a foundation",
                "tap it to turn 3 cards onto the waste",
                "as often as you like",
                "with Double click on, to the longest column",
            ],
            ["Only a whole column", "A double tap"],
        ),
        (
            "CF1-C1-HELLOAB",  # classic, draw 1: base 9S
            [
                "starts with a card of rank 9",
                "Only a whole column moves to another column.",
                "an empty column takes only the waste's top card",
                "Cards on a foundation stay there.",
                "Undo takes back as many moves as you like.",
                "tap it to turn 1 card onto the waste",
                "Score (casino): the deck costs 52 and each card on a foundation pays 5",
            ],
            ["Any card of a column moves", "A double tap", "Score: 5 points"],
        ),
        (
            "CF1-S3P3-HELLOAB",  # skill, level Hard
            [
                "Only a column's last card, or the whole column, moves",
                "at most 3 passes through the stock in all",
                "10 points for each card put on a foundation",
                "A double tap sends it straight to its foundation.",
                "go up to the foundations by themselves",
            ],
            ["as often as you like"],
        ),
    ],
    ids=["app", "classic", "skill"],
)
def test_the_guide_tells_the_rules_of_the_game_being_played(
    page: Page, code: str, says: list[str], not_says: list[str], shot: Shot
) -> None:
    open_deal(page, code)
    guide = page.locator("#guide")
    expect(guide).to_be_hidden()
    page.locator("body").press("?")  # the key opens it
    expect(guide).to_be_visible()
    expect(page.get_by_role("dialog", name="How to play")).to_be_visible()
    for text in says:
        expect(guide).to_contain_text(text)
    for text in not_says:
        expect(guide).not_to_contain_text(text)
    expect(guide.locator(".diagram")).to_be_visible()
    expect(guide.get_by_role("img")).to_have_accessible_name(re.compile("reserve and the four"))
    box = box_of(guide)
    assert box["y"] >= 0 and box["y"] + box["height"] <= DESKTOP["height"]
    if code == SEED_CODE:
        shot(page, "desktop-16-guide")
    page.keyboard.press("Escape")
    expect(guide).to_be_hidden()
    page.locator("#guide-button").click()  # and so does the ? button
    expect(guide).to_be_visible()
    guide.get_by_role("button", name="Close").click()
    expect(guide).to_be_hidden()


def test_the_guide_on_a_phone_scrolls_inside_the_screen(phone: Page, shot: Shot) -> None:
    open_deal(phone, SEED_CODE)
    phone.locator("#guide-button").tap()
    guide = phone.locator("#guide")
    expect(guide).to_be_visible()
    box = box_of(guide)
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]
    shot(phone, "phone-16-guide")


def test_sound_is_off_at_first_then_remembered_and_plays_each_event(
    browser: Browser, base_url: str
) -> None:
    context = browser.new_context(base_url=base_url, viewport=DESKTOP)
    try:
        context.add_init_script(RECORD_TONES)
        page = context.new_page()
        open_deal(page, SEED_CODE)
        switch = page.locator("#sound")
        expect(switch).to_have_attribute("aria-pressed", "false")
        card(page, "QC").click()  # a move, silent while sound is off
        wait_version(page, 1)
        assert page.evaluate("window.tones") == []
        switch.click()
        expect(switch).to_have_attribute("aria-pressed", "true")
        expect(page.locator("#announce")).to_have_text("Sound on")
        page.evaluate("window.tones = []")
        card(page, "8H").click()  # a move
        wait_version(page, 2)
        assert _tones(page) == [660]
        page.evaluate("window.tones = []")
        page.keyboard.press("d")  # a draw: two short tones
        wait_version(page, 3)
        assert _tones(page) == [440, 550]
        page.evaluate("window.tones = []")
        card(page, "AS").click()  # refused (the spade foundation starts at 7)
        expect(page.locator("#message")).not_to_be_empty()
        assert _tones(page) == [180]
        assert (
            api_game(page, page.locator("#status").get_attribute("data-game-id") or "")["version"]
            == 3
        )
        # Remembered: a new page of the same player starts with sound on.
        again = context.new_page()
        open_deal(again, SEED_CODE)
        expect(again.locator("#sound")).to_have_attribute("aria-pressed", "true")
        again.locator("#sound").click()
        expect(again.locator("#sound")).to_have_attribute("aria-pressed", "false")
    finally:
        context.close()


def test_a_win_plays_its_tune(browser: Browser, base_url: str) -> None:
    context = browser.new_context(base_url=base_url, viewport=DESKTOP, reduced_motion="reduce")
    try:
        context.add_init_script(RECORD_TONES)
        page = context.new_page()
        # The sound is the player's setting, kept by the server.
        assert context.request.post("/prefs", form={"sound": "true"}).status == 204
        game = near_won_game(page)
        page.goto(f"/games/{game['id']}")
        expect(page.locator("#sound")).to_have_attribute("aria-pressed", "true")
        card(page, "KS").click()
        expect(page.locator(".win")).to_be_visible()
        assert _tones(page)[-4:] == [523, 659, 784, 1047]
    finally:
        context.close()


def test_sound_that_cannot_play_never_holds_up_a_move(browser: Browser, base_url: str) -> None:
    context = browser.new_context(base_url=base_url, viewport=DESKTOP)
    try:
        # A browser whose audio fails outright.
        context.add_init_script(
            "window.AudioContext = function () { throw new Error('no audio'); };"
        )
        page = context.new_page()
        open_deal(page, SEED_CODE)
        page.locator("#sound").click()
        card(page, "QC").click()
        wait_version(page, 1)
        card(page, "8H").click()
        wait_version(page, 2)
    finally:
        context.close()
