"""The hardened `canfield serve` process: header limits, slow clients cut off, TRUSTED_HOSTS,
an access-log line per request, Prometheus metrics, and solver workers that end when the
server is SIGKILLed."""

from __future__ import annotations

import os
import re
import signal
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.shared import ServerProcess

CODE = "CF1-D1-HELLOAB"


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ServerProcess]:
    """A started server (SQLite: these limits are the process's, whatever the database)
    with short timeouts, answering to 127.0.0.1 only."""
    server_process = ServerProcess(f"sqlite:///{tmp_path / 'db.sqlite'}", tmp_path / "data")
    monkeypatch.setenv("CANFIELD_HEADER_TIMEOUT_SECONDS", "1")
    monkeypatch.setenv("CANFIELD_BODY_TIMEOUT_SECONDS", "1")
    monkeypatch.setenv("TRUSTED_HOSTS", "127.0.0.1, localhost")
    monkeypatch.setenv("CANFIELD_SOLVER_WORKERS", "2")
    server_process.start()
    yield server_process
    server_process.stop()


def raw(server: ServerProcess, data: bytes, *, wait: float = 0.0, timeout: float = 5.0) -> bytes:
    """Send `data` on a fresh connection (after `wait` seconds of silence, nothing);
    everything the server answers until it closes the connection."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=timeout) as sock:
        sock.sendall(data)
        time.sleep(wait)
        chunks = []
        while True:
            try:
                chunk = sock.recv(65536)
            except (ConnectionResetError, TimeoutError):
                break
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks)


def test_an_oversized_header_is_refused_431(server: ServerProcess) -> None:
    big = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 64 * 1024 + b"\r\n\r\n"
    assert raw(server, big).startswith(b"HTTP/1.1 431 ")
    many = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    many += b"".join(b"X-%d: 1\r\n" % i for i in range(1000)) + b"\r\n"
    assert raw(server, many).startswith(b"HTTP/1.1 431 ")
    assert httpx.get(server.url + "/healthz").status_code == 200  # the rest goes on


def test_slow_headers_and_slow_bodies_are_cut_off(server: ServerProcess) -> None:
    started = time.monotonic()
    answer = raw(server, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1\r\n")
    assert answer.startswith(b"HTTP/1.1 408 ")
    assert time.monotonic() - started < 4
    silent = raw(server, b"")  # a connection that never says a word
    assert silent == b"" or silent.startswith(b"HTTP/1.1 408 ")
    started = time.monotonic()
    body = (
        b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: 100\r\n\r\n{"
    )
    raw(server, body)  # the rest of the body never comes: the connection is closed
    assert time.monotonic() - started < 4


def test_only_trusted_host_names_are_answered(server: ServerProcess) -> None:
    response = httpx.get(server.url + "/api/deals/" + CODE, headers={"Host": "evil.example"})
    assert response.status_code == 400
    assert response.json() == {"detail": "This server does not answer to that host name."}
    assert httpx.get(server.url + "/api/deals/" + CODE).status_code == 200


def metric(text: str, name: str) -> float:
    found = re.search(rf"^{re.escape(name)} ([0-9.e+]+)$", text, re.MULTILINE)
    return float(found.group(1)) if found else 0.0


def test_metrics_count_a_move_and_the_log_has_a_line_per_request(server: ServerProcess) -> None:
    moves = 'canfield_moves_total{kind="move"}'
    with httpx.Client(base_url=server.url) as player:
        before = metric(player.get("/metrics").text, moves)
        game = player.post("/api/games", json={"code": CODE}).json()
        assert player.post(f"/api/games/{game['id']}/moves", json={"move": "draw"}).is_success
        assert player.post(f"/api/games/{game['id']}/moves", json={"move": "AC-f"}).status_code
        after = player.get("/metrics").text
    assert metric(after, moves) == before + 1  # the refused move is not counted
    assert 'canfield_requests_total{method="POST",route="/api/games/{game_id}/moves",' in after
    assert "canfield_solver_queue_length" in after
    log = server.log_path.read_text()
    assert re.search(r"POST /api/games/\{game_id\}/moves 200 [0-9.]+ ms", log)
    assert re.search(r"GET /metrics 200 [0-9.]+ ms", log)


def descendants(pid: int) -> set[int]:
    """The processes under `pid` (from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry.name))
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_sigkill_of_the_server_leaves_no_solver_process(server: ServerProcess) -> None:
    assert server.process is not None
    with httpx.Client(base_url=server.url, timeout=30) as player:
        game = player.post("/api/games", json={"code": CODE}).json()
        assert player.post(f"/api/games/{game['id']}/hint", json={}).status_code == 200
    workers = descendants(server.process.pid)
    assert len(workers) >= 2  # the solver workers (and multiprocessing's helper)
    os.kill(server.process.pid, signal.SIGKILL)
    server.process.wait(10)
    deadline = time.monotonic() + 5
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in workers if alive(pid)]
