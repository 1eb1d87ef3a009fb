"""Following a Dockerfile's steps on this machine, without a Docker engine: container paths
re-rooted under a directory, the base image's Python replaced by a fresh venv, the image's
users and groups by throwaway system users (as root) or by the current user (otherwise).
Used by tests/deploy/test_image.py.
"""

from __future__ import annotations

import grp
import os
import pwd
import secrets
import shutil
import stat
import subprocess
import sys
from pathlib import Path, PurePosixPath

from tests.deploy.dockerfile import (
    Dockerfile,
    DockerIgnore,
    Unsupported,
    copy_args,
    env_pairs,
    shell_commands,
)

ROOT = Path(__file__).resolve().parents[2]
IS_ROOT = os.geteuid() == 0
INSTALL_TIMEOUT = 600  # seconds for `pip install .` (about 20 s with the local wheels)


class ImageSteps:
    """The Dockerfile's instructions, followed on this machine under ``self.root``."""

    def __init__(self, dockerfile: Dockerfile, root: Path) -> None:
        self.dockerfile = dockerfile
        self.root = root
        self.venv = root / "usr-local"  # stands in for the base image's Python
        self.workdir = PurePosixPath("/")
        self.env: dict[str, str] = {}
        self.ignore = DockerIgnore((ROOT / ".dockerignore").read_text())
        self.users: dict[str, str] = {}  # the image's user/group names and ids → ours
        self.groups: dict[str, str] = {}
        self.created_users: list[str] = []
        self.created_groups: list[str] = []
        self.uid, self.gid = os.getuid(), os.getgid()

    def host(self, path: str | PurePosixPath) -> Path:
        """Where a container path lives here."""
        absolute = PurePosixPath(self.workdir) / path
        return self.root / str(absolute).lstrip("/")

    def rebased(self, value: str) -> str:
        return str(self.host(value)) if value.startswith("/") else value

    # ---- the base image: a Python the unprivileged user may run, in a fresh venv

    def make_python(self, base: str) -> None:
        subprocess.run([base, "-m", "venv", str(self.venv)], check=True, timeout=120)

    # ---- instructions

    def follow(self) -> None:
        for instruction in self.dockerfile.instructions:
            handler = getattr(self, f"do_{instruction.keyword.lower()}", None)
            if handler is None:
                raise Unsupported(f"line {instruction.line}: {instruction.keyword}")
            handler(instruction.args)

    def do_from(self, args: str) -> None:
        pass  # the venv made by make_python

    def do_env(self, args: str) -> None:
        for key, value in env_pairs(args).items():
            self.env[key] = self.rebased(value)

    def do_workdir(self, args: str) -> None:
        self.workdir = PurePosixPath(self.workdir) / args
        self.host(".").mkdir(parents=True, exist_ok=True)

    def do_copy(self, args: str) -> None:
        sources, dest = copy_args(args)
        into_dir = dest.endswith("/") or dest in (".", "./") or len(sources) > 1
        for source in sources:
            src = ROOT / source
            target = self.host(dest) / src.name if into_dir and src.is_file() else self.host(dest)
            if src.is_file():
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(src, target)
                continue
            for path in sorted(src.rglob("*")):  # a directory: its contents go to dest
                relative = path.relative_to(ROOT).as_posix()
                if self.ignore.excluded(relative) or not path.is_file():
                    continue
                out = target / path.relative_to(src)
                out.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, out)

    def do_run(self, args: str) -> None:
        for argv in shell_commands(args):
            name = argv[0]
            if name in ("pip", "pip3") or argv[:3] in (["python", "-m", "pip"],
                                                       ["python3", "-m", "pip"]):
                self.pip(argv[argv.index("install") + 1:] if "install" in argv else None)
            elif name in ("groupadd", "useradd", "mkdir", "chown"):
                getattr(self, name)(argv[1:])
            else:
                raise Unsupported(f"RUN {name}: the image test does not know this command")

    def do_user(self, args: str) -> None:
        user, _, group = args.partition(":")
        self.uid = self._uid(user)
        self.gid = self._gid(group) if group else pwd.getpwuid(self.uid).pw_gid

    def do_expose(self, args: str) -> None:
        pass

    def do_volume(self, args: str) -> None:
        for path in self.dockerfile.volumes():
            self.host(path).mkdir(parents=True, exist_ok=True)

    def do_healthcheck(self, args: str) -> None:
        pass  # run by the test once the server starts

    def do_cmd(self, args: str) -> None:
        pass

    # ---- RUN commands

    def pip(self, install_args: list[str] | None) -> None:
        if install_args is None:
            raise Unsupported("RUN pip: only `pip install` is followed")
        env = {**os.environ, **self.env}  # this machine's pip configuration (local wheels)
        env.pop("PYTHONPATH", None)
        result = subprocess.run([str(self.venv / "bin" / "pip"), "install", "-q", *install_args],
                                cwd=self.host("."), env=env, capture_output=True, text=True,
                                timeout=INSTALL_TIMEOUT)
        assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]

    @staticmethod
    def _options(argv: list[str], with_value: set[str]) -> tuple[dict[str, str], str]:
        options: dict[str, str] = {}
        i = 0
        while i < len(argv) - 1:
            if argv[i] in with_value:
                options[argv[i]] = argv[i + 1]
                i += 2
            elif argv[i].startswith("-"):
                options[argv[i]] = ""
                i += 1
            else:
                raise Unsupported(f"unexpected word {argv[i]!r} in {argv}")
        return options, argv[-1]

    def groupadd(self, argv: list[str]) -> None:
        options, name = self._options(argv, {"--gid", "-g"})
        ours = f"ldt{secrets.token_hex(4)}"
        if IS_ROOT:
            subprocess.run(["groupadd", "--system", ours], check=True)
            self.created_groups.append(ours)
        else:
            ours = grp.getgrgid(os.getgid()).gr_name
        for key in (name, options.get("--gid"), options.get("-g")):
            if key:
                self.groups[key] = ours

    def useradd(self, argv: list[str]) -> None:
        options, name = self._options(argv, {"--uid", "-u", "--gid", "-g", "--shell", "-s",
                                             "--home-dir", "-d"})
        ours = f"ldt{secrets.token_hex(4)}"
        if IS_ROOT:
            group = options.get("--gid", options.get("-g"))
            command = ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin"]
            if group:
                command += ["--gid", self.groups[group]]
            subprocess.run([*command, ours], check=True)
            self.created_users.append(ours)
            if not group:
                self.created_groups.append(ours)  # useradd made the user's own group
                self.groups[name] = ours
        else:
            ours = pwd.getpwuid(os.getuid()).pw_name
        for key in (name, options.get("--uid"), options.get("-u")):
            if key:
                self.users[key] = ours

    def mkdir(self, argv: list[str]) -> None:
        for path in argv:
            if path not in ("-p", "--parents"):
                self.host(path).mkdir(parents=True, exist_ok=True)

    def chown(self, argv: list[str]) -> None:
        recursive = "-R" in argv
        words = [w for w in argv if w != "-R"]
        if len(words) < 2 or any(w.startswith("-") for w in words):
            raise Unsupported(f"chown {argv}")
        owner, _, group = words[0].partition(":")
        uid = self._uid(owner)
        gid = self._gid(group) if group else -1
        for path in words[1:]:
            targets = [self.host(path)]
            if recursive:
                targets += list(self.host(path).rglob("*"))
            for target in targets:
                os.chown(target, uid, gid)

    def _uid(self, user: str) -> int:
        if user not in self.users:
            raise Unsupported(f"user {user!r} is not created by the Dockerfile")
        return pwd.getpwnam(self.users[user]).pw_uid

    def _gid(self, group: str) -> int:
        if group not in self.groups:
            raise Unsupported(f"group {group!r} is not created by the Dockerfile")
        return grp.getgrnam(self.groups[group]).gr_gid

    # ---- running as the image would

    def runtime_env(self) -> dict[str, str]:
        """What a container gets: the image's ENV, a PATH, a HOME; none of this host's
        LUDOTECA_ settings leak in."""
        return {"PATH": f"{self.venv / 'bin'}:/usr/local/bin:/usr/bin:/bin",
                "HOME": str(self.host("/nonexistent")), "LANG": "C.UTF-8", **self.env}

    def popen(self, argv: list[str], **kwargs) -> subprocess.Popen:  # noqa: ANN003
        env = self.runtime_env()
        executable = shutil.which(argv[0], path=env["PATH"])
        assert executable, f"{argv[0]} is not on the image's PATH"
        if IS_ROOT:
            kwargs.update(user=self.uid, group=self.gid, extra_groups=[])
        return subprocess.Popen([executable, *argv[1:]], cwd=self.host("."), env=env, **kwargs)

    def run_as_user(self, argv: list[str], timeout: float) -> subprocess.CompletedProcess:
        with self.popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                        text=True) as process:
            try:
                out, _ = process.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                out, _ = process.communicate()
                return subprocess.CompletedProcess(argv, -9, out)
            return subprocess.CompletedProcess(argv, process.returncode, out)

    def cleanup(self) -> None:
        for user in self.created_users:
            subprocess.run(["userdel", user], check=False, capture_output=True)
        for group in self.created_groups:
            subprocess.run(["groupdel", group], check=False, capture_output=True)
        shutil.rmtree(self.root, ignore_errors=True)


def base_python() -> str | None:
    """A Python >= 3.11 that every user may run (pyenv's under /root is not one)."""
    candidates = [getattr(sys, "_base_executable", sys.executable), shutil.which("python3.11"),
                  "/usr/bin/python3.11", "/usr/local/bin/python3.11", "/usr/bin/python3"]
    for candidate in candidates:
        if not candidate or not os.path.exists(candidate):
            continue
        real = Path(os.path.realpath(candidate))
        # every directory on the way must be searchable and the file executable by others
        ok = all(os.stat(p).st_mode & stat.S_IXOTH for p in [*real.parents, real])
        if not ok:
            continue
        probe = subprocess.run([candidate, "-c", "import sys, venv, ensurepip; "
                                "print(sys.version_info >= (3, 11))"],
                               capture_output=True, text=True, timeout=30)
        if probe.stdout.strip() == "True":
            return candidate
    return None


def snapshot(*roots: Path) -> dict[str, tuple[int, int]]:
    """Every file under ``roots`` with its size and modification time."""
    out = {}
    for root in roots:
        for path in root.rglob("*"):
            if path.is_file() and not path.is_symlink():
                info = path.stat()
                out[str(path)] = (info.st_size, info.st_mtime_ns)
    return out
