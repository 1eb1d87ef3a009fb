"""Commands: ``serve`` (migrate and run the server), ``test`` (prepare and run pytest),
``backup PATH`` and ``restore PATH`` (``app/backup.py``)."""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys

from app.config import ROOT


def serve(host: str, port: int) -> None:
    import logging

    import uvicorn

    from app.config import KEEP_ALIVE_SECONDS, get_settings
    from app.datadir import DataDirBusy, open_for_server
    from app.idle import FirstRequestTimeout
    from app.logs import configure, log_start
    from app.main import create_app

    settings = get_settings()
    try:  # before the database is opened: its modes, and the lock restore looks for
        warnings = open_for_server(settings)
    except DataDirBusy as exc:
        print(f"ludoteca serve: {exc}", file=sys.stderr)
        sys.exit(1)
    configure(settings.log_format)  # one line per event, text or JSON (app/logs.py)
    for warning in warnings:
        logging.getLogger("ludoteca").warning("%s", warning)
    log_start(host, port)

    # websockets-sansio: the leanest WebSocket protocol of uvicorn; per-message deflate off
    # (compressing every small state message costs more CPU than the bytes it saves here)
    # where the other processes of a cluster reach this one, unless LUDOTECA_INTERNAL_URL says
    reachable = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    app = create_app(internal_url=f"http://{reachable}:{port}")
    uvicorn.run(app, host=host, port=port, ws="websockets-sansio",
                ws_max_size=1 << 20, ws_per_message_deflate=False, log_level="info",
                timeout_keep_alive=KEEP_ALIVE_SECONDS,
                log_config=None, proxy_headers=True, http=FirstRequestTimeout)


def _apt_install(packages: list[str], lean: list[str]) -> None:
    """``packages`` with what Debian recommends beside them, ``lean`` without: podman's
    recommendations (buildah, rootless networking, fuse-overlayfs) go unused here."""
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        print(f"ludoteca test: cannot install {packages + lean} (not root or no apt-get); "
              "tests that need them will be skipped", flush=True)
        return
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=False, env=env)
    if packages:
        subprocess.run(["apt-get", "install", "-y", "-qq", *packages], check=True, env=env)
    if lean:
        subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", *lean],
                       check=True, env=env)


def _docker_answers() -> bool:
    """A docker client whose daemon runs (a client alone builds nothing)."""
    if not shutil.which("docker"):
        return False
    try:
        return subprocess.run(["docker", "info"], capture_output=True,
                              timeout=30).returncode == 0
    except subprocess.TimeoutExpired:
        return False


def prepare_test_machine() -> None:
    """What the tests need beyond Python packages: Debian's Chromium, PostgreSQL, Redis
    and nginx (the multi-process tests), and a container engine (tests/deploy/engine.py)."""
    missing = []
    if not os.path.exists("/usr/bin/chromium"):
        missing.append("chromium")
    if not any(os.path.exists(f"/usr/lib/postgresql/{v}/bin/initdb") for v in range(12, 20)):
        missing.append("postgresql")
    if not shutil.which("redis-server"):
        missing.append("redis-server")
    if not shutil.which("nginx") and not os.path.exists("/usr/sbin/nginx"):
        missing.append("nginx")  # the docker-compose proxy's configuration, run for real
    # the image built and run for real (tests/deploy/engine.py): podman, with runc beside
    # the crun it comes with (crun cannot start a container on hybrid cgroups), and
    # debootstrap for the stand-in base image made where no registry answers
    engine = []
    if shutil.which("podman") or not _docker_answers():
        engine += [tool for tool in ("podman", "runc") if not _installed(tool)]
    if not _installed("debootstrap"):
        engine.append("debootstrap")
    if missing or engine:
        _apt_install(missing, engine)


def _installed(tool: str) -> bool:
    return bool(shutil.which(tool)) or os.path.exists(f"/usr/sbin/{tool}")


def suite_env(environ: dict[str, str] | os._Environ[str]) -> dict[str, str]:
    """The environment the suite runs in: Python's compiled modules cached for the whole run.

    The suite starts a few hundred Python processes (every test server, bench runs, fresh
    clones); each imports FastAPI, pydantic, SQLAlchemy and the app. With bytecode writing
    off (PYTHONDONTWRITEBYTECODE, set by many CI images and our own Dockerfile), every one of
    them compiled all of that from source: ~3 s of CPU a process here. The cache goes to
    .cache/pycache (git-ignored, outside the build context), never beside the sources."""
    env = {**environ, "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD": "1"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.setdefault("PYTHONPYCACHEPREFIX", str(ROOT / ".cache" / "pycache"))
    return env


# options by which a caller already chose how pytest spreads (or cannot spread) the run
_OWN_SPREAD = ("-n", "--numprocesses", "--dist", "-p", "--pdb", "--trace")


def spread(pytest_args: list[str], cores: int) -> list[str]:
    """The suite's files spread over the machine's cores, whole files per worker (pytest-xdist,
    ``--dist loadfile``): a file's module fixtures (one server) serve all its tests in one
    process. Files are handed out in the order the suite collects them
    (``--no-loadscope-reorder``; tests/conftest.py puts the files of slow tests first, so
    the longest start at once, and keeps tests/browser's files together, so a worker's one
    Chromium serves them all). Most of a test's time is waiting on a server or a browser,
    so one worker a core keeps both cores busy; more workers than cores (at most four)
    would only make the tests that measure a wait race each other. A caller's own ``-n``,
    ``--dist``, ``-p`` or ``--pdb`` wins; LUDOTECA_TEST_WORKERS=1 runs everything in one
    process."""
    if any(arg.split("=")[0] in _OWN_SPREAD or arg.startswith("-n") for arg in pytest_args):
        return pytest_args
    workers = int(os.environ.get("LUDOTECA_TEST_WORKERS", "0")) or min(cores, 4)
    if workers <= 1:
        return pytest_args
    return ["-n", str(workers), "--dist", "loadfile", "--no-loadscope-reorder", *pytest_args]


def test(pytest_args: list[str]) -> int:
    prepare_test_machine()
    args = spread(pytest_args, len(os.sched_getaffinity(0)))
    return subprocess.call([sys.executable, "-m", "pytest", *args], cwd=ROOT,
                           env=suite_env(os.environ))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="ludoteca")
    sub = parser.add_subparsers(dest="command")
    p_serve = sub.add_parser("serve", help="run the server")
    p_serve.add_argument("--host", default=os.environ.get("LUDOTECA_HOST", "127.0.0.1"))
    p_serve.add_argument("--port", type=int, default=int(os.environ.get("LUDOTECA_PORT", "8000")))
    sub.add_parser("test", help="run the whole test suite (extra arguments go to pytest)")
    p_backup = sub.add_parser("backup", help="save the database while the server runs")
    p_backup.add_argument("path")
    p_restore = sub.add_parser("restore", help="bring a backup back (server stopped)")
    p_restore.add_argument("path")
    p_restore.add_argument("--force", action="store_true",
                           help="replace a database that already holds tables")
    # everything after "test" belongs to pytest, options included (-x, -k, -q ...)
    args, rest = parser.parse_known_args(argv)
    if args.command == "test":
        sys.exit(test(rest))
    if rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    if args.command in ("backup", "restore"):
        from app.backup import main as backup_main

        sys.exit(backup_main(args.command, args.path, getattr(args, "force", False)))
    serve(getattr(args, "host", "127.0.0.1"), getattr(args, "port", 8000))


if __name__ == "__main__":
    main()
