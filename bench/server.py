"""Load benchmark of the game server: N players making moves against a real uvicorn process.

    .venv/bin/python bench/server.py [--players 32] [--seconds 10] [--database-url URL]
                                     [--workers N] [--runs N] [--think-ms MS]
                                     [--url http://127.0.0.1:PORT [--server-pid PID ...]]
                                     [--cluster N]
                                     [--http guarded|httptools|h11]

Starts `canfield serve` on a free loopback port (a temporary SQLite database unless
--database-url names one), then runs two phases with the same players, one
keep-alive connection each and no think time (unless --think-ms): the trivial
endpoint GET /healthz,
then moves (POST /api/games/{id}/moves with a random legal move from the last
answer, a new game when one is won or stuck). Prints requests/s, p50 and p99 for
each, the server's CPU time per request (its workers' included) and how busy it was
(100% = one core), and the ratio of the two throughputs; with --runs, each run and
the medians. With --url it drives a server or proxy already running on 127.0.0.1
(say `scripts/cluster up`'s), counting the CPU of the --server-pid processes (and their
children); --cluster N starts such a cluster itself (N app servers, nginx, PostgreSQL),
counts its app servers' and proxy's CPU, and stops it at the end. Traffic goes to
127.0.0.1 only and every phase stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
CLUSTER = ROOT / "scripts" / "cluster"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


class Connection:
    """One keep-alive HTTP/1.1 connection, written by hand to keep the client cheap."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookie = ""
        self.headers = ""  # more header lines, each ending in \r\n
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(HOST, self.port)

    async def request(self, method: str, path: str, body: bytes = b"") -> tuple[int, bytes]:
        assert self.reader is not None and self.writer is not None
        head = f"{method} {path} HTTP/1.1\r\nHost: {HOST}:{self.port}\r\n"
        if self.cookie:
            head += f"Cookie: {self.cookie}\r\n"
        head += self.headers
        if method == "POST":
            head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        self.writer.write(head.encode() + b"\r\n" + body)
        headers = await self.reader.readuntil(b"\r\n\r\n")
        status = int(headers[9:12])
        length = 0
        closing = False
        for line in headers.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            name = name.lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"set-cookie":
                self.cookie = value.split(b";", 1)[0].strip().decode()
            elif name == b"connection":
                closing = value.strip().lower() == b"close"
        answer = await self.reader.readexactly(length)
        if closing:  # the server ends the connection (nginx: after `keepalive_requests`)
            self.close()
            await self.open()
        return status, answer

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


def _stat(pid: int) -> list[str]:
    """The fields of /proc/<pid>/stat after the command name (state is [0], ppid [1])."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return []


def cpu_seconds(pids: list[int]) -> float:
    """User plus system CPU time so far of processes and their descendants (the server's
    workers), from Linux /proc; 0 if none."""
    if not pids:
        return 0.0
    stats = {int(entry.name): _stat(int(entry.name)) for entry in Path("/proc").glob("[0-9]*")}
    tree = set(pids)
    while True:
        found = {child for child, fields in stats.items() if fields and int(fields[1]) in tree}
        if found <= tree:
            break
        tree |= found
    ticks = sum(int(fields[11]) + int(fields[12]) for p in tree if (fields := stats.get(p)))
    return ticks / os.sysconf("SC_CLK_TCK")


@dataclass
class Phase:
    name: str
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    seconds: float = 0.0
    server_cpu: float = 0.0
    client_cpu: float = 0.0

    def report(self) -> str:
        count = len(self.latencies)
        rate = count / self.seconds if self.seconds else 0.0
        p50 = self.percentile(50) * 1000
        p99 = self.percentile(99) * 1000
        cpu = f"  client CPU {self.client_cpu / count * 1e6:4.0f} us/req"
        if self.server_cpu:
            # Busy: the server's CPU time over the wall time (100% is one core).
            busy = self.server_cpu / self.seconds * 100
            cpu += f"  server CPU {self.server_cpu / count * 1e6:4.0f} us/req (busy {busy:3.0f}%)"
        return (
            f"{self.name:<8} {count:>7} requests  {rate:>8.0f}/s  "
            f"p50 {p50:6.2f} ms  p99 {p99:6.2f} ms  errors {self.errors}{cpu}"
        )

    def percentile(self, percent: float) -> float:
        """Latency in seconds (the median for 50), 0 without requests."""
        ordered = sorted(self.latencies)
        if not ordered:
            return 0.0
        if percent == 50:
            return statistics.median(ordered)
        return ordered[int(percent / 100 * (len(ordered) - 1))]

    @property
    def rate(self) -> float:
        return len(self.latencies) / self.seconds if self.seconds else 0.0


async def new_game(connection: Connection) -> dict[str, object]:
    status, body = await connection.request("POST", "/api/games", b"{}")
    if status != 201:
        raise RuntimeError(f"creating a game answered {status}: {body[:200]!r}")
    game: dict[str, object] = json.loads(body)
    return game


async def health_player(connection: Connection, phase: Phase, stop: float, think: float) -> None:
    clock = time.perf_counter
    while clock() < stop:
        if think:
            await asyncio.sleep(think)
        started = clock()
        status, _ = await connection.request("GET", "/healthz")
        if status == 200:
            phase.latencies.append(clock() - started)
        else:
            phase.errors += 1


async def move_player(
    connection: Connection,
    phase: Phase,
    stop: float,
    seed: int,
    think: float,
    games: dict[int, dict[str, object]],
) -> None:
    """Moves until `stop` in the player's game from `games` (the warm-up's: so that the
    measured phase does not start with every player's new game), left there at the end."""
    rng = random.Random(seed)
    clock = time.perf_counter
    game = games.get(seed) or await new_game(connection)
    while clock() < stop:
        if think:
            await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
        moves = game["legal_moves"]
        assert isinstance(moves, list)
        if not moves or game["moves"] > 400:  # type: ignore[operator]
            game = await new_game(connection)
            continue
        move = rng.choice(moves)
        body = json.dumps({"move": move, "version": game["version"]}).encode()
        started = clock()
        status, answer = await connection.request("POST", f"/api/games/{game['id']}/moves", body)
        if status == 200:
            phase.latencies.append(clock() - started)
            game = json.loads(answer)
        else:
            phase.errors += 1
            game = await new_game(connection)
    games[seed] = game


async def run_phase(
    name: str,
    connections: list[Connection],
    seconds: float,
    warmup: float,
    pids: list[int],
    think: float,
) -> Phase:
    # A short unrecorded warm-up, then the measured run.
    games: dict[int, dict[str, object]] = {}
    for measured in (False, True):
        phase = Phase(name)
        length = seconds if measured else warmup
        cpu_before = cpu_seconds(pids)
        client_before = time.process_time()
        began = time.perf_counter()
        stop = began + length
        if name == "healthz":
            jobs = [health_player(c, phase, stop, think) for c in connections]
        else:
            jobs = [
                move_player(c, phase, stop, i, think, games) for i, c in enumerate(connections)
            ]
        await asyncio.gather(*jobs)
        phase.seconds = time.perf_counter() - began
        phase.server_cpu = cpu_seconds(pids) - cpu_before
        phase.client_cpu = time.process_time() - client_before
    return phase


async def bench(
    port: int,
    players: int,
    seconds: float,
    warmup: float,
    pids: list[int],
    phases: list[str],
    think: float,
    runs: int,
) -> None:
    connections = [Connection(port) for _ in range(players)]
    for connection in connections:
        await connection.open()
    ratios = []
    rows: dict[str, list[Phase]] = {name: [] for name in phases}
    try:
        for run in range(runs):
            if runs > 1:
                print(f"run {run + 1}")
            results = {}
            for name in phases:
                results[name] = await run_phase(name, connections, seconds, warmup, pids, think)
                rows[name].append(results[name])
                print(results[name].report(), flush=True)
            if len(results) == 2:
                ratios.append(results["moves"].rate / results["healthz"].rate)
                print(f"ratio    moves/healthz throughput {ratios[-1]:.2f}", flush=True)
    finally:
        for connection in connections:
            connection.close()
    if runs > 1:
        print(f"median of {runs} runs")
        for name, done in rows.items():
            print(median_report(name, done))
        if ratios:
            print(f"ratio    {statistics.median(ratios):.2f}")


def median_report(name: str, phases: list[Phase]) -> str:
    """Each figure's median over the runs (figures of different runs may mix)."""

    def median(figure: Callable[[Phase], float]) -> float:
        return statistics.median(figure(phase) for phase in phases)

    rate = median(lambda phase: phase.rate)
    p50 = median(lambda phase: phase.percentile(50)) * 1000
    p99 = median(lambda phase: phase.percentile(99)) * 1000
    cpu = median(lambda phase: phase.server_cpu / max(len(phase.latencies), 1)) * 1e6
    return (
        f"{name:<8} {rate:>8.0f}/s  p50 {p50:6.2f} ms  p99 {p99:6.2f} ms  "
        f"server CPU {cpu:4.0f} us/req"
    )


def start_server(
    port: int, database_url: str, data_dir: Path, workers: int, **settings: str
) -> subprocess.Popen[bytes]:
    """`canfield serve` on 127.0.0.1:port; `settings` are more CANFIELD_* variables
    (`http="httptools"` -> CANFIELD_HTTP=httptools)."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "CANFIELD_DATA_DIR": str(data_dir),
        "CANFIELD_WORKERS": str(workers),
        **{f"CANFIELD_{name.upper()}": value for name, value in settings.items()},
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "serve", "--host", HOST, "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://{HOST}:{port}/healthz", timeout=1):
                return process
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError("the server did not start")


def start_cluster(directory: Path, apps: int) -> tuple[str, list[int]]:
    """`scripts/cluster up`: the proxy's URL, and the app servers' and the proxy's pids."""
    command = [str(CLUSTER), "up", "--apps", str(apps), "--dir", str(directory)]
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    state = json.loads((directory / "cluster.json").read_text())
    pids = [app["pid"] for app in state["apps"]] + [state["proxy"]["pid"]]
    return output.strip().splitlines()[-1], pids


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--database-url", default="")
    parser.add_argument("--port", type=int, default=0, help="use a server already running here")
    parser.add_argument(
        "--url", default="", help="use a server or proxy already running here (127.0.0.1 only)"
    )
    parser.add_argument(
        "--cluster",
        type=int,
        default=0,
        metavar="N",
        help="start scripts/cluster with N app servers (PostgreSQL, nginx) and drive its proxy",
    )
    parser.add_argument(
        "--server-pid",
        type=int,
        action="append",
        default=[],
        help="with --url or --port: a process whose CPU counts as the server's (repeat)",
    )
    parser.add_argument("--only", choices=["healthz", "moves"], help="run one phase only")
    parser.add_argument("--workers", type=int, default=1, help="server processes to start")
    parser.add_argument(
        "--http",
        default="guarded",
        help="the server's HTTP protocol: guarded (ours, with header limits and timeouts), "
        "httptools or h11 (uvicorn's own)",
    )
    parser.add_argument(
        "--runs", type=int, default=1, help="repeat the phases; print each run and the medians"
    )
    parser.add_argument(
        "--think-ms",
        type=float,
        default=0.0,
        help="pause of each player between requests (about; default none: saturation)",
    )
    args = parser.parse_args()
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    with tempfile.TemporaryDirectory(prefix="canfield-bench-") as tmp:
        process = None
        port = args.port
        cluster = Path(tmp) / "cluster"
        if args.cluster:
            args.url, args.server_pid = start_cluster(cluster, args.cluster)
            print(f"cluster of {args.cluster} app servers behind nginx on {args.url}, PostgreSQL")
        if args.url:
            address = urlsplit(args.url)
            if address.hostname != HOST or address.port is None:
                parser.error(f"--url must be http://{HOST}:PORT (load tests stay on this machine)")
            port = address.port
        if not port:
            port = free_port()
            url = args.database_url or f"sqlite:///{tmp}/bench.sqlite"
            process = start_server(port, url, Path(tmp), args.workers, http=args.http)
            workers = f", {args.workers} workers" if args.workers > 1 else ""
            print(
                f"server on {HOST}:{port}{workers}, protocol {args.http}, "
                f"database {url.split('@')[-1]}"
            )
        pause = f"{args.think_ms:.0f} ms think time" if args.think_ms else "no think time"
        print(f"{args.players} players, {args.seconds:.0f} s per phase, {pause}")
        try:
            pids = [process.pid] if process is not None else args.server_pid
            phases = [args.only] if args.only else ["healthz", "moves"]
            think = args.think_ms / 1000
            asyncio.run(
                bench(port, args.players, args.seconds, args.warmup, pids, phases, think, args.runs)
            )
        finally:
            if process is not None:
                process.send_signal(signal.SIGINT)
                process.wait(15)
            if args.cluster:
                subprocess.run([str(CLUSTER), "down", "--dir", str(cluster)], check=True)


if __name__ == "__main__":
    main()
