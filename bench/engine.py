"""Engine speed: legal-move generation, move application and Game.play over random playouts.

Run `.venv/bin/python bench/engine.py` (about 20 s). Prints figures only; nothing is asserted.
Each figure is the best round in CPU time, so a busy machine skews it less.
For each rule set it first plays random games over many deal numbers (fixed seed),
then times three things over exactly those positions and moves:
`legal_moves(position, rules)`, `apply_move(position, rules, move)` (checks the
move, then plays it) and `Game.play(move)` (adds scoring and the undo history).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable

from app.engine import DealCode, Game, Move, Position, Rules, apply_move, legal_moves

RULE_SETS = {
    "app draw 3": Rules.preset_named("app", draw=3),
    "app draw 1": Rules.preset_named("app", draw=1),
    "classic draw 3": Rules.preset_named("classic", draw=3),
}


def playouts(
    rules: Rules, deals: int, moves_per_deal: int, rng: random.Random
) -> list[tuple[DealCode, list[Position], list[Move]]]:
    """Random games: at each step a random legal move (a draw less often, so play goes on)."""
    games = []
    for _ in range(deals):
        code = DealCode(rules, number=rng.randrange(1_000_000_000))
        position = Position.deal(code.deck)
        positions, moves = [], []
        for _ in range(moves_per_deal):
            legal = legal_moves(position, rules)
            if not legal:
                break
            plays = [m for m in legal if m.card is not None]
            move = rng.choice(plays) if plays and rng.random() < 0.5 else rng.choice(legal)
            positions.append(position)
            moves.append(move)
            position = apply_move(position, rules, move)
        games.append((code, positions, moves))
    return games


def rate(count: int, run: Callable[[], None], budget: float) -> float:
    """Operations per CPU second of `run` (which does `count` of them): the best of the
    rounds that fit in `budget` wall seconds, so that other work on the machine counts
    as little as it can."""
    best, start = 0.0, time.perf_counter()
    while True:
        cpu = time.process_time()
        run()
        best = max(best, count / max(time.process_time() - cpu, 1e-9))
        if time.perf_counter() - start >= budget:
            return best


def bench(name: str, rules: Rules, deals: int, moves_per_deal: int, budget: float) -> None:
    games = playouts(rules, deals, moves_per_deal, random.Random(2024))
    pairs = [(p, m) for _, positions, moves in games for p, m in zip(positions, moves, strict=True)]
    positions = [p for p, _ in pairs]
    logs = [(code, [str(m) for m in moves]) for code, _, moves in games]
    actions = sum(len(log) for _, log in logs)

    def generate() -> None:
        for position in positions:
            legal_moves(position, rules)

    def apply() -> None:
        for position, move in pairs:
            apply_move(position, rules, move)

    def play() -> None:
        for code, log in logs:
            game = Game(code)
            for action in log:
                game.play(action)

    generations = rate(len(positions), generate, budget)
    applies = rate(len(pairs), apply, budget)
    plays = rate(actions, play, budget)
    print(
        f"{name:15} {len(positions):6} positions  legal_moves {generations:9,.0f}/s  "
        f"apply_move {applies:9,.0f}/s  Game.play {plays:9,.0f}/s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200, help="deal numbers per rule set")
    parser.add_argument("--moves", type=int, default=100, help="moves per playout")
    parser.add_argument("--budget", type=float, default=2.0, help="seconds per figure")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}; {args.deals} deals x up to {args.moves} moves")
    for name, rules in RULE_SETS.items():
        bench(name, rules, args.deals, args.moves, args.budget)


if __name__ == "__main__":
    main()
