"""The web app: FastAPI factory, JSON API, pages and htmx partials, settings."""
