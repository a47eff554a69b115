"""The game around the board: stock and passes, undo, resuming, sharing, winning, no JS."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Browser, Page, expect

from tests.shared import SEED_CODE, SEED_OPENING

from .board_helpers import (
    api_game,
    card,
    in_pile,
    open_deal,
    open_new_game,
    play_to_the_last_card,
    saw_cascade,
    wait_version,
    watch_for_cascade,
)

Shot = Callable[[Page, str], None]


def stock_count(page: Page) -> str:
    return page.locator("#pile-stock .count").inner_text()


def test_draw_three_fans_the_waste_and_recycles(page: Page, shot: Shot) -> None:
    gid = open_deal(page, SEED_CODE)
    stock = page.locator("#pile-stock")
    stock.locator("button").click()
    wait_version(page, 1)
    expect(page.locator("#pile-waste .card")).to_have_count(3)
    assert stock_count(page) == "31"
    waste = api_game(page, gid)["waste"]
    expect(page.locator("#pile-waste .card").last).to_have_attribute("data-card", waste[-1])
    shot(page, "desktop-5-draw-three")
    for version in range(2, 13):  # 34 cards: eleven more draws empty the stock
        stock.locator("button").click()
        wait_version(page, version)
    assert stock_count(page) == "0"
    expect(stock.locator(".recycle")).to_be_visible()
    expect(page.locator("#status")).to_contain_text("Pass 1")
    stock.locator(".recycle").click()  # turn the waste over: pass 2
    wait_version(page, 13)
    assert stock_count(page) == "34"
    expect(page.locator("#pile-waste .card")).to_have_count(0)
    expect(page.locator("#status")).to_contain_text("Pass 2")
    assert api_game(page, gid)["pass"] == 2


def test_draw_one_shows_one_card_and_the_pass_limit(page: Page) -> None:
    response = page.context.request.post(
        "/api/games", data={"code": SEED_CODE.replace("-D3-", "-D1P2-")}
    )
    assert response.status == 201, response.text()
    game = response.json()
    page.goto(f"/games/{game['id']}")
    expect(page.locator("#status")).to_contain_text("Pass 1 of 2")
    for version in range(1, 35):
        page.keyboard.press("d")
        wait_version(page, version)
    expect(page.locator("#pile-waste .card")).to_have_count(1)
    assert stock_count(page) == "0"
    page.keyboard.press("d")  # recycle: the second and last pass
    wait_version(page, 35)
    expect(page.locator("#status")).to_contain_text("Pass 2 of 2")
    for version in range(36, 70):
        page.keyboard.press("d")
        wait_version(page, version)
    expect(page.locator("#pile-stock .spent")).to_be_visible()  # no pass left
    assert "draw" not in api_game(page, game["id"])["legal_moves"]


def test_undo_with_the_button_and_ctrl_z(page: Page) -> None:
    gid = open_deal(page, SEED_CODE)
    card(page, "QC").click()
    wait_version(page, 1)
    card(page, "8H").click()
    wait_version(page, 2)
    page.locator("#pile-stock button").click()
    wait_version(page, 3)
    page.locator("#undo").click()  # the draw
    wait_version(page, 4)
    expect(page.locator("#pile-waste .card")).to_have_count(0)
    page.keyboard.press("Control+z")  # 8H leaves its foundation for the reserve again
    wait_version(page, 5)
    expect(in_pile(page, "reserve", "8H")).to_be_visible()
    page.keyboard.press("Control+z")
    wait_version(page, 6)
    expect(page.locator("#summary")).to_have_text(SEED_OPENING)
    game = api_game(page, gid)
    assert (game["moves"], game["undo_available"], game["score"]) == (0, 0, 0)
    # Nothing left to undo: the button is off and says why; U says it too, nothing changes.
    expect(page.locator("#undo")).to_be_disabled()
    expect(page.locator("#undo")).to_have_accessible_description("Nothing to undo yet.")
    page.keyboard.press("u")
    expect(page.locator("#message")).to_have_text("Nothing to undo yet.")
    assert api_game(page, gid)["version"] == 6


def test_closing_the_page_and_coming_back_resumes_the_game(page: Page) -> None:
    gid = open_deal(page, SEED_CODE)
    card(page, "QC").click()
    wait_version(page, 1)
    card(page, "8H").click()
    wait_version(page, 2)
    summary = page.locator("#summary").inner_text()
    context = page.context
    page.close()
    again = context.new_page()
    again.goto("/")
    expect(again.locator("#status")).to_have_attribute("data-game-id", gid)
    expect(again.locator("#summary")).to_have_text(summary)
    again.locator("#undo").click()
    wait_version(again, 3)
    expect(in_pile(again, "reserve", "8H")).to_be_visible()


def test_the_share_link_deals_the_same_opening_as_a_new_game(
    page: Page, browser: Browser, base_url: str, shot: Shot
) -> None:
    gid = open_deal(page, SEED_CODE)
    card(page, "QC").click()
    wait_version(page, 1)
    page.locator("#share").click()
    link = page.locator("#share-link")
    expect(link).to_be_visible()
    url = link.input_value()
    assert url == f"{base_url}/deal/{SEED_CODE}"
    expect(page.locator("#share-note")).not_to_be_empty()  # copied, or how to copy by hand
    shot(page, "desktop-6-share")

    friend = browser.new_context(base_url=base_url, viewport={"width": 360, "height": 640})
    try:
        other = friend.new_page()
        other.goto(url)
        other.wait_for_url(re.compile(r"/games/[^/]+$"))
        expect(other.locator("#summary")).to_have_text(SEED_OPENING)
        expect(other.locator("#status")).to_have_attribute("data-version", "0")
        assert other.locator("#status").get_attribute("data-game-id") != gid
    finally:
        friend.close()
    # The sharer's own game is untouched.
    assert api_game(page, gid)["version"] == 1


def test_winning_shows_the_celebration_then_new_game_and_replay(page: Page, shot: Shot) -> None:
    # Play it out through the API, all but the last card, then finish on the page.
    game = play_to_the_last_card(page.context.request)
    gid, code = game["id"], game["code"]
    page.goto(f"/games/{gid}")
    expect(page.locator(".win")).to_have_count(0)
    watch_for_cascade(page)
    card(page, "KS").click()
    expect(page.locator(".cascade .card").first).to_be_attached()  # the cards cascade
    shot(page, "desktop-7-cascade")
    win = page.locator(".win")
    expect(win).to_be_visible(timeout=10_000)
    expect(win).to_contain_text("You won!")
    # The results screen: 51 cards x 5 make the score of 255.
    expect(win.locator(".score-parts .total")).to_contain_text("255")
    expect(page.locator(".cascade")).to_have_count(0)
    assert saw_cascade(page)
    expect(win).to_have_css("opacity", "1")
    shot(page, "desktop-8-won")
    assert api_game(page, gid)["won"] is True
    expect(win.get_by_role("link", name="Replay this deal")).to_have_attribute(
        "href", f"/deal/{code}"
    )
    win.get_by_role("button", name="New game").click()
    page.wait_for_url(re.compile(r"/games/[^/]+$"))
    expect(page.locator("#status")).to_have_attribute("data-version", "0")
    assert page.locator("#status").get_attribute("data-game-id") != gid


def test_the_new_game_dialog_remembers_the_choices(page: Page) -> None:
    open_deal(page, SEED_CODE)
    dialog = open_new_game(page, "Classic", "1 card")
    dialog.get_by_role("checkbox", name=re.compile("Double click")).uncheck()
    dialog.get_by_role("button", name="Play").click()
    page.wait_for_url(re.compile(r"/games/[^/]+$"))
    expect(page.locator("#table")).to_have_attribute("data-draw", "1")
    gid = page.locator("#status").get_attribute("data-game-id")
    assert gid
    assert api_game(page, gid)["rules"]["preset"] == "classic"
    page.locator("#new").click()
    expect(dialog.get_by_label("Classic")).to_be_checked()
    expect(dialog.get_by_label("1 card")).to_be_checked()
    expect(dialog.get_by_role("checkbox", name=re.compile("Double click"))).not_to_be_checked()


def test_an_old_page_reloads_instead_of_acting_on_a_stale_position(page: Page) -> None:
    gid = open_deal(page, SEED_CODE)
    other = page.context.new_page()
    other.goto(f"/games/{gid}")
    other.locator("#pile-stock button").click()  # the other tab draws
    wait_version(other, 1)
    card(page, "QC").click()  # this tab still shows version 0: the server says 409
    wait_version(page, 1)  # the page reloaded and shows the game as it is
    expect(page.locator("#pile-waste .card")).to_have_count(3)
    assert api_game(page, gid)["version"] == 1


def test_without_javascript_the_page_shows_the_position_and_its_forms_play(
    browser: Browser, base_url: str
) -> None:
    context = browser.new_context(base_url=base_url, java_script_enabled=False)
    try:
        page = context.new_page()
        gid = open_deal(page, SEED_CODE)
        expect(page.locator("#summary")).to_have_text(SEED_OPENING)
        for pile, name in [
            ("reserve", "QC"), ("fH", "7H"), ("t1", "6C"), ("t2", "KH"), ("t3", "QH"), ("t4", "AS"),
        ]:  # fmt: skip
            expect(in_pile(page, pile, name)).to_be_visible()
        expect(page.locator("#pile-stock .count")).to_have_text("34")
        # The cards, the stock and Undo are form buttons: a plain post, then the new page.
        card(page, "QC").click()
        expect(in_pile(page, "t2", "QC")).to_be_visible()
        page.locator("#pile-stock button").click()
        expect(page.locator("#pile-waste .card")).to_have_count(3)
        page.locator("#undo").click()
        expect(page.locator("#pile-waste .card")).to_have_count(0)
        assert api_game(page, gid)["version"] == 3
    finally:
        context.close()


def test_with_reduced_motion_the_win_shows_at_once(page: Page) -> None:
    page.emulate_media(reduced_motion="reduce")
    game = play_to_the_last_card(page.context.request)
    page.goto(f"/games/{game['id']}")
    watch_for_cascade(page)
    card(page, "KS").click()
    expect(page.locator(".win")).to_be_visible()
    assert not saw_cascade(page)
    assert api_game(page, game["id"])["won"] is True
    expect(page.locator(".win").get_by_role("button", name="New game")).to_be_focused()


def test_the_win_box_is_modal_until_put_aside(page: Page) -> None:
    """While the win box shows, Tab stays in it and the board's keys wait; "Look at the
    board" gives the board back."""
    page.emulate_media(reduced_motion="reduce")
    game = play_to_the_last_card(page.context.request)
    page.goto(f"/games/{game['id']}")
    card(page, "KS").click()
    win = page.locator(".win")
    expect(win).to_be_visible()
    expect(win).to_have_attribute("aria-modal", "true")
    in_win = "document.activeElement.closest('.win') !== null"
    for _ in range(8):
        page.keyboard.press("Tab")
        assert page.evaluate(f"{in_win} || document.activeElement === document.body")
    page.keyboard.press("?")
    expect(page.locator("#guide")).to_be_hidden()
    assert page.evaluate("document.querySelector('#pile-stock').closest('[inert]') !== null")
    win.get_by_role("button", name="Look at the board").click()
    expect(win).to_be_hidden()
    expect(page.locator("#new")).to_be_focused()
    assert page.evaluate("document.querySelectorAll('[inert]').length") == 0
    page.keyboard.press("?")
    expect(page.locator("#guide")).to_be_visible()
