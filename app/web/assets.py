"""The static files' addresses and caching: each URL carries a hash of the file's content
(`/static/board.css?v=3f2a…`), so a browser keeps it for a year without asking again and a
changed file gets a new URL."""

from __future__ import annotations

import hashlib
from pathlib import Path

from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

PREFIX = "/static/"
FOREVER = "public, max-age=31536000, immutable"
# An address without the current hash (an old page, a hand-typed link) is checked each time.
CHECK = "no-cache"


def content_hash(path: Path) -> str:
    """The first 12 hex digits of the file's SHA-256 ("" for a missing file)."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()[:12]
    except OSError:
        return ""


class Assets:
    """Hashed URLs of the files under `directory`, each file read once per content change
    (its size and modification time are checked on every call: a few microseconds)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._hashes: dict[str, tuple[tuple[int, int], str]] = {}

    def version(self, name: str) -> str:
        """The content hash of `static/<name>`."""
        path = self.directory / name
        try:
            stat = path.stat()
        except OSError:
            return ""
        key = (stat.st_mtime_ns, stat.st_size)
        known = self._hashes.get(name)
        if known is None or known[0] != key:
            known = (key, content_hash(path))
            self._hashes[name] = known
        return known[1]

    def url(self, name: str) -> str:
        """`/static/<name>?v=<hash>`, the address a page uses for a static file."""
        return f"{PREFIX}{name}?v={self.version(name)}"


class CachedStaticFiles(StaticFiles):
    """StaticFiles whose answers say how long to keep them: a year (immutable) when the
    address carries the file's current hash, otherwise "check first"."""

    def __init__(self, assets: Assets) -> None:
        super().__init__(directory=assets.directory, check_dir=False)
        self.assets = assets

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        if response.status_code in (200, 304):
            wanted = _query_version(scope)
            current = self.assets.version(path)
            fresh = bool(wanted) and wanted == current
            response.headers["Cache-Control"] = FOREVER if fresh else CHECK
        return response


def _query_version(scope: Scope) -> str:
    query: bytes = scope.get("query_string", b"")
    for part in query.decode("latin-1").split("&"):
        name, _, value = part.partition("=")
        if name == "v":
            return value
    return ""
