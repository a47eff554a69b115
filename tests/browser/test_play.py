"""Playing on the board in a real browser: taps, drags (mouse and touch), keys, refusals."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.shared import SEED_AFTER_THREE, SEED_CODE, SEED_OPENING

from .board_helpers import (
    api_game,
    card,
    in_pile,
    mouse_drag,
    open_deal,
    touch_drag,
    wait_version,
)

Shot = Callable[[Page, str], None]


def test_the_seeds_example_by_tapping_and_dragging(page: Page, shot: Shot) -> None:
    open_deal(page, SEED_CODE)
    expect(page.locator("#summary")).to_have_text(SEED_OPENING)
    shot(page, "desktop-1-opening")

    card(page, "QC").click()  # a tap: QC has no foundation move, column 2 takes it
    expect(in_pile(page, "t2", "QC")).to_be_visible()
    expect(in_pile(page, "reserve", "8H")).to_be_visible()
    card(page, "8H").click()  # the reserve's new top goes to its foundation
    expect(in_pile(page, "fH", "8H")).to_be_visible()

    mouse_drag(page, in_pile(page, "t2", "KH"), in_pile(page, "t4", "AS"))
    wait_version(page, 3)
    expect(page.locator("#summary")).to_have_text(SEED_AFTER_THREE)
    expect(page.locator("#status")).to_contain_text("Score 5")
    expect(page.locator("#status")).to_contain_text("Moves 3")
    expect(page.locator("#pile-t4 .card")).to_have_count(3)
    expect(in_pile(page, "t2", "QS")).to_be_visible()  # the reserve refilled column 2
    shot(page, "desktop-2-seed-example")


def test_the_seeds_example_on_a_phone_with_touch(phone: Page, shot: Shot) -> None:
    page = phone
    gid = open_deal(page, SEED_CODE)
    shot(page, "phone-1-opening")
    card(page, "QC").tap()
    expect(in_pile(page, "t2", "QC")).to_be_visible()
    card(page, "8H").tap()
    expect(in_pile(page, "fH", "8H")).to_be_visible()
    touch_drag(page, in_pile(page, "t2", "KH"), in_pile(page, "t4", "AS"))
    wait_version(page, 3)
    expect(page.locator("#summary")).to_have_text(SEED_AFTER_THREE)
    assert api_game(page, gid)["tableau"][3] == ["AS", "KH", "QC"]
    # Nothing sticks out sideways on a 360 px screen.
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, "phone-2-seed-example")


def test_an_illegal_drag_flies_back_and_changes_nothing(page: Page, shot: Shot) -> None:
    gid = open_deal(page, SEED_CODE)
    mouse_drag(page, in_pile(page, "t4", "AS"), page.locator("#pile-fS"))
    expect(page.locator("#message")).to_have_text(
        "The foundation of this suit starts from the 7 of spades."
    )
    expect(in_pile(page, "t4", "AS")).to_be_visible()
    expect(page.locator(".card.dragging")).to_have_count(0)
    shot(page, "desktop-3-refused")

    mouse_drag(page, in_pile(page, "t1", "6C"), in_pile(page, "t3", "QH"))
    expect(page.locator("#message")).to_have_text(
        "The 6 of clubs does not fit on the queen of hearts."
    )
    expect(in_pile(page, "t1", "6C")).to_be_visible()
    game = api_game(page, gid)
    assert (game["version"], game["moves"]) == (0, 0)
    assert game["tableau"] == [["6C"], ["KH"], ["QH"], ["AS"]]
    wait_version(page, 0)
    # A card dropped back on its own pile is no move at all: nothing is sent.
    mouse_drag(page, in_pile(page, "t3", "QH"), page.locator("#pile-t3"))
    expect(in_pile(page, "t3", "QH")).to_be_visible()
    assert api_game(page, gid)["version"] == 0


def test_a_tap_with_no_move_says_why(page: Page) -> None:
    gid = open_deal(page, SEED_CODE)
    card(page, "6C").click()
    expect(page.locator("#message")).to_have_text("The 6 of clubs has no move just now.")
    assert api_game(page, gid)["version"] == 0


def test_a_move_with_the_keyboard_only(page: Page, shot: Shot) -> None:
    gid = open_deal(page, SEED_CODE)
    page.locator("body").focus()
    for _ in range(12):  # Tab into the board until the reserve's top card has focus
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.dataset.card") == "QC":
            break
    focused = page.locator(":focus")
    expect(focused).to_have_attribute("data-card", "QC")
    expect(focused).to_have_attribute("aria-label", "queen of clubs, top of reserve, 13 cards")
    page.keyboard.press("Enter")  # pick the queen, then think better of it
    expect(card(page, "QC")).to_have_class("card picked")
    page.keyboard.press("Escape")
    expect(card(page, "QC")).to_have_class("card")
    page.keyboard.press(" ")  # Space picks too (and is no click: nothing is sent)
    expect(card(page, "QC")).to_have_class("card picked")
    assert api_game(page, gid)["version"] == 0
    expect(page.locator("#announce")).to_contain_text("Picked queen of clubs")
    for _ in range(8):  # arrows to the king of hearts in column 2
        if page.evaluate("document.activeElement.dataset.card") == "KH":
            break
        page.keyboard.press("ArrowRight")
    expect(page.locator(":focus")).to_have_attribute("data-card", "KH")
    shot(page, "desktop-4-keyboard-pick")
    page.keyboard.press("Enter")  # drop it there
    wait_version(page, 1)
    expect(in_pile(page, "t2", "QC")).to_be_visible()
    # Focus follows the moved card and stays visible.
    expect(page.locator(":focus")).to_have_attribute("data-card", "QC")
    assert page.evaluate("document.activeElement.matches(':focus-visible')")
    page.keyboard.press("Enter")  # Enter twice on the same card is a tap
    page.keyboard.press("Enter")
    expect(page.locator("#message")).to_have_text("The queen of clubs has no move just now.")
    page.keyboard.press("d")
    wait_version(page, 2)
    expect(page.locator("#pile-waste .card")).to_have_count(3)
    page.keyboard.press("u")
    wait_version(page, 3)
    expect(page.locator("#pile-waste .card")).to_have_count(0)
