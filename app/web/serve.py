"""`canfield serve`: run the app with uvicorn."""

from __future__ import annotations

import copy

import uvicorn
from uvicorn.config import LOGGING_CONFIG

from app.web.app import create_app
from app.web.settings import Settings

FACTORY = "app.web.app:create_app"
# The protocol with header limits and slow-client timeouts (app/web/protocol.py).
PROTOCOL = "app.web.protocol:GuardedHttpToolsProtocol"


def log_config() -> dict[str, object]:
    """uvicorn's logging, plus our access log (one line a request) on standard error."""
    config = copy.deepcopy(LOGGING_CONFIG)
    config["loggers"]["canfield"] = {"handlers": ["default"], "level": "INFO", "propagate": False}
    return config


def serve(host: str, port: int) -> None:
    """Serve on host:port until interrupted. Migrations are applied before any
    request is taken; CANFIELD_WORKERS > 1 starts that many server processes."""
    settings = Settings()
    options = {
        "host": host,
        "port": port,
        # X-Forwarded-Proto from a proxy in FORWARDED_ALLOW_IPS makes cookies Secure.
        "proxy_headers": True,
        "server_header": False,
        "access_log": False,  # ours is app/web/metrics.py's, with the route's template
        "log_level": "info",
        "log_config": log_config(),
        "http": PROTOCOL if settings.http == "guarded" else settings.http,
        "limit_concurrency": settings.max_connections,
        "h11_max_incomplete_event_size": settings.max_header_bytes,
    }
    if settings.workers > 1:
        # Migrate once here; each worker builds its own app (and finds nothing to do).
        create_app(settings).state.store.close()
        uvicorn.run(FACTORY, factory=True, workers=settings.workers, **options)  # type: ignore[arg-type]
        return
    uvicorn.run(create_app(settings), **options)  # type: ignore[arg-type]
