"""compose.yaml describes the same deployment for container hosts (no Docker engine
here: it is read and checked against the Dockerfile and the proxy's template)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "compose.yaml"
TEMPLATE = ROOT / "deploy" / "nginx" / "canfield.conf.template"


def services() -> dict[str, Any]:
    document = yaml.safe_load(COMPOSE.read_text())
    assert set(document) <= {"name", "services", "volumes", "networks"}
    found: dict[str, Any] = document["services"]
    return found


def test_compose_has_the_database_two_app_servers_and_the_proxy() -> None:
    found = services()
    assert set(found) == {"db", "app", "proxy"}
    assert found["db"]["image"].startswith("postgres:")
    assert found["proxy"]["image"].startswith("nginx:")
    app = found["app"]
    assert app["build"] == "."  # the Dockerfile's image
    assert (ROOT / "Dockerfile").exists()
    assert app["deploy"]["replicas"] >= 2
    # The apps wait for a healthy database, the proxy for healthy apps (the image's check).
    assert app["depends_on"]["db"]["condition"] == "service_healthy"
    assert "healthcheck" in found["db"]
    assert found["proxy"]["depends_on"]["app"]["condition"] == "service_healthy"
    assert "HEALTHCHECK" in (ROOT / "Dockerfile").read_text()
    # Only the proxy is published.
    assert "ports" not in app and "ports" not in found["db"]
    assert found["proxy"]["ports"] == ["80:80"]


def test_every_app_server_gets_the_database_and_the_same_required_key() -> None:
    found = services()
    environment = found["app"]["environment"]
    database = environment["DATABASE_URL"]
    assert database.startswith("postgresql://") and "@db/" in database
    # `${NAME:?...}`: compose refuses to start without it, rather than each server making
    # its own key (players would lose their games moving between servers).
    assert re.fullmatch(r"\$\{SECRET_KEY:\?[^}]+\}", environment["SECRET_KEY"])
    assert "POSTGRES_PASSWORD:?" in found["db"]["environment"]["POSTGRES_PASSWORD"]
    expose = [str(port) for port in found["app"]["expose"]]
    assert expose == ["8000"]
    assert "EXPOSE 8000" in (ROOT / "Dockerfile").read_text()


def test_the_proxy_fills_in_every_placeholder_of_its_template() -> None:
    proxy = services()["proxy"]
    mounted = {
        volume.split(":")[0]: volume.split(":")[1] for volume in proxy["volumes"]
    }
    template = mounted["./deploy/nginx/canfield.conf.template"]
    assert template.startswith("/etc/nginx/templates/") and template.endswith(".template")
    for source in mounted:
        assert (ROOT / source).exists(), source
    placeholders = set(re.findall(r"\$\{(\w+)\}", TEMPLATE.read_text()))
    assert placeholders == set(proxy["environment"])
    assert proxy["environment"]["CANFIELD_UPSTREAMS"] == "server app:8000;"
    assert "TRUSTED_HOSTS:?" in proxy["environment"]["TRUSTED_HOSTS"]
