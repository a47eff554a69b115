"""The board's layout on a phone and a desktop: nothing overlaps or overflows, long
columns squeeze to fit, and the page keeps to its CSP (no inline script or style)."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.shared import SEED_CODE

from .board_helpers import (
    DESKTOP,
    LONG_RUN,
    PHONE,
    box_of,
    long_column_deck,
    open_deal,
    overlap,
)

Shot = Callable[[Page, str], None]
PILES = [
    "pile-stock", "pile-waste", "pile-reserve", "pile-fC", "pile-fD", "pile-fH", "pile-fS",
    "pile-t1", "pile-t2", "pile-t3", "pile-t4",
]  # fmt: skip


def _long_column_game(page: Page) -> str:
    request = page.context.request
    response = request.post("/api/games", data={"deck": long_column_deck(), "rules": {}})
    assert response.status == 201, response.text()
    game: dict[str, Any] = response.json()
    for name in LONG_RUN:
        response = request.post(f"/api/games/{game['id']}/moves", data={"move": f"{name}-t1"})
        assert response.status == 200, response.text()
    gid: str = game["id"]
    return gid


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_piles_do_not_overlap_and_nothing_overflows(
    browser: Browser, base_url: str, size: dict[str, int], shot: Shot
) -> None:
    # Measured at rest: cards glide to their places otherwise.
    context = browser.new_context(base_url=base_url, viewport=size, reduced_motion="reduce")
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        open_deal(page, SEED_CODE)
        page.locator("#pile-stock button").click()  # a fanned waste too
        expect(page.locator("#status")).to_have_attribute("data-version", "1")
        boxes = {pile: box_of(page.locator(f"#{pile}")) for pile in PILES}
        for i, a in enumerate(PILES):
            for b in PILES[i + 1 :]:
                assert not overlap(boxes[a], boxes[b]), (a, b)
        for pile, box in boxes.items():
            assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], pile
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        # The fanned waste shows three cards side by side, the top one whole.
        waste = page.locator("#pile-waste .card")
        expect(waste).to_have_count(3)
        first, top = waste.first.bounding_box(), waste.last.bounding_box()
        assert first and top and top["x"] > first["x"] + 10
        waste_box = boxes["pile-waste"]
        assert top["x"] + top["width"] <= waste_box["x"] + waste_box["width"] + 1
        # Corners are big enough to read: a rank glyph of at least 18 px on a phone.
        corner = page.evaluate(
            "parseFloat(getComputedStyle(document.querySelector('#pile-t1 .card'), "
            "'::before').fontSize)"
        )
        assert corner >= 18
        assert errors == []  # no CSP refusals, no script errors
        # The server offers hints (game.hints_available): the Hint button is there.
        expect(page.locator("#hint")).to_be_visible()
        shot(page, f"{'phone' if size is PHONE else 'desktop'}-9-layout")
    finally:
        context.close()


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_long_column_squeezes_to_fit_the_screen(
    browser: Browser, base_url: str, size: dict[str, int], shot: Shot
) -> None:
    context = browser.new_context(base_url=base_url, viewport=size)
    try:
        page = context.new_page()
        gid = _long_column_game(page)
        page.goto(f"/games/{gid}")
        cards = page.locator("#pile-t1 .card")
        expect(cards).to_have_count(13)
        tops = [box["y"] for box in (cards.nth(i).bounding_box() for i in range(13)) if box]
        steps = [b - a for a, b in itertools.pairwise(tops)]
        assert min(steps) >= 14  # every card still shows its rank
        last = cards.last.bounding_box()
        assert last
        bottom = last["y"] + last["height"]
        # It ends above whatever comes below the board: the phone's bottom bar of actions,
        # or the position in words on a desktop.
        limit = float(size["height"])
        for below in (".actions", "#summary"):
            box = page.locator(below).bounding_box()
            if box and box["height"] > 2 and box["y"] > size["height"] / 2:
                limit = min(limit, box["y"])
        assert bottom <= limit
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        shot(page, f"{'phone' if size is PHONE else 'desktop'}-10-long-column")
    finally:
        context.close()
