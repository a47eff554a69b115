"""Right to left (Hebrew): `<html dir="rtl">` mirrors the whole board with the same
stylesheet: the piles run right to left, columns still fan downwards, card corners read
as in English, and drag and the arrow keys follow what the player sees."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.shared import SEED_CODE

from .board_helpers import (
    DESKTOP,
    assert_piles_apart,
    box_of,
    card,
    in_pile,
    mouse_drag,
    open_deal,
    size_name,
    wait_version,
)

Shot = Callable[[Page, str], None]


def _x(page: Page, pile: str) -> float:
    return box_of(page.locator(f"#{pile}"))["x"]


def _set_direction(page: Page, direction: str) -> None:
    # Until the server picks the direction from the language, the test sets it.
    page.evaluate(f"document.documentElement.dir = '{direction}'")
    expect(page.locator("html")).to_have_attribute("dir", direction)


@pytest.mark.parametrize("direction", ["ltr", "rtl"])
def test_the_board_mirrors_right_to_left(sized: Page, direction: str, shot: Shot) -> None:
    page = sized
    open_deal(page, SEED_CODE)
    _set_direction(page, direction)
    page.locator("#pile-stock button").click()  # a fanned waste
    wait_version(page, 1)
    rtl = direction == "rtl"
    width = page.viewport_size["width"] if page.viewport_size else 0

    def before(a: str, b: str) -> None:
        """`a` comes first in reading order: left of `b` in ltr, right of it in rtl."""
        assert (_x(page, a) > _x(page, b)) is rtl, (a, b, direction)

    before("pile-stock", "pile-waste")
    before("pile-t1", "pile-t2")
    before("pile-t2", "pile-t3")
    before("pile-t3", "pile-t4")
    before("pile-fH", "pile-fS")  # the base card's suit first (SPEC §3)
    if width < 700:
        before("pile-waste", "pile-reserve")
    else:
        before("pile-waste", "pile-fH")
    # The waste fans in the reading direction, its top card last.
    waste = page.locator("#pile-waste .card")
    assert (box_of(waste.last)["x"] < box_of(waste.first)["x"]) is rtl
    assert_piles_apart(page, width)
    # A corner reads as in English (rank, then suit) and sits on the reading side, the
    # side of each fanned waste card that the next one leaves uncovered.
    corner = page.evaluate(
        "(() => { const s = getComputedStyle(document.querySelector('#pile-t1 .card'),"
        " '::before'); return [s.direction, s.textAlign]; })()"
    )
    assert corner == (["ltr", "end"] if rtl else ["ltr", "start"])
    under, over = box_of(waste.nth(1)), box_of(waste.last)
    uncovered = (
        under["x"] + under["width"] - over["x"] - over["width"] if rtl else over["x"] - under["x"]
    )
    assert uncovered >= 0.4 * under["width"]  # room for the corner of "10♥"
    # Labels follow the direction: the foundations' on the reading side.
    labels = page.locator(".row-label")
    up, down = box_of(labels.locator(".up")), box_of(labels.locator(".down"))
    assert (up["x"] > down["x"]) is rtl
    shot(page, f"{size_name(page.viewport_size or DESKTOP)}-18-direction-{direction}")


def test_in_right_to_left_columns_fan_down_and_drag_and_arrows_follow_the_eye(
    sized: Page,
) -> None:
    page = sized
    open_deal(page, SEED_CODE)
    _set_direction(page, "rtl")
    # Drag the reserve's queen of clubs onto column 2 (the king of hearts).
    mouse_drag(page, in_pile(page, "reserve", "QC"), page.locator("#pile-t2"))
    wait_version(page, 1)
    kh, qc = box_of(in_pile(page, "t2", "KH")), box_of(in_pile(page, "t2", "QC"))
    assert qc["y"] > kh["y"] + 10 and abs(qc["x"] - kh["x"]) < 1  # fanned downwards
    # The arrows move to the pile seen on that side: column 1 is on the right, so Left
    # goes on to another column and Right comes back.
    card(page, "6C").focus()
    page.keyboard.press("ArrowLeft")
    focused = page.evaluate("document.activeElement.closest('.pile').id")
    assert focused in ("pile-t2", "pile-t3")
    assert _x(page, focused) < _x(page, "pile-t1")
    for _ in range(2):
        if page.evaluate("document.activeElement.dataset.card") != "6C":
            page.keyboard.press("ArrowRight")
    expect(card(page, "6C")).to_be_focused()
