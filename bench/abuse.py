"""Fairness under abuse: one player floods the server while 16 others play.

    .venv/bin/python bench/abuse.py [--players 16] [--seconds 20] [--hint-loops 20]
                                    [--database-url URL] [--history 10000]

Starts `canfield serve` on a free loopback port (a temporary SQLite database unless
--database-url names one) and runs two phases with the same players:

- quiet: 16 players make moves (about one each 100 ms) and ask a hint every 4 s;
- flood: the same, while one more player runs 20 hint loops and one loop creating
  games, as fast as the server answers (no pause, no Retry-After honoured).

Each player has its own cookie and its own client address (X-Forwarded-For, which
uvicorn trusts from 127.0.0.1). Prints the players' move p50/p99 and hint times for each
phase, every status they met, and what the flooder got (200/201, 429, 503).

With --history N, a last phase compares "winnable deal" requests of a player with N
stored games against a new player's (SPEC §12: no work that grows with a player's
history on the event loop). Traffic goes to 127.0.0.1 only and every phase stops by
itself.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import signal
import statistics
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from server import HOST, Connection, free_port, new_game, start_server

HINT_EVERY = 4.0  # seconds between one player's hints (60 a minute are allowed)
THINK = 0.1  # seconds between one player's moves


def percentile(values: list[float], percent: float) -> float:
    """In seconds; 0 without values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(percent / 100 * len(ordered)))]


@dataclass
class Figures:
    moves: list[float] = field(default_factory=list)
    hints: list[float] = field(default_factory=list)
    statuses: Counter[str] = field(default_factory=Counter)
    flood: Counter[str] = field(default_factory=Counter)

    def report(self, name: str) -> str:
        def ms(values: list[float], percent: float) -> float:
            return percentile(values, percent) * 1000

        moves = (
            f"moves {len(self.moves):>6}  p50 {ms(self.moves, 50):6.2f} ms  "
            f"p99 {ms(self.moves, 99):7.2f} ms"
        )
        hints = (
            f"hints {len(self.hints):>4}  p50 {ms(self.hints, 50):6.0f} ms  "
            f"max {ms(self.hints, 100):6.0f} ms"
        )
        statuses = " ".join(f"{key}:{count}" for key, count in sorted(self.statuses.items()))
        line = f"{name:<6} {moves}  {hints}  players' answers {statuses}"
        if self.flood:
            flood = " ".join(f"{key}:{count}" for key, count in sorted(self.flood.items()))
            line += f"\n       flooder's answers {flood}"
        return line


async def player(port: int, address: str) -> Connection:
    """A new player's connection, from `address`."""
    connection = Connection(port)
    connection.headers = f"X-Forwarded-For: {address}\r\n"
    await connection.open()
    return connection


async def play(connection: Connection, figures: Figures, stop: float, seed: int) -> None:
    """Moves, and every HINT_EVERY seconds a hint instead of a move (waited for, as a
    player waits for the hint before the next move)."""
    rng = random.Random(seed)
    clock = time.perf_counter
    game = await new_game(connection)
    next_hint = clock() + rng.uniform(0, HINT_EVERY)
    while clock() < stop:
        await asyncio.sleep(rng.uniform(0.5, 1.5) * THINK)
        moves = game["legal_moves"]
        assert isinstance(moves, list)
        if not moves or game["moves"] > 300:  # type: ignore[operator]
            game = await new_game(connection)
            continue
        started = clock()
        if started >= next_hint:
            next_hint = started + HINT_EVERY
            path, body = f"/api/games/{game['id']}/hint", b"{}"
            status, _ = await connection.request("POST", path, body)
            figures.statuses[f"hint {status}"] += 1
            if status == 200:
                figures.hints.append(clock() - started)
            continue
        body = json.dumps({"move": rng.choice(moves), "version": game["version"]}).encode()
        status, answer = await connection.request("POST", f"/api/games/{game['id']}/moves", body)
        figures.statuses[f"move {status}"] += 1
        if status == 200:
            figures.moves.append(clock() - started)
            game = json.loads(answer)
        else:
            game = await new_game(connection)


async def flood_hints(connection: Connection, game_id: str, figures: Figures, stop: float) -> None:
    while time.perf_counter() < stop:
        status, _ = await connection.request("POST", f"/api/games/{game_id}/hint", b"{}")
        figures.flood[f"hint {status}"] += 1


async def flood_games(connection: Connection, figures: Figures, stop: float) -> None:
    while time.perf_counter() < stop:
        status, _ = await connection.request("POST", "/api/games", b"{}")
        figures.flood[f"new game {status}"] += 1


async def phase(port: int, players: int, seconds: float, hint_loops: int) -> Figures:
    figures = Figures()
    seats = [await player(port, f"10.0.{i // 250}.{i % 250 + 1}") for i in range(players)]
    flooders: list[Connection] = []
    game_id = ""
    if hint_loops:
        first = Connection(port)
        first.headers = "X-Forwarded-For: 10.66.6.6\r\n"
        await first.open()
        game_id = str((await new_game(first))["id"])
        flooders.append(first)
        for _ in range(hint_loops):
            connection = Connection(port)
            connection.headers, connection.cookie = first.headers, first.cookie
            await connection.open()
            flooders.append(connection)
    stop = time.perf_counter() + seconds
    jobs = [play(seat, figures, stop, seed) for seed, seat in enumerate(seats)]
    if flooders:
        jobs.append(flood_games(flooders[0], figures, stop))
        jobs += [flood_hints(c, game_id, figures, stop) for c in flooders[1:]]
    await asyncio.gather(*jobs)
    for connection in flooders + seats:
        connection.close()
    return figures


async def history(port: int, url: str, games: int, requests: int) -> None:
    """Winnable-deal requests of a player with `games` stored games against a new one's."""
    from sqlalchemy import create_engine

    veteran = Connection(port)
    veteran.headers = "X-Forwarded-For: 10.77.0.1\r\n"
    await veteran.open()
    await new_game(veteran)
    player_id = veteran.cookie.split("=", 1)[1].split(".", 1)[0]
    engine = create_engine(url)
    with engine.begin() as connection:
        row = (
            connection.exec_driver_sql(
                "SELECT * FROM games WHERE player_id = ? LIMIT 1"
                if url.startswith("sqlite")
                else "SELECT * FROM games WHERE player_id = %s LIMIT 1",
                (player_id,),
            )
            .mappings()
            .one()
        )
        rows = []
        for number in range(games):
            copy = dict(row)
            copy["id"] = f"h{number:030d}"
            # Deal numbers past the shipped lists: the veteran still gets a listed deal
            # at once, after the index says they have not played it.
            copy["code"] = f"CF1-D3-{number_to_letters(10**9 + number)}"
            rows.append(copy)
        columns = ", ".join(row.keys())
        marks = ", ".join("?" if url.startswith("sqlite") else "%s" for _ in row)
        connection.exec_driver_sql(
            f"INSERT INTO games ({columns}) VALUES ({marks})",
            [tuple(values.values()) for values in rows],
        )
    engine.dispose()
    newcomer = Connection(port)
    newcomer.headers = "X-Forwarded-For: 10.77.0.2\r\n"
    await newcomer.open()
    await new_game(newcomer)
    body = json.dumps({"winnable": True}).encode()
    asks = (
        ("winnable deal", "POST", "/api/games", body, 201),
        ("resume (GET /)", "GET", "/", b"", 303),
    )
    await asyncio.sleep(2.0)  # the checkpoint of the inserted games is over
    for what, method, path, data, expected in asks:
        times: dict[str, list[float]] = {"new player": [], f"{games} games": []}
        for _ in range(requests):  # A/B, alternating
            await asyncio.sleep(0.5)  # within the limit of 5 new games a second
            for name, connection in zip(times, (newcomer, veteran), strict=True):
                started = time.perf_counter()
                status, _ = await connection.request(method, path, data)
                times[name].append(time.perf_counter() - started)
                assert status == expected, status
        for name, taken in times.items():
            print(
                f"{what:<15} {name:<12} p50 {statistics.median(taken) * 1000:6.2f} ms  "
                f"max {max(taken) * 1000:6.2f} ms  ({requests} requests)"
            )
    veteran.close()
    newcomer.close()


def number_to_letters(number: int) -> str:
    letters = []
    for _ in range(7):
        number, digit = divmod(number, 26)
        letters.append(chr(ord("A") + digit))
    return "".join(reversed(letters))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--hint-loops", type=int, default=20)
    parser.add_argument("--database-url", default="")
    parser.add_argument("--runs", type=int, default=1, help="quiet and flood, alternating")
    parser.add_argument("--history", type=int, default=0, help="stored games of a veteran")
    parser.add_argument(
        "--history-only", action="store_true", help="skip the quiet and flood phases"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="canfield-abuse-") as tmp:
        port = free_port()
        url = args.database_url or f"sqlite:///{tmp}/abuse.sqlite"
        process = start_server(port, url, Path(tmp), 1)
        print(f"server on {HOST}:{port}, database {url.split('@')[-1]}")
        print(
            f"{args.players} players (a move each ~{THINK * 1000:.0f} ms, a hint each "
            f"{HINT_EVERY:.0f} s), {args.seconds:.0f} s a phase; flood: "
            f"{args.hint_loops} hint loops and a new-game loop of one player"
        )
        try:
            if args.history_only:
                asyncio.run(history(port, url, args.history, 50))
                return
            asyncio.run(phase(port, args.players, 5.0, 0))  # warm-up: the workers start
            # Quiet and flood alternate (the machine's own load drifts between runs).
            ratios = []
            for run in range(args.runs):
                quiet = asyncio.run(phase(port, args.players, args.seconds, 0))
                print(quiet.report("quiet"), flush=True)
                flood = asyncio.run(phase(port, args.players, args.seconds, args.hint_loops))
                print(flood.report("flood"), flush=True)
                ratios.append(percentile(flood.moves, 99) / percentile(quiet.moves, 99))
                print(f"run {run + 1}: move p99 flood/quiet {ratios[-1]:.2f}", flush=True)
            if len(ratios) > 1:
                print(
                    f"median move p99 flood/quiet over {len(ratios)} runs: "
                    f"{statistics.median(ratios):.2f}"
                )
            if args.history:
                asyncio.run(history(port, url, args.history, 50))
        finally:
            process.send_signal(signal.SIGINT)
            process.wait(15)


if __name__ == "__main__":
    main()
