"""Hand-made positions for the engine tests: write the piles as card names, bottom to top."""

from __future__ import annotations

from app.engine import Card, Game, Position, Rules, legal_moves
from app.engine.cards import ORDERED_DECK, parse_rank
from app.engine.codes import DealCode


def cards(text: str) -> tuple[Card, ...]:
    """`"9S 8H 7C"` as cards, in the order written."""
    return tuple(Card.parse(name) for name in text.split())


def table(
    *columns: str,
    reserve: str = "",
    waste: str = "",
    stock: str = "",
    foundations: str = "",
    start: str = "A",
    base: str = "C",
    pass_number: int = 1,
    rest: str = "stock",
) -> Position:
    """A position with these piles, each written bottom to top (a pile's last card is its top).

    `foundations` names each started foundation's top card (`"8H 7S"`); a foundation
    holds every card from the start rank up to its top. The cards not placed
    anywhere go to the bottom of the `rest` pile (`stock` or `reserve`), so the
    position always holds the 52 cards, each once.
    """
    start_rank = parse_rank(start)
    counts = [0, 0, 0, 0]
    for top in cards(foundations):
        counts[top.suit] = (top.rank - start_rank) % 13 + 1
    tableau = tuple(cards(column) for column in (*columns, "", "", "", "")[:4])
    piles = {"stock": cards(stock), "waste": cards(waste), "reserve": cards(reserve)}
    on_foundations = {
        Card.of((start_rank + i) % 13, suit) for suit in range(4) for i in range(counts[suit])
    }
    placed = [*on_foundations, *piles["stock"], *piles["waste"], *piles["reserve"]]
    for column in tableau:
        placed.extend(column)
    assert len(placed) == len(set(placed)), "a card is written twice"
    leftover = tuple(card for card in ORDERED_DECK if card not in set(placed))
    piles[rest] = leftover + piles[rest]
    position = Position(
        stock=piles["stock"],
        waste=piles["waste"],
        reserve=piles["reserve"],
        foundations=(counts[0], counts[1], counts[2], counts[3]),
        tableau=tableau,
        pass_number=pass_number,
        start_rank=start_rank,
        base_suit="CDHS".index(base),
    )
    assert sorted(position.cards(), key=lambda c: c.index) == list(ORDERED_DECK)
    return position


def game_at(position: Position, rules: Rules | None = None) -> Game:
    """A fresh game (no history) of `rules` standing at `position`."""
    game = Game(DealCode(rules or Rules(), number=0))
    game.position = position
    return game


def moves(position: Position, rules: Rules) -> set[str]:
    """The legal moves of `position` as notation."""
    return {str(move) for move in legal_moves(position, rules)}


def sorted_deck() -> tuple[Card, ...]:
    """A deck that deals itself out: start rank ace (AC is the base card), the reserve
    holds AD AH AS 2C … 4D with AD on top, the columns 4H 4S 5C 5D and the stock the
    rest in rank order. Playing every foundation move at once, else drawing, wins it."""
    by_rank = sorted(ORDERED_DECK, key=lambda card: (card.rank, card.suit))
    return (*reversed(by_rank[1:14]), by_rank[0], *by_rank[14:])


def play_greedily(game: Game, limit: int = 500) -> None:
    """Play the first foundation move listed, else draw, until the game is won or stuck."""
    for _ in range(limit):
        legal = game.legal_moves()
        if not legal:
            return
        to_foundation = [m for m in legal if m.card is not None and m.target < 0]
        move = to_foundation[0] if to_foundation else legal[-1]
        if move.card is not None and move.target >= 0:
            return  # stuck: no foundation move and nothing to draw
        game.play(move)
