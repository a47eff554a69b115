"""The JSON the API writes is what the standard library would write, byte for byte."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine import DealCode, Game
from app.store import StoredGame
from app.web.views import game_dict, to_json


def stdlib_json(data: Any) -> bytes:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()


# What a game dict holds: text (any character but lone surrogates), ints, booleans, None.
text = st.text(st.characters(exclude_categories=["Cs"]), max_size=20)
values = st.recursive(
    st.none() | st.booleans() | st.integers() | text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text, inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=300)
@given(data=st.dictionaries(text, values, max_size=6))
def test_any_game_dict_like_value_is_written_as_the_standard_library_writes_it(
    data: dict[str, Any],
) -> None:
    assert to_json(data) == stdlib_json(data)


def test_games_along_random_play_are_written_as_the_standard_library_writes_them() -> None:
    moment = datetime(2026, 1, 2, tzinfo=UTC)
    rng = random.Random(7)
    for code in ("CF1-D3-AAAAACL", "CF1-D1-HELLOAB", "CF1-S1P3-ZZZZZZZ", "CF1-C3-AAAAAAB"):
        game = Game(DealCode.parse(code))
        for _ in range(120):
            stored = StoredGame("g1", str(game.code), game, "playing", moment, moment)
            data = game_dict(stored)
            assert to_json(data) == stdlib_json(data)
            # Cards and moves are written in their notation (looked up, not str()'d).
            position = game.position
            assert data["legal_moves"] == [str(move) for move in game.legal_moves()]
            assert data["tableau"] == [[str(card) for card in pile] for pile in position.tableau]
            assert data["waste"] == [str(card) for card in position.waste]
            top = str(position.reserve[-1]) if position.reserve else None
            assert data["reserve"] == {"count": len(position.reserve), "top": top}
            moves = game.legal_moves()
            if not moves:
                break
            game.play(rng.choice(moves))
