# Ludoteca server image: slim, non-root, migrations at start, health check.
#
# Two stages. "build" installs exactly what uv.lock pins (every package with its hashes) and
# the project itself, as an ordinary wheel, into the virtual environment /opt/ludoteca; the
# final image is the base image plus that one directory and the user that runs it: no uv,
# no sources, no build/ or *.egg-info.
#
# tests/deploy/test_image.py lints this file and follows its steps on the host without an
# engine (FROM ... AS, ENV, WORKDIR, COPY [--from], RUN, USER, CMD, HEALTHCHECK): keep RUN
# to the commands it knows (pip install, uv sync, groupadd, useradd, mkdir, chown) or teach
# it the new one. tests/deploy/engine.py builds and runs it for real with podman or docker.

FROM python:3.11-slim-bookworm AS build
ENV PYTHONDONTWRITEBYTECODE=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
    UV_PROJECT_ENVIRONMENT=/opt/ludoteca UV_PYTHON_DOWNLOADS=never UV_NO_CACHE=1 \
    UV_COMPILE_BYTECODE=1 UV_LINK_MODE=copy
WORKDIR /src
# uv itself, one version pinned by hash
COPY requirements-uv.txt ./
RUN pip install --require-hashes --only-binary :all: -r requirements-uv.txt
# the locked dependencies first (a layer that survives code changes), then the project
COPY pyproject.toml setup.py uv.lock README.md ./
RUN uv sync --locked --no-install-project --no-editable --python /usr/local/bin/python3
COPY app ./app
COPY templates ./templates
COPY static ./static
COPY migrations ./migrations
RUN uv sync --locked --no-editable --python /usr/local/bin/python3

FROM python:3.11-slim-bookworm
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PATH=/opt/ludoteca/bin:$PATH \
    LUDOTECA_DATA_DIR=/data LUDOTECA_HOST=0.0.0.0 LUDOTECA_PORT=8000
# the code stays root's (the server cannot rewrite itself); only /data belongs to the user,
# and only the user may enter it (0700: the database holds invite tokens, token hashes and
# private chat; the server creates its files 0600). A new named volume takes this mode.
RUN groupadd --system --gid 10001 ludoteca \
    && useradd --system --uid 10001 --gid ludoteca --no-create-home \
       --shell /usr/sbin/nologin ludoteca \
    && mkdir -m 0700 /data && chown ludoteca:ludoteca /data
COPY --from=build /opt/ludoteca /opt/ludoteca

USER 10001:10001
EXPOSE 8000
VOLUME ["/data"]
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD ["python", "-c", "import os, sys, urllib.request; url = 'http://127.0.0.1:%s/healthz' % os.environ.get('LUDOTECA_PORT', '8000'); sys.exit(0 if urllib.request.urlopen(url, timeout=2).status == 200 else 1)"]
CMD ["ludoteca", "serve"]
