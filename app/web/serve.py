"""`canfield serve`: run the app with uvicorn."""

from __future__ import annotations

import uvicorn

from app.web.app import create_app
from app.web.settings import Settings


def serve(host: str, port: int) -> None:
    """Serve on host:port until interrupted; migrations are applied first."""
    app = create_app(Settings())
    uvicorn.run(
        app,
        host=host,
        port=port,
        proxy_headers=True,  # X-Forwarded-Proto from FORWARDED_ALLOW_IPS makes cookies Secure
        server_header=False,
        log_level="info",
        access_log=False,
    )
