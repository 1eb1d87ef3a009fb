"""Following a Dockerfile's steps on this machine, without a Docker engine: container paths
re-rooted under one directory per stage, the base image's Python replaced by a fresh venv at
the stage's /usr/local, the image's users and groups by throwaway system users (as root) or
by the current user (otherwise). Used by tests/deploy/test_image.py.

A multi-stage build: each FROM starts a new stage directory (``stage-0``, ``stage-1``...:
names of one length), ``COPY --from`` copies out of an earlier one and writes the copied
files' mentions of that stage's directory as the new one's (the same path in both, as in a
real build; one length, so compiled files stay valid), and once the last stage is done the
earlier ones are deleted, as an engine discards them: the image must not need them.
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
    BASE_ENV,
    Dockerfile,
    DockerIgnore,
    Unsupported,
    copy_args,
    env_pairs,
    expand,
    from_args,
    shell_commands,
)

ROOT = Path(__file__).resolve().parents[2]
IS_ROOT = os.geteuid() == 0
INSTALL_TIMEOUT = 600  # seconds for one RUN install step


class ImageSteps:
    """The Dockerfile's instructions, followed on this machine; the image ends up in
    ``self.root`` (the last stage's directory under ``base``)."""

    def __init__(self, dockerfile: Dockerfile, base: Path, python: str) -> None:
        self.dockerfile = dockerfile
        self.base = base
        self.python = python  # stands in for the base image's Python
        self.stage_roots: dict[str, Path] = {}  # stage name or index → its directory
        self.root = base / "stage-0"
        self.workdir = PurePosixPath("/")
        self.env: dict[str, str] = {}
        self.ignore = DockerIgnore((ROOT / ".dockerignore").read_text())
        self.users: dict[str, str] = {}  # the image's user/group names and ids → ours
        self.groups: dict[str, str] = {}
        self.created_users: list[str] = []
        self.created_groups: list[str] = []
        self.uid, self.gid = os.getuid(), os.getgid()

    @property
    def venv(self) -> Path:
        """The base image's Python of the current stage (a venv at /usr/local)."""
        return self.root / "usr" / "local"

    def host(self, path: str | PurePosixPath) -> Path:
        """Where a container path of the current stage lives here."""
        absolute = PurePosixPath(self.workdir) / path
        return self.root / str(absolute).lstrip("/")

    def rebased(self, value: str) -> str:
        return str(self.host(value)) if value.startswith("/") else value

    def rebased_env(self, key: str, value: str) -> str:
        if key == "PATH":
            return ":".join(self.rebased(part) for part in value.split(":"))
        return self.rebased(value)

    # ---- instructions

    def follow(self) -> None:
        stages = self.dockerfile.stages()
        for number, stage in enumerate(stages):
            for instruction in stage.instructions:
                handler = getattr(self, f"do_{instruction.keyword.lower()}", None)
                if handler is None:
                    raise Unsupported(f"line {instruction.line}: {instruction.keyword}")
                if instruction.keyword == "FROM":
                    self.start_stage(number, instruction.args)
                else:
                    handler(instruction.args)
        for root in set(self.stage_roots.values()) - {self.root}:
            shutil.rmtree(root)  # what an engine keeps of a build is the last stage
        self.stage_roots = {k: v for k, v in self.stage_roots.items() if v == self.root}

    def start_stage(self, number: int, args: str) -> None:
        image, name = from_args(args)
        if image in self.stage_roots:
            raise Unsupported(f"FROM {image}: building on an earlier stage is not followed")
        self.root = self.base / f"stage-{number}"
        self.root.mkdir(mode=0o755)
        self.stage_roots[str(number)] = self.root
        if name:
            self.stage_roots[name] = self.root
        self.workdir = PurePosixPath("/")
        self.env = {k: self.rebased_env(k, v) for k, v in BASE_ENV.items()}
        # the base image's Python: python, python3, python3.11 and pip in /usr/local/bin
        subprocess.run([self.python, "-m", "venv", str(self.venv)], check=True, timeout=120)

    def do_from(self, args: str) -> None:
        pass  # start_stage

    def do_env(self, args: str) -> None:
        container = {k: self._unrebased(v) for k, v in self.env.items()}
        for key, value in env_pairs(args).items():
            value = expand(value, container)
            container[key] = value
            self.env[key] = self.rebased_env(key, value)

    def _unrebased(self, value: str) -> str:
        prefix = str(self.root)
        return ":".join(p[len(prefix):] if p.startswith(prefix + "/") else p
                        for p in value.split(":"))

    def do_workdir(self, args: str) -> None:
        self.workdir = PurePosixPath(self.workdir) / args
        self.host(".").mkdir(parents=True, exist_ok=True)

    def do_copy(self, args: str) -> None:
        sources, dest, stage = copy_args(args)
        if stage is not None:
            self.copy_from_stage(stage, sources, dest)
            return
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

    def copy_from_stage(self, stage: str, sources: list[str], dest: str) -> None:
        if stage not in self.stage_roots:
            raise Unsupported(f"COPY --from={stage}: no such earlier stage")
        other = self.stage_roots[stage]
        if len(sources) != 1 or not sources[0].startswith("/"):
            raise Unsupported("COPY --from: one absolute source is followed")
        src = other / sources[0].lstrip("/")
        target = self.host(dest)
        if target.exists():
            raise Unsupported(f"COPY --from onto an existing {dest}")
        shutil.copytree(src, target, symlinks=True)
        old, new = str(other).encode(), str(self.root).encode()
        assert len(old) == len(new)
        for path in [target, *target.rglob("*")]:
            if path.is_symlink():
                link = os.readlink(path)
                if link.startswith(str(other)):
                    path.unlink()
                    path.symlink_to(str(self.root) + link[len(str(other)):])
            elif path.is_file():
                data = path.read_bytes()
                if old in data:
                    path.write_bytes(data.replace(old, new))

    def do_run(self, args: str) -> None:
        for argv in shell_commands(args):
            name = argv[0]
            if name in ("pip", "pip3") or argv[:3] in (["python", "-m", "pip"],
                                                       ["python3", "-m", "pip"]):
                self.pip(argv[argv.index("install") + 1:] if "install" in argv else None)
            elif name == "uv":
                self.uv(argv[1:])
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
        for path in self.dockerfile.final.volumes():
            self.host(path).mkdir(parents=True, exist_ok=True)

    def do_healthcheck(self, args: str) -> None:
        pass  # run by the test once the server starts

    def do_cmd(self, args: str) -> None:
        pass

    # ---- RUN commands

    def build_env(self) -> dict[str, str]:
        """A RUN step's environment: this machine's (its pip configuration, its network)
        with the stage's ENV on top, its PATH first."""
        env = {**os.environ, **self.env}
        env["PATH"] = f"{self.env['PATH']}:{os.environ.get('PATH', '/usr/bin:/bin')}"
        for name in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME"):
            env.pop(name, None)
        return env

    def _run_step(self, argv: list[str]) -> None:
        result = subprocess.run(argv, cwd=self.host("."), env=self.build_env(),
                                capture_output=True, text=True, timeout=INSTALL_TIMEOUT)
        assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]

    def pip(self, install_args: list[str] | None) -> None:
        if install_args is None:
            raise Unsupported("RUN pip: only `pip install` is followed")
        self._run_step([str(self.venv / "bin" / "pip"), "install", "-q",
                        *[self.rebased(a) for a in install_args]])

    def uv(self, args: list[str]) -> None:
        if not args or args[0] != "sync":
            raise Unsupported(f"RUN uv {args[:1]}: only `uv sync` is followed")
        uv = shutil.which("uv", path=self.env["PATH"])
        assert uv, "RUN uv: uv is not installed in the stage"
        self._run_step([uv, *[self.rebased(a) for a in args]])

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
        words = list(argv)
        mode = None
        if "-m" in words:  # -m MODE: the last directory's mode (octal)
            at = words.index("-m")
            mode = int(words[at + 1], 8)
            del words[at:at + 2]
        for path in words:
            if path.startswith("-") and path not in ("-p", "--parents"):
                raise Unsupported(f"mkdir {argv}")
            if path not in ("-p", "--parents"):
                self.host(path).mkdir(parents=True, exist_ok=True)
                if mode is not None:
                    self.host(path).chmod(mode)

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
        return {"HOME": str(self.host("/nonexistent")), **self.env}

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
        shutil.rmtree(self.base, ignore_errors=True)


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
