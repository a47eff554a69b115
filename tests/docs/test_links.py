"""The README and docs/ send readers only to files inside the repository, and each exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_every_link_points_to_a_file_of_the_repository(page: Path) -> None:
    text = page.read_text()
    assert "../shared" not in text
    for target in LINK.findall(text):
        if re.match(r"[a-z]+://", target):
            continue
        found = (page.parent / target).resolve()
        assert found.is_relative_to(ROOT) and found.exists(), (page.name, target)


def test_the_readme_links_the_rules_the_deal_codes_and_the_api() -> None:
    links = set(LINK.findall((ROOT / "README.md").read_text()))
    assert {"docs/rules.md", "docs/deal-codes.md", "docs/api.md"} <= links
