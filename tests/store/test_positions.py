"""Positions kept by their stored text read back exactly as decoding the text would."""

from __future__ import annotations

import random
import sys
import threading

from app.engine import DealCode, Game
from app.engine.state import decode_position, encode_position
from app.store.games import PositionTexts


def test_kept_positions_are_the_decoded_text_and_at_most_size_are_kept() -> None:
    texts = PositionTexts(size=50)
    rng = random.Random(11)
    game = Game(DealCode.parse("CF1-D1-HELLOAB"))
    written = []
    for _ in range(200):
        written.append(texts.encode(game.position))
        assert written[-1] == encode_position(game.position)
        moves = game.legal_moves()
        if not moves:
            break
        game.play(rng.choice(moves))
    for text in written:
        assert texts.decode(text) == decode_position(text)
    assert len(texts._positions) <= 50


def test_threads_keeping_positions_at_once_keep_at_most_size() -> None:
    texts = PositionTexts(size=20)
    game = Game(DealCode.parse("CF1-D3-AAAAACL"))
    positions = [game.position]
    for move in ["draw"] * 30:
        game.play(move)
        positions.append(game.position)
    errors: list[BaseException] = []

    def keep() -> None:
        try:
            for _ in range(300):
                for position in positions:
                    texts.encode(position)
        except BaseException as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=keep) for _ in range(4)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads take turns as often as they can
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert errors == []
    assert len(texts._positions) <= 20
