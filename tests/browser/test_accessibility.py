"""An accessibility audit by a real engine: axe-core (pinned in package.json, installed by
npm, injected into the page here) on the board, its dialogs and the win box, at phone
and desktop size, in both directions: no violation of impact serious or critical."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.shared import SEED_CODE

from .board_helpers import (
    DESKTOP,
    PHONE,
    SIDEWAYS,
    near_won_game,
    open_deal,
    size_name,
    wait_version,
)

Shot = Callable[[Page, str], None]
AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
# WCAG 2.1 A and AA, and axe's best practices, once the page is laid out with its fonts:
# axe measures the boxes it judges colours in, and on a page just opened it judged the
# felt text of the top row on white (1.15:1) in about one run in seven on a busy machine
# (none in 80 runs with the wait).
AUDIT = """async () => {
    await document.fonts.ready;
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    const result = await axe.run(document, {
        runOnly: {
            type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'],
        },
    });
    return result.violations.map((v) => ({
        id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ') + ': ' + n.failureSummary),
    }));
}"""


@pytest.fixture(params=[PHONE, SIDEWAYS, DESKTOP], ids=["phone", "sideways", "desktop"])
def audited(request: pytest.FixtureRequest, browser: Browser, base_url: str) -> Iterator[Page]:
    """A page at phone size (upright or sideways) or desktop size that axe can be injected
    into (the page's own CSP allows no script from elsewhere, so the test context bypasses
    it)."""
    size: dict[str, int] = request.param
    assert AXE.exists(), "axe-core is missing: run `npm ci` (make setup does)"
    phone = size is not DESKTOP
    context = browser.new_context(
        base_url=base_url,
        viewport=size,
        bypass_csp=True,
        reduced_motion="reduce",
        has_touch=phone,
        is_mobile=phone,
    )
    yield context.new_page()
    context.close()


def _audit(page: Page) -> list[dict[str, Any]]:
    """The serious and critical violations axe finds on the page as it is now.

    axe cannot judge text on a gradient, so the felt's gradient is replaced by its
    lightest colour (--felt-light), the worst case for the page's light text, on `html`
    and `body` both (dequelabs/axe-core#560).
    """
    if not page.evaluate("Boolean(window.axe)"):
        page.add_script_tag(path=str(AXE))
        page.add_style_tag(content="html, body { background: var(--felt-light) !important; }")
    found: list[dict[str, Any]] = page.evaluate(AUDIT)
    return [v for v in found if v["impact"] in ("serious", "critical")]


def _won_game(page: Page) -> str:
    game = near_won_game(page)
    response = page.context.request.post(f"/api/games/{game['id']}/moves", data={"move": "KS-f"})
    assert response.status == 200 and response.json()["won"], response.text()
    gid: str = game["id"]
    return gid


@pytest.mark.parametrize("direction", ["ltr", "rtl"])
def test_the_board_and_its_dialogs_pass_axe(audited: Page, direction: str) -> None:
    page = audited
    open_deal(page, SEED_CODE)
    page.evaluate(f"document.documentElement.dir = '{direction}'")
    page.locator("#pile-stock button").click()  # a fanned waste, a disabled-then-enabled Undo
    wait_version(page, 1)
    assert _audit(page) == []
    for opener, dialog in (("#new", "#new-game"), ("#share", "#share-panel")):
        page.locator(opener).click()
        expect(page.locator(dialog)).to_be_visible()
        assert _audit(page) == [], dialog
        page.keyboard.press("Escape")
        expect(page.locator(dialog)).to_be_hidden()
    page.locator("#guide-button").click()
    expect(page.locator("#guide")).to_be_visible()
    assert _audit(page) == [], "guide"


def test_the_audit_finds_a_real_fault(audited: Page) -> None:
    """The audit is not empty by construction: a nameless button and grey-on-green text
    on the same page are found."""
    open_deal(audited, SEED_CODE)
    audited.evaluate(
        """() => {
            document.querySelector('.actions').append(document.createElement('button'));
            const p = document.createElement('p');
            p.textContent = 'Hard to read';
            p.style.color = '#2a7a55';
            document.querySelector('.foot').prepend(p);
        }"""
    )
    found = {v["id"] for v in _audit(audited)}
    assert "button-name" in found


def test_a_new_game_with_undo_off_passes_axe(audited: Page) -> None:
    open_deal(audited, SEED_CODE)
    expect(audited.locator("#undo")).to_be_disabled()
    assert _audit(audited) == []


def test_the_win_box_passes_axe(audited: Page, shot: Shot) -> None:
    """The box and, as it is modal, nothing behind it: the board under its veil is inert
    (the score line there was once judged on white, 1.15:1, in one run in twenty)."""
    page = audited
    page.goto(f"/games/{_won_game(page)}")
    win = page.locator(".win")
    expect(win).to_be_visible()
    expect(win).to_contain_text("You won!")
    assert _audit(page) == []
    shot(page, f"{size_name(page.viewport_size or DESKTOP)}-17-won-audited")


def test_focus_moves_through_the_board_in_reading_order(audited: Page) -> None:
    """Tab goes through the header's buttons, then the piles row by row in the visual
    order: stock, waste, reserve, the foundations, the columns."""
    page = audited
    open_deal(page, SEED_CODE)
    order = []
    page.locator("#guide-button").focus()
    for _ in range(25):
        page.keyboard.press("Tab")
        order.append(
            page.evaluate(
                "() => { const e = document.activeElement;"
                " const pile = e.closest('.pile'); return pile ? pile.id : e.id || e.tagName; }"
            )
        )
    piles = [p for p in order if p.startswith("pile-")]
    firsts = list(dict.fromkeys(piles))
    assert firsts[:3] == ["pile-stock", "pile-waste", "pile-reserve"]
    assert firsts[3:7] == ["pile-fH", "pile-fS", "pile-fD", "pile-fC"]
    assert firsts[7:11] == ["pile-t1", "pile-t2", "pile-t3", "pile-t4"]
