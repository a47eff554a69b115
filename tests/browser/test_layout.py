"""The board's layout on phones (upright and sideways), a laptop's short window and a
desktop: nothing overlaps or overflows, a column of any length (up to all 52 cards) fits
every screen with each corner readable (sideways the page may scroll past 20 cards), and
the page keeps to its CSP (no inline script or style)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.shared import SEED_CODE

from .board_helpers import (
    DESKTOP,
    LAPTOP,
    PHONE,
    PILES,
    SIDEWAYS,
    SIDEWAYS_SMALL,
    SIZES,
    assert_piles_apart,
    box_of,
    card,
    full_column_deck,
    full_column_moves,
    in_pile,
    is_sideways,
    open_deal,
    overlap,
    size_name,
    wait_version,
)

Shot = Callable[[Page, str], None]


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
        assert_piles_apart(page, size["width"])
        # The fanned waste shows three cards side by side, the top one whole.
        waste = page.locator("#pile-waste .card")
        expect(waste).to_have_count(3)
        first, top = waste.first.bounding_box(), waste.last.bounding_box()
        assert first and top and top["x"] > first["x"] + 10
        waste_box = box_of(page.locator("#pile-waste"))
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
        shot(page, f"{size_name(size)}-9-layout")
    finally:
        context.close()


# How each card of column 1 shows: its strip (the part not covered by the next card of
# the same track), the corner's font size and the width its rank and suit need.
CARD_STRIPS = """() => {
    const cards = [...document.querySelectorAll('#pile-t1 .card')];
    const canvas = document.createElement('canvas').getContext('2d');
    return cards.map((el, i) => {
        const box = el.getBoundingClientRect();
        const next = cards[i + 1] && cards[i + 1].getBoundingClientRect();
        const covered = next && Math.abs(next.left - box.left) < 1 && next.top > box.top;
        const face = getComputedStyle(el, '::before');
        canvas.font = `${face.fontWeight} ${face.fontSize} ${face.fontFamily}`;
        canvas.letterSpacing = face.letterSpacing;
        const corner = face.content.replace(/"/g, '').replace(/ /g, '');
        return {
            card: el.dataset.card, left: box.left, right: box.right, top: box.top,
            bottom: covered ? next.top : box.bottom,
            shown: (covered ? next.top : box.bottom) - box.top,
            font: parseFloat(face.fontSize), corner,
            needs: canvas.measureText(corner).width + parseFloat(face.paddingLeft)
                + parseFloat(face.paddingRight),
        };
    });
}"""


def _column_game(page: Page, moves: list[str]) -> str:
    """A draw-1 game of full_column_deck() after `moves` (the page's own player)."""
    request = page.context.request
    response = request.post("/api/games", data={"deck": full_column_deck(), "rules": {"draw": 1}})
    assert response.status == 201, response.text()
    gid: str = response.json()["id"]
    for move in moves:
        response = request.post(f"/api/games/{gid}/moves", data={"move": move})
        assert response.status == 200, response.text()
    return gid


def strip_box(strip: dict[str, float]) -> dict[str, float]:
    """The box of a card's strip (CARD_STRIPS)."""
    return {
        "x": strip["left"], "y": strip["top"],
        "width": strip["right"] - strip["left"], "height": strip["bottom"] - strip["top"],
    }  # fmt: skip


# Sideways a phone's columns are short: a column of more cards than this may make the page
# scroll (its strips stay readable); one of this many fits the screen.
SIDEWAYS_FITS = 20


def _check_column_fits(page: Page, size: dict[str, int], length: int) -> None:
    """Column 1 holds `length` cards, all inside the screen, above the phone's bar of
    actions and the summary, within its own pile's width, each corner readable whole; a
    phone held sideways may scroll for a column longer than SIDEWAYS_FITS."""
    expect(page.locator("#pile-t1 .card")).to_have_count(length)
    strips = page.evaluate(CARD_STRIPS)
    scrolls = is_sideways(size) and length > SIDEWAYS_FITS
    height = page.evaluate("document.documentElement.scrollHeight")
    limit = float(height if scrolls else size["height"])
    for below in (".actions", "#summary"):
        box = page.locator(below).bounding_box()
        across = box and box["width"] > size["width"] / 2  # not the rail of a phone sideways
        if box and across and box["height"] > 2 and box["y"] > size["height"] / 2:
            limit = min(limit, box["y"])
    rail = box_of(page.locator(".bar"))
    pile = box_of(page.locator("#pile-t1"))
    for strip in strips:
        where = (length, strip["card"], size)
        assert strip["top"] >= 0 and strip["bottom"] <= limit + 0.5, where
        assert pile["x"] - 0.5 <= strip["left"], where
        assert strip["right"] <= pile["x"] + pile["width"] + 0.5, where
        assert not overlap(strip_box(strip), rail), where  # nor under the header
        assert strip["font"] >= 11, where  # a rank and suit of 11 px or more
        assert strip["shown"] >= strip["font"] - 0.5, where  # the corner is not cut
        assert strip["needs"] <= strip["right"] - strip["left"] + 0.5, where  # nor clipped
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    assert scrolls or height <= size["height"]


@pytest.mark.parametrize("size", SIZES, ids=[f"{s['width']}x{s['height']}" for s in SIZES])
def test_a_full_column_of_52_cards_fits_every_screen(
    browser: Browser, base_url: str, size: dict[str, int], shot: Shot
) -> None:
    context = browser.new_context(base_url=base_url, viewport=size, reduced_motion="reduce")
    try:
        page = context.new_page()
        gid = _column_game(page, full_column_moves())
        page.goto(f"/games/{gid}")
        _check_column_fits(page, size, 52)
        shot(page, f"{size['width']}x{size['height']}-13-full-column")
        if size["width"] >= 700 and size["height"] > 560:
            # The long position in words keeps to two lines until the player opens it.
            summary = page.locator("#summary")
            closed = box_of(summary)["height"]
            assert closed < 3 * 16
            page.locator("#summary-more").click()
            expect(page.locator("#summary-more")).to_have_attribute("aria-expanded", "true")
            assert box_of(summary)["height"] > 2 * closed
    finally:
        context.close()


@pytest.mark.parametrize("size", [PHONE, SIDEWAYS_SMALL], ids=["phone", "sideways"])
def test_a_column_stays_readable_at_every_length_as_it_grows(
    browser: Browser, base_url: str, shot: Shot, size: dict[str, int]
) -> None:
    """On the smallest phones, upright and sideways, at each length where the layout
    changes (and between)."""
    context = browser.new_context(base_url=base_url, viewport=size, reduced_motion="reduce")
    try:
        page = context.new_page()
        moves = full_column_moves()
        gid = _column_game(page, [])
        played = 0
        for length in (6, 7, 8, 12, 13, 18, 20, 21, 26, 32, 33, 40, 47, 52):
            # Column 1 holds 1 card, then one more per reserve/foundation/column move (17
            # of them), then one per two stock moves (draw, play).
            wanted = length - 1 if length <= 18 else 17 + 2 * (length - 18)
            for move in moves[played:wanted]:
                response = page.context.request.post(f"/api/games/{gid}/moves", data={"move": move})
                assert response.status == 200, response.text()
            played = wanted
            page.goto(f"/games/{gid}")
            _check_column_fits(page, size, length)
            if length in (8, 12, 13, 21, 33):
                shot(page, f"{size_name(size)}-14-column-of-{length}")
    finally:
        context.close()


@pytest.mark.parametrize("language", ["en", "he"])
@pytest.mark.parametrize("size", [SIDEWAYS, SIDEWAYS_SMALL], ids=["740x360", "568x320"])
def test_a_phone_held_sideways_has_the_board_beside_a_rail(
    browser: Browser, base_url: str, shot: Shot, size: dict[str, int], language: str
) -> None:
    """Sideways, the header is a rail along the inline end (the right, or the left in
    Hebrew) and the board has the whole height beside it: nothing scrolls, nothing lies
    under the rail, the counts show, the menu opens beside it, and a tap plays."""
    context = browser.new_context(
        base_url=base_url, viewport=size, has_touch=True, is_mobile=True, reduced_motion="reduce"
    )
    try:
        page = context.new_page()
        open_deal(page, SEED_CODE)
        page.goto(f"{page.url}?lang={language}")
        expect(page.locator("html")).to_have_attribute("lang", language)
        rail = box_of(page.locator(".bar"))
        assert rail["y"] <= 0.5 and rail["height"] >= size["height"] - 0.5
        if language == "he":
            assert rail["x"] <= 0.5
        else:
            assert rail["x"] + rail["width"] >= size["width"] - 0.5
        assert_piles_apart(page, size["width"])
        for pile in PILES:
            assert not overlap(box_of(page.locator(f"#{pile}")), rail), pile
        for button in page.locator(".bar button").all():
            if button.is_visible():
                box = box_of(button)
                assert rail["x"] - 0.5 <= box["x"]
                assert box["x"] + box["width"] <= rail["x"] + rail["width"] + 0.5
                assert box["y"] >= -0.5 and box["y"] + box["height"] <= size["height"] + 0.5
        for name in ("#undo", "#hint", "#share", "#new", "#menu-button", "#guide-button"):
            expect(page.locator(name)).to_be_visible()
        assert page.evaluate("document.documentElement.scrollHeight") <= size["height"]
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        # The stock's and the reserve's counts show whole, the name with them where it fits.
        for pile, count in (("stock", "34"), ("reserve", "13")):
            caption = page.locator(f"#pile-{pile} .caption")
            expect(caption.locator(".count")).to_have_text(count)
            expect(caption.locator(".count")).to_be_visible()
            assert caption.evaluate("e => e.scrollWidth <= e.clientWidth"), pile
        # No room for the rules at a glance (the ? has them); "Still winnable?" has its own.
        expect(page.locator(".glance")).to_be_hidden()
        switch = box_of(page.locator(".assist"))
        for pile in PILES:
            assert not overlap(box_of(page.locator(f"#{pile}")), switch), pile
        shot(page, f"sideways-{size['width']}x{size['height']}-{language}")
        # The menu opens beside the rail and keeps to the screen (it scrolls within).
        page.locator("#menu-button").click()
        menu = page.locator("#menu")
        expect(menu).to_be_visible()
        box = box_of(menu)
        assert not overlap(box, rail)
        assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 0.5
        assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"] + 0.5
        page.keyboard.press("Escape")
        expect(menu).to_be_hidden()
        # A tap plays (SPEC §9's first move).
        card(page, "QC").tap()
        wait_version(page, 1)
        expect(in_pile(page, "t2", "QC")).to_be_visible()
        # The pages beside the board have no rail: their sheet stays in the middle.
        page.goto("/stats")
        sheet = box_of(page.locator(".sheet"))
        assert abs(sheet["x"] - (size["width"] - sheet["x"] - sheet["width"])) <= 1
    finally:
        context.close()


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize(
    "size", [LAPTOP, {"width": 1024, "height": 600}], ids=["1366x640", "1024x600"]
)
def test_a_short_window_holds_the_board_without_scrolling(
    browser: Browser, base_url: str, shot: Shot, size: dict[str, int], language: str
) -> None:
    """A laptop's browser window (the header in two rows there): the board, the rules at
    a glance (scrolling within their room when the language is long) and the footer fit."""
    context = browser.new_context(base_url=base_url, viewport=size, reduced_motion="reduce")
    try:
        page = context.new_page()
        open_deal(page, SEED_CODE)
        page.goto(f"{page.url}?lang={language}")
        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page.locator(".glance")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollHeight") <= size["height"]
        # The rules end with the columns' row, not over the footer (Russian's ran 28 px on).
        tableau = box_of(page.locator(".tableau"))
        glance = box_of(page.locator(".glance"))
        assert glance["y"] + glance["height"] <= tableau["y"] + tableau["height"] + 0.5
        assert_piles_apart(page, size["width"])
        shot(page, f"short-{size['width']}x{size['height']}-{language}")
    finally:
        context.close()
