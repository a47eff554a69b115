"""The page in Polish, Hebrew and Russian (SPEC §11), in Chromium: the §9 game played at
phone size with the live summary read after each move, the switch, right to left, and
screenshots of every language at phone size (upright and sideways) and desktop size
(screenshots/lang-*.png)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from app.engine import DealCode, Game
from tests.shared import SEED_CODE, seed_summaries

from .board_helpers import (
    DESKTOP,
    PHONE,
    SIDEWAYS,
    card,
    in_pile,
    open_deal,
    size_name,
    touch_drag,
    wait_version,
)

Shot = Callable[[Page, str], None]
LANGUAGES = ("en", "pl", "he", "ru")
REFUSALS = {
    "en": "The 6 of clubs has no move just now.",
    "pl": "6 trefl nie ma teraz żadnego ruchu.",
    "he": "לקלף 6 תלתן אין כרגע מהלך.",
    "ru": "6 треф: сейчас для этой карты нет хода.",
}


@pytest.fixture
def contexts(browser: Browser, base_url: str) -> Iterator[Callable[..., BrowserContext]]:
    """New browser contexts (a new player each), closed at the end."""
    made: list[BrowserContext] = []

    def make(size: dict[str, int], **options: object) -> BrowserContext:
        phone = size is not DESKTOP
        context = browser.new_context(
            base_url=base_url,
            viewport=size,
            has_touch=phone,
            is_mobile=phone,
            reduced_motion="reduce",
            **options,  # type: ignore[arg-type]
        )
        made.append(context)
        return context

    yield make
    for context in made:
        context.close()


def expected_summaries(language: str) -> list[str]:
    """The §9 game's summary in `language`: the opening and after each of its three moves."""
    game = Game(DealCode.parse(SEED_CODE))
    summaries = [game.summary(language)]
    for move in ("QC-t2", "8H-f", "KH-t4"):
        game.play(move)
        summaries.append(game.summary(language))
    return summaries


def play_the_seed_game_by_touch(page: Page, summaries: list[str]) -> None:
    """The three moves of §9 by taps and a touch drag, the live summary checked after each."""
    summary = page.locator("#summary")
    expect(summary).to_have_text(summaries[0])
    card(page, "QC").tap()
    wait_version(page, 1)
    expect(summary).to_have_text(summaries[1])
    card(page, "8H").tap()
    wait_version(page, 2)
    expect(summary).to_have_text(summaries[2])
    touch_drag(page, in_pile(page, "t2", "KH"), in_pile(page, "t4", "AS"))
    wait_version(page, 3)
    expect(summary).to_have_text(summaries[3])


def nothing_overflows(page: Page, width: int) -> None:
    """No text sticks out sideways, the names in empty piles fit them, and the header's
    controls do not overlap each other."""
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    names = page.locator(".slot.named")
    assert names.count() > 0
    for name in names.all():
        assert name.evaluate(
            "e => e.scrollWidth <= e.clientWidth && e.scrollHeight <= e.clientHeight"
        ), name.text_content()
    boxes = page.evaluate(
        """() => [...document.querySelectorAll('.bar button, .bar .stat, .bar h1')]
            .filter(e => e.checkVisibility() && e.getBoundingClientRect().width > 2
                         && e.getBoundingClientRect().height > 2)
            .map(e => { const r = e.getBoundingClientRect();
                        return [e.textContent.trim(), r.left, r.top, r.right, r.bottom]; })"""
    )
    for i, (name, left, top, right, bottom) in enumerate(boxes):
        assert left >= 0 and right <= width + 0.5, f"{name!r} is cut off"
        for other, left2, top2, right2, bottom2 in boxes[i + 1 :]:
            apart = right <= left2 or right2 <= left or bottom <= top2 or bottom2 <= top
            assert apart, f"{name!r} overlaps {other!r}"
    # Each word of a button's label stays whole, on one line, inside its button.
    broken = page.evaluate(
        """() => {
            const out = [];
            for (const button of document.querySelectorAll('.bar button, .actions button')) {
                if (!button.checkVisibility()) continue;
                const box = button.getBoundingClientRect();
                const texts = document.createTreeWalker(button, NodeFilter.SHOW_TEXT);
                for (let text = texts.nextNode(); text; text = texts.nextNode()) {
                    for (const word of text.data.matchAll(/\\S+/g)) {
                        const range = document.createRange();
                        range.setStart(text, word.index);
                        range.setEnd(text, word.index + word[0].length);
                        const rects = [...range.getClientRects()];
                        const lines = new Set(rects.map(r => Math.round(r.top)));
                        const inside = rects.every(r => r.left >= box.left - 0.5
                                                        && r.right <= box.right + 0.5);
                        if (lines.size > 1 || !inside) out.push(word[0]);
                    }
                }
            }
            return out;
        }"""
    )
    assert not broken, f"words broken or sticking out of their buttons: {broken}"


def play_the_seed_game_in(page: Page, shot: Shot, language: str, seed: str, first: str) -> None:
    """The §9 game on a phone in `language`, whose seed's sentences (the lines of `seed`
    that start with `first`) are the opening and the summary after the three moves."""
    summaries = expected_summaries(language)
    assert [summaries[0], summaries[-1]] == seed_summaries(seed, first)
    shot(page, f"lang-{language}-phone-opening")
    play_the_seed_game_by_touch(page, summaries)
    shot(page, f"lang-{language}-phone-after-three")
    nothing_overflows(page, PHONE["width"])


def test_the_seed_game_in_polish_on_a_phone_chosen_with_the_switch(
    contexts: Callable[..., BrowserContext], shot: Shot
) -> None:
    page = contexts(PHONE).new_page()
    open_deal(page, SEED_CODE)
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.locator("#menu-button").click()  # the menu, top left, holds the switch
    switch = page.locator("#menu .languages")
    expect(switch).to_be_visible()
    shot(page, "lang-switch-phone")
    switch.locator('button[value="pl"]').click()
    expect(page.locator("html")).to_have_attribute("lang", "pl")
    expect(switch.locator('button[value="pl"]')).to_have_attribute("aria-pressed", "true")
    play_the_seed_game_in(page, shot, "pl", "000", "Talia: ")
    # The choice is remembered: a reload speaks Polish still.
    page.reload()
    expect(page.locator("#summary")).to_have_text(expected_summaries("pl")[-1])


def test_the_seed_game_in_hebrew_on_a_phone_right_to_left(
    contexts: Callable[..., BrowserContext], shot: Shot
) -> None:
    page = contexts(PHONE, locale="he-IL").new_page()  # Accept-Language: he-IL
    open_deal(page, SEED_CODE)
    expect(page.locator("html")).to_have_attribute("lang", "he")
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    play_the_seed_game_in(page, shot, "he", "002", "חפיסת משיכה: ")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", [PHONE, SIDEWAYS, DESKTOP], ids=["phone", "sideways", "desktop"])
def test_every_language_at_phone_and_desktop_size(
    contexts: Callable[..., BrowserContext], shot: Shot, language: str, size: dict[str, int]
) -> None:
    page = contexts(size).new_page()
    open_deal(page, SEED_CODE)
    page.goto(f"{page.url}?lang={language}")
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.locator("#summary")).to_have_text(expected_summaries(language)[0])
    # A refusal in the page's language (the htmx request carries no ?lang= of its own).
    card(page, "6C").click()
    expect(page.locator("#message")).to_have_text(REFUSALS[language])
    shot(page, f"lang-{language}-{size_name(size)}")
    nothing_overflows(page, size["width"])
