"""Prints what a first visit to the board downloads: the page and each static file it
names, raw and as sent with gzip (Accept-Encoding: gzip), and their Cache-Control.

    .venv/bin/python bench/assets.py

Runs the app in process over a temporary SQLite file; the browser test
tests/browser/test_assets.py checks that a repeat visit fetches no static file again.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path
from typing import Any

STATIC = re.compile(r'(?:href|src)="(/static/[^"]+)"')


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="canfield-bench-assets-"))
    os.environ["DATABASE_URL"] = f"sqlite:///{folder / 'games.sqlite'}"
    os.environ["CANFIELD_DATA_DIR"] = str(folder)
    from fastapi.testclient import TestClient

    from app.web.app import create_app

    gzip = {"Accept-Encoding": "gzip"}
    with TestClient(create_app()) as client:
        # A new player's first visit (the start window), then their first board.
        for visit in ("/", "/deal/CF1-D3-HELLOAB"):
            page = client.get(visit, headers=gzip)
            rows = [("page " + (page.url.path.split("/")[1] or "start"), page)]
            for url in STATIC.findall(page.text):
                name = url.split("?")[0].removeprefix("/static/")
                rows.append((name, client.get(url, headers=gzip)))
            _table(visit, rows)


def _table(visit: str, rows: list[tuple[str, Any]]) -> None:
    print(f"{visit}\n{'answer':<22}{'raw B':>8}{'sent B':>8}  cache-control")
    raw_total = sent_total = 0
    for name, response in rows:
        raw, sent = len(response.content), response.num_bytes_downloaded
        raw_total += raw
        sent_total += sent
        print(f"{name:<22}{raw:>8}{sent:>8}  {response.headers.get('cache-control', '')}")
    print(f"{'first load':<22}{raw_total:>8}{sent_total:>8}  ({sent_total / 1024:.1f} KiB sent)")


if __name__ == "__main__":
    main()
