"""A Canfield position, the deal, the legal moves and applying them (SPEC §1–§4)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from app.engine.cards import ORDERED_DECK, SUITS, Card, fits_on
from app.engine.errors import IllegalMoveError
from app.engine.moves import DRAW, FOUNDATION, MOVES_OF, Move
from app.engine.refusals import Refusal, Why
from app.engine.rules import Rules

COLUMNS = 4
# Foundations are shown from the base card's suit on, round the cycle H -> S -> D -> C.
_SUIT_CYCLE = (2, 3, 1, 0)  # H S D C as suit indices


class Position(NamedTuple):
    """Everything on the table. Piles are tuples from bottom to top.

    `foundations[suit]` is how many cards that suit's foundation holds (suits in
    CDHS order); the cards themselves follow from `start_rank`. `pass_number`
    counts passes through the stock from 1.
    """

    stock: tuple[Card, ...]
    waste: tuple[Card, ...]
    reserve: tuple[Card, ...]
    foundations: tuple[int, int, int, int]
    tableau: tuple[tuple[Card, ...], ...]
    pass_number: int
    start_rank: int
    base_suit: int

    @staticmethod
    def deal(deck: Sequence[Card]) -> Position:
        """The opening position of deck `d` in dealing order (SPEC §2)."""
        base = deck[13]
        foundations = [0, 0, 0, 0]
        foundations[base.suit] = 1
        return Position(
            stock=tuple(reversed(deck[18:52])),
            waste=(),
            reserve=tuple(deck[0:13]),
            foundations=(foundations[0], foundations[1], foundations[2], foundations[3]),
            tableau=tuple((card,) for card in deck[14:18]),
            pass_number=1,
            start_rank=base.rank,
            base_suit=base.suit,
        )

    @property
    def won(self) -> bool:
        return sum(self.foundations) == 52

    @property
    def foundation_order(self) -> tuple[int, ...]:
        """Suits in display order: the base card's suit first, then H -> S -> D -> C."""
        first = _SUIT_CYCLE.index(self.base_suit)
        return tuple(_SUIT_CYCLE[(first + i) % 4] for i in range(4))

    def foundation_cards(self, suit: int) -> tuple[Card, ...]:
        """The cards on `suit`'s foundation, bottom to top."""
        return tuple(
            Card.of((self.start_rank + i) % 13, suit) for i in range(self.foundations[suit])
        )

    def foundation_top(self, suit: int) -> Card | None:
        count = self.foundations[suit]
        return Card.of((self.start_rank + count - 1) % 13, suit) if count else None

    def foundation_accepts(self, card: Card) -> bool:
        count = self.foundations[card.suit]
        return count < 13 and card.rank == (self.start_rank + count) % 13

    def cards(self) -> list[Card]:
        """Every card on the table, foundations included."""
        out = [*self.stock, *self.waste, *self.reserve]
        for column in self.tableau:
            out.extend(column)
        for suit in range(4):
            out.extend(self.foundation_cards(suit))
        return out


# _RUNS[start_rank][suit] is that suit's foundation sequence from the start rank, then None:
# a foundation holding `count` cards takes _RUNS[..][count] next and shows [count - 1] on top.
_RUNS: tuple[tuple[tuple[Card | None, ...], ...], ...] = tuple(
    tuple((*(Card.of((start + i) % 13, suit) for i in range(13)), None) for suit in range(4))
    for start in range(13)
)
# _FITS_ON[card.index] is the two cards that go on that card in a column.
_FITS_ON: tuple[tuple[Card, ...], ...] = tuple(
    tuple(card for card in ORDERED_DECK if fits_on(card, under)) for under in ORDERED_DECK
)


def legal_moves(position: Position, rules: Rules) -> list[Move]:
    """Every move legal in `position`, each once: reserve, waste, columns, foundations, draw."""
    stock, waste, reserve, foundations, tableau, pass_number, start_rank, _ = position
    clubs, diamonds, hearts, spades = foundations
    if clubs + diamonds + hearts + spades == 52:
        return []
    runs = _RUNS[start_rank]
    # The card each foundation takes next (None when it is full).
    takes = (runs[0][clubs], runs[1][diamonds], runs[2][hearts], runs[3][spades])
    # Which columns each card could go on: only the two cards that fit on each last card,
    # plus, where allowed, the empty columns.
    fitting: dict[Card, list[int]] = {}
    empty: list[int] = []
    for target, column in enumerate(tableau):
        if column:
            for card in _FITS_ON[column[-1].index]:
                if card in fitting:
                    fitting[card].append(target)
                else:
                    fitting[card] = [target]
        else:
            empty.append(target)
    empty_any = bool(empty) and rules.empty_column == "any"
    moves: list[Move] = []
    append = moves.append

    def to_columns(card: Card, source: int, empty_ok: bool) -> None:
        row = MOVES_OF[card.index]
        targets = fitting.get(card, ())
        if empty_ok:
            targets = sorted((*targets, *empty))
        for target in targets:
            if target != source:
                append(row[target + 1])

    if reserve:
        card = reserve[-1]
        if takes[card.suit] is card:
            append(MOVES_OF[card.index][0])
        if empty_any or card in fitting:
            to_columns(card, -1, empty_any)
    if waste:
        card = waste[-1]
        if takes[card.suit] is card:
            append(MOVES_OF[card.index][0])
        if empty or card in fitting:
            to_columns(card, -1, True)
    mode = rules.tableau_moves
    for source, column in enumerate(tableau):
        if not column:
            continue
        last = column[-1]
        if takes[last.suit] is last:
            append(MOVES_OF[last.index][0])
        # The cards of this column that may move to another column, each with those on it.
        if mode == "any-run":
            movable: Sequence[Card] = column
        elif mode == "top-or-all":
            movable = (column[0], last) if len(column) > 1 else column
        else:
            movable = column[:1]
        for card in movable:
            if empty_any or card in fitting:
                to_columns(card, source, empty_any)
    if rules.foundation_to_tableau:
        for suit, count in enumerate(foundations):
            if count:
                top = runs[suit][count - 1]
                assert top is not None
                if empty_any or top in fitting:
                    to_columns(top, -1, empty_any)
    if stock or (waste and (rules.passes is None or pass_number < rules.passes)):
        append(DRAW)
    return moves


def _refuse(position: Position, rules: Rules, move: Move) -> Refusal | None:
    """Why `move` is illegal in `position`, or None if it is legal."""
    if position.won:
        return Refusal(Why.GAME_WON)
    card = move.card
    if move.target != FOUNDATION and not 0 <= move.target < COLUMNS:
        return Refusal(Why.NO_SUCH_COLUMN, number=move.target + 1)
    if card is None:
        if position.stock:
            return None
        if not position.waste:
            return Refusal(Why.NOTHING_TO_DRAW)
        if rules.passes is not None and position.pass_number >= rules.passes:
            return Refusal(Why.NO_PASSES_LEFT, number=rules.passes)
        return None
    source, index = _locate(position, card)
    if source == "stock":
        return Refusal(Why.FACE_DOWN, (card,))
    if source == "w" and index != len(position.waste) - 1:
        return Refusal(Why.UNDER_IN_WASTE, (card, position.waste[-1]))
    if source == "r" and index != len(position.reserve) - 1:
        return Refusal(Why.UNDER_IN_RESERVE, (card, position.reserve[-1]))
    foundation_suit = card.suit
    if source == "f":
        top = position.foundation_top(foundation_suit)
        if move.target == FOUNDATION:
            return Refusal(Why.ALREADY_ON_FOUNDATION, (card,))
        if not rules.foundation_to_tableau:
            return Refusal(Why.FOUNDATIONS_KEEP_CARDS)
        if top is not None and top != card:
            return Refusal(Why.UNDER_ON_FOUNDATION, (card, top))
    column_source = -1
    if source.startswith("t"):
        column_source = int(source[1:])
        column = position.tableau[column_source]
        last = len(column) - 1
        if move.target == FOUNDATION and index != last:
            return Refusal(Why.UNDER_IN_COLUMN, (card, column[-1]), number=column_source + 1)
        if move.target != FOUNDATION:
            if rules.tableau_moves == "top-or-all" and index not in (0, last):
                return Refusal(Why.TOP_OR_WHOLE_COLUMN)
            if rules.tableau_moves == "all" and index != 0:
                return Refusal(Why.WHOLE_COLUMN_ONLY)
    if move.target == FOUNDATION:
        if position.foundation_accepts(card):
            return None
        count = position.foundations[foundation_suit]
        if count == 0:
            start = Card.of(position.start_rank, foundation_suit)
            return Refusal(Why.FOUNDATION_STARTS_AT, (start,), suit=foundation_suit)
        if count == 13:
            return Refusal(Why.FOUNDATION_FULL, suit=foundation_suit)
        needed = Card.of((position.start_rank + count) % 13, foundation_suit)
        return Refusal(Why.FOUNDATION_TAKES, (needed,), suit=foundation_suit)
    target = move.target
    if target == column_source:
        return Refusal(Why.ALREADY_IN_COLUMN, (card,), number=target + 1)
    column = position.tableau[target]
    if column:
        if fits_on(card, column[-1]):
            return None
        return Refusal(Why.DOES_NOT_FIT, (card, column[-1]))
    if rules.empty_column == "waste" and source != "w":
        return Refusal(Why.EMPTY_COLUMN_TAKES_WASTE)
    return None


def _locate(position: Position, card: Card) -> tuple[str, int]:
    """Where `card` lies: ("stock"|"w"|"r"|"f"|"t<i>", index in that pile)."""
    for name, pile in (("w", position.waste), ("r", position.reserve)):
        if card in pile:
            return name, pile.index(card)
    for i, column in enumerate(position.tableau):
        if card in column:
            return f"t{i}", column.index(card)
    count = position.foundations[card.suit]
    offset = (card.rank - position.start_rank) % 13
    if offset < count:
        return "f", offset
    return "stock", position.stock.index(card)


def check_move(position: Position, rules: Rules, move: Move) -> None:
    """Raise IllegalMoveError, with the reason, unless `move` is legal."""
    reason = _refuse(position, rules, move)
    if reason is not None:
        raise IllegalMoveError(reason)


def apply_move(position: Position, rules: Rules, move: Move) -> Position:
    """The position after `move`; raises IllegalMoveError and changes nothing if illegal.

    Includes the reserve refill of an emptied column, recycling the waste, and,
    where the rules have it, autocomplete.
    """
    check_move(position, rules, move)
    return _play(position, rules, move)


def _play(position: Position, rules: Rules, move: Move) -> Position:
    """Apply a move already known to be legal."""
    stock, waste, reserve = position.stock, position.waste, position.reserve
    foundations = list(position.foundations)
    tableau = list(position.tableau)
    pass_number = position.pass_number
    card = move.card
    if card is None:
        if stock:
            take = min(rules.draw, len(stock))
            waste = waste + stock[: -take - 1 : -1]
            stock = stock[:-take]
        else:
            stock = waste[::-1]
            waste = ()
            pass_number += 1
    else:
        moving: tuple[Card, ...] = (card,)
        if waste and waste[-1] is card:
            waste = waste[:-1]
        elif reserve and reserve[-1] is card:
            reserve = reserve[:-1]
        else:
            for i, column in enumerate(tableau):
                if card in column:
                    at = column.index(card)
                    moving = column[at:]
                    tableau[i] = column[:at]
                    if at == 0 and reserve:
                        tableau[i] = (reserve[-1],)
                        reserve = reserve[:-1]
                    break
            else:
                foundations[card.suit] -= 1
        if move.target == FOUNDATION:
            foundations[card.suit] += 1
        else:
            tableau[move.target] = tableau[move.target] + moving
    if rules.autocomplete and not stock and not waste and not reserve:
        _autocomplete(position, foundations, tableau)
    # tuple.__new__ skips the NamedTuple constructor's argument handling: this is the hot path.
    return tuple.__new__(
        Position,
        (
            stock,
            waste,
            reserve,
            (foundations[0], foundations[1], foundations[2], foundations[3]),
            tuple(tableau),
            pass_number,
            position.start_rank,
            position.base_suit,
        ),
    )


def _autocomplete(
    position: Position, foundations: list[int], tableau: list[tuple[Card, ...]]
) -> None:
    """Send column cards to the foundations until none can go (stock, waste, reserve empty)."""
    start = position.start_rank
    moved = True
    while moved:
        moved = False
        for i, column in enumerate(tableau):
            while column:
                card = column[-1]
                count = foundations[card.suit]
                if count < 13 and card.rank == (start + count) % 13:
                    foundations[card.suit] = count + 1
                    column = column[:-1]
                    moved = True
                else:
                    break
            tableau[i] = column


def pile_name(position: Position, card: Card) -> str:
    """The SPEC §8 pile name holding `card`: stock, w, r, fC..fS or t1..t4."""
    source, _ = _locate(position, card)
    if source == "f":
        return "f" + SUITS[card.suit]
    if source.startswith("t"):
        return f"t{int(source[1:]) + 1}"
    return source
