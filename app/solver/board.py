"""The solver's compact board: cards as ints, the talon as one sequence with a pointer, its moves.

The engine's `Position` is clear but general; the search wants something smaller
and faster. A `State` is a plain tuple

    (columns, talon, pointer, reserve_count, foundations, pass_number, protected)

- `columns`: 4 `bytes`, bottom to top, cards as engine indices (suit * 13 + rank);
- `talon`: the waste then the stock in dealing order, as `bytes`: the first
  `pointer` cards are the waste (its top is `talon[pointer - 1]`), the rest the
  stock. Drawing moves the pointer, recycling sets it back to 0, playing the
  waste's top removes one card. Recycling keeps the order, so this is exact;
- `reserve_count`: the reserve is always a prefix of the problem's reserve;
- `foundations`: 4 counts in suit order C D H S;
- `pass_number`: as in the engine;
- `protected`: a bit set of cards that `settle` must not send up (see there); under
  the rules where no card comes back from the foundations and `placements_wait`, the
  talon card the next step must cover instead (see `placement_used`).

A `Step` is one move of the search, `(draws, card, target)`: `draws` times
`draw`, then `card` to `target` (FOUNDATION or a column index). Drawing without
playing is never needed (the K+ macro of Bjarnason, Tadepalli & Fern): draws
commute with every other move, so a winning line can always put its draws just
before the waste card they uncover.

Tests check this move generator against the engine's `legal_moves` and
`apply_move`; every line the solver returns is replayed through the engine.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from app.engine import DRAW, FOUNDATION, Card, Move, Position, Rules

Columns = tuple[bytes, bytes, bytes, bytes]
Foundations = tuple[int, int, int, int]
State = tuple[Columns, bytes, int, int, Foundations, int, int]
Step = tuple[int, int, int]
Key = tuple[bytes, bytes, bytes, bytes, bytes, int, int, int]
Successor = tuple[int, Step, State]

_RANK = [c % 13 for c in range(52)]
_RED = [c // 13 in (1, 2) for c in range(52)]
# The two cards each card goes on in a column: other colour, one rank higher (a K goes on an A).
_PARENTS = [
    tuple(p for p in range(52) if _RED[p] != _RED[c] and (_RANK[c] + 1) % 13 == _RANK[p])
    for c in range(52)
]
# The two cards that go on each card.
_CHILDREN = [tuple(c for c in range(52) if p in _PARENTS[c]) for p in range(52)]
_OTHER_COLOUR = ((1, 2), (0, 3), (0, 3), (1, 2))  # the suits of the other colour, by suit
_TWIN_SUIT = (3, 2, 1, 0)  # the other suit of the same colour
_TWIN = [_TWIN_SUIT[c // 13] * 13 + c % 13 for c in range(52)]  # same rank and colour
_BIT = [1 << c for c in range(52)]

# How many reserve cards deeper `Problem.reserve_stuck` looks (each one costs more), by
# default and at most (the core's second thread looks deeper), and whether it checks the
# certain deadlock by default. The test runs with whole-column moves (classic) and with
# top-or-all moves (skill), never under app rules; under both, 5 deep proves more than it
# costs. Classic draw 3, nine unwinnable deals of 0.2-3.3 M nodes (one thread): 5 deep
# rather than 3 searched 17 % fewer nodes (deal 12: 3.3 M -> 1.2 M) in about 5 % less CPU
# time (4 deep: 13 % and 3 %; 6 deep: 18 % fewer nodes, 1 % more time); over deals 0-499
# (7 M nodes) classic draw 3 went from 99.2 % to 99.6 % decided, classic draw 1 with three
# passes from 98.4 % to 98.6 %, 11-12 % fewer nodes. Skill: 2-4 % fewer nodes; 8 deep the
# same nodes as 5 on the deals tried, 15 % more CPU a node.
RESERVE_LOOKAHEAD = 5
RESERVE_CERTAIN = True
MAX_RESERVE_LOOKAHEAD = 8
# How many talon cards deep `Problem._refill_dead` follows what a landed-on card lies on.
REFILL_CHAIN = 4
_NEVER = 255  # `_timed_grow`: a card that can never be up, or a last card


_SUIT_BITS = [0x1FFF << 13 * suit for suit in range(4)]
_PARENT_BITS = [_BIT[a] | _BIT[b] for a, b in _PARENTS]
_CHILD_BITS = [_BIT[a] | _BIT[b] for a, b in _CHILDREN]
# Under `placements_wait_app` the marked talon card is card + 1 in `protected`'s bits from
# _MARK_SHIFT on, above the cards back from their foundations.
_MARK_SHIFT = 52
_CARD_BITS = (1 << _MARK_SHIFT) - 1

# Where each card lies on the one cycle that columns are built along (`columns_cannot_hold`):
# slot i holds the two cards of rank 12 - i (mod 13) and colour i % 2 (0 black, 1 red),
# and the cards of slot i + 1 (mod 26) are the ones that go on them.
_SLOT = [
    next(i for i in range(26) if (12 - i) % 13 == c % 13 and i % 2 == _RED[c]) for c in range(52)
]
# The closed game of the last pass is played with at most this many reserve cards left
# (`Problem.closed_game_lost`): under draw 3 `CLOSED_RESERVE`; under draw 1
# `CLOSED_RESERVE_DRAW_1`, and only with at most `CLOSED_TALON_DRAW_1` talon cards left
# (under draw 1 every talon card is a waste top to reach, so its states grow fast with
# the talon: app draw 1 with three passes, deal 393, the first million nodes, one
# thread: its lost games with 1-3 reserve cards left over 21-26 talon cards were a ninth of
# them, 28 to 490 states each on average, and took 4.4 million states, those over 8-20
# cards 2.9).
CLOSED_RESERVE = 3
# Under draw 3 the closed game with the columns' ends (`Problem.ends_game_lost`) is played with
# at most this many reserve cards left (under draw 1 as the closed game): app draw 3 with
# three passes, deals 0-99 at 2 million nodes on one thread, 12,983,951 nodes with 3 (63 and
# 82 unknown), 11,498,235 with 4 (82), no verdict changed; deal 357 unwinnable in 10.1
# million nodes with 3, 7.27 with 4. (The core's sets hold at most 4.)
ENDS_RESERVE = 4
CLOSED_RESERVE_DRAW_1 = 4
CLOSED_TALON_DRAW_1 = 20
# How many parts the columns can be in: four columns, each a run unless a card lies on
# one it does not fit on (`columns_cannot_hold`).
COLUMNS = 4


def _bits(cards: bytes) -> int:
    """Cards as bits."""
    mask = 0
    for card in cards:
        mask |= _BIT[card]
    return mask


def _cards_of(mask: int) -> Iterator[int]:
    """The cards of a bit mask."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _kept_mark(protected: int, tops: int) -> int:
    """The mark of `placements_wait_app` in `protected` (its bits from _MARK_SHIFT on), if
    the card it names is among `tops` (a column's last card); else 0."""
    card = (protected >> _MARK_SHIFT) - 1
    return protected & ~_CARD_BITS if card >= 0 and tops & _BIT[card] else 0


def _children_of(mask: int) -> int:
    """The cards that go on any card of `mask` (one rank lower, other colour): the red
    ranks (diamonds, hearts) shifted down one, as clubs and spades; the black as red."""
    red = (mask >> 13 | mask >> 26) & 0x1FFF
    black = (mask | mask >> 39) & 0x1FFF
    red = (red >> 1 | red << 12) & 0x1FFF
    black = (black >> 1 | black << 12) & 0x1FFF
    return red | red << 39 | black << 13 | black << 26


def _firsts(runs: Sequence[bytes]) -> int:
    """The first cards of the first four runs (the columns), as bits."""
    return _BIT[runs[0][0]] | _BIT[runs[1][0]] | _BIT[runs[2][0]] | _BIT[runs[3][0]]


def _put_on(runs: Sequence[bytes], e: int, more: bytes) -> tuple[bytes, ...]:
    """`runs` with `more` put on card e: on e's run, cut after it, or (if e is in
    none) as a new run on top of some column, e first."""
    for j, run in enumerate(runs):
        q = run.find(e)
        if q >= 0:
            return (*runs[:j], run[: q + 1] + more, *runs[j + 1 :])
    return (*runs, bytes((e,)) + more)


def _runs_to_hold(cards: int, allowed: int) -> int:
    """At least how many runs hold every card of `cards`, with other cards of `allowed`
    between them (`Problem.columns_cannot_hold`).

    A run is a path along the cycle of `_SLOT`s, one card a slot. Count the cards that
    come right after another one of `cards` in their run, through cards of `allowed`
    alone: the runs are the cards less those. Any two cards of a slot go on both of
    the previous slot's, so only how many of each slot there are matters: carry how
    many paths go from each slot to the next (at most two), through the cycle, each
    card of `cards` ending one path and starting another, each other allowed card
    letting one through. The most cards ended, over every number of paths entering
    slot 0 that the end of the cycle gives back, is at least those in any runs, and
    at most all of `cards` (paths round the cycle, not runs, may count them all).
    """
    ends = [0] * 26
    through = [0] * 26
    for card in _cards_of(cards):
        ends[_SLOT[card]] += 1
    for card in _cards_of(allowed & ~cards):
        through[_SLOT[card]] += 1
    best = 0
    for entering in range(3):
        most = [-1, -1, -1]  # by paths going on: the most cards ended so far
        most[entering] = 0
        for slot in range(26):
            e, t = ends[slot], through[slot]
            after = [-1, -1, -1]
            for paths in range(3):
                if most[paths] < 0:
                    continue
                for ended in range(min(paths, e) + 1):
                    passed = min(paths - ended, t)
                    # letting fewer through is never better: more paths go on
                    going = e + passed
                    after[going] = max(after[going], most[paths] + ended)
            most = after
        for paths in range(entering, 3):
            best = max(best, most[paths])
    return bin(cards).count("1") - best


def _raised(found: Foundations, suit: int, by: int = 1) -> Foundations:
    """The foundations' counts with `suit`'s changed by `by`."""
    lst = list(found)
    lst[suit] += by
    return (lst[0], lst[1], lst[2], lst[3])


def _rotated(ranks: int) -> int:
    """13 rank bits turned one rank up: bit r holds the bit of rank r - 1 (a K's for an A)."""
    return (ranks << 1 | ranks >> 12) & 0x1FFF


def _runs_held(cards: int) -> int:
    """`_runs_to_hold(cards, cards)` (no other card between them) in a few steps: each slot's
    count of `cards` (0-2) ends as many paths as it starts, and as many as the next slot's
    count go on, so the most cards ended are the sum round the cycle of the smaller count
    of each two neighbouring slots. A slot is a colour and a rank, its neighbour the other
    colour one rank lower: the smaller count is 1 where both hold a card, 2 where both
    hold both."""
    clubs, diamonds = cards & 0x1FFF, cards >> 13 & 0x1FFF
    hearts, spades = cards >> 26 & 0x1FFF, cards >> 39 & 0x1FFF
    black, red = clubs | spades, diamonds | hearts
    blacks, reds = clubs & spades, diamonds & hearts
    links = (
        (black & _rotated(red)).bit_count()
        + (red & _rotated(black)).bit_count()
        + (blacks & _rotated(reds)).bit_count()
        + (reds & _rotated(blacks)).bit_count()
    )
    return cards.bit_count() - links


# The search's move order (lower first): what most often leads to a win. A waste
# card that needs another pass comes last when passes are limited; and then a card
# that draws bring up to go to its foundation ranks with the other talon moves
# (FROM_TALON), after the reserve's and the columns' emptying moves: the cards drawn
# past stay buried until a pass that may not come. Over deals 30-69 at 300,000 nodes
# that took the deals won under app draw 1 with three passes from 21 to 35, app draw 3
# from 4 to 9, skill draw 1 from 28 to 30, with the same verdicts in fewer nodes under
# classic and skill draw 3. Under app draw 1 with a pass limit the depth-first path can
# run very deep through the columns' moves, in this order as in the old one, on other
# deals (0-99 at 500,000 nodes, the core's peak: deal 22 1,126 MiB, deal 26 575 MiB
# before), so there the node budget bounds memory less tightly (about 2 KB a node).
TO_FOUNDATION, FROM_RESERVE, EMPTIES_COLUMN, FROM_TALON, IN_TABLEAU, FROM_FOUNDATION = range(6)
NEXT_PASS, DRAW_STEP = 6, 7


@dataclass(frozen=True, slots=True)
class Techniques:
    """The search's reductions, each on by default; turned off only to measure what
    it buys (bench/solver.py) and in tests. Each is explained where it is used:
    `safe_moves` in `Problem._safe_step`, `stock_macro` in `Problem.reach` (off:
    a plain `draw` step), `symmetry` in `Problem.key` (off: columns in place),
    `pointer_dominance` in `Problem.value`, `Problem.stronger_keys` and
    `Problem.earlier_passes` (off, or
    without the macro: the exact pointer in the key, the pass number as the
    value), `dead_ends` in `Problem.lost`, `Problem.reserve_stuck` and
    `Problem.columns_cannot_hold`,
    `reserve_lookahead` in `Problem.reserve_stuck` (off: the top card alone),
    `restarts` in `search.Solver` (off: the fixed-order run alone), `swap_pruning`
    in `Problem.exposes_use`, `talon_waits` in `Problem.placement_used`, `relaxation`
    in `Problem.relaxed`.
    """

    safe_moves: bool = True
    stock_macro: bool = True
    symmetry: bool = True
    pointer_dominance: bool = True
    dead_ends: bool = True
    restarts: bool = True
    swap_pruning: bool = True
    reserve_lookahead: bool = True
    talon_waits: bool = True
    relaxation: bool = True


ALL_TECHNIQUES = Techniques()
DRAW_ONLY = -1  # the card of a step that only draws (without the stock macro)


def _breaks(columns: Columns) -> int:
    """The cards of the columns that lie on one they do not fit on (no move makes one)."""
    return sum(
        1 for col in columns for k in range(1, len(col)) if col[k] not in _CHILDREN[col[k - 1]]
    )


@dataclass(frozen=True)
class Problem:
    """The fixed parts of one search: rules, the reserve's cards, the start rank,
    and the techniques in use."""

    rules: Rules
    reserve: bytes
    start_rank: int
    base_suit: int
    techniques: Techniques = ALL_TECHNIQUES
    rel: tuple[int, ...] = field(init=False, repr=False)
    _from: tuple[int, ...] = field(init=False, repr=False, compare=False)
    _frozen_by: tuple[int, ...] = field(init=False, repr=False, compare=False)
    _below: tuple[int, ...] = field(init=False, repr=False, compare=False)
    _reach: dict[tuple[int, int, bool], list[tuple[int, int, int]]] = field(
        init=False, repr=False, compare=False
    )
    _inverted: dict[bytes, tuple[tuple[int, ...], ...]] = field(
        init=False, repr=False, compare=False
    )
    _runs: dict[tuple[bytes, int, int], int] = field(init=False, repr=False, compare=False)
    _closed: dict[tuple[bytes, int, Foundations, int, int], bool] = field(
        init=False, repr=False, compare=False
    )
    _ends: dict[tuple[bytes, int, Foundations, int, int], bool] = field(
        init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        start = self.start_rank
        rel = tuple((c % 13 - start) % 13 for c in range(52))
        object.__setattr__(self, "rel", rel)
        # The cards of each card's suit from it up (from the start rank), as card bits.
        suit_from = tuple(
            sum(_BIT[d] for d in range(c // 13 * 13, c // 13 * 13 + 13) if rel[d] >= rel[c])
            for c in range(52)
        )
        object.__setattr__(self, "_from", suit_from)
        # The lower cards of each card's suit (down to the start rank), as card bits.
        below = tuple(_SUIT_BITS[c // 13] & ~suit_from[c] for c in range(52))
        object.__setattr__(self, "_below", below)
        # By reserve count: its cards' suits from them up.
        frozen_by = [0]
        for card in self.reserve:
            frozen_by.append(frozen_by[-1] | suit_from[card])
        object.__setattr__(self, "_frozen_by", tuple(frozen_by))
        object.__setattr__(self, "_reach", {})
        object.__setattr__(self, "_inverted", {})
        object.__setattr__(self, "_runs", {})
        object.__setattr__(self, "_closed", {})
        object.__setattr__(self, "_ends", {})

    @staticmethod
    def of(position: Position, rules: Rules, techniques: Techniques = ALL_TECHNIQUES) -> Problem:
        """The problem of `position`, its reserve as the reserve's cards."""
        return Problem(
            rules,
            bytes(card.index for card in position.reserve),
            position.start_rank,
            position.base_suit,
            techniques,
        )

    # -- conversion --------------------------------------------------------------------

    def state_of(self, position: Position) -> State:
        """The compact state of an engine position; raises ValueError for another reserve."""
        reserve = bytes(card.index for card in position.reserve)
        if self.reserve[: len(reserve)] != reserve:
            raise ValueError("the position's reserve is not part of this problem's reserve")
        c = tuple(bytes(card.index for card in column) for column in position.tableau)
        talon = bytes(card.index for card in position.waste) + bytes(
            card.index for card in reversed(position.stock)
        )
        f = position.foundations
        return (
            (c[0], c[1], c[2], c[3]),
            talon,
            len(position.waste),
            len(reserve),
            (f[0], f[1], f[2], f[3]),
            position.pass_number,
            0,
        )

    def position_of(self, state: State) -> Position:
        """The engine position of a compact state."""
        columns, talon, pointer, reserve_count, found, pass_number, _ = state
        card = Card.from_index
        return Position(
            stock=tuple(card(c) for c in reversed(talon[pointer:])),
            waste=tuple(card(c) for c in talon[:pointer]),
            reserve=tuple(card(c) for c in self.reserve[:reserve_count]),
            foundations=found,
            tableau=tuple(tuple(card(c) for c in column) for column in columns),
            pass_number=pass_number,
            start_rank=self.start_rank,
            base_suit=self.base_suit,
        )

    # -- keys ---------------------------------------------------------------------------

    def key(self, state: State) -> Key:
        """The canonical key of a state, for the transposition table; see `value`.

        Columns are sorted (they are interchangeable). Foundations are left out:
        every card not elsewhere is on them. The stock pointer and pass number
        are mostly left to `value`: the key keeps only the pointer's class.
        """
        columns, talon, pointer, reserve_count, _, pass_number, protected = state
        rules = self.rules
        fresh = rules.draw == 1 or pointer % 3 == 0 or pointer == len(talon)
        if not (self.techniques.pointer_dominance and self.techniques.stock_macro):
            # Without the macro a draw is a step of its own and must lead to a new
            # key; without dominance, only the pointers a fresh pass reaches merge.
            macro = self.techniques.stock_macro
            position = 0 if macro and fresh and rules.passes is None else pointer
        elif fresh:
            position = 0  # class 0: a fresh pass reaches these pointers
        elif rules.passes is None:
            position = pointer % 3
        else:
            position = 3 * pass_number + pointer % 3  # the class within this pass
        if self.techniques.symmetry:
            a, b, c, d = sorted(columns)
        else:
            a, b, c, d = columns
        return (a, b, c, d, talon, position, reserve_count, protected)

    def value(self, state: State) -> int:
        """How far along the stock a state is, among states of the same key: lower
        is never worse (the transposition table prunes a state when one of the same
        key and no higher value was searched).

        Drawing only moves the pointer, so a state dominates every state it can
        reach by drawing alone. Draw 1 reaches any later pointer in the same pass,
        and any pointer in a later pass: order by (pass, pointer). Draw 3 reaches
        the pointers 3 apart from its own up to the end of the stock, and in a later
        pass the multiples of 3 and the end (class 0): the same order within a
        class; other classes stay within their pass (the key holds it). With
        unlimited passes every class-0 pointer reaches every other, and so, with
        draw 1, does every pointer.
        """
        pointer = state[2]
        if not (self.techniques.pointer_dominance and self.techniques.stock_macro):
            return 0 if self.rules.passes is None else state[5]
        class_zero = self.rules.draw == 1 or pointer % 3 == 0 or pointer == len(state[1])
        if self.rules.passes is None:
            return 0 if class_zero else pointer
        return 64 * state[5] + pointer

    @cached_property  # asked of every child the search looks at
    def fresh_is_weakest(self) -> bool:
        """Whether `stronger_keys` can find any: draw 3, unlimited passes, and the stock
        macro with pointer dominance."""
        techniques = self.techniques
        return (
            self.rules.draw == 3
            and self.rules.passes is None
            and techniques.pointer_dominance
            and techniques.stock_macro
        )

    def stronger_keys(self, key: Key) -> tuple[Key, ...]:
        """The keys of states that can do all that a state of `key` can, whatever their
        value: if one of them is proved lost, so is this state.

        With draw 3 and unlimited passes, a fresh pointer (class 0) reaches only the
        waste tops 3, 6, ... and the last card, and so does every other pointer after
        turning the waste over: the same state with its pointer in class 1 or 2 can
        do everything it can. (`value` orders the pointers within a class.)
        """
        return self.pointer_keys(key) if key[5] == 0 else ()

    def pointer_keys(self, key: Key) -> tuple[Key, ...]:
        """The keys of the same state with every stock pointer whose class `stronger_keys`
        can find (classes 1 and 2), when it finds any; else none. A proof that holds
        whatever the pointer (`reserve_stuck`) proves these lost from value 0 on, and
        so, through `stronger_keys`, class 0 too."""
        if not key[4] or not self.fresh_is_weakest:
            return ()
        a, b, c, d, talon, _, reserve_count, protected = key
        return tuple((a, b, c, d, talon, position, reserve_count, protected) for position in (1, 2))

    @cached_property  # asked of every child the search looks at
    def passes_order(self) -> bool:
        """Whether `earlier_passes` can find any: draw 3, limited passes, and the stock
        macro with pointer dominance."""
        classes = self.techniques.pointer_dominance and self.techniques.stock_macro
        return classes and self.rules.draw == 3 and self.rules.passes is not None

    def earlier_passes(self, key: Key, value: int) -> tuple[tuple[Key, int], ...]:
        """With draw 3 and limited passes, (key, value) of states that can do all that a
        state of `key` and `value` can: if one of them is proved lost from that value or
        a lower one, so is this state.

        The key holds the pass of a pointer in class 1 or 2 (`key`), which `value`
        orders only within the pass. But a state in pass a can do all that the same
        state in a later pass b can, at the same pointer: it reaches the same pointers
        in its pass, and the next pass's fresh pointers with no more passes used (so,
        move for move, the same cards with no more passes used, and the same tests:
        settling and the dead ends do not look at the pass). And it reaches the later
        pointers of its class by drawing. So a state of class c, pass b and pointer q
        is lost if the same state of class c and an earlier pass is, from a pointer up
        to q. A fresh pointer (class 0) in pass b is reached by drawing from any pointer
        of an earlier pass (to the end, turn the waste over, draw on), and so is the
        end of the stock from any pointer of the same pass: then it is lost if the
        same state of class 1 or 2 is, whatever its pointer.
        """
        a, b, c, d, talon, position, reserve_count, protected = key
        if not talon or not self.passes_order:
            return ()
        pass_number, pointer = divmod(value, 64)
        out = []
        if position:
            for earlier in range(1, pass_number):
                k = (a, b, c, d, talon, 3 * earlier + pointer % 3, reserve_count, protected)
                out.append((k, 64 * earlier + pointer))
        else:
            last = pass_number + 1 if pointer == len(talon) else pass_number
            for earlier in range(1, last):
                for cls in (1, 2):
                    k = (a, b, c, d, talon, 3 * earlier + cls, reserve_count, protected)
                    out.append((k, 64 * earlier + 63))
        return tuple(out)

    # -- the stock ------------------------------------------------------------------------

    def reach(self, pointer: int, size: int, pass_number: int) -> list[tuple[int, int, int]]:
        """The waste tops reachable by drawing, as (new pointer, draws, passes added).

        Each pointer once, by the fewest draws: a pointer reached in this pass is
        never worse than the same pointer in the next one. Without the stock
        macro, only the waste's top as it is (and `moves` adds a plain draw).
        """
        if not self.techniques.stock_macro:
            return [(pointer, 0, 0)] if pointer else []
        passes = self.rules.passes
        can_recycle = passes is None or pass_number < passes
        cache_key = (pointer, size, can_recycle)
        cached = self._reach.get(cache_key)
        if cached is not None:
            return cached
        draw = self.rules.draw
        out: list[tuple[int, int, int]] = []
        seen = set()
        if pointer > 0:
            out.append((pointer, 0, 0))
            seen.add(pointer)
        q = pointer
        draws = 0
        while q < size:
            q = min(q + draw, size)
            draws += 1
            out.append((q, draws, 0))
            seen.add(q)
        if size and can_recycle:
            draws += 1  # the draw that turns the waste over
            added = 0 if passes is None else 1
            q = 0
            while q < size:
                q = min(q + draw, size)
                draws += 1
                if q not in seen:
                    out.append((q, draws, added))
        self._reach[cache_key] = out
        return out

    # -- moves ------------------------------------------------------------------------------

    def successors(self, state: State, stuck_tested: bool = False) -> list[Successor]:
        """Every step from `state` with its settled result, as (priority, step, state).

        Steps into a state that `lost` recognises are left out, and there are none
        when `reserve_stuck` proves the state lost (`stuck_tested`: the caller found
        it does not).
        """
        if not stuck_tested and self.reserve_stuck(state):
            return []
        if (
            self.columns_cannot_hold(state)
            or self.closed_game_lost(state)
            or self.ends_game_lost(state)
        ):
            return []
        settle = self.settle
        lost = self.lost
        out = []
        for priority, step, child in self.moves(state, prune=True):
            child = settle(child)
            if not lost(child):
                out.append((priority, step, child))
        return out

    def reserve_stuck(
        self, state: State, lookahead: int = RESERVE_LOOKAHEAD, certain: bool = RESERVE_CERTAIN
    ) -> bool:
        """With whole-column (or, `_top_trapped`, top-or-all) moves and no cards back
        from the foundations: a proof that the state cannot be won because a reserve
        card can never leave it (False says nothing). With top-or-all moves in the last
        pass of limited passes it follows the stock's order (`_timed_trapped`). It is made
        once per state the search expands, as it looks further than `lost` and costs more.

        Say the reserve's top card t first leaves at some moment T. Until then the
        reserve's other cards stay under it and no column is ever empty. Call a card
        frozen if it cannot go up before T: the reserve's cards; every card of a
        suit from its lowest frozen card up; every card under a frozen card in a
        column (with whole-column moves a column's cards keep their order, and only
        its last card goes up). Then t leaves:
        - up, if no lower card of its suit is frozen;
        - onto a card it fits on, which is then a column's last card;
        - into a column emptied by that move, whose first card must leave: go up
          (not if frozen) or, with the column, onto a card it fits on, a last card.
        A card can be a column's last card before T only if it is one now, or
        lies in a column no lower than its highest frozen card above the first
        (the cards above it may go up), or is in the talon and fits on a card that
        can be one (the reserve keeps its cards until T). If none of t's ways is
        open, T never comes (`_top_stays`).

        If some are, the test looks up to `lookahead` cards deeper
        (`_doomed`): whichever way t leaves, can the next card t' ever leave after
        it, at some T'? Call frozen for T' the cards that cannot go up before T',
        found as above from the reserve's other cards: a card under one of them now
        stays under it until T'. Each way of leaving fixes a little more: t on a card
        e (the cards above e have gone up), or the cards of an emptying column from
        its highest frozen one down put on a card e, cover e from then on, and the
        emptied column holds t alone. A card can be a column's last card between T
        and T' only if it is not under a card frozen for T' and could be one before
        T, or is t, or lies above the highest frozen card of its column as the way
        leaves it, or is in the talon and fits on such a card. The columns are kept
        as "runs": the four columns from their first card, then the cards put on a
        card e that was in none (on top of some column). If t' stays whichever way t
        leaves (asked in turn of the card after t', to the depth), the state is lost
        too. With `certain`, the way t leaves can itself lose: say t waits for a lower
        card of its suit that lies under a high card of another suit, and t is put on
        a low card of that other suit. Then each waits for the next: the frozen cards
        and those under them, sure to be in the runs at T' in their order, can never
        all go up (`_certain_deadlock`). 3 cards deep with that check: on classic deal 263
        (unwinnable, 15.4 M nodes 2 deep without it) it cuts the search to 11.7 M nodes,
        and the time by about 6 % in the core. By default the test looks
        `RESERVE_LOOKAHEAD` (5) cards deep.
        """
        columns, talon, _, reserve_count, _, _, _ = state
        rules = self.rules
        if (
            not reserve_count
            or rules.tableau_moves == "any-run"
            or rules.foundation_to_tableau
            or not self.techniques.dead_ends
            or not all(columns)  # not a position of play: the reserve refills columns
        ):
            return False
        depth = lookahead if self.techniques.reserve_lookahead else 0
        reach = self.talon_in_reach(state, max(0, reserve_count - 1 - depth))
        if rules.tableau_moves == "top-or-all":
            out_of_reach = _bits(talon) & ~reach
            if self._follows_stock(state):
                return self._timed_trapped(state, depth, out_of_reach)
            return self._top_trapped(columns, reserve_count, reach, state[4], depth, out_of_reach)
        return self._doomed(columns, reserve_count, reach, 0, depth, certain)

    @cached_property  # asked of every state the search enters
    def talon_returns(self) -> bool:
        """Whether `back_in_talon` finds any: top-or-all moves, draw 1, unlimited passes,
        every technique that keeps a state's key and value apart from its stock pointer."""
        rules = self.rules
        techniques = self.techniques
        return (
            rules.tableau_moves == "top-or-all"
            and rules.draw == 1
            and rules.passes is None
            and techniques.dead_ends
            and techniques.pointer_dominance
            and techniques.stock_macro
        )

    def back_in_talon(self, state: State, order: bytes) -> Iterator[State]:
        """Where `talon_returns`: the states that reach `state` by talon cards put on
        columns, one column at a time: a column's last j cards (j = 1, 2, ...) taken back
        into the talon while each came from it (is in `order`, the search's first talon)
        and a card stays under them. If one of them is lost, so is `state`.

        Drawing one card with no limit on passes, every talon card can come to the waste's
        top at any moment, and the state's key and value do not look at the stock pointer.
        A card that came from the talon lies on the card under it only as it was put there
        (a card goes only onto a card it fits on, or into an empty column as its first
        card, and a whole column's first card onto a card it fits on): so from the state
        with those cards back in the talon, the moves that put them back on the column,
        bottom one first, each a talon card onto the column's last card it fits on, lead
        to `state` (under these rules no card comes back from the foundations; the marks
        that `protected` keeps restrict only the search, so the state returned keeps
        none)."""
        columns, talon, _, reserve_count, found, pass_number, _ = state
        least = 2 if reserve_count else 1
        for i, col in enumerate(columns):
            back = set(talon)
            n = len(col)
            while n >= least and col[n - 1] in order:
                n -= 1
                back.add(col[n])
                lst = list(columns)
                lst[i] = col[:n]
                yield (
                    (lst[0], lst[1], lst[2], lst[3]),
                    bytes(c for c in order if c in back),
                    0,
                    reserve_count,
                    found,
                    pass_number,
                    0,
                )

    def talon_in_reach(self, state: State, stay: int) -> int:
        """The talon's cards that can come to the waste's top while the reserve's first
        `stay` cards stay in it, as bits: all of them but in the last pass of limited
        passes, without cards back from the foundations (where `reserve_stuck` looks).

        In the last pass the waste is a pile like the reserve: only its top ever
        leaves, and the stock is dealt once more, `draw` cards at a time, each lot on
        the waste (its last card on top). So each card lies under the cards above it
        in the waste, or in its lot, until they leave; a card under one that cannot
        leave never comes to the top. A card cannot leave while it cannot go up (a
        lower card of its suit stays in the reserve, with its suit from it up, or
        lies under it in its pile) and no card it fits on can take it: those on the
        foundations and in the staying reserve never can, nor those under it in its
        pile. (No column is empty while the reserve has cards: it refills them.)
        """
        _, talon, pointer, _, found, pass_number, _ = state
        passes = self.rules.passes
        if passes is None or pass_number < passes:
            return _bits(talon)
        start = self.start_rank
        home = 0  # the cards on the foundations
        for suit in range(4):
            if found[suit] == 13:
                home |= _SUIT_BITS[suit]
            elif found[suit]:
                home |= self._below[suit * 13 + (start + found[suit]) % 13]
        frozen = self._frozen_by[stay]
        held = home | _bits(self.reserve[:stay])
        draw = self.rules.draw
        piles = [talon[:pointer]] + [talon[q : q + draw] for q in range(pointer, len(talon), draw)]
        reach = 0
        for pile in piles:
            under = _bits(pile)
            for card in reversed(pile):
                reach |= _BIT[card]
                under ^= _BIT[card]
                stays = (frozen | under) & self._below[card]
                if stays and not _PARENT_BITS[card] & ~(held | under):
                    break
        return reach

    def columns_cannot_hold(self, state: State) -> bool:
        """In the last pass of limited passes (where `counts_runs`): a proof that the state
        cannot be won because the columns could never hold the cards they must hold at once
        (False says nothing).

        Every card is put on one it fits on (other colour, one rank higher, a K on an A)
        or into an empty column, and moves with the cards on it: so the columns are
        always in at most `COLUMNS` runs, and one more for each card that lies on one it
        does not fit on now (no move makes such a pair, only parts them). In the last
        pass each talon card y must come to the waste's top at some moment T, when the
        cards under it in its pile (the waste, or its lot of the stock) are still there,
        and so are the cards of their suits from them up, which cannot be on the
        foundations either. Each of those that is not in the talon now, nor in the
        reserve, nor above y in its pile (gone by T), must be in a column at T. If no
        `COLUMNS` runs (and the breaks) can hold them all, avoiding the cards that stay
        under y, T never comes. And y must leave at T: if it cannot go up then (a lower
        card of its suit stays under it), it goes onto a card it fits on, a column's last
        card, or into an empty column, one run fewer (`_runs_to_place`). `_runs_needed`
        counts the runs, for each y.
        """
        if not self._counts_last_pass(state):
            return False
        return self._runs_needed(state[1], state[2], state[3]) > COLUMNS + _breaks(state[0])

    def _counts_last_pass(self, state: State) -> bool:
        """Whether the run count's tests apply (`counts_runs`): the last pass, talon left."""
        return self.counts_runs and self._follows_stock(state)

    def closed_game_lost(self, state: State) -> bool:
        """In the last pass of limited passes (where `plays_closed_game`) with the reserve
        empty, or with a few reserve cards left (under draw 3 at most `CLOSED_RESERVE`,
        under draw 1 at most `CLOSED_RESERVE_DRAW_1` with at most `CLOSED_TALON_DRAW_1`
        talon cards left): a proof
        that the state cannot be won because the talon (and the reserve) cannot be played
        out while the columns hold what they must (False says nothing).

        With the reserve empty and no pass left, the cards are in the talon (a pile: its
        order never changes, only a waste top reached by drawing leaves), on the
        foundations (each a count), or in the columns: every other card. The columns are
        always in at most `COLUMNS` runs and one more for each break (a card on one it does
        not fit on: no move makes one, see `columns_cannot_hold`), so the cards in them
        must fit in that many runs (`_runs_to_hold`) after every move. Forget where in the
        columns each card lies: any column card may go up when it is next on its
        foundation, a foundation's top may come down, a waste top may go up or into the
        columns, each only if the column cards still fit. That game has far fewer states
        (the talon left, its pointer, the foundations' counts) and every line of the real
        game is one of its lines (see `plays_closed_game`); if it cannot be won, neither
        can the state (`_closed_lost`). It proves at once the re-split arrangements of the
        same runs that the search enters one by one (bench/resplits.py). With reserve cards
        left, the reserve is one more pile, whose top goes up or into the columns
        (`_closed_lost` with a count), under draw 1 as under draw 3: the waste is a pile
        either way, and `reach` gives its tops.
        """
        room = self._closed_room(state, CLOSED_RESERVE)
        return room is not None and self._closed_lost(state[1], state[2], state[4], room, state[3])

    def _closed_room(self, state: State, most: int) -> int | None:
        """The guard of `closed_game_lost` and `ends_game_lost` (the last pass of limited
        passes where `plays_closed_game`, talon left, at most `most` reserve cards drawing
        three, `CLOSED_RESERVE_DRAW_1` over at most `CLOSED_TALON_DRAW_1` talon cards
        drawing one): the runs the columns may be in when it holds, else None."""
        if not self.plays_closed_game or state[5] < (self.rules.passes or 0) or not state[1]:
            return None
        if state[3] > (most if self.rules.draw == 3 else CLOSED_RESERVE_DRAW_1):
            return None
        if state[3] and self.rules.draw == 1 and len(state[1]) > CLOSED_TALON_DRAW_1:
            return None
        return COLUMNS + _breaks(state[0])

    def _fits(self, held: int, room: int) -> bool:
        """Whether `held` fits in `room` runs (`_runs_to_hold`, as `_runs_held`)."""
        return _runs_held(held) <= room

    def _closed_lost(
        self, talon: bytes, pointer: int, found: Foundations, room: int, count: int = 0
    ) -> bool:
        """For `closed_game_lost`: whether the game of the talon left (in its last pass),
        the foundations' counts, the reserve's first `count` cards and column cards in
        `room` runs at most, where a column card goes up whenever it is next, cannot be
        won. The reserve is one more pile, whose top goes up when next or into the columns
        (the column cards are every card not in the talon, the reserve or on the
        foundations); it only ever loses its top, so its state is its count: the game is
        searched one count at a time, each move of the reserve's top asking the game with
        one card fewer, which must be lost for this one to be. Searched depth-first in full
        (with the reserve empty, under 1,000 states on the last-pass states sampled from
        lost deals); when lost, every state it reached is remembered lost, when won the
        first one is remembered won, by (talon, pointer, counts, room, reserve count)."""
        return self._game_lost(talon, pointer, found, room, count, ends=False)

    def ends_game_lost(self, state: State) -> bool:
        """In the last pass of limited passes (where `plays_closed_game`), with the reserve
        empty or a few reserve cards left (under draw 3 at most `ENDS_RESERVE`, under draw 1
        as the closed game): a proof that the state
        cannot be won because the talon (and the reserve) cannot be played out while the
        columns hold what they must, each card coming into them onto a last card and each
        going up from them a last card (False says nothing).

        The closed game (`closed_game_lost`) forgets where the column cards lie: a card
        comes into the columns (a waste top, a foundation's top, the reserve's top) whenever
        the column cards still fit in their runs, as if it could go under a run's first card
        or between two of its cards, and a column card goes up from under others. In the
        real game a card comes in onto a card it fits on that is a column's last card, or
        into an empty column, and goes up as a last card. So at that moment the columns hold
        their cards in at most `COLUMNS` runs and the breaks (`room`) with that card last,
        nothing on it: a link fewer between its slot and the next (`_ends_room`); or, for
        an empty column, in the three other columns and the breaks, `room` - 1 runs
        (`_lands`). This game's moves are the closed game's with those conditions (so it
        proves all the closed game proves, and more), and every line of the real game is
        one of its lines; its answers, like the closed game's, depend on (talon, pointer,
        counts, room, reserve count) alone and are remembered by them (`_ends_lost`). App
        draw 3 with three passes, deal 487: unwinnable in 35,522 nodes (one thread), 15.7
        million with the closed game alone; deals 0-99 at 2 million nodes: 7 unknown
        became 1 (82), in 45 % of the nodes (docs/solver.md).
        """
        room = self._closed_room(state, ENDS_RESERVE)
        return room is not None and self._ends_lost(state[1], state[2], state[4], room, state[3])

    @staticmethod
    def _ends_room(held: int, runs: int, card: int) -> int:
        """For `ends_game_lost`: at least how many runs hold `held` (in `runs` at least, its
        `_runs_held`) with `card` (one of them) last, nothing on it: `runs`, and one more
        when the cards of `card`'s slot in `held` are no more than those of the next slot
        (the cards that go on it), as each link between the two slots then needs `card`
        (`_runs_held` counts the smaller number of the two slots' cards as links)."""
        here = held & (_BIT[card] | _BIT[_TWIN[card]])
        on = held & _CHILD_BITS[card]
        return runs + (here.bit_count() <= on.bit_count())

    @classmethod
    def _lands(cls, held: int, runs: int, room: int, card: int) -> bool:
        """For `ends_game_lost`: whether `card` can come into the columns holding `held` in
        `runs` runs at least (`_runs_held`): into an empty column (the three others then
        hold every column card, `room` - 1 runs), or onto a card it fits on that can be a
        last card."""
        return runs < room or any(
            held & _BIT[q] and cls._ends_room(held, runs, q) <= room for q in _PARENTS[card]
        )

    def _ends_lost(
        self, talon: bytes, pointer: int, found: Foundations, room: int, count: int = 0
    ) -> bool:
        """For `ends_game_lost`: whether the game of the talon left (in its last pass), the
        foundations' counts, the reserve's first `count` cards and the column cards in
        `room` runs, where a card comes into the columns onto a last card or into an empty
        column and goes up from them a last card, cannot be won. Searched depth-first in
        full, one reserve count at a time, as `_closed_lost`; when lost, every state it
        reached is remembered lost, when won the first one won."""
        return self._game_lost(talon, pointer, found, room, count, ends=True)

    def _game_lost(
        self, talon: bytes, pointer: int, found: Foundations, room: int, count: int, ends: bool
    ) -> bool:
        """`_closed_lost`, and with `ends` `_ends_lost` (each card into the columns only
        where it lands, `_lands`, and up from them only where it can be last, `_ends_room`),
        each with its own memo."""
        memo = self._ends if ends else self._closed
        first = (talon, pointer, found, room, count)
        known = memo.get(first)
        if known is not None:
            return known
        start = self.start_rank
        full = (1 << 52) - 1
        on_reserve = _bits(self.reserve[:count])
        top = self.reserve[count - 1] if count else -1
        seen = {first}
        todo = [first]
        while todo:
            here = todo.pop()
            t, p, f, _, _ = here
            if sum(f) == 52:
                memo[first] = False
                return False
            home = 0
            for suit in range(4):
                if f[suit] == 13:
                    home |= _SUIT_BITS[suit]
                elif f[suit]:
                    home |= self._below[suit * 13 + (start + f[suit]) % 13]
            held = full & ~home & ~_bits(t) & ~on_reserve
            if not self._fits(held, room):
                continue  # never a state of the real game
            runs = _runs_held(held) if ends else 0  # for `_lands`
            if count:  # the reserve's top up, or into the columns: the game with one card fewer
                into = not ends or self._lands(held, runs, room, top)
                for g in self._top_leaves(f, top, into):
                    if not self._game_lost(t, p, g, room, count - 1, ends):
                        memo[first] = False
                        return False
            # The moves up last, so taken first: a game that can be won is won in fewer
            # states (a lost one is searched in full in any order).
            nexts: list[tuple[bytes, int, Foundations, int, int]] = []
            ups: list[tuple[bytes, int, Foundations, int, int]] = []
            for suit in range(4):
                down = suit * 13 + (start + f[suit] - 1) % 13
                if f[suit] and (not ends or self._lands(held, runs, room, down)):
                    nexts.append((t, p, _raised(f, suit, -1), room, count))  # a top down
            for q, _, _ in self.reach(p, len(t), self.rules.passes or 0):
                card = t[q - 1]
                rest = t[: q - 1] + t[q:]
                if self._next_up(f, card):
                    ups.append((rest, q - 1, _raised(f, card // 13), room, count))
                if not ends or self._lands(held, runs, room, card):
                    nexts.append((rest, q - 1, f, room, count))  # into the columns
            for suit in range(4):
                card = suit * 13 + (start + f[suit]) % 13
                if (
                    f[suit] < 13
                    and held & _BIT[card]
                    and (not ends or self._ends_room(held, runs, card) <= room)
                ):
                    ups.append((t, p, _raised(f, suit), room, count))  # a column card up
            nexts += ups
            for there in nexts:
                if there in seen:
                    continue
                known = memo.get(there)
                if known is False:
                    memo[first] = False
                    return False
                seen.add(there)
                if known is None:
                    todo.append(there)
        if len(memo) > 200_000:
            memo.clear()
        for here in seen:
            memo[here] = True
        return True

    def _top_leaves(self, found: Foundations, top: int, into: bool = True) -> list[Foundations]:
        """For `_game_lost` with reserve cards: the foundations' counts once the reserve's
        top card `top` has left, up (when it is next) or into the columns (when `into`)."""
        up = [_raised(found, top // 13)] if self._next_up(found, top) else []
        return [*up, found] if into else up

    def _next_up(self, found: Foundations, card: int) -> bool:
        """Whether `card` is next on its foundation, with the counts `found` (as `successors`
        tells it, by `rel`)."""
        return found[card // 13] == self.rel[card]

    @cached_property
    def relaxed(self) -> Problem | None:
        """The problem under relaxed rules whose search runs beside this one's
        (`search.Solver`), or None: with whole-column moves, empty columns that take only
        the waste's card, no cards back from the foundations and no autocomplete (the rules
        the small-position tests prove it under), under draw 3 with
        unlimited passes (classic draw 3) or draw 1 with a pass limit (classic draw 1 with
        three passes), the same rules drawing one card with unlimited passes. (With top-or-all
        moves and autocomplete, skill rules, it holds too but did not pay: docs/solver.md.)

        Every line of these rules is a line of the relaxed ones from the same state (the
        talon is one sequence and a pointer either way: a draw of three is three draws of
        one, and a pass limit only takes lines away), so a state lost under the relaxed
        rules, whatever its pointer there (drawing one with unlimited passes every pointer
        reaches every other: `value` 0), is lost here whatever its pointer and pass: from
        value 0 in each pointer class (`relayed_keys`). The relaxed search is far smaller:
        its keys leave the pointer out, and a talon card put on a column must be covered
        by the next step (`placement_used`). Classic draw 3 deal 263 is lost drawing one
        in 468,278 nodes (its own search: 6.07 million); classic draw 1 with three passes
        deals 138, 218, 263 and 474 in 0.18-2.0 million (their own: 5.8-22 million).
        """
        rules = self.rules
        techniques = self.techniques
        if (
            not techniques.relaxation
            or not (techniques.pointer_dominance and techniques.stock_macro)
            or rules.tableau_moves != "all"
            or rules.empty_column == "any"
            or rules.foundation_to_tableau
            or rules.autocomplete
            or not (
                (rules.draw == 3 and rules.passes is None)
                or (rules.draw == 1 and rules.passes is not None)
            )
        ):
            return None
        relaxed = rules.with_options(draw=1, passes=None)
        return Problem(relaxed, self.reserve, self.start_rank, self.base_suit, techniques)

    def relayed_keys(self, key: Key) -> tuple[Key, ...]:
        """The keys here of a state proved lost under `relaxed` rules with key `key` (its
        pointer class 0 there), each lost from value 0: every pointer class of draw 3 with
        unlimited passes (`key`'s position 0, 1, 2), or with draw 1 the key itself."""
        a, b, c, d, talon, _, reserve_count, protected = key
        classes = 3 if self.rules.draw == 3 else 1
        return tuple(
            (a, b, c, d, talon, position, reserve_count, protected) for position in range(classes)
        )

    @property
    def plays_closed_game(self) -> bool:
        """Whether `closed_game_lost` runs: with limited passes and cards back from the
        foundations (app draw 3 and draw 1 with three passes), the stock macro (the closed
        game's draws are `reach`'s: without the macro it gives only the waste's top) and
        the dead-end tests.

        It is sound under each rule option, as every line of the real game (last pass,
        reserve empty) is a line of the closed game:
        - draw 1 or 3: the talon is a pile either way in the last pass, and `reach` gives
          every waste top drawing can bring up, `draw` cards a time, with no pass left;
        - any run, whole columns, or top or all: whatever moves between the columns leaves
          the talon, the pointer and the counts as they are, and every card is put on one
          it fits on or into an empty column (a whole column moves only onto a card its
          first card fits on), so the columns are always in at most `COLUMNS` runs and the
          breaks;
        - an empty column filled by any card or only from the waste: a waste top into the
          columns is a move of the closed game either way;
        - without cards back from the foundations the closed game's foundation tops that
          come down are lines the real game lacks: a relaxation, still sound;
        - skill's autocomplete plays column cards up with the talon empty, where the
          closed game does not run.
        Yet without cards back it did not pay (deals 0-99 at 7 million nodes on one thread,
        with no foundation card down in the closed game there, 362097c): classic and skill
        draw 3 with three passes took 6.7 % and 5.5 % fewer nodes for some 30 % and 8 % more
        CPU time, all decided both ways; classic and skill draw 1 0.7 % fewer and 0.1 % more
        nodes, no unknown decided, eight to nine times the CPU a node on deal 20."""
        techniques = self.techniques
        return (
            self.rules.passes is not None
            and self.rules.foundation_to_tableau
            and techniques.stock_macro
            and techniques.dead_ends
        )

    @property
    def counts_runs(self) -> bool:
        """Whether `columns_cannot_hold` runs: with limited passes, draw 3 and cards coming
        back from the foundations (app draw 3 with three passes: 16 deals of 0-99 unknown at
        7 million nodes became 12). Under draw 1 and classic or skill draw 3 it bought
        next to nothing (app draw 1: 1 % fewer nodes) and cost up to 2.8 times the CPU time
        a node (classic draw 1), as the talon changes more often than it can remember."""
        rules = self.rules
        return (
            rules.passes is not None
            and rules.draw == 3
            and rules.foundation_to_tableau
            and self.techniques.dead_ends
        )

    def _runs_needed(self, talon: bytes, pointer: int, reserve_count: int) -> int:
        """For `columns_cannot_hold`: the most runs that the columns must be in when some
        talon card comes to the waste's top, at least (remembered: it depends on the talon,
        the pointer and the reserve alone)."""
        memo = (talon, pointer, reserve_count)
        known = self._runs.get(memo)
        if known is not None:
            return known
        maybe_left = _bits(talon) | _bits(self.reserve[:reserve_count])
        draw = self.rules.draw
        piles = [talon[:pointer]] + [talon[q : q + draw] for q in range(pointer, len(talon), draw)]
        most = 0
        for pile in piles:
            stays = frozen = 0
            above = _bits(pile)
            for card in pile:
                stays |= _BIT[card]
                above ^= _BIT[card]
                frozen |= self._from[card]
                held = frozen & ~(maybe_left & ~above)
                if bin(held).count("1") < COLUMNS:  # never too many runs
                    continue
                allowed = (1 << 52) - 1 & ~stays
                runs = _runs_to_hold(held, allowed)
                # Its way off the waste adds one run at most: count it only if that may tell.
                if runs >= max(most, COLUMNS) and self._below[card] & stays:
                    runs = self._runs_to_place(card, held, allowed, runs)
                most = max(most, runs)
        if len(self._runs) > 100_000:
            self._runs.clear()
        self._runs[memo] = most
        return most

    @staticmethod
    def _runs_to_place(card: int, held: int, allowed: int, runs: int) -> int:
        """For `_runs_needed`: at least how many runs the columns are in when talon card
        `card` comes to the waste's top and cannot go up (a lower card of its suit stays
        under it), when `held` must be in a column, the columns can hold only cards of
        `allowed`, and `runs` hold `held`. The card leaves onto one it fits on that does
        not stay, which must then be a column's last card (held too), or into an empty
        column, when the other three hold every column card (one run more counted): the
        fewest runs of those ways."""
        fewest = runs + 1
        for parent in _PARENTS[card]:
            if allowed & _BIT[parent]:
                fewest = min(fewest, _runs_to_hold(held | _BIT[parent], allowed))
        return fewest

    # The reserve test works on card sets as bit masks (bit c for card c), like the core.

    def _freeze(self, runs: Sequence[bytes], n: int) -> tuple[int, list[int]]:
        """The cards frozen while the reserve's n cards stay, and each run's highest
        frozen card's index (0 if none above its first card)."""
        suit_from = self._from
        frozen = self._frozen_by[n]
        covers = [0] * len(runs)
        while True:
            # The cards under a frozen one, then each new frozen card's suit from it up.
            added = 0
            for i, run in enumerate(runs):
                k = len(run) - 1
                while k > covers[i] and not frozen >> run[k] & 1:
                    k -= 1
                added |= _bits(run[covers[i] : k])
                covers[i] = k
            added &= ~frozen
            if not added:
                return frozen, covers
            for card in _cards_of(added):
                frozen |= suit_from[card]

    @staticmethod
    def _last_cards(
        runs: Sequence[bytes], covers: Sequence[int], seeds: int, talon: int, stop: int = 0
    ) -> int:
        """The cards that can be a last card while the frozen ones stay: `seeds` not
        under a frozen card, the runs' cards from their highest frozen one up, and
        the talon's cards that fit on one of those (stops early once one is in
        `stop`)."""
        under = last = 0
        for run, k in zip(runs, covers, strict=True):
            under |= _bits(run[:k])
            last |= _bits(run[k:])
        last |= seeds & ~under
        rest = talon & ~under & ~last
        fresh = last
        while fresh and not last & stop:
            fresh = _children_of(fresh) & rest
            last |= fresh
            rest &= ~fresh
        return last

    def _certain_deadlock(self, runs: Sequence[bytes], frozen: int, covers: Sequence[int]) -> bool:
        """Whether the cards sure to be in the runs at the moment in question (the frozen
        ones and those under them) can never all go up (`_deadlocked`). They keep their
        runs' order until then, and after it until they go up, so then no line wins.
        A run is built down, so a card lies right on a lower one only on a start-rank
        card: without one under another card, no proof (which spares the core a look at
        each card)."""
        stay = tuple(
            run[: k + 1] for run, k in zip(runs, covers, strict=True) if frozen >> run[k] & 1
        )
        rel = self.rel
        if not any(rel[card] == 0 for run in stay for card in run[:-1]):
            return False
        return self._deadlocked(stay)

    def _can_go_up(self, card: int, frozen: int) -> bool:
        """Whether no lower card of `card`'s suit is frozen."""
        return not frozen & _SUIT_BITS[card // 13] & ~self._from[card]

    def _top_stays(
        self, runs: Sequence[bytes], n: int, talon: int, seeds: int, linked: bool = False
    ) -> bool:
        """Whether the top of the reserve's n cards can never leave it (runs 0-3 are
        the columns); `linked`: see `_doomed`."""
        top = self.reserve[n - 1]
        frozen, covers = self._freeze(runs, n)
        if linked and self._certain_deadlock(runs, frozen, covers):
            return True
        if self._can_go_up(top, frozen):
            return False
        exits = _PARENT_BITS[top]
        for run in runs[:4]:
            if not frozen >> run[0] & 1:
                return False  # that column can go up
            exits |= _PARENT_BITS[run[0]]
        return not self._last_cards(runs, covers, seeds, talon, exits) & exits

    def _doomed(
        self,
        runs: Sequence[bytes],
        n: int,
        talon: int,
        seeds: int,
        depth: int,
        certain: bool = False,
        linked: bool = False,
    ) -> bool:
        """`_top_stays`, or (depth > 0) whichever way the top leaves, so does the next
        card at depth - 1; see `reserve_stuck`. `linked` (only with `certain`): the way
        here put cards on a card e, the only new order in the runs. Only then can the
        cards sure to stay be deadlocked: the state's own columns are not (`lost`), and
        without a new order no more of them are sure to stay (fewer are frozen for a
        later moment)."""
        if n == 1 or not depth:
            return self._top_stays(runs, n, talon, seeds, linked)
        top = self.reserve[n - 1]
        frozen, covers = self._freeze(runs, n)
        if linked and self._certain_deadlock(runs, frozen, covers):
            return True
        last = self._last_cards(runs, covers, seeds, talon)
        after = last | _BIT[top]
        alone = bytes((top,))

        def ways() -> Iterator[tuple[Sequence[bytes], int, int, bool]]:
            if self._can_go_up(top, frozen):  # t goes up
                yield runs, talon, last, False
            for e in _PARENTS[top]:  # t goes onto e
                if last >> e & 1:
                    yield _put_on(runs, e, alone), talon & ~_BIT[e], after, True
            for i, run in enumerate(runs[:4]):  # a column empties, and t fills it
                if not frozen >> run[0] & 1:  # every card of it goes up
                    yield (*runs[:i], alone, *runs[i + 1 :]), talon, after, False
                for e in _PARENTS[run[0]]:  # it goes onto e
                    if last >> e & 1 and e not in run:
                        moved = _put_on(runs, e, run[: covers[i] + 1])
                        yield (*moved[:i], alone, *moved[i + 1 :]), talon & ~_BIT[e], after, True

        return all(
            self._doomed(w, n - 1, rest, known, depth - 1, certain, certain and linked)
            for w, rest, known, linked in ways()
        )

    def _top_trapped(
        self,
        columns: Columns,
        n: int,
        talon: int,
        found: Foundations,
        depth: int,
        out_of_reach: int = 0,
    ) -> bool:
        """`reserve_stuck` with top-or-all moves: whether the top of the reserve's n cards,
        or one of the next `depth`, can never leave it.

        Say its top t first leaves at some moment T. Until then the reserve's other
        cards stay under it, and no column is ever empty: a column that empties takes
        t at once. So before T a column's first card stays where it is, and no whole
        column moves; the other cards move one at a time, a column's last card onto
        another's or up, a talon card onto a column's last card or up. Gather what may
        happen before T, as the least sets closed under these rules (each says only
        what is possible, so they hold at least all that does happen):
        - up: the cards on the foundations; and a talon card, or a possible last card
          that is not a first card, once every lower card of its suit may be up;
        - last (a possible last card of a column): each column's last card now; a
          talon card that fits on a possible last card; a card of a column whose card
          right on it may go up, or may move alone (it may be a last card, and a card
          it fits on may be one).
        The reserve's cards are in neither. Then t leaves at T only by going up (every
        lower card of its suit up), onto a last card it fits on, or into a column
        emptied at T: the column's first card goes up (it may be a last card, and
        every lower card of its suit up), or moves, with the cards on it, onto a last
        card it fits on. If none of these can happen, T never comes: no line wins.

        Otherwise the next card t' in turn, at the moment T' it first leaves, for each way
        t may have left (`_top_covered`): what may happen before T may happen before T'
        too, so the sets grow from there (but for the card a way lands on, covered at T, and
        if that is a talon card, the card it lies on: `_landings`).
        Between T and T' no column empties either (one that did would take t' at once), so
        the first cards stay as they are at T: those of now if t went up or onto a card; and
        if t filled a column emptied at T, those of now with t for that column's first card
        (t a last card, but as a first card it stays until T'), whose old first card went up
        or is free to move (with its column onto a card). A card that went up at T (t, or
        that first card) is up for good, and so is every lower card of its suit (no card
        comes back from the foundations): none of them is a talon card or a last card
        after T, whatever the sets held before it. If in every way t may leave, t' never
        can, no line wins. And so on, `depth` cards down the reserve. (Telling the ways apart,
        rather than taking every column that may empty as emptied, cut the nodes that proved
        skill draw 3 deals lost by up to a third, deal 106 from 873,000 to 126,000; over
        deals 0-499 at 7 million nodes on one thread, 9 % fewer nodes on the deals decided
        before and after, and 3 more decided (draw 1 with three passes, deals 0-299: 18 %
        and 1).)
        """
        held = _bits(self.reserve[:n]) | out_of_reach  # talon cards that stay (`talon_in_reach`)
        in_columns = firsts = last = 0
        for col in columns:
            in_columns |= _bits(col)
            firsts |= _BIT[col[0]]
            last |= _BIT[col[-1]]
        up = (1 << 52) - 1 & ~(held | talon | in_columns)
        deepest = max(0, n - 1 - depth)
        return self._top_covered(columns, n, deepest, talon, up, last, list(found))

    def _top_covered(
        self,
        runs: Sequence[bytes],
        n: int,
        deepest: int,
        talon: int,
        up: int,
        last: int,
        count: list[int],
    ) -> bool:
        """For `_top_trapped`: whether the top of the reserve's n cards, or one below it down
        to index `deepest`, can never leave it, in every way the cards above it may have
        left. `talon`, `up`, `last`: what may move as a talon card, may be up, may be a last
        card (grown here); `count`: per suit, the cards that may be up (changed here).

        `runs` are the columns from their first cards (the first cards stay until the
        reserve's top leaves), then the cards put on a card that was in none. When t goes
        onto a card e, or a column moves whole onto e, e is a last card at T and covered
        right after it: by t, or by the column's first card. Until that card leaves (goes
        up, or moves alone onto a possible last card), e is no column's last card and not
        up (nor the cards of its suit above it); the cards that were on e in its run have
        left before T. So the next card's sets grow from the sets at T without e, with the
        landed cards on e in the runs (`_top_grow` then finds e a last card again only if
        the card on it may leave)."""
        up, last = self._top_grow(runs, _firsts(runs), talon, up, last, count)
        card = self.reserve[n - 1]
        below = self._below
        bit = _BIT[card]
        ways: list[tuple[Sequence[bytes], int, int, int, list[int]]] = []
        if not below[card] & ~up:  # t goes up, the lower cards of its suit up before it
            gone = below[card] | bit
            ways.append((runs, talon & ~gone, up | bit, last & ~gone, self._risen(card, count)))
        alone = bytes((card,))
        sets = (talon, up, last | bit, count)
        for e in _cards_of(_PARENT_BITS[card] & last):  # t goes onto e
            ways += self._landings(runs, e, alone, -1, alone, last, sets)
        for i in range(4):  # a column empties at T, and t fills it
            run = runs[i]
            first = run[0]
            if last >> first & 1 and not below[first] & ~up:  # its cards go up
                gone = below[first] | _BIT[first]
                emptied = (*runs[:i], alone, *runs[i + 1 :])
                risen = self._risen(first, count)
                ways.append((emptied, talon & ~gone, up | _BIT[first], last & ~gone | bit, risen))
            mine = _bits(run)
            for e in _cards_of(_PARENT_BITS[first] & last & ~mine):  # it goes onto e
                if not self._refill_dead(runs, n, i, e, talon, last, last & ~mine):
                    ways += self._landings(runs, e, run, i, alone, last & ~mine, sets)
        if not ways:
            return True
        if n - 1 <= deepest:
            return False
        return all(
            self._top_covered(w, n - 1, deepest, rest, u, lst, list(c))
            for w, rest, u, lst, c in ways
        )

    def _risen(self, card: int, count: list[int]) -> list[int]:
        """For `_top_covered`: the counts once `card`, the next of its suit, has gone up."""
        risen = list(count)
        risen[card // 13] = self.rel[card] + 1
        return risen

    def _refill_dead(
        self, runs: Sequence[bytes], n: int, i: int, e: int, talon: int, last: int, targets: int
    ) -> bool:
        """For `_top_covered`: whether, when column i (`runs[i]`) goes whole onto card e at T
        and the reserve's top t (of its n cards) fills it, the columns are deadlocked then
        (`_cards_deadlocked`), in every way e may lie. `talon`, `last`: the sets before T;
        `targets`: the cards a talon card under the moved column may lie on (`last`
        without column i). Unlimited passes only (see below), and, as `_top_deadlocked`,
        empty columns taking no column card.

        What is sure at T: a run's cards up to its first one in `last` (each card under it
        never a last card before T, so the one on it stays, and a first card stays until T);
        run i's such cards on e; t alone in column i. If e lies in no run it is a talon card
        put on a card before T (`_landings`), lying on one of its parents in `targets`, and
        so on down (`REFILL_CHAIN` talon cards deep; deeper, no answer). Taken as up: the
        cards in no run, not in `talon` or `last` and not in the reserve. A card that left
        a run before T (cut from it by a landing) went up or moved alone onto a card, so it
        is in `last` (a card leaves `last` only when covered, and then lies in a run); with
        unlimited passes every talon card is in `talon`; so those are on the foundations.
        With a pass limit, talon cards out of reach in the last pass are in none of them,
        and may come within reach after T: not taken there. If the cards sure to be in
        place are deadlocked whatever lies elsewhere, no line wins through this way, and t
        does not leave by it. Asked only where e is a start-rank card, the moved column's
        first card then lying on a lower card (the new order that may wait), and a talon
        card (in no run): asked for every e, skill draw 1 deal 245 took 5.70 million nodes
        to the verdict where 6.89, at some three times the CPU a node; asked of a
        start-rank e in a run too, the same 6.89 million (those answers proved nothing
        there) at more CPU a node."""
        if self.rel[e] or self.rules.passes is not None or self.rules.empty_column == "any":
            return False
        if any(e in run for run in runs):
            return False
        seen = talon | last | _bits(self.reserve[:n])
        tops = []  # per run, the index of its first card in `last` (or its last card)
        for run in runs:
            k = 0
            while k < len(run) - 1 and not last >> run[k] & 1:
                k += 1
            tops.append(k)
            seen |= _bits(run)
        up = (1 << 52) - 1 & ~seen
        return self._refill_lies_dead(runs, i, tops, targets, up, self.reserve[n - 1], e, b"")

    def _refill_lies_dead(
        self,
        runs: Sequence[bytes],
        i: int,
        tops: list[int],
        targets: int,
        up: int,
        t: int,
        b: int,
        chain: bytes,
    ) -> bool:
        """For `_refill_dead`: whether the columns are deadlocked in every way the talon cards
        `chain` (each on the next; the moved run on the last) lie on card b (and, if b is a
        talon card too, b on a card it fits on)."""
        j = next((j for j, run in enumerate(runs) if b in run), -1)
        if j < 0:  # b is a talon card put on a card before T
            if len(chain) == REFILL_CHAIN:
                return False
            chain = bytes((b,)) + chain
            return all(
                self._refill_lies_dead(runs, i, tops, targets, up, t, q, chain)
                for q in _cards_of(_PARENT_BITS[b] & targets)
            )
        run = runs[j]
        at = run.index(b)
        whole = at == tops[j]  # on run j's cards that stay
        piece = (run[: at + 1] if whole else bytes((b,))) + chain + runs[i][: tops[i] + 1]
        columns = [piece]
        for k, other in enumerate(runs):
            if k != i and not (k == j and whole):
                columns.append(other[: tops[k] + 1])
        columns.append(bytes((t,)))
        return self._cards_deadlocked(columns, up)

    def _landings(
        self,
        runs: Sequence[bytes],
        e: int,
        more: bytes,
        i: int,
        alone: bytes,
        last: int,
        sets: tuple[int, int, int, list[int]],
    ) -> list[tuple[Sequence[bytes], int, int, int, list[int]]]:
        """For `_top_covered`: the ways `more` lands on card e at T (and t alone fills column
        i, if i >= 0), each as (runs, talon, up, last, count) from `sets`, e covered. If e
        lies in no run, it is a talon card put on a card before T (an emptied column takes
        only the reserve's top until T): it lies on a card it fits on, one that may be a
        last card (`last`, without column i), covered too; one way for each such card."""
        if any(e in run for run in runs):
            ways = [(_put_on(runs, e, more), -1)]
        else:
            landed = bytes((e,)) + more
            ways = [(_put_on(runs, p, landed), p) for p in _cards_of(_PARENT_BITS[e] & last)]
        out: list[tuple[Sequence[bytes], int, int, int, list[int]]] = []
        on_e = self._covered(e, *sets)
        for put, under in ways:
            covered = on_e
            if under >= 0:
                covered = self._covered(under, *covered)
            if i >= 0:
                put = (*put[:i], alone, *put[i + 1 :])
            out.append((put, *covered))
        return out

    def _covered(
        self, e: int, talon: int, up: int, last: int, count: list[int]
    ) -> tuple[int, int, int, list[int]]:
        """For `_top_covered`: (talon, up, last, count) once card e is covered."""
        suit = e // 13
        if up >> e & 1:
            up &= ~self._from[e]
            count = list(count)
            count[suit] = self.rel[e]
        return talon & ~_BIT[e], up, last & ~_BIT[e], count

    def _top_grow(
        self,
        columns: Sequence[bytes],
        firsts: int,
        talon: int,
        up: int,
        last: int,
        count: list[int],
    ) -> tuple[int, int]:
        """For `_top_trapped`: the least sets `up` and `last` (from these) closed under its
        rules, the first cards `firsts` staying; `count` follows `up`."""
        start = self.start_rank
        while True:
            grown = (up, last)
            fresh = last
            while fresh:  # talon cards onto possible last cards
                fresh = _children_of(fresh) & talon & ~last
                last |= fresh
            free = (last | talon) & ~firsts
            for suit in range(4):
                while count[suit] < 13:
                    c = suit * 13 + (start + count[suit]) % 13
                    if not free >> c & 1:
                        break
                    up |= _BIT[c]
                    count[suit] += 1
            for col in columns:
                for k in range(len(col) - 2, -1, -1):
                    on = col[k + 1]
                    if not last >> col[k] & 1:
                        if up >> on & 1 or (last >> on & 1 and _PARENT_BITS[on] & last):
                            last |= _BIT[col[k]]
                        else:
                            break
            if (up, last) == grown:
                return up, last

    def _follows_stock(self, state: State) -> bool:
        """Whether the state is in the last pass of limited passes with talon cards left,
        where `reserve_stuck` follows the stock's order (`_timed_trapped`) and the run count's
        tests may apply (`_counts_last_pass`)."""
        passes = self.rules.passes
        return passes is not None and state[5] >= passes and bool(state[1])

    def _timed_trapped(self, state: State, depth: int, out_of_reach: int) -> bool:
        """`_top_trapped` in the last pass of limited passes, following the stock's order.

        In the last pass the talon is dealt once more, `draw` cards a draw, each lot onto the
        waste, and only the waste's top ever leaves it: so a talon card can go up or land on a
        column's last card only while it is the waste's top, once drawn and once every card
        drawn after it (or lying on it in the waste) has left. `_top_grow` lets any talon card
        land on a possible last card at any moment; here each card gets the earliest draw at
        which it may be up and at which it may be a column's last card (`_timed_grow`), and a
        talon card counts only at the draws it may be the waste's top then. Each way the
        reserve's top t may leave has an earliest draw too, and t leaves no earlier than the
        card above it did: the next card's sets grow from that draw on (`_timed_covered`).
        The sets are `_top_trapped`'s with fewer talon cards at each moment, so this proves
        every state that one does, and more."""
        columns, talon, pointer, n, _, _, _ = state
        in_play = _bits(self.reserve[:n]) | _bits(talon)
        last = [_NEVER] * 52
        for col in columns:
            in_play |= _bits(col)
            last[col[-1]] = 0
        up = [_NEVER if in_play >> c & 1 else 0 for c in range(52)]
        deepest = max(0, n - 1 - depth)
        deal = (talon, pointer, out_of_reach)
        return self._timed_covered(columns, n, deepest, deal, 0, up, last, 0)

    def _timed_covered(
        self,
        runs: Sequence[bytes],
        n: int,
        deepest: int,
        deal: tuple[bytes, int, int],
        gone: int,
        up: list[int],
        last: list[int],
        start: int,
    ) -> bool:
        """`_top_covered` with times (`_timed_trapped`): whether the top of the reserve's n
        cards, or one below it down to index `deepest`, can never leave it, the cards above
        it having left by draw `start`. `deal`: the talon, its pointer and the talon cards
        that never come to the waste's top (`talon_in_reach`); `gone`: talon cards landed on
        a card (they left the waste); `up`, `last`: per card, the earliest draw at which it
        may be up, may be a last card (`_NEVER`: never).

        The ways are `_top_covered`'s, each from the draw at which it may first be taken (t
        up once every lower card of its suit may be up; onto e once e may be a last card; a
        column emptied once its first card may go up, or onto e), and no earlier than
        `start`: there the next card's sets go on growing."""
        card = self.reserve[n - 1]
        held = _bits(self.reserve[:n]) | deal[2]
        up, last = self._timed_grow(runs, deal, gone, held, up, last, start)
        ways: list[tuple[Sequence[bytes], int, list[int], list[int], int]] = []
        alone = bytes((card,))
        rise = self._prev_up(card, up)
        if rise < _NEVER:  # t goes up
            at = max(rise, start)
            u, lst = list(up), list(last)
            u[card] = lst[card] = at
            ways.append((runs, gone, u, lst, at))
        for e in _PARENTS[card]:  # t goes onto e
            if last[e] < _NEVER:
                ways += self._timed_landings(runs, e, alone, -1, card, gone, up, last, 0, start)
        for i in range(4):  # a column empties, and t fills it
            run = runs[i]
            first = run[0]
            at = max(last[first], self._prev_up(first, up), start)
            if at < _NEVER:  # its cards go up
                lst = list(last)
                lst[card] = at
                ways.append(((*runs[:i], alone, *runs[i + 1 :]), gone, list(up), lst, at))
            mine = _bits(run)
            for e in _PARENTS[first]:  # it goes onto e
                if last[e] < _NEVER and not mine >> e & 1:
                    ways += self._timed_landings(runs, e, run, i, card, gone, up, last, mine, start)
        if not ways:
            return True
        if n - 1 <= deepest:
            return False
        return all(
            self._timed_covered(w, n - 1, deepest, deal, g, u, lst, at) for w, g, u, lst, at in ways
        )

    def _timed_landings(
        self,
        runs: Sequence[bytes],
        e: int,
        more: bytes,
        i: int,
        card: int,
        gone: int,
        up: list[int],
        last: list[int],
        mine: int,
        start: int,
    ) -> list[tuple[Sequence[bytes], int, list[int], list[int], int]]:
        """`_landings` with times: the ways `more` lands on card e (and t, `card`, alone fills
        column i, if i >= 0, `more` its cards `mine`), each as (runs, gone, up, last, the draw
        from which t has left), e covered; if e is a talon card, on each card it fits on
        that may be a last card, covered too, e gone from the waste."""
        at = max(last[e], start)
        if any(e in run for run in runs):
            ways = [(_put_on(runs, e, more), -1)]
        else:
            landed = bytes((e,)) + more
            ways = [
                (_put_on(runs, p, landed), p)
                for p in _PARENTS[e]
                if last[p] < _NEVER and not mine >> p & 1
            ]
        out: list[tuple[Sequence[bytes], int, list[int], list[int], int]] = []
        for put, under in ways:
            u, lst = self._timed_cover(e, up, last)
            left = gone | _BIT[e]
            if under >= 0:
                u, lst = self._timed_cover(under, u, lst)
                left |= _BIT[under]
            if i >= 0:
                put = (*put[:i], bytes((card,)), *put[i + 1 :])
            lst[card] = at
            out.append((put, left, u, lst, at))
        return out

    def _timed_cover(self, e: int, up: list[int], last: list[int]) -> tuple[list[int], list[int]]:
        """`_covered` with times: e no last card, neither it nor its suit above it up."""
        u, lst = list(up), list(last)
        lst[e] = _NEVER
        for c in _cards_of(self._from[e]):
            u[c] = _NEVER
        return u, lst

    def _prev_up(self, card: int, up: list[int]) -> int:
        """The draw from which every lower card of `card`'s suit may be up (0: none)."""
        if not self.rel[card]:
            return 0
        return up[card // 13 * 13 + (card % 13 + 12) % 13]

    def _timed_grow(
        self,
        runs: Sequence[bytes],
        deal: tuple[bytes, int, int],
        gone: int,
        held: int,
        up: list[int],
        last: list[int],
        start: int,
    ) -> tuple[list[int], list[int]]:
        """For `_timed_covered`: `up` and `last` with every card's earliest draw from `start`
        on: draw by draw, the sets of the cards that may be up and may be last cards then,
        closed under `_top_grow`'s rules, the first cards staying, with the talon cards that
        may be the waste's top at that draw for its talon. The waste's top may leave (when
        it may be up or a last card, landed), and then the card under it may be the top.
        `held` never leave (the reserve's cards and those the waste holds under them)."""
        up, last = list(up), list(last)
        talon, pointer, _ = deal
        draw = self.rules.draw
        size = len(talon)
        lots = (size - pointer + draw - 1) // draw
        firsts = _firsts(runs)
        for j in range(start, lots + 1):
            up_set = sum(_BIT[c] for c in range(52) if up[c] <= j)
            last_set = sum(_BIT[c] for c in range(52) if last[c] <= j)
            end = min(pointer + j * draw, size)
            while True:
                grown = (up_set, last_set)
                exposed = 0  # the cards that may be the waste's top at draw j
                for q in range(end - 1, -1, -1):
                    y = talon[q]
                    if gone >> y & 1:
                        continue
                    exposed |= _BIT[y]
                    if not (up_set | last_set) >> y & 1:
                        break
                exposed &= ~held
                count = [self._rises(up_set, suit) for suit in range(4)]
                up_set, last_set = self._top_grow(runs, firsts, exposed, up_set, last_set, count)
                if (up_set, last_set) == grown:
                    break
            for c in _cards_of(up_set):
                up[c] = min(up[c], j)
            for c in _cards_of(last_set):
                last[c] = min(last[c], j)
        return up, last

    def _rises(self, up: int, suit: int) -> int:
        """How many of `suit`'s cards from the start rank up are in `up`, in a row."""
        k = 0
        while k < 13 and up >> suit * 13 + (self.start_rank + k) % 13 & 1:
            k += 1
        return k

    def lost(self, state: State) -> bool:
        """A quick proof that `state` cannot be won (False says nothing).

        With whole-column moves only, see `_deadlocked`. Otherwise: say a column
        holds a card x above a lower card of its suit. x must leave the column
        before the lower card can go up, and not to its foundation: it must go,
        alone or (with any-run moves) with the cards from any one between them,
        onto a card that the first of those fits on, when empty columns take only
        the waste's card. Without cards coming back from the foundations, if
        every such card is on a foundation or under the one that would go on it,
        it never can. (A reserve card proves nothing: an emptied column takes the
        reserve's top card whatever it is.) With top-or-all moves, first
        `_top_deadlocked`: cards that wait on one another across the columns.
        """
        rules = self.rules
        whole = rules.tableau_moves == "all"
        if not self.techniques.dead_ends or (
            not whole and (rules.foundation_to_tableau or rules.empty_column == "any")
        ):
            return False
        if whole:
            return self._deadlocked(state[0])
        if rules.tableau_moves == "top-or-all" and self._top_deadlocked(state[0], state[4]):
            return True
        known = self._inverted
        rel = self.rel
        found = state[4]
        for col in state[0]:
            if len(col) < 3:
                continue
            stuck = known.get(col)
            if stuck is None:
                stuck = self._inversions(col)
                if len(known) > 100_000:
                    known.clear()
                known[col] = stuck
            if stuck and any(all(found[p // 13] > rel[p] for p in parents) for parents in stuck):
                return True
        return False

    def _top_deadlocked(self, columns: Columns, found: Foundations) -> bool:
        """With top-or-all moves (empty columns taking only the waste's card, no cards back
        from the foundations): the columns' cards can never all go up.

        A column card x leaves the card under it only by going up or by moving alone (a
        whole column keeps its order), onto a parent p of x that is then a column's last
        card, and so not on a foundation now. Play out as `_deadlocked` does, but send away
        a last card also when one of its parents is not up and is either not among the
        cards left or is the last of those left in its column. (The card under x is
        neither.) If cards are left, no line wins: take the one among them that first goes
        up or moves alone, at L. The cards on it have not (it is a last card left), so it
        is a column's last card then; going up, it leaves no lower card of its suit behind
        (those went up before L); moving, the parent it goes onto is a last card at L, so
        the cards left on that parent have moved before L. Either way the play-out would
        have sent it away. Columns are built down, so only cards on a start-rank card can
        lie above a lower one; without one nothing waits (the lowest last card goes up).
        (Taking the reserve in as a fifth pile, which leaves also into an emptied column,
        proved next to nothing more on skill deals: a few hundred nodes in millions.)
        A last card left is not sent away either when a card that stays until L covers it
        or the parent it would go onto (`_top_may_leave`).
        """
        rel = self.rel
        up = 0  # the cards on the foundations
        for suit in range(4):
            for card in range(suit * 13, suit * 13 + 13):
                if rel[card] < found[suit]:
                    up |= _BIT[card]
        return self._cards_deadlocked(columns, up)

    def _cards_deadlocked(self, columns: Sequence[bytes], up: int) -> bool:
        """`_top_deadlocked`'s play-out of `columns`, `up` the cards taken as up (never a
        last card). It holds too for pieces of columns, each card in it lying on the one
        under it in its piece (a piece's first card on a card not told), `up` cards that
        are on the foundations: the argument looks only at cards left, and a card left
        under one left, or up, is no last card before L, whatever else lies anywhere."""
        rel = self.rel
        if not any(rel[col[k]] > rel[col[k - 1]] for col in columns for k in range(1, len(col))):
            return False
        left = [0, 0, 0, 0]  # per suit, the ranks (from the start rank) left in the columns
        members = 0  # the cards left
        for col in columns:
            for card in col:
                left[card // 13] |= 1 << rel[card]
                members |= _BIT[card]
        ends = [len(col) for col in columns]
        lasts = sum(_BIT[col[-1]] for col in columns if col)  # the last cards left
        lies = self._lies(columns)
        moved = True
        while moved:
            moved = False
            for i, col in enumerate(columns):
                while ends[i] and self._top_may_leave(
                    col[ends[i] - 1], left, up, lasts, members, lies
                ):
                    card = col[ends[i] - 1]
                    left[card // 13] &= ~(1 << rel[card])
                    members &= ~_BIT[card]
                    lasts &= ~_BIT[card]
                    ends[i] -= 1
                    if ends[i]:
                        lasts |= _BIT[col[ends[i] - 1]]
                    moved = True
        return any(ends)

    @staticmethod
    def _lies(columns: Sequence[bytes]) -> tuple[list[int], list[int], list[int]]:
        """For `_top_may_leave`: per card, the card right under it in its column and the one
        right on it (-1 if none), and the cards under it in its column (bits)."""
        under, on, beneath = [-1] * 52, [-1] * 52, [0] * 52
        for col in columns:
            mask = 0
            for k, card in enumerate(col):
                beneath[card] = mask
                mask |= _BIT[card]
                if k:
                    under[card] = col[k - 1]
                    on[col[k - 1]] = card
        return under, on, beneath

    def _top_may_leave(
        self,
        card: int,
        left: list[int],
        up: int,
        lasts: int,
        members: int,
        lies: tuple[list[int], list[int], list[int]],
    ) -> bool:
        """For `_top_deadlocked`: `_may_leave`, but not when a card that stays until L covers
        `card` or the parent it would go onto at L (L, the cards left and the last cards left
        as there; `lies` from `_lies`).

        A card c not left (lying on the card p under it now) that has a lower card of its
        suit left cannot go up before L. It leaves p only up or alone onto its other parent,
        so never before L if that can never be a last card before L: one that is up, lies
        under a card left, or lies under c itself. Then p is covered at L (`_stays_on`), and
        neither goes up nor takes a card then. And say `card` x would go onto p at L while
        its twin c lies on p, c's other parent such a card: c must go up before L. A child q
        of both (not a first card) lies on x or c now and, with a lower card of its suit left,
        stays on one of them until L (a column card goes only onto a parent, never into an
        empty column); with c gone, on x: x is no last card at L. Each of these holds in
        any smaller set of cards left, so the play-out's end does not depend on its order.
        """
        if not self._may_leave(card, left, up, lasts | ~members):
            return False
        under, on, beneath = lies
        stays = up | members & ~lasts  # never a last card before L
        if self._stays_on(on[card], card, members, stays, beneath):
            return False
        ranks = left[card // 13]
        if ranks & -ranks == 1 << self.rel[card]:
            return True
        twin = _TWIN[card]
        for p in _cards_of(_PARENT_BITS[card] & ~up & (lasts | ~members)):
            c = on[p]
            if c < 0:
                return True
            if c == card or self._stays_on(c, p, members, stays, beneath):
                continue
            if (
                c == twin
                and not _PARENT_BITS[c] & ~_BIT[p] & ~(stays | beneath[c])
                and any(under[q] in (card, c) and self._below[q] & members for q in _CHILDREN[card])
            ):
                continue
            return True
        return False

    def _stays_on(self, c: int, p: int, members: int, stays: int, beneath: list[int]) -> bool:
        """For `_top_may_leave`: whether card c (-1: none), lying on p, stays on it until L."""
        return (
            c >= 0
            and bool(self._below[c] & members)
            and not _PARENT_BITS[c] & ~_BIT[p] & ~(stays | beneath[c])
        )

    def _may_leave(self, card: int, left: list[int], up: int, free: int) -> bool:
        """For `_top_deadlocked`: whether a last card left may go up (the lowest of its suit
        left) or go onto a parent that is not up and in `free`."""
        ranks = left[card // 13]
        return ranks & -ranks == 1 << self.rel[card] or bool(_PARENT_BITS[card] & ~up & free)

    def _deadlocked(self, columns: Sequence[bytes]) -> bool:
        """With whole-column moves only: the columns' cards can never all go up.

        A card leaves its column only to its foundation, or together with all the
        cards above it (which stay above it), so the cards above it go up for the
        first time before it does. And a suit goes up in order. So play it out:
        send up any card that is the last of its column and the lowest of its suit
        still in the columns. If cards are left, each waits for another one: a
        cycle (a card above a lower one of its suit is the shortest), and no line
        wins. This holds with cards coming back from the foundations too, since
        it speaks of the first time each card goes up.

        Each step of such a cycle goes to a higher rank (counted from the start
        rank), except where a card lies above a lower one in its column; and then
        some card lies right on a lower one. Columns are mostly built down, so
        that is checked first.
        """
        rel = self.rel
        if not any(rel[col[k]] > rel[col[k - 1]] for col in columns for k in range(1, len(col))):
            return False
        left = [0, 0, 0, 0]  # per suit, the ranks (from the start rank) in the columns
        for col in columns:
            for card in col:
                left[card // 13] |= 1 << rel[card]
        ends = [len(col) for col in columns]
        moved = True
        while moved:
            moved = False
            for i, col in enumerate(columns):
                while ends[i]:
                    card = col[ends[i] - 1]
                    ranks = left[card // 13]
                    if ranks & -ranks != 1 << rel[card]:
                        break
                    left[card // 13] = ranks & (ranks - 1)
                    ends[i] -= 1
                    moved = True
        return any(ends)

    def _inversions(self, col: bytes) -> tuple[tuple[int, ...], ...]:
        """For each card x of `col` above a lower card of its suit, the cards that could
        take it away: those that x fits on, or (with any-run moves) any card between
        x and the nearest such lower card fits on, except those under that card."""
        rel = self.rel
        any_run = self.rules.tableau_moves == "any-run"
        lowest = [13, 13, 13, 13]
        out = []
        for i, card in enumerate(col):
            suit = card // 13
            if rel[card] > lowest[suit]:
                first = i
                if any_run:
                    first = 1 + max(
                        k for k in range(i) if col[k] // 13 == suit and rel[col[k]] < rel[card]
                    )
                out.append(
                    tuple(
                        p for t in range(first, i + 1) for p in _PARENTS[col[t]] if p not in col[:t]
                    )
                )
            elif rel[card] < lowest[suit]:
                lowest[suit] = rel[card]
        return tuple(out)

    def moves(self, state: State, *, prune: bool = False) -> list[Successor]:
        """Every step from `state` with its result before `settle`; with `prune`, the
        search's steps: without the run moves that `exposes_use` turns down."""
        columns, talon, pointer, reserve_count, found, pass_number, protected = state
        rules = self.rules
        marks = self.placements_wait  # see `placement_used`
        waits = prune and marks
        # With top-or-all moves talon cards wait only while the reserve has cards.
        placing = marks and (bool(reserve_count) or not self.placements_wait_top)
        prune = (
            prune
            and self.techniques.swap_pruning
            and rules.tableau_moves == "any-run"
            and not rules.autocomplete
        )
        tops: set[int] = set()  # the waste tops reachable by drawing
        rel = self.rel
        parents = _PARENTS
        empty_any = rules.empty_column == "any"
        out: list[Successor] = []
        where: dict[int, int] = {}  # each column's last card -> the column
        empty = -1  # the leftmost empty column, which stands for them all
        for j in (3, 2, 1, 0):
            col = columns[j]
            if col:
                where[col[-1]] = j
            else:
                empty = j
        if prune and waits and self._marked_bits(protected) & _bits(bytes(where)):
            prune = False  # every step onto the marked card (`placements_wait_app`)

        def put(j: int, cards: bytes) -> Columns:
            lst = list(columns)
            lst[j] = columns[j] + cards
            return (lst[0], lst[1], lst[2], lst[3])

        def up(suit: int, n: int) -> Foundations:
            lst = list(found)
            lst[suit] += n
            return (lst[0], lst[1], lst[2], lst[3])

        # The reserve's top card.
        if reserve_count:
            card = self.reserve[reserve_count - 1]
            rest = reserve_count - 1
            if found[card // 13] == rel[card]:
                child = (columns, talon, pointer, rest, up(card // 13, 1), pass_number, protected)
                out.append((TO_FOUNDATION, (0, card, FOUNDATION), child))
            one = bytes((card,))
            for p in parents[card]:
                j = where.get(p, -1)
                if j >= 0:
                    child = (put(j, one), talon, pointer, rest, found, pass_number, protected)
                    out.append((FROM_RESERVE, (0, card, j), child))
            if empty >= 0 and empty_any:
                child = (put(empty, one), talon, pointer, rest, found, pass_number, protected)
                out.append((FROM_RESERVE, (0, card, empty), child))

        # The waste's top after any number of draws (the K+ macro move); only
        # cards with somewhere to go (all of them, when a column is empty).
        if talon:
            start = self.start_rank
            wanted = {suit * 13 + (start + found[suit]) % 13 for suit in range(4)}
            for top in where:
                wanted.update(_CHILDREN[top])
            reachable = self.reach(pointer, len(talon), pass_number)
            tops.update(talon[q - 1] for q, _, _ in reachable)
            for q, draws, added in reachable:
                card = talon[q - 1]
                if card not in wanted and empty < 0:
                    continue
                home = found[card // 13] == rel[card]
                p1, p2 = parents[card]
                targets = [j for j in (where.get(p1, -1), where.get(p2, -1), empty) if j >= 0]
                rest_talon = talon[: q - 1] + talon[q:]
                new_pass = pass_number + added
                if home:
                    child = (
                        columns,
                        rest_talon,
                        q - 1,
                        reserve_count,
                        up(card // 13, 1),
                        new_pass,
                        protected,
                    )
                    if added:
                        priority = NEXT_PASS
                    elif draws and rules.passes is not None:
                        priority = FROM_TALON  # see the priority classes
                    else:
                        priority = TO_FOUNDATION
                    out.append((priority, (draws, card, FOUNDATION), child))
                one = bytes((card,))
                for j in targets:
                    if waits and placing and j != empty and not self.placement_used(state, card, j):
                        continue
                    child = (
                        put(j, one),
                        rest_talon,
                        q - 1,
                        reserve_count,
                        found,
                        new_pass,
                        self._mark(protected, card) if placing and j != empty else protected,
                    )
                    out.append((NEXT_PASS if added else FROM_TALON, (draws, card, j), child))

        # Without the stock macro: a plain draw (or turning the waste over).
        if talon and not self.techniques.stock_macro:
            if pointer < len(talon):
                child = (
                    columns,
                    talon,
                    min(pointer + rules.draw, len(talon)),
                    reserve_count,
                    found,
                    pass_number,
                    protected,
                )
                out.append((DRAW_STEP, (1, DRAW_ONLY, FOUNDATION), child))
            elif rules.passes is None or pass_number < rules.passes:
                added = 0 if rules.passes is None else 1
                child = (columns, talon, 0, reserve_count, found, pass_number + added, protected)
                out.append((DRAW_STEP, (1, DRAW_ONLY, FOUNDATION), child))

        # Column cards: the last one to its foundation.
        for i in range(4):
            col = columns[i]
            if col and found[col[-1] // 13] == rel[col[-1]]:
                card = col[-1]
                lifted, rest = self._lift(columns, i, len(col) - 1, reserve_count)
                child = (lifted, talon, pointer, rest, up(card // 13, 1), pass_number, protected)
                out.append((TO_FOUNDATION, (0, card, FOUNDATION), child))

        # Column runs onto the cards they fit.
        mode = rules.tableau_moves
        if mode == "any-run":
            # Find the (at most 8) cards that fit a top.
            for top, j in where.items():
                for card in _CHILDREN[top]:
                    for i in range(4):
                        if i != j:
                            s = columns[i].find(card)
                            if s >= 0:
                                if not (prune and s and not self.exposes_use(state, i, s, j, tops)):
                                    out.append(self._run_move(state, i, s, j))
                                break
        else:
            # Only a whole column, or (top-or-all) a column's last card, moves.
            for i in range(4):
                col = columns[i]
                if not col:
                    continue
                for s in (0, len(col) - 1) if mode == "top-or-all" and len(col) > 1 else (0,):
                    for p in parents[col[s]]:
                        j = where.get(p, -1)
                        if j >= 0 and j != i:
                            out.append(self._run_move(state, i, s, j))
        # Runs to an empty column: one empty column stands for all, and a whole
        # column moved to an empty one changes nothing unless the reserve refills it.
        if empty >= 0 and empty_any:
            for i in range(4):
                n = len(columns[i])
                if not n or i == empty:
                    continue
                if mode == "any-run":
                    starts: range | tuple[int, ...] = range(n)
                elif mode == "top-or-all":
                    starts = (0, n - 1) if n > 1 else (0,)
                else:
                    starts = (0,)
                for s in starts:
                    if prune and s and not self.exposes_use(state, i, s, empty, tops):
                        continue
                    if s or reserve_count:
                        out.append(self._run_move(state, i, s, empty))

        # Foundation tops back to a column.
        if rules.foundation_to_tableau:
            start = self.start_rank
            for suit in range(4):
                count = found[suit]
                if not count:
                    continue
                card = suit * 13 + (start + count - 1) % 13
                targets = [where[p] for p in parents[card] if p in where]
                if empty >= 0 and empty_any:
                    targets.append(empty)
                one = bytes((card,))
                for j in targets:
                    child = (
                        put(j, one),
                        talon,
                        pointer,
                        reserve_count,
                        up(suit, -1),
                        pass_number,
                        protected | _BIT[card],
                    )
                    out.append((FROM_FOUNDATION, (0, card, j), child))
        if waits and protected:
            out = self._covering(out, where, self._marked_bits(protected))
        return out

    @staticmethod
    def _covering(out: list[Successor], where: dict[int, int], marked: int) -> list[Successor]:
        """The steps of `out` onto the marked talon card, a column's last card (see
        `placement_used`)."""
        j = where.get(marked.bit_length() - 1, -1)
        return [child for child in out if child[1][2] == j] if j >= 0 else out

    def exposes_use(self, state: State, i: int, s: int, j: int, tops: set[int]) -> bool:
        """Whether moving column i's cards from index s > 0 onto column j leaves the card
        it uncovers, e, something to do next (after draws only; `tops` are the waste
        tops drawing reaches): go up, take a card that fits it (from the reserve, the
        waste, a foundation, or a column, with everything on that card; not the run
        just moved, which would only go back), or move on with the cards under it.

        Otherwise the search leaves the move out (`swap_pruning`; with any-run moves
        and no autocomplete). The run only left one card it fits for another, its
        twin. Take a shortest winning line that starts with such a move m, and let m'
        be the first later move that uses e (one must: e goes up in the end). The
        moves in between do not touch e, and, with the run still on e, they can all
        be played the same (what lands on the run lands on it in e's column; what
        moves with the twin moves without the run, and the twin stays uncovered).
        Played just before m', m is legal again (the run fits the twin, wherever it
        went), and the positions meet. If the run left the twin in between, m is
        not needed at all, and the line was not shortest. So some shortest line
        starts otherwise, with a move the search keeps; the naive-search tests and
        a run over real deals with and without this pruning agree.
        """
        columns, _, _, reserve_count, found, _, _ = state
        rules = self.rules
        col = columns[i]
        exposed, moved = col[s - 1], col[s]
        if found[exposed // 13] == self.rel[exposed]:
            return True
        for card in _CHILDREN[exposed]:
            if card == moved:
                continue
            if reserve_count and self.reserve[reserve_count - 1] == card:
                return True
            if card in tops:
                return True
            count = found[card // 13]
            if rules.foundation_to_tableau and count and self.rel[card] == count - 1:
                return True
            for k in range(4):
                at = columns[k].find(card)
                if at >= 0 and (k != i or at >= s):
                    return True
        ends = set()
        for k in range(4):
            if k == i:
                continue
            if k == j:
                ends.add(col[-1])
            elif columns[k]:
                ends.add(columns[k][-1])
            elif rules.empty_column == "any":
                return True
        return any(p in ends for card in col[:s] for p in _PARENTS[card])

    @property
    def placements_wait(self) -> bool:
        """Whether a talon card put on a column must be covered at once (`placement_used`):
        draw 1 with unlimited passes, whole-column moves, no cards back from the
        foundations, no autocomplete, and `talon_waits` on. Classic draw 1, say. Or
        `placements_wait_top` (skill draw 1), or `placements_wait_app` (app draw 1)."""
        rules = self.rules
        return (
            (self._talon_at_will and rules.tableau_moves == "all" and not rules.autocomplete)
            or self.placements_wait_top
            or self.placements_wait_app
        )

    @property
    def placements_wait_top(self) -> bool:
        """`placements_wait` with top-or-all moves: draw 1 with unlimited passes, no cards
        back from the foundations (autocomplete or not), `talon_waits` on; skill draw 1, say.
        There a talon card waits only while the reserve has cards (`placement_used`)."""
        return self._talon_at_will and self.rules.tableau_moves == "top-or-all"

    @property
    def _talon_at_will(self) -> bool:
        """`talon_waits` on, draw 1 with unlimited passes (every talon card within reach at
        any moment) and no cards back from the foundations (`protected` is free)."""
        rules = self.rules
        return (
            self.techniques.talon_waits
            and rules.draw == 1
            and rules.passes is None
            and not rules.foundation_to_tableau
        )

    @property
    def placements_wait_app(self) -> bool:
        """`placements_wait` under the app's options: draw 1 with unlimited passes, any-run
        moves, cards back from the foundations, no autocomplete, `talon_waits` on; app
        draw 1, say.

        The exchange of `placement_used` holds with cards coming back from the foundations.
        Take a shortest winning line, a move m in it that puts a talon card c on a column's
        last card p, and the first later move m' that involves c: a card put on c (the
        reserve's top, a talon card, a foundation's top, or a run of any column, from any of
        its cards), c moving alone, or c going up. Leave c in the talon until m'. The moves
        in between stay legal: nothing goes on p (c covers it in the line), so no card comes
        back down onto it either, and p cannot go up; a run that starts at p or under it
        moves the same without c, and p stays a last card wherever it goes; a card back from
        its foundation onto any other card is the same move; with draw 1 and unlimited
        passes the talon moves still reach their cards. At m', c comes from the talon onto
        p and m' is played; if m' moves c alone, to a card or an empty column, or sends it
        up, c goes there straight from the talon and the line was not shortest. So in a
        shortest line m is followed at once by a move that covers c, as `placement_used`
        counts them (`_app_takers`). Settling sends up only cards that can come back onto
        the same card (`_safe_step`): after c is put on p, c alone, if it can go; so a
        talon card that can go up is not put on a column at all (its step up from the talon
        stands for it, and no stale mark keeps the two states apart).

        `protected` holds the cards back from their foundations, so the talon card is
        marked above them (`_mark`), and `settle` keeps the mark while the card is a
        column's last card (`_kept_mark`). A marked state's steps are every step onto the
        card: the swap pruning (`exposes_use`) is off there, as the line's cover may be a
        run that the pruning would only delay.

        With a pass limit the exchange fails: c left in the talon lies on the waste card
        under it, and the draws past it bury it, so c must go down before the next talon
        move. What holds then (cover c or take a talon card next) only reorders moves: every
        state it leaves out is reached with the moves in the other order.
        """
        rules = self.rules
        return (
            self.techniques.talon_waits
            and rules.draw == 1
            and rules.passes is None
            and rules.foundation_to_tableau
            and rules.tableau_moves == "any-run"
            and not rules.autocomplete
        )

    def _mark(self, protected: int, card: int) -> int:
        """`protected` of a state where the talon's `card` was just put on a column's last
        card (`placement_used`): the card alone, or under `placements_wait_app` the cards
        back from their foundations and the card as the mark above them."""
        if self.placements_wait_app:
            return protected & _CARD_BITS | (card + 1) << _MARK_SHIFT
        return _BIT[card]

    def _marked_bits(self, protected: int) -> int:
        """The card bit of the talon card a state's next step must cover, or 0 (`_mark`)."""
        if self.placements_wait_app:
            card = (protected >> _MARK_SHIFT) - 1
            return _BIT[card] if card >= 0 else 0
        return protected

    def _app_takers(self, state: State, j: int) -> int:
        """Under `placements_wait_app`, the cards that may go at once on a talon card put on
        column j besides the reserve's top: every card of another column (with the run on
        it) and every foundation's top (`placement_used`)."""
        columns, found = state[0], state[4]
        takers = 0
        for k in range(4):
            if k != j:
                takers |= _bits(columns[k])
        for suit in range(4):
            if found[suit]:
                takers |= _BIT[suit * 13 + (self.start_rank + found[suit] - 1) % 13]
        return takers

    def placement_used(self, state: State, card: int, j: int) -> bool:
        """Whether the talon's `card`, put on column j's last card, can be covered at once:
        by the reserve's top, another column (whole, by its first card), or a talon card
        that can itself be covered at once, and so on down.

        Where `placements_wait`, the search puts a talon card on a column only to cover
        it with its next step: the child is marked (`protected`, free under these rules,
        holds the card) and its only steps are those onto that card (`moves`); and only
        if this test says one will be there. With draw 1 and unlimited passes every
        talon card can come to the waste's top at any moment (the stock macro). Take a
        shortest winning line (counting the moves of cards, not the draws) and a move m
        in it that puts a talon card c on a card p, and let m' be the first later move
        that involves c: a card or a column put on c, or c going up. (c is not its
        column's first card, so it moves only with its whole column, whose moves do not
        depend on it.) Leave c in the talon until m': the moves in between stay legal
        (none puts anything on p, covered by c all along; p's column moves the same
        without c; the talon moves still reach their cards; no autocomplete waits for
        the talon), and at m' c comes from the talon onto p, still a last card, and m'
        is played, or c goes up from the talon instead. The line is no longer, and in
        it m is followed at once by a move that covers c. Do so for every such move: in
        the line then, each one is followed at once by a move that covers its card with
        the reserve's top, a column, or another talon card (followed at once, in turn,
        by a move that covers that). So a state that can be won has a step the search
        keeps into a state that can be won in fewer moves: a marked one whose win
        starts by covering its card, which has such a step too. (Settling after a talon
        card is put on a column sends nothing up: the card would have gone up from the
        talon before, and nothing else changes.) A talon card put into an empty column
        is not concerned. The exhaustive small-position tests check every state of the
        rules concerned.

        With top-or-all moves (`placements_wait_top`) the same holds while the reserve has
        cards, autocomplete or not; a card may also cover c alone, from the end of another
        column. m' may be c moving alone onto another card, or going up: it comes from the
        talon instead. No column is empty while the reserve has cards, and c's column
        moves whole the same without it. Autocomplete plays only once the talon and the
        reserve are empty: if that comes before m' in the line, c is still in the talon
        then, so put c on p at once after the move that emptied the rest; that move of c
        empties the talon, and the cascade follows as in the line. There the reserve is
        empty, and the search puts talon cards on columns freely (the cut applies only in
        states whose reserve has cards; a chain of talon cards covering one another leaves
        the reserve as it was).
        """
        columns, talon, _, reserve_count, _, _, _ = state
        takers = 0  # the cards that can be put on some card at once
        if reserve_count:
            takers |= _BIT[self.reserve[reserve_count - 1]]
        for k in range(4):
            if k != j and columns[k]:
                takers |= _BIT[columns[k][0]]
        if self.placements_wait_top:
            takers |= self._last_takers(columns, j)
        if self.placements_wait_app:
            if state[4][card // 13] == self.rel[card] and self.techniques.safe_moves:
                return False  # settling would send it straight up: its step up stands for it
            takers |= self._app_takers(state, j)
        rest = _bits(talon)
        reached = fresh = _BIT[card]
        while fresh:
            below = _children_of(fresh)
            if below & takers:
                return True
            fresh = below & rest & ~reached
            reached |= fresh
        return False

    @staticmethod
    def _last_takers(columns: Columns, j: int) -> int:
        """With top-or-all moves, the other columns' last cards, which may move alone onto
        a talon card put on column j (`placement_used`)."""
        return sum(_BIT[columns[k][-1]] for k in range(4) if k != j and columns[k])

    def _run_move(self, state: State, i: int, s: int, j: int) -> Successor:
        """Column i's cards from index s on, moved onto column j."""
        columns, talon, pointer, reserve_count, found, pass_number, protected = state
        col = columns[i]
        lifted, rest = self._lift(columns, i, s, reserve_count)
        lst = list(lifted)
        lst[j] = columns[j] + col[s:]
        child = (
            (lst[0], lst[1], lst[2], lst[3]),
            talon,
            pointer,
            rest,
            found,
            pass_number,
            protected,
        )
        return (EMPTIES_COLUMN if s == 0 else IN_TABLEAU, (0, col[s], j), child)

    def _lift(self, columns: Columns, i: int, s: int, reserve_count: int) -> tuple[Columns, int]:
        """The columns with column i cut at s (refilled from the reserve if emptied)."""
        rest = columns[i][:s]
        if not rest and reserve_count:
            reserve_count -= 1
            rest = self.reserve[reserve_count : reserve_count + 1]
        lst = list(columns)
        lst[i] = rest
        return (lst[0], lst[1], lst[2], lst[3]), reserve_count

    # -- forced and safe moves -----------------------------------------------------------

    def settle(self, state: State, out: list[Move] | None = None, *, cascade: bool = True) -> State:
        """Play the rules' autocomplete and then the provably safe foundation moves.

        Safe moves are appended to `out` (as engine moves) when it is given; the
        autocomplete cascade belongs to the move that triggered it, as in the
        engine, so `cascade=False` skips it before the first safe move (for a
        position that no move has just reached). Why each safe move loses nothing
        is told in `_safe_step`.
        """
        autocomplete = self.rules.autocomplete
        safe = self.techniques.safe_moves
        if not autocomplete and not safe:
            return state
        protected = state[6]
        if protected:
            # A card stays protected only while it is a column's last card.
            tops = sum(_BIT[col[-1]] for col in state[0] if col)
            tops |= _kept_mark(protected, tops)
            if protected & tops != protected:
                state = (*state[:6], protected & tops)
        while True:
            if cascade and autocomplete and not state[1] and not state[3]:
                state = self._autocomplete(state)
            cascade = True
            nxt = self._safe_step(state, out) if safe else None
            if nxt is None:
                return state
            state = nxt

    def _autocomplete(self, state: State) -> State:
        columns, talon, pointer, reserve_count, found, pass_number, protected = state
        rel = self.rel
        cols = list(columns)
        f = list(found)
        moved = True
        while moved:
            moved = False
            for i in range(4):
                col = cols[i]
                while col and f[col[-1] // 13] == rel[col[-1]]:
                    f[col[-1] // 13] += 1
                    col = col[:-1]
                    moved = True
                cols[i] = col
        return (
            (cols[0], cols[1], cols[2], cols[3]),
            talon,
            pointer,
            reserve_count,
            (f[0], f[1], f[2], f[3]),
            pass_number,
            protected,
        )

    def _unused(self, card: int, found: Foundations) -> bool:
        """Nothing ever needs `card` in a column (cards never come back from foundations).

        Either both cards that go on it (other colour, one rank lower) are on
        their foundations; or, counting ranks from the start rank, the card's
        rank r is 3 or more, both foundations of the other colour are up to rank
        r - 2 and the other one of its colour up to r - 3. Then a card x of rank
        r - 1 that a line puts on it could go to its foundation instead, and so
        could a card of rank r - 2 that the line puts on x, while the cards of
        rank r - 3 that could go on that are up already. (Below rank 3 that chain
        would wrap round to the last ranks, which cannot go up early.)
        """
        r = self.rel[card]
        suit = card // 13
        s1, s2 = _OTHER_COLOUR[suit]
        if found[s1] >= r and found[s2] >= r:
            return r > 0 or (found[s1] == 13 and found[s2] == 13)
        twin = _TWIN_SUIT[suit]
        return r >= 3 and found[s1] >= r - 1 and found[s2] >= r - 1 and found[twin] >= r - 2

    def _safe_step(self, state: State, out: list[Move] | None) -> State | None:
        """One safe foundation move from `state`, or None.

        Safe means: if the state before it can be won, so can the one after.

        Without foundation_to_tableau, a card is safe once nothing can ever be
        built on it (`_unused`: cards never come back from the foundations).
        Take any winning line from before: drop its moves of that card and every
        other move stays legal, ending in the same win. From the reserve's top
        and the columns; with draw 1 also from the talon (with unlimited passes
        draw 1 reaches every talon card at will; with a pass limit only the
        waste's top, so no draw is spent). With autocomplete only a column card
        with a card under it, or once the reserve is gone, so that the reserve
        and the talon run out at the same moments as in the line it replaces.

        With foundation_to_tableau, a column's last card may go up whenever a
        card lies under it (or it is alone, the reserve is gone and an empty
        column takes any card): whenever a winning line needs it back, it can
        come down onto that same card, which nothing else can have covered. The
        search marks a card it brings down `protected` so that settling does not
        send it straight back, for as long as it stays a column's last card.
        Cards from the reserve or the talon could not be put back, so they wait.
        """
        columns, talon, pointer, reserve_count, found, pass_number, protected = state
        rel = self.rel
        rules = self.rules
        autocomplete = rules.autocomplete
        returns = rules.foundation_to_tableau
        if returns:
            alone_ok = not reserve_count and rules.empty_column == "any"
            for i in range(4):
                col = columns[i]
                if not col:
                    continue
                card = col[-1]
                if found[card // 13] != rel[card] or protected & _BIT[card]:
                    continue
                if len(col) == 1:
                    if not alone_ok:
                        continue
                elif col[-2] not in _PARENTS[card]:
                    continue  # not a position of real play: it could not come back there
                return self._up_from_column(state, i, out)
            return None
        if reserve_count and not autocomplete:
            card = self.reserve[reserve_count - 1]
            if found[card // 13] == rel[card] and self._unused(card, found):
                if out is not None:
                    out.append(Move(Card.from_index(card), FOUNDATION))
                f = list(found)
                f[card // 13] += 1
                return (
                    columns,
                    talon,
                    pointer,
                    reserve_count - 1,
                    (f[0], f[1], f[2], f[3]),
                    pass_number,
                    protected,
                )
        for i in range(4):
            col = columns[i]
            if not col:
                continue
            card = col[-1]
            if found[card // 13] != rel[card] or not self._unused(card, found):
                continue
            if autocomplete and len(col) == 1 and reserve_count:
                continue
            return self._up_from_column(state, i, out)
        if rules.draw == 1 and talon and not autocomplete:
            if rules.passes is None:
                candidates = self.reach(pointer, len(talon), pass_number)
            else:
                candidates = [(pointer, 0, 0)] if pointer else []
            for q, draws, added in candidates:
                card = talon[q - 1]
                if found[card // 13] != rel[card] or not self._unused(card, found):
                    continue
                if out is not None:
                    out.extend([DRAW] * draws)
                    out.append(Move(Card.from_index(card), FOUNDATION))
                f = list(found)
                f[card // 13] += 1
                return (
                    columns,
                    talon[: q - 1] + talon[q:],
                    q - 1,
                    reserve_count,
                    (f[0], f[1], f[2], f[3]),
                    pass_number + added,
                    protected,
                )
        return None

    def _up_from_column(self, state: State, i: int, out: list[Move] | None) -> State:
        columns, talon, pointer, reserve_count, found, pass_number, protected = state
        card = columns[i][-1]
        if out is not None:
            out.append(Move(Card.from_index(card), FOUNDATION))
        cols, rest = self._lift(columns, i, len(columns[i]) - 1, reserve_count)
        f = list(found)
        f[card // 13] += 1
        return (cols, talon, pointer, rest, (f[0], f[1], f[2], f[3]), pass_number, protected)

    # -- lines ------------------------------------------------------------------------------

    def play(self, state: State, step: Step, out: list[Move]) -> State:
        """Apply one step and settle, appending its engine moves to `out`.

        Raises ValueError if the step is not one of the state's.
        """
        draws, card, target = step
        for _, candidate, child in self.moves(state):
            if candidate == step:
                out.extend([DRAW] * draws)
                if card != DRAW_ONLY:
                    out.append(Move(Card.from_index(card), target))
                return self.settle(child, out)
        raise ValueError(f"step {step} is not legal here")

    @staticmethod
    def won(state: State) -> bool:
        return sum(state[4]) == 52
