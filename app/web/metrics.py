"""What an operator sees: one access-log line per request and Prometheus metrics at
/metrics (requests, latencies, moves, the solver's queue)."""

from __future__ import annotations

import logging
import os
import time

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client import multiprocess as prometheus_multiprocess
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

access_log = logging.getLogger("canfield.access")

REQUESTS = Counter("canfield_requests", "Requests answered", ["method", "route", "status"])
LATENCY = Histogram(
    "canfield_request_seconds",
    "Time to answer a request",
    ["method", "route"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
MOVES = Counter("canfield_moves", "Actions applied (moves, taps, undos)", ["kind"])
SOLVER_QUEUE = Gauge("canfield_solver_queue_length", "Searches waiting for a worker")
SOLVER_WAIT = Histogram(
    "canfield_solver_wait_seconds",
    "Time a search waited for a worker",
    buckets=(0.001, 0.01, 0.1, 0.5, 1, 2, 5, 10, 30, 60),
)
# The routes that apply an action, by kind (JSON and page alike).
ACTION_ROUTES = {
    "/api/games/{game_id}/moves": "move",
    "/games/{game_id}/moves": "move",
    "/api/games/{game_id}/tap": "tap",
    "/games/{game_id}/tap": "tap",
    "/api/games/{game_id}/undo": "undo",
    "/games/{game_id}/undo": "undo",
}


# A plain Starlette route (the move's direct route, api.play_move_directly) leaves no
# `route` in the scope, only its endpoint: the app names its template here.
TEMPLATES_BY_ENDPOINT: dict[object, str] = {}


def route_template(scope: Scope) -> str:
    """The route's path template (`/api/games/{game_id}`), never the path itself: ids
    would make a series of every game."""
    route = scope.get("route")
    template = getattr(route, "path", None) or TEMPLATES_BY_ENDPOINT.get(scope.get("endpoint"))
    if isinstance(template, str) and template:
        return template
    path = str(scope.get("path", ""))
    return "/static" if path.startswith("/static/") else "unmatched"


class ObserveMiddleware:
    """Counts and times every request, and logs it: method, route, status, milliseconds."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def send_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_status)
        finally:
            seconds = time.perf_counter() - started
            method = scope["method"]
            template = route_template(scope)
            REQUESTS.labels(method, template, str(status)).inc()
            LATENCY.labels(method, template).observe(seconds)
            kind = ACTION_ROUTES.get(template)
            if kind and method == "POST" and status == 200:
                MOVES.labels(kind).inc()
            access_log.info("%s %s %d %.1f ms", method, template, status, seconds * 1000)


async def metrics_page(request: Request) -> Response:
    """Prometheus's text format; with PROMETHEUS_MULTIPROC_DIR set (several server
    processes), the sum over all of them."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        prometheus_multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        data = generate_latest(registry)
    else:
        data = generate_latest()
    return Response(data, media_type=CONTENT_TYPE_LATEST, headers={"cache-control": "no-store"})
