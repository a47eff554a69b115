# Canfield in a container: SQLite data on the /data volume by default, or any
# database named by DATABASE_URL (e.g. postgresql://user:pass@db/canfield).
# Migrations are applied when the server starts.

# htmx comes from npm, pinned in package-lock.json, like `make setup` does.
FROM node:22-bookworm-slim AS htmx
WORKDIR /build
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --loglevel=error

# The Python dependencies, in a virtual environment copied whole into the image,
# and the solver's compiled core. The full (not slim) image of the same Python has
# the C compiler; the slim runtime below gets only what it built.
FROM python:3.11-bookworm AS deps
WORKDIR /build
COPY pyproject.toml setup.py README.md ./
COPY app ./app
# Install the project to get its pinned dependencies and build the core, keep the
# core beside the sources, then remove the project itself: the image runs the
# sources from /app with the templates beside them.
RUN python -m venv /venv \
    && /venv/bin/pip install --no-cache-dir --disable-pip-version-check . \
    && cp /venv/lib/python3.11/site-packages/app/solver/_core.*.so app/solver/ \
    && /venv/bin/pip uninstall --yes canfield \
    && /venv/bin/python -c "import app.solver._core"

FROM python:3.11-slim-bookworm
RUN groupadd --system --gid 10001 canfield \
    && useradd --system --uid 10001 --gid canfield --home-dir /app --no-create-home canfield \
    && mkdir /data \
    && chown canfield:canfield /data
COPY --from=deps /venv /venv
WORKDIR /app
COPY alembic.ini ./
COPY --from=deps /build/app ./app
COPY migrations ./migrations
COPY templates ./templates
COPY static ./static
COPY --from=htmx /build/node_modules/htmx.org/dist/htmx.min.js ./static/vendor/htmx.min.js
ENV PATH=/venv/bin:$PATH \
    PYTHONPATH=/app \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    CANFIELD_DATA_DIR=/data
VOLUME ["/data"]
USER 10001:10001
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4)"]
CMD ["python", "-m", "app.cli", "serve", "--host", "0.0.0.0", "--port", "8000"]
