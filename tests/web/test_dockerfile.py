"""The Dockerfile passes hadolint and has what the deployment needs (no Docker engine here)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "Dockerfile"


def instructions() -> list[tuple[str, str]]:
    text = DOCKERFILE.read_text().replace("\\\n", " ")
    found = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            keyword, _, rest = line.partition(" ")
            found.append((keyword.upper(), rest.strip()))
    return found


def test_hadolint_finds_nothing() -> None:
    hadolint = Path(sys.executable).parent / "hadolint"
    result = subprocess.run(
        [str(hadolint), "--no-color", str(DOCKERFILE)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout == ""


def test_the_image_is_built_in_stages_and_runs_as_a_non_root_user() -> None:
    steps = instructions()
    assert sum(1 for keyword, _ in steps if keyword == "FROM") >= 2
    users = [rest for keyword, rest in steps if keyword == "USER"]
    assert users and users[-1].split(":")[0] not in ("root", "0")
    # The last USER comes after every RUN of the final stage.
    final = steps[max(i for i, (keyword, _) in enumerate(steps) if keyword == "FROM") :]
    last_user = max(i for i, (keyword, _) in enumerate(final) if keyword == "USER")
    assert all(keyword != "RUN" for keyword, _ in final[last_user:])


def test_the_image_keeps_data_on_a_volume_and_checks_its_health() -> None:
    steps = dict(instructions())
    assert "/data" in steps["VOLUME"]
    assert "CANFIELD_DATA_DIR=/data" in steps["ENV"]
    assert "/healthz" in steps["HEALTHCHECK"]
    assert re.search(r'"serve", "--host", "0\.0\.0\.0"', steps["CMD"])


def test_the_image_gets_htmx_from_npm_and_the_templates() -> None:
    text = DOCKERFILE.read_text()
    assert "npm ci" in text
    assert "htmx.org/dist/htmx.min.js ./static/vendor/htmx.min.js" in text
    for folder in ("templates", "static", "migrations", "app"):
        assert f"COPY {folder} ./{folder}" in text


def test_local_state_stays_out_of_the_build_context() -> None:
    ignored = (ROOT / ".dockerignore").read_text().split()
    for entry in (".venv", "data", "node_modules", ".git"):
        assert entry in ignored


def test_the_image_carries_the_solver_core_built_in_a_stage_with_a_compiler() -> None:
    steps = instructions()
    froms = [rest for keyword, rest in steps if keyword == "FROM"]
    deps = next(rest for rest in froms if rest.endswith("AS deps"))
    assert "slim" not in deps  # the full image has gcc; the runtime stays slim
    assert "slim" in froms[-1]
    text = DOCKERFILE.read_text()
    assert "setup.py" in text  # the extension's build
    assert 'import app.solver._core"' in text  # the build fails if the core did not build
    # The runtime takes the sources with the built core from that stage.
    assert "COPY --from=deps /build/app ./app" in text
    assert "**/*.so" in (ROOT / ".dockerignore").read_text().split()
