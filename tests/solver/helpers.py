"""Test helpers: every rule combination, small hand-made positions, and engine-only searches.

Everything here uses only the engine's own `legal_moves` and `apply_move`, so
the solver is judged against the rules, never against itself.
"""

from __future__ import annotations

import itertools
import random
from collections import deque
from collections.abc import Hashable

from app.engine import DRAW, Card, Move, Position, Rules, apply_move, legal_moves

PLAY_OPTIONS = {
    "draw": (1, 3),
    "passes": (None, 1, 2),
    "tableau_moves": ("any-run", "top-or-all", "all"),
    "empty_column": ("any", "waste"),
    "foundation_to_tableau": (True, False),
    "autocomplete": (True, False),
}


def every_rules() -> list[Rules]:
    """Every combination of the options that change what can be played (144 rule sets)."""
    names = list(PLAY_OPTIONS)
    return [
        Rules.preset_named("app", **dict(zip(names, values, strict=True)))
        for values in itertools.product(*PLAY_OPTIONS.values())
    ]


def rules_id(rules: Rules) -> str:
    return rules.token


def small_position(
    rng: random.Random, rules: Rules, out: int, reserve: int = 3, suits: int = 4, trap: float = 0.5
) -> Position:
    """A position of real play with `out` cards of `suits` suits off the foundations.

    Up to `reserve` of them are in the reserve. Columns are runs (other colour,
    one lower), and while the reserve has cards no column is empty, as in any
    game. With probability `trap` the reserve or the stock gets a card above a lower card
    of its own suit, the usual way a game gets stuck.
    """
    start = rng.randrange(13)
    open_suits = rng.sample(range(4), suits)
    out = min(out, 13 * suits)
    missing = [0, 0, 0, 0]
    while sum(missing) < out:
        suit = rng.choice(open_suits)
        if missing[suit] < 13:
            missing[suit] += 1
    found = [13 - m for m in missing]
    pool = [
        Card.of((start + found[suit] + i) % 13, suit)
        for suit in range(4)
        for i in range(missing[suit])
    ]
    rng.shuffle(pool)
    reserve_cards = [pool.pop() for _ in range(rng.randint(0, min(reserve, len(pool))))]
    columns: list[list[Card]] = [[], [], [], []]
    for column in columns:
        if pool and rng.random() < 0.7:
            column.append(pool.pop())
            _grow_run(rng, column, pool, 0.6)
    talon = pool
    if rng.random() < trap:
        _invert_a_suit(rng, reserve_cards if rng.random() < 0.5 else talon, start)
    for column in columns:
        if not column and reserve_cards:
            # Real play never leaves a column empty beside a reserve.
            column.append(reserve_cards.pop(0))
    pointer = rng.randint(0, len(talon))
    pass_number = rng.randint(1, rules.passes) if rules.passes else 1
    return Position(
        stock=tuple(reversed(talon[pointer:])),
        waste=tuple(talon[:pointer]),
        reserve=tuple(reserve_cards),
        foundations=(found[0], found[1], found[2], found[3]),
        tableau=tuple(tuple(column) for column in columns),
        pass_number=pass_number,
        start_rank=start,
        base_suit=rng.randrange(4),
    )


def shaped_position(
    stream: str,
    seed: int,
    rules: Rules,
    out: tuple[int, int],
    reserve: tuple[int, int],
    suits: int | tuple[int, int],
    trap: float | None,
) -> Position:
    """`small_position` from the stream `stream/seed`, its size drawn from `seed`: `out`
    and `reserve` between their bounds, then `suits` (a number, or bounds) and `trap` (a
    chance, or None to draw it), in that order (the seeds the tests pick depend on it)."""
    shape = random.Random(seed)
    return small_position(
        random.Random(f"{stream}/{seed}"),
        rules,
        out=shape.randint(*out),
        reserve=shape.randint(*reserve),
        suits=suits if isinstance(suits, int) else shape.randint(*suits),
        trap=shape.random() if trap is None else trap,
    )


def endgame_position(rng: random.Random) -> Position:
    """A position late in a game: one suit all off its foundation, a few cards of the
    others, up to 3 in the reserve, the columns long runs. Only here can a column hold a
    card above a lower one of its suit (on a start-rank card), which is what deadlocks."""
    start = rng.randrange(13)
    whole = rng.randrange(4)
    found = [13, 13, 13, 13]
    found[whole] = 0
    for _ in range(rng.randint(2, 6)):
        suit = rng.choice([s for s in range(4) if s != whole])
        found[suit] -= 1
    pool = [Card.of((start + found[s] + i) % 13, s) for s in range(4) for i in range(13 - found[s])]
    rng.shuffle(pool)
    reserve = [pool.pop() for _ in range(rng.randint(0, 3))]
    columns: list[list[Card]] = [[], [], [], []]
    for column in columns:
        if pool:
            column.append(pool.pop())
            _grow_run(rng, column, pool, 0.85)
    for column in columns:
        if not column and reserve:
            column.append(reserve.pop(0))
    pointer = rng.randint(0, len(pool))
    return Position(
        stock=tuple(reversed(pool[pointer:])),
        waste=tuple(pool[:pointer]),
        reserve=tuple(reserve),
        foundations=(found[0], found[1], found[2], found[3]),
        tableau=tuple(tuple(column) for column in columns),
        pass_number=1,
        start_rank=start,
        base_suit=rng.randrange(4),
    )


def twin_position(rng: random.Random) -> Position:
    """A position late in a game with the reserve empty, the first two columns holding twin
    runs as far as they go (the same ranks, each card's twin: the other suit of its colour),
    one suit all off its foundation: where a card may stay on its twin's parent
    (`Problem._top_may_leave`)."""
    start = rng.randrange(13)
    found = [13 - rng.randint(2, 5) for _ in range(4)]
    found[rng.randrange(4)] = 0
    pool = [Card.of((start + found[s] + i) % 13, s) for s in range(4) for i in range(13 - found[s])]
    rng.shuffle(pool)
    columns: list[list[Card]] = [[pool.pop()], [], [], []]
    _grow_run(rng, columns[0], pool, 0.9)
    for card in columns[0]:
        twin = Card.of(card.rank, 3 - card.suit)
        top = columns[1][-1] if columns[1] else None
        if twin not in pool or (top and (twin.red == top.red or (twin.rank + 1) % 13 != top.rank)):
            break
        pool.remove(twin)
        columns[1].append(twin)
    for column in columns[2:]:
        if pool and rng.random() < 0.8:
            column.append(pool.pop())
            _grow_run(rng, column, pool, 0.7)
    pointer = rng.randint(0, len(pool))
    return Position(
        stock=tuple(reversed(pool[pointer:])),
        waste=tuple(pool[:pointer]),
        reserve=(),
        foundations=(found[0], found[1], found[2], found[3]),
        tableau=tuple(tuple(column) for column in columns),
        pass_number=1,
        start_rank=start,
        base_suit=rng.randrange(4),
    )


def _grow_run(rng: random.Random, column: list[Card], pool: list[Card], more: float) -> None:
    """Put cards of `pool` that fit on `column`'s last card, each with probability `more`."""
    while rng.random() < more:
        top = column[-1]
        fits = [c for c in pool if c.red != top.red and (c.rank + 1) % 13 == top.rank]
        if not fits:
            break
        card = rng.choice(fits)
        pool.remove(card)
        column.append(card)


def _invert_a_suit(rng: random.Random, pile: list[Card], start: int) -> None:
    """Reorder two same-suit cards of `pile` so the higher one comes later (nearer the top)."""
    pairs = [
        (i, j)
        for i in range(len(pile))
        for j in range(i + 1, len(pile))
        if pile[i].suit == pile[j].suit
    ]
    if pairs:
        i, j = rng.choice(pairs)
        if (pile[i].rank - start) % 13 > (pile[j].rank - start) % 13:
            pile[i], pile[j] = pile[j], pile[i]


def canonical(position: Position, rules: Rules) -> Hashable:
    """A position up to the order of its columns (and its pass number when passes are unlimited)."""
    return (
        tuple(sorted(position.tableau, key=lambda col: [c.index for c in col])),
        position.stock,
        position.waste,
        position.reserve,
        position.foundations,
        position.pass_number if rules.passes is not None else 0,
    )


def naive_winnable(position: Position, rules: Rules, limit: int = 200_000) -> bool:
    """Breadth-first search over engine moves with a visited set; raises if over `limit`."""
    seen = {canonical(position, rules)}
    queue = deque([position])
    while queue:
        here = queue.popleft()
        if here.won:
            return True
        for move in legal_moves(here, rules):
            after = apply_move(here, rules, move)
            key = canonical(after, rules)
            if key not in seen:
                seen.add(key)
                queue.append(after)
        if len(seen) > limit:
            raise AssertionError("the brute-force search grew too large for a test")
    return False


def engine_step_results(position: Position, rules: Rules) -> set[Hashable]:
    """Every position one solver step away, by the engine: draws, then one card move.

    For each waste top the draws can bring up (the first time each appears), each
    legal move of that card; and every other legal move of `position` itself.
    """
    results: set[Hashable] = set()
    for move in legal_moves(position, rules):
        if move != DRAW:
            results.add(canonical(apply_move(position, rules, move), rules))
    here = position
    seen_pointers = {len(position.waste)}
    start_pass = position.pass_number
    while DRAW in legal_moves(here, rules) and here.pass_number < start_pass + 2:
        here = apply_move(here, rules, DRAW)
        pointer = len(here.waste)
        if pointer in seen_pointers or not here.waste:
            continue
        seen_pointers.add(pointer)
        top = here.waste[-1]
        for move in legal_moves(here, rules):
            if move.card == top:
                results.add(canonical(apply_move(here, rules, move), rules))
    return results


def replays_to_a_win(position: Position, rules: Rules, line: tuple[Move, ...]) -> bool:
    """Apply every move of `line` with the engine (raising if one is illegal); is it won?"""
    for move in line:
        position = apply_move(position, rules, move)
    return position.won


def every_state(
    position: Position, rules: Rules, limit: int = 50_000
) -> list[tuple[Position, bool]]:
    """Every position reachable from `position` by engine moves (up to column order), each
    with whether some line from it wins, found by working back from the won ones; raises
    if there are more than `limit`."""
    index = {canonical(position, rules): 0}
    positions = [position]
    parents: list[list[int]] = [[]]
    won: list[int] = []
    k = 0
    while k < len(positions):
        here = positions[k]
        if here.won:
            won.append(k)
        for move in legal_moves(here, rules):
            after = apply_move(here, rules, move)
            key = canonical(after, rules)
            j = index.get(key)
            if j is None:
                if len(positions) >= limit:
                    raise AssertionError("the state space grew too large for a test")
                j = index[key] = len(positions)
                positions.append(after)
                parents.append([])
            parents[j].append(k)
        k += 1
    winnable = [False] * len(positions)
    todo = won
    for j in todo:
        winnable[j] = True
    while todo:
        j = todo.pop()
        for k in parents[j]:
            if not winnable[k]:
                winnable[k] = True
                todo.append(k)
    return list(zip(positions, winnable, strict=True))
