"""The store alone under load: N players drawing in their own games through `AsyncStore.act`,
on one event loop, without HTTP. Prints actions/s and the process's CPU time an action.

    .venv/bin/python bench/store.py [--players 32] [--seconds 5] [--database-url URL]
                                    [--how loop|threads] [--runs N]

SQLite (a temporary file) unless --database-url names a PostgreSQL database; there
`--how loop` runs the actions on the event loop through asyncpg (app/store/pg_loop.py,
the default), `--how threads` on the store's database threads through psycopg. With
--runs it alternates SQLite and both PostgreSQL ways, one run each a round, so that a
busy machine weighs on all alike. The figure to compare is the CPU an action: the HTTP
server adds the same work on top of it whatever the database (bench/server.py).
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import tempfile
import time

from app.engine import DealCode, Game
from app.store import Prefs, Store, make_engine, migrate
from app.store.aio import AsyncStore
from app.store.pg_loop import EventLoopGames

CODE = DealCode.parse("CF1-D3-AAAAACL")
THREADS = 8


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def draw(game: Game, prefs: Prefs) -> None:
    game.play("draw")


def open_store(url: str | None, how: str, pool: int) -> AsyncStore:
    if url is None:
        engine = make_engine(
            f"sqlite:///{tempfile.mkdtemp()}/bench.db", background_checkpoints=True
        )
        migrate(engine)
        return AsyncStore(Store(engine), threads=0)
    engine = make_engine(url, pool_size=THREADS)
    migrate(engine)
    store = Store(engine)
    games = EventLoopGames(store, engine, pool_size=pool) if how == "loop" else None
    return AsyncStore(store, threads=THREADS, games=games)


async def measure(store: AsyncStore, players: int, seconds: float) -> tuple[float, float]:
    """(actions a second, CPU seconds an action) after a second's warm-up."""
    ids = [store.store.create_game(f"bench-{i}", CODE).id for i in range(players)]
    done = 0
    stop = 0.0

    async def player(index: int) -> None:
        nonlocal done
        while time.perf_counter() < stop:
            await store.act(f"bench-{index}", ids[index], draw)
            done += 1

    stop = time.perf_counter() + 1.0
    await asyncio.gather(*(player(i) for i in range(players)))
    done, cpu, began = 0, cpu_seconds(), time.perf_counter()
    stop = began + seconds
    await asyncio.gather(*(player(i) for i in range(players)))
    elapsed = time.perf_counter() - began
    return done / elapsed, (cpu_seconds() - cpu) / max(done, 1)


async def run(url: str | None, how: str, players: int, seconds: float, pool: int) -> str:
    store = open_store(url, how, pool)
    try:
        rate, cpu = await measure(store, players, seconds)
    finally:
        await store.stop_here()
    name = "sqlite" if url is None else f"postgresql {how}"
    return f"{name:18s} {rate:6.0f} actions/s  CPU {cpu * 1e6:5.0f} us an action"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--database-url", help="a PostgreSQL database (else SQLite)")
    parser.add_argument("--how", choices=("loop", "threads"), default="loop")
    parser.add_argument("--pool", type=int, default=16, help="the event loop's connections")
    parser.add_argument("--runs", type=int, default=0, help="alternate all three, N rounds")
    args = parser.parse_args()
    if not args.runs:
        print(asyncio.run(run(args.database_url, args.how, args.players, args.seconds, args.pool)))
        return
    if args.database_url is None:
        parser.error("--runs compares with PostgreSQL: give --database-url")
    ways = ((None, "loop"), (args.database_url, "loop"), (args.database_url, "threads"))
    for _ in range(args.runs):
        for url, how in ways:
            print(asyncio.run(run(url, how, args.players, args.seconds, args.pool)), flush=True)


if __name__ == "__main__":
    main()
