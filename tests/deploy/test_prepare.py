"""What `python3 -m app test` installs before pytest starts (app/cli.py
``prepare_test_machine``), and that CI cannot pass without the container engine.

The machine is stood in for by ``which``/``exists`` answers and the install is recorded, not
run: these tests decide what would be installed; tests/deploy/test_engine.py shows that it is
enough (run with CI=true, it fails where the engine is missing)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from app import cli

ROOT = Path(__file__).resolve().parents[2]
EVERYTHING_BUT_ENGINE = {"/usr/bin/chromium", "/usr/lib/postgresql/15/bin/initdb",
                         "redis-server", "nginx"}


def _prepare(monkeypatch: pytest.MonkeyPatch, present: set[str],
             docker_answers: bool = False) -> list[tuple[list[str], list[str]]]:
    """Run ``prepare_test_machine`` on a machine holding ``present`` (tool names and paths);
    returns the installs it asked for."""
    calls: list[tuple[list[str], list[str]]] = []
    monkeypatch.setattr(cli.shutil, "which", lambda name: f"/usr/bin/{name}"
                        if name in present else None)
    monkeypatch.setattr(cli.os.path, "exists", lambda path: path in present)
    monkeypatch.setattr(cli, "_docker_answers", lambda: docker_answers)
    monkeypatch.setattr(cli, "_apt_install", lambda packages, lean: calls.append(
        (list(packages), list(lean))))
    cli.prepare_test_machine()
    return calls


def test_a_machine_without_an_engine_gets_podman_runc_and_debootstrap(monkeypatch) -> None:
    calls = _prepare(monkeypatch, EVERYTHING_BUT_ENGINE)
    assert calls == [([], ["podman", "runc", "debootstrap"])]


def test_a_fresh_machine_gets_everything_in_one_apt_run(monkeypatch) -> None:
    calls = _prepare(monkeypatch, set())
    assert calls == [(["chromium", "postgresql", "redis-server", "nginx"],
                      ["podman", "runc", "debootstrap"])]


def test_a_running_docker_is_engine_enough(monkeypatch) -> None:
    # the stand-in base image still needs debootstrap where no registry answers
    calls = _prepare(monkeypatch, EVERYTHING_BUT_ENGINE | {"docker"}, docker_answers=True)
    assert calls == [([], ["debootstrap"])]


def test_a_machine_with_it_all_installs_nothing(monkeypatch) -> None:
    present = EVERYTHING_BUT_ENGINE | {"podman", "/usr/sbin/runc", "/usr/sbin/debootstrap"}
    assert _prepare(monkeypatch, present) == []


@pytest.mark.parametrize(("ci", "outcome"), [("true", "1 failed"), ("", "1 skipped")])
def test_a_missing_engine_fails_the_engine_test_in_ci_and_skips_it_elsewhere(
        ci: str, outcome: str) -> None:
    env = {**os.environ, "CI": ci, "LUDOTECA_ENGINE": "no-such-engine"}
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         "tests/deploy/test_engine.py"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert outcome in result.stdout, result.stdout[-3000:] + result.stderr[-2000:]
    if ci:
        assert "no container engine here" in result.stdout


def test_the_suite_caches_compiled_modules_even_where_bytecode_writing_is_off(
        tmp_path: Path) -> None:
    """``suite_env``: PYTHONDONTWRITEBYTECODE (set by many CI images) would make each of the
    suite's few hundred Python processes compile FastAPI, SQLAlchemy and the app from source;
    the suite runs with it dropped and a cache of its own outside the sources."""
    env = cli.suite_env({"PYTHONDONTWRITEBYTECODE": "1", "PATH": os.environ["PATH"]})
    assert "PYTHONDONTWRITEBYTECODE" not in env
    assert env["PYTHONPYCACHEPREFIX"] == str(ROOT / ".cache" / "pycache")
    assert env["PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD"] == "1"
    mine = cli.suite_env({"PYTHONPYCACHEPREFIX": "/elsewhere"})  # a cache chosen is kept
    assert mine["PYTHONPYCACHEPREFIX"] == "/elsewhere"

    # for real: a module imported under that environment is compiled once into the cache
    source = tmp_path / "src"
    source.mkdir()
    (source / "probe_module.py").write_text("VALUE = 7\n")
    env["PYTHONPYCACHEPREFIX"] = str(tmp_path / "cache")
    subprocess.run([sys.executable, "-c", "import probe_module"], cwd=source, env=env,
                   check=True)
    assert list((tmp_path / "cache").rglob("probe_module.*.pyc"))
    assert not (source / "__pycache__").exists()  # nothing beside the sources


def test_the_suite_spreads_its_files_over_the_cores_unless_told_otherwise(
        tmp_path: Path, monkeypatch) -> None:
    """``spread``: one worker a core (at most four), whole files per worker; a caller's own
    choice of workers, a debugger, or LUDOTECA_TEST_WORKERS=1 keeps it as asked."""
    monkeypatch.delenv("LUDOTECA_TEST_WORKERS", raising=False)
    assert cli.spread(["-q"], 2) == ["-n", "2", "--dist", "loadfile", "--no-loadscope-reorder",
                                     "-q"]
    assert cli.spread([], 16)[:2] == ["-n", "4"]
    assert cli.spread(["-q"], 1) == ["-q"]
    for own in (["-n", "3"], ["-n3"], ["--numprocesses=2"], ["--pdb"], ["-p", "no:xdist"]):
        assert cli.spread(["tests/x.py", *own], 2) == ["tests/x.py", *own]
    monkeypatch.setenv("LUDOTECA_TEST_WORKERS", "1")
    assert cli.spread(["-q"], 2) == ["-q"]
    monkeypatch.setenv("LUDOTECA_TEST_WORKERS", "3")
    assert cli.spread(["-q"], 2)[:2] == ["-n", "3"]

    # for real: two files, each on a worker of its own, each file's tests in one worker
    for name in ("a", "b"):
        (tmp_path / f"test_{name}.py").write_text(
            "import os, time\n"
            "def test_one():\n"
            f"    open('{tmp_path}/{name}1', 'w').write(os.environ['PYTEST_XDIST_WORKER'])\n"
            "    time.sleep(1)\n"
            "def test_two():\n"
            f"    open('{tmp_path}/{name}2', 'w').write(os.environ['PYTEST_XDIST_WORKER'])\n")
    monkeypatch.delenv("LUDOTECA_TEST_WORKERS")
    args = cli.spread(["-q", "--rootdir", str(tmp_path), str(tmp_path)], 2)
    subprocess.run([sys.executable, "-m", "pytest", *args], check=True, cwd=tmp_path,
                   capture_output=True)
    workers = {name: (tmp_path / name).read_text() for name in ("a1", "a2", "b1", "b2")}
    assert workers["a1"] == workers["a2"] and workers["b1"] == workers["b2"]
    assert workers["a1"] != workers["b1"]


def test_a_spread_run_refuses_tests_that_share_a_node_id(tmp_path: Path) -> None:
    """Such tests (schemathesis's operations) would run once per id under the workers."""
    from tests.conftest import duplicate_ids

    assert duplicate_ids(["a::t", "a::u", "a::t"]) == ["a::t"]
    assert duplicate_ids(["a::t", "a::u"]) == []
    # for real: schemathesis's file collected in a worker is refused, with its reason
    run = subprocess.run([sys.executable, "-m", "pytest", "-n", "1", "-p", "no:cacheprovider",
                          "-q", str(ROOT / "tests/api/schemathesis_run.py")],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode != 0 and "sharing a node id" in run.stdout + run.stderr
