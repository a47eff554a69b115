"""The app factory: settings in, a FastAPI app out, its database migrated and ready."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial

from fastapi import FastAPI
from sqlalchemy.engine import make_url
from starlette.middleware.gzip import GZipMiddleware

from app.store import Store, make_engine, migrate
from app.store.aio import AsyncStore
from app.store.db import Checkpointer
from app.store.pg_loop import EventLoopGames
from app.store.prune import Pruner
from app.web import api, messages, metrics, pages, solver_routes
from app.web.assets import Assets, CachedStaticFiles
from app.web.errors import install_error_handlers, problem
from app.web.hosts import TrustedHostMiddleware, parse_hosts
from app.web.identity import IdentityMiddleware, PlayerCookie
from app.web.language import LanguageMiddleware
from app.web.limits import RateLimits
from app.web.metrics import ObserveMiddleware, metrics_page
from app.web.render import Renderer
from app.web.security import SecurityMiddleware
from app.web.settings import Settings

DESCRIPTION = """Canfield solitaire, held on the server (SPEC §7).

A signed cookie names the player; a game belongs to the player who created it
and is 404 for anyone else. Every action is one transaction; `version` counts
applied actions and, when sent, must be current (else 409). Errors are
`{"detail": "..."}`. Bodies are application/json."""


def create_app(settings: Settings | None = None) -> FastAPI:
    """The whole app. Applies the database migrations before it returns."""
    settings = settings or Settings()
    url = settings.resolved_database_url()
    sqlite = make_url(url).get_backend_name() == "sqlite"
    threads = settings.db_threads
    if threads is None:
        threads = 0 if sqlite else 8
    pool = {} if sqlite else {"pool_size": settings.db_pool_size or max(threads, 1)}
    engine = make_engine(
        url, background_checkpoints=True, wal_limit_bytes=settings.sqlite_wal_limit_bytes, **pool
    )
    migrate(engine)
    plain = Store(engine, idle_limit=settings.idle_limit_seconds)
    on_loop = None
    if not sqlite and settings.db_event_loop:
        on_loop = EventLoopGames(plain, engine, pool_size=settings.db_loop_pool_size)
    store = AsyncStore(
        plain,
        threads=threads,
        checkpointer=Checkpointer(engine) if sqlite else None,
        games=on_loop,
    )

    pruner = Pruner(
        store.store, days=settings.prune_after_days, interval=settings.prune_interval_seconds
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store.start()
        pruner.start()
        yield
        # Stop the checkpoints and close the connections; all restart if the app does.
        pruner.stop()
        await store.stop_here()

    app = FastAPI(
        title="Canfield",
        version="1",
        description=DESCRIPTION,
        lifespan=lifespan,
        # FastAPI's OpenTelemetry hooks cost more per request than a move's database
        # work when opentelemetry is installed; the server exports no telemetry.
        telemetry={"tracing": False, "metrics": False, "logs": False, "operation_spans": False},
        docs_url=None,  # Swagger UI needs a CDN and inline script; /openapi.json stays
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.store = store
    app.state.renderer = Renderer(
        settings.templates_dir, idle_limit=settings.idle_limit_seconds
    )
    # Pages name static files by content hash (`{{ asset("board.css") }}`): cached for good.
    assets = Assets(settings.static_dir)
    app.state.renderer.templates.env.globals["asset"] = assets.url
    app.state.limits = RateLimits(store, settings)
    install_error_handlers(app)
    # The busiest route first, answered directly; api.router's own route documents it.
    app.router.add_route(
        api.MOVE_PATH, api.play_move_directly, methods=["POST"], include_in_schema=False
    )
    metrics.TEMPLATES_BY_ENDPOINT[api.play_move_directly] = api.MOVE_PATH
    app.include_router(api.router)
    app.include_router(pages.router)
    app.include_router(solver_routes.router)  # hints, still winnable? (its worker's lifespan)

    @app.get("/healthz", tags=["health"])
    async def healthz() -> dict[str, str]:
        """The process answers (Docker HEALTHCHECK)."""
        return {"status": "ok"}

    if settings.metrics:
        app.add_api_route("/metrics", metrics_page, include_in_schema=False)

    app.mount("/static", CachedStaticFiles(assets), "static")
    cookie = PlayerCookie(settings.resolved_secret_key())
    app.add_middleware(IdentityMiddleware, cookie=cookie)
    app.add_middleware(
        SecurityMiddleware,
        allowed_origins=settings.allowed_origins,
        max_body_bytes=settings.max_body_bytes,
        refuse=problem,
        cross_site_message=messages.cross_site,
        too_large_message=partial(messages.body_too_large, settings.max_body_bytes),
        not_json_message=messages.not_json,
    )
    # Every answer, the security middleware's refusals too, speaks the language.
    app.add_middleware(LanguageMiddleware, cookie=cookie)
    app.add_middleware(
        TrustedHostMiddleware, hosts=parse_hosts(settings.trusted_hosts), refuse=problem
    )
    # Text answers (pages, partials, JSON, CSS, JS) compressed when the client accepts gzip.
    app.add_middleware(GZipMiddleware, minimum_size=500)
    app.add_middleware(ObserveMiddleware)  # outermost: it sees every answer, refusals too
    return app
