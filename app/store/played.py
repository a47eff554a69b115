"""Which deals a player has played, asked a few codes at a time through the index on
(player_id, code): the answer costs the same for a player with ten thousand games."""

from __future__ import annotations

import random
from collections.abc import Sequence

from sqlalchemy import bindparam, select

from app.store.games import Store
from app.store.models import games
from app.store.sql import Prepared

CHUNK = 100  # codes asked about in one query


class PlayedDeals:
    def __init__(self, store: Store) -> None:
        self.store = store
        names = [f"code{i}" for i in range(CHUNK)]
        query = select(games.c.code).where(
            games.c.player_id == bindparam("player_id"),
            games.c.code.in_([bindparam(name) for name in names]),
        )
        self._names = names
        self._query = Prepared(query, store.engine.dialect)

    def played(self, player_id: str, codes: Sequence[str]) -> set[str]:
        """The codes among `codes` (at most CHUNK) that the player has a game of."""
        assert len(codes) <= CHUNK
        padded = list(codes) + [codes[0]] * (CHUNK - len(codes)) if codes else []
        if not padded:
            return set()
        values = {"player_id": player_id, **dict(zip(self._names, padded, strict=True))}
        with self.store.reading() as tx:
            return {row[0] for row in tx.all(self._query, values)}

    def first_unplayed(self, player_id: str, codes: Sequence[str]) -> str | None:
        """One of `codes`, picked at random, that the player has not played; None when
        they have played them all. The player's other games are never read."""
        order = list(codes)
        random.shuffle(order)
        for start in range(0, len(order), CHUNK):
            chunk = order[start : start + CHUNK]
            played = self.played(player_id, chunk)
            fresh = [code for code in chunk if code not in played]
            if fresh:
                return fresh[0]
        return None
