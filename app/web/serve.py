"""`canfield serve`: run the app with uvicorn."""

from __future__ import annotations

import uvicorn

from app.web.app import create_app
from app.web.settings import Settings

FACTORY = "app.web.app:create_app"


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
        "access_log": False,
        "log_level": "info",
    }
    if settings.workers > 1:
        # Migrate once here; each worker builds its own app (and finds nothing to do).
        create_app(settings).state.store.close()
        uvicorn.run(FACTORY, factory=True, workers=settings.workers, **options)  # type: ignore[arg-type]
        return
    uvicorn.run(create_app(settings), **options)  # type: ignore[arg-type]
