# Ludoteca server image: slim, non-root, migrations at start, health check.
# tests/deploy/test_image.py lints this file and follows its steps (ENV, WORKDIR, COPY, RUN,
# USER, CMD, HEALTHCHECK) in a fresh virtual environment: keep RUN to the commands it knows
# (pip install, groupadd, useradd, mkdir, chown) or teach it the new one.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 \
    LUDOTECA_DATA_DIR=/data
WORKDIR /srv/ludoteca

COPY pyproject.toml README.md ./
COPY app ./app
# the code stays root's (the server cannot rewrite itself); only /data belongs to the user
RUN pip install . \
    && groupadd --system --gid 10001 ludoteca \
    && useradd --system --uid 10001 --gid ludoteca --no-create-home \
       --shell /usr/sbin/nologin ludoteca \
    && mkdir -p /data && chown ludoteca:ludoteca /data
COPY migrations ./migrations
COPY templates ./templates
COPY static ./static

USER 10001:10001
EXPOSE 8000
VOLUME ["/data"]
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD ["python", "-c", "import sys, urllib.request; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2).status == 200 else 1)"]
CMD ["python", "-m", "app.cli", "serve", "--host", "0.0.0.0", "--port", "8000"]
