"""What the proxy enforces in front of the app servers: the site's host names, header and
body sizes, slow clients, compression."""

from __future__ import annotations

import socket
import time
from urllib.parse import urlsplit

from .running import CLIENT_TIMEOUT, UPSTREAM, Cluster


def test_a_host_that_is_not_the_sites_is_refused_by_the_proxy(cluster: Cluster) -> None:
    with cluster.client() as client:
        answer = client.get("/healthz", headers={"Host": "evil.example"})
        assert answer.status_code == 421
        assert answer.json() == {"detail": "This site is not served under that name."}
        assert UPSTREAM not in answer.headers
        assert client.get("/healthz", headers={"Host": "localhost"}).status_code == 200


def test_a_header_too_large_is_refused_by_the_proxy(cluster: Cluster) -> None:
    with cluster.client() as client:
        answer = client.get("/healthz", headers={"X-Padding": "x" * 9000})
        assert answer.status_code == 400
        assert UPSTREAM not in answer.headers  # no app server saw it
        answer = client.get("/healthz?" + "x" * 9000)
        assert answer.status_code == 414
        # A large but allowed header goes through.
        assert client.get("/healthz", headers={"X-Padding": "x" * 4000}).status_code == 200


def test_a_body_too_large_is_refused_by_the_proxy(cluster: Cluster) -> None:
    with cluster.client() as client:
        answer = client.post("/api/games", content=b"{" + b" " * 20_000 + b"}",
                             headers={"Content-Type": "application/json"})
        assert answer.status_code == 413
        assert UPSTREAM not in answer.headers


def test_answers_are_compressed(cluster: Cluster) -> None:
    with cluster.client() as client:
        for path in ("/static/board.css", "/static/board.js", "/openapi.json"):
            answer = client.get(path, headers={"Accept-Encoding": "gzip"})
            assert answer.status_code == 200
            assert answer.headers["content-encoding"] == "gzip", path
            assert "Accept-Encoding" in answer.headers["vary"]
        page = client.get("/", headers={"Accept-Encoding": "gzip"}, follow_redirects=True)
        assert page.headers["content-encoding"] == "gzip"
        assert "<html" in page.text  # httpx decompressed it
        plain = client.get("/static/board.css", headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in plain.headers


def test_a_slow_client_is_cut_off(cluster: Cluster) -> None:
    address = urlsplit(cluster.url)
    with socket.create_connection((address.hostname, address.port), timeout=10) as sock:
        # Half a request, and then nothing: the proxy hangs up after its timeout.
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        began = time.monotonic()
        try:
            received = sock.recv(1024)
        except ConnectionResetError:  # reset_timedout_connection: closed with a reset
            received = b""
        waited = time.monotonic() - began
    assert received == b""
    assert CLIENT_TIMEOUT * 0.8 < waited < CLIENT_TIMEOUT + 5
    # Meanwhile and afterwards, others are served.
    with cluster.client() as client:
        assert client.get("/healthz").status_code == 200
