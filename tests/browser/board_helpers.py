"""What the browser tests do on the board: open deals, read piles, click, drag, touch."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import APIRequestContext, Locator, Page, expect

from app.solver import STILL_WINNABLE_BUDGET

PHONE = {"width": 360, "height": 640}
DESKTOP = {"width": 1280, "height": 800}
# A laptop's browser window (a 1366x768 screen less the browser's bars).
LAPTOP = {"width": 1366, "height": 640}
# Phones held sideways: Android's common 740 x 360 and the smallest iPhone's 568 x 320.
SIDEWAYS = {"width": 740, "height": 360}
SIDEWAYS_SMALL = {"width": 568, "height": 320}
PILES = [
    "pile-stock", "pile-waste", "pile-reserve", "pile-fC", "pile-fD", "pile-fH", "pile-fS",
    "pile-t1", "pile-t2", "pile-t3", "pile-t4",
]  # fmt: skip
# The sizes the board must fit: two phones upright and two sideways, a tablet, a laptop's
# short window and a desktop.
SIZES = [
    PHONE, {"width": 390, "height": 844}, SIDEWAYS, SIDEWAYS_SMALL,
    {"width": 768, "height": 1024}, LAPTOP, DESKTOP,
]  # fmt: skip
# How long (ms) the page may wait for the computer player's answer (a hint, a "still
# winnable?" verdict): the search runs in a solver worker that the server's first search
# spawns, for up to STILL_WINNABLE_BUDGET (10 s) of its own, on a machine that `make
# test` shares with other test workers and their browsers. Playwright's default of 5 s
# is shorter than the server may rightly take.
COMPUTER_WAIT = int((STILL_WINNABLE_BUDGET.seconds + 20) * 1000)


def is_sideways(size: dict[str, int]) -> bool:
    """Whether the board is laid out for a phone held sideways at `size` (board.css: a
    landscape screen at most 560 px high and at least 560 wide)."""
    return size["width"] > size["height"] and size["height"] <= 560 <= size["width"]


def size_name(size: dict[str, int]) -> str:
    """The layout `size` gets, as the screenshots name it: phone, sideways or desktop."""
    if is_sideways(size):
        return "sideways"
    return "phone" if size["width"] < 700 else "desktop"


def open_deal(page: Page, code: str) -> str:
    """Start a new game of `code` through the share link; returns the game id. During a
    game in progress the link asks first (SPEC §10): the player agrees."""
    page.goto(f"/deal/{code}")
    if not re.search(r"/games/[^/]+$", page.url):
        page.locator("form[action^='/deal/'] button.primary").click()
    page.wait_for_url(re.compile(r"/games/[^/]+$"))
    expect(page.locator("#status")).to_have_attribute("data-version", "0")
    return game_id(page)


def game_id(page: Page) -> str:
    gid = page.locator("#status").get_attribute("data-game-id")
    assert gid
    return gid


def api_game(page: Page, gid: str) -> dict[str, Any]:
    """The game as the server holds it (same cookies as the page)."""
    response = page.context.request.get(f"/api/games/{gid}")
    assert response.status == 200, response.text()
    game: dict[str, Any] = response.json()
    return game


def card(page: Page, name: str) -> Locator:
    return page.locator(f'#table .card[data-card="{name}"]')


def in_pile(page: Page, pile: str, name: str) -> Locator:
    return page.locator(f'#pile-{pile} .card[data-card="{name}"]')


def wait_version(page: Page, version: int) -> None:
    expect(page.locator("#status")).to_have_attribute("data-version", str(version))


def _grip(box: dict[str, float]) -> tuple[float, float]:
    # The top strip of a card is always visible, even in a squeezed column.
    return box["x"] + box["width"] / 2, box["y"] + min(10.0, box["height"] / 2)


def _centre(box: dict[str, float]) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def mouse_drag(page: Page, source: Locator, target: Locator) -> None:
    """Drag `source` (with the cards on it) with the mouse and drop it on `target`."""
    start = source.bounding_box()
    end = target.bounding_box()
    assert start and end
    x, y = _grip(start)
    tx, ty = _centre(end)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(tx, ty, steps=8)
    page.mouse.up()


def touch_drag(page: Page, source: Locator, target: Locator) -> None:
    """The same with a finger: real touch input, which Chromium turns into touch pointers."""
    start = source.bounding_box()
    end = target.bounding_box()
    assert start and end
    x, y = _grip(start)
    tx, ty = _centre(end)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for step in range(1, 11):
        px = x + (tx - x) * step / 10
        py = y + (ty - y) * step / 10
        cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": px, "y": py}]}
        )
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def near_won_deck() -> list[str]:
    """A deck that a draw-1 game plays out card by card onto the foundations.

    The base card is AC; the columns hold the other aces and 2C; the reserve (top last)
    refills them with the twos to 5D in foundation order; the stock holds 5H…KS in order.
    """
    ranks = "A23456789TJQK"
    order = [rank + suit for rank in ranks for suit in "CDHS"]  # AC AD AH AS 2C 2D …
    reserve_top_first = order[5:18]  # 2D … 5D
    return [*reversed(reserve_top_first), "AC", *order[1:5], *order[18:]]


def near_won_game(page: Page) -> dict[str, Any]:
    """`play_to_the_last_card` as the page's own player (its cookies)."""
    return play_to_the_last_card(page.context.request)


def assert_piles_apart(page: Page, width: int) -> None:
    """No two piles overlap, and every pile is inside the screen's width."""
    boxes = {pile: box_of(page.locator(f"#{pile}")) for pile in PILES}
    for i, a in enumerate(PILES):
        for b in PILES[i + 1 :]:
            assert not overlap(boxes[a], boxes[b]), (a, b)
    for pile, box in boxes.items():
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, pile
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def watch_for_cascade(page: Page) -> None:
    """Note in window.cascadeWatch whether the win cascade layer ever appears on this page.

    The watcher proves itself first (it must see a probe layer come and go), so that a
    silent watcher means no cascade, not a watcher that never attached.
    """
    attached = page.evaluate(
        """async () => {
            const watch = {seen: false};
            new MutationObserver((records) => {
                for (const r of records) for (const n of r.addedNodes) {
                    if (n.classList && n.classList.contains('cascade')) watch.seen = true;
                }
            }).observe(document.body, {childList: true, subtree: true});
            const probe = document.createElement('div');
            probe.className = 'cascade';
            document.body.appendChild(probe);
            probe.remove();
            await new Promise((resolve) => setTimeout(resolve, 0));
            const works = watch.seen;
            watch.seen = false;
            window.cascadeWatch = watch;
            return works;
        }"""
    )
    assert attached is True, "the cascade watcher did not see its probe"


def saw_cascade(page: Page) -> bool:
    """Whether the cascade appeared since `watch_for_cascade` (on the same page)."""
    seen = page.evaluate("window.cascadeWatch ? window.cascadeWatch.seen : null")
    assert seen is not None, "no cascade watcher on this page (was it reloaded?)"
    return bool(seen)


def play_to_the_last_card(request: APIRequestContext) -> dict[str, Any]:
    """A new draw-1 game of `near_won_deck`, played through the API (each answer checked)
    until only the KS is left, on the waste; returns the game."""
    response = request.post(
        "/api/games", data={"deck": near_won_deck(), "rules": {"preset": "app", "draw": 1}}
    )
    assert response.status == 201, response.text()
    game: dict[str, Any] = response.json()
    while game["stock"] or len(game["waste"]) != 1:
        to_foundation = [m for m in game["legal_moves"] if m.endswith("-f")]
        move = to_foundation[0] if to_foundation else "draw"
        response = request.post(
            f"/api/games/{game['id']}/moves", data={"move": move, "version": game["version"]}
        )
        assert response.status == 200, response.text()
        game = response.json()
    assert game["waste"] == ["KS"] and not game["won"]
    return game


def box_of(locator: Locator) -> dict[str, float]:
    """The element's bounding box (it must be shown)."""
    found = locator.bounding_box()
    assert found, locator
    return found


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    """Whether two boxes overlap by more than half a pixel."""
    return (
        a["x"] < b["x"] + b["width"] - 0.5
        and b["x"] < a["x"] + a["width"] - 0.5
        and a["y"] < b["y"] + b["height"] - 0.5
        and b["y"] < a["y"] + a["height"] - 0.5
    )


def open_new_game(page: Page, preset: str, draw: str) -> Locator:
    """Open the New game dialog and choose a preset and a draw by their labels."""
    page.locator("#new").click()
    dialog = page.locator("#new-game")
    expect(dialog).to_be_visible()
    dialog.get_by_label(preset).check()
    dialog.get_by_label(draw).check()
    return dialog


def full_column_run() -> list[str]:
    """All 52 cards as one column, top to bottom: K♠ Q♥ J♠ … A♥ K♣ … (down in alternating
    colours, a king on an ace), each (rank, colour) twice: spades and hearts, then clubs
    and diamonds."""
    ranks = "A23456789TJQK"
    run = []
    for i in range(52):
        rank = ranks[(12 - i) % 13]
        black = i % 2 == 0
        first = i < 26
        run.append(rank + ("S" if first else "C") if black else rank + ("H" if first else "D"))
    return run


def full_column_deck() -> list[str]:
    """The deck (dealing order) whose game, played by FULL_COLUMN_MOVES under draw 1,
    builds full_column_run() in column 1: the run's first card is dealt to t1, the next 13
    are the reserve (top first), then the base card, the other three columns and the stock
    in order."""
    run = full_column_run()
    reserve = list(reversed(run[1:14]))  # d[12] is the reserve's top
    return [*reserve, run[14], run[0], *run[15:18], *run[18:]]


def full_column_moves() -> list[str]:
    """Every card onto t1 in turn: the reserve, the base card back from its foundation,
    the other columns, then each stock card drawn and played."""
    run = full_column_run()
    moves = [f"{name}-t1" for name in run[1:18]]
    for name in run[18:]:
        moves += ["draw", f"{name}-t1"]
    return moves
