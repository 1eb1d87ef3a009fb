"""Read a Dockerfile and a .dockerignore the way Docker does, for the tests that follow the
image's steps without a Docker engine (tests/deploy/test_image.py).

Only what Ludoteca's Dockerfile uses is understood; anything else raises
:class:`Unsupported`, so a Dockerfile change the tests cannot follow fails loudly instead of
being skipped.
"""

from __future__ import annotations

import fnmatch
import json
import re
import shlex
from dataclasses import dataclass
from pathlib import Path, PurePosixPath


class Unsupported(Exception):
    """A Dockerfile construct the image tests do not know how to follow."""


@dataclass(frozen=True)
class Instruction:
    keyword: str  # upper case: FROM, ENV, RUN...
    args: str  # everything after the keyword, continuation lines joined
    line: int  # where it starts (1-based)


def parse(text: str) -> list[Instruction]:
    """Instructions in order: comments dropped, backslash continuations joined."""
    instructions: list[Instruction] = []
    pending: list[str] = []
    start = 0
    for number, raw in enumerate(text.splitlines(), 1):
        stripped = raw.strip()
        if stripped.startswith("#") or (not stripped and not pending):
            continue  # Docker drops comment lines, even inside a continuation
        if not pending:
            start = number
        if stripped.endswith("\\"):
            pending.append(stripped[:-1].strip())
            continue
        pending.append(stripped)
        joined = " ".join(p for p in pending if p)
        pending = []
        keyword, _, args = joined.partition(" ")
        instructions.append(Instruction(keyword.upper(), args.strip(), start))
    if pending:
        raise Unsupported("the Dockerfile ends inside a line continuation")
    return instructions


def exec_form(args: str, what: str) -> list[str]:
    """A JSON array of strings (exec form); shell form is refused (hadolint DL3025)."""
    try:
        value = json.loads(args)
    except ValueError:
        raise Unsupported(f"{what} must use the JSON (exec) form: {args!r}") from None
    if not (isinstance(value, list) and value and all(isinstance(v, str) for v in value)):
        raise Unsupported(f"{what} must be a non-empty JSON array of strings: {args!r}")
    return value


def env_pairs(args: str) -> dict[str, str]:
    """``ENV A=1 B="two words"`` (or the legacy ``ENV A value``)."""
    words = shlex.split(args)
    if words and "=" not in words[0]:
        return {words[0]: " ".join(words[1:])}
    pairs = {}
    for word in words:
        key, sep, value = word.partition("=")
        if not sep:
            raise Unsupported(f"ENV mixes forms: {args!r}")
        pairs[key] = value
    return pairs


def copy_args(args: str) -> tuple[list[str], str, str | None]:
    """``COPY [--from=stage] src... dest`` → (sources, dest, stage); other flags are not
    followed."""
    words = shlex.split(args)
    stage = None
    while words and words[0].startswith("--"):
        flag = words.pop(0)
        if not flag.startswith("--from="):
            raise Unsupported(f"COPY flag {flag} is not followed by the image tests: {args!r}")
        stage = flag.split("=", 1)[1]
    if words and words[0].startswith("["):
        words = exec_form(" ".join(words), "COPY")
    if len(words) < 2:
        raise Unsupported(f"COPY needs a source and a destination: {args!r}")
    return words[:-1], words[-1], stage


def from_args(args: str) -> tuple[str, str | None]:
    """``FROM image [AS name]`` → (image, name)."""
    words = args.split()
    if len(words) == 1 and not words[0].startswith("--"):
        return words[0], None
    if len(words) == 3 and words[1].upper() == "AS":
        return words[0], words[2]
    raise Unsupported(f"FROM {args!r}")


_VARIABLE = re.compile(r"\$(?:\{(\w+)\}|(\w+))")


def expand(value: str, env: dict[str, str]) -> str:
    """``$NAME`` and ``${NAME}`` in an ENV value, from what is already set (Docker's rule)."""
    return _VARIABLE.sub(lambda m: env.get(m.group(1) or m.group(2), ""), value)


def shell_commands(script: str) -> list[list[str]]:
    """A RUN line as commands joined by ``&&``; any other shell operator is refused."""
    lexer = shlex.shlex(script, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    commands: list[list[str]] = [[]]
    for token in lexer:
        if token == "&&":
            commands.append([])
        elif token and set(token) <= set("();<>|&"):
            raise Unsupported(f"RUN uses {token!r}; only `a && b && ...` is followed")
        else:
            commands[-1].append(token)
    if any(not c for c in commands):
        raise Unsupported(f"an empty command in RUN: {script!r}")
    return commands


_DURATION = re.compile(r"^(\d+(?:\.\d+)?)(ms|s|m|h)$")


def seconds(duration: str) -> float:
    match = _DURATION.match(duration)
    if match is None:
        raise Unsupported(f"a duration Docker would take but this parser does not: {duration}")
    unit = {"ms": 0.001, "s": 1, "m": 60, "h": 3600}[match.group(2)]
    return float(match.group(1)) * unit


@dataclass(frozen=True)
class Healthcheck:
    command: list[str]
    interval: float = 30
    timeout: float = 30
    start_period: float = 0
    retries: int = 3


def healthcheck(args: str) -> Healthcheck:
    """``HEALTHCHECK [--option=value...] CMD [json...]``."""
    options, marker, command = args.partition("CMD ")
    if not marker:
        raise Unsupported(f"HEALTHCHECK without CMD (or NONE): {args!r}")
    values: dict[str, float | int] = {}
    for word in options.split():
        match = re.fullmatch(r"--([a-z-]+)=(\S+)", word)
        if match is None:
            raise Unsupported(f"HEALTHCHECK option {word!r}")
        name, value = match.group(1).replace("-", "_"), match.group(2)
        values[name] = int(value) if name == "retries" else seconds(value)
    return Healthcheck(exec_form(command.strip(), "HEALTHCHECK CMD"), **values)  # type: ignore[arg-type]


# what the python:3.11-slim-bookworm base image sets (docker image inspect)
BASE_ENV = {"PATH": "/usr/local/bin:/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin",
            "LANG": "C.UTF-8"}


@dataclass
class Dockerfile:
    """The parts of one Dockerfile (or of one of its stages) the image tests follow, in
    order."""

    instructions: list[Instruction]

    @classmethod
    def read(cls, path: Path) -> Dockerfile:
        return cls(parse(path.read_text()))

    def stages(self) -> list[Dockerfile]:
        """One Dockerfile per FROM (a multi-stage build): the last one is the image."""
        stages: list[Dockerfile] = []
        for instruction in self.instructions:
            if instruction.keyword == "FROM":
                stages.append(Dockerfile([]))
            elif not stages:
                raise Unsupported(f"line {instruction.line}: {instruction.keyword} before FROM")
            stages[-1].instructions.append(instruction)
        return stages

    @property
    def final(self) -> Dockerfile:
        return self.stages()[-1]

    def all(self, keyword: str) -> list[Instruction]:
        return [i for i in self.instructions if i.keyword == keyword]

    def last(self, keyword: str) -> Instruction:
        found = self.all(keyword)
        if not found:
            raise Unsupported(f"the Dockerfile has no {keyword}")
        return found[-1]

    def env(self) -> dict[str, str]:
        """What ENV sets (``$NAME`` expanded, the base image's PATH included)."""
        out: dict[str, str] = dict(BASE_ENV)
        for instruction in self.all("ENV"):
            out.update({k: expand(v, out) for k, v in env_pairs(instruction.args).items()})
        return out

    def cmd(self) -> list[str]:
        return exec_form(self.last("CMD").args, "CMD")

    def healthcheck(self) -> Healthcheck:
        return healthcheck(self.last("HEALTHCHECK").args)

    def exposed_ports(self) -> list[int]:
        return [int(p.split("/")[0]) for i in self.all("EXPOSE") for p in i.args.split()]

    def volumes(self) -> list[str]:
        out: list[str] = []
        for instruction in self.all("VOLUME"):
            args = instruction.args
            out += exec_form(args, "VOLUME") if args.startswith("[") else args.split()
        return out


def flag_value(argv: list[str], flag: str) -> str | None:
    """The value after ``--flag`` (or in ``--flag=value``) in a command line."""
    for i, word in enumerate(argv):
        if word == flag and i + 1 < len(argv):
            return argv[i + 1]
        if word.startswith(flag + "="):
            return word.split("=", 1)[1]
    return None


def with_flag(argv: list[str], flag: str, value: str) -> list[str]:
    """The command line with ``--flag``'s value replaced (the flag must be there)."""
    out = list(argv)
    for i, word in enumerate(out):
        if word == flag and i + 1 < len(out):
            out[i + 1] = value
            return out
        if word.startswith(flag + "="):
            out[i] = f"{flag}={value}"
            return out
    raise Unsupported(f"{flag} is not in {argv}")


# ------------------------------------------------------------------ .dockerignore


class DockerIgnore:
    """``.dockerignore`` patterns (Go's filepath.Match plus ``**``, ``!`` exceptions);
    the last matching pattern wins, and an excluded directory excludes what is inside."""

    def __init__(self, text: str) -> None:
        self.rules: list[tuple[bool, str]] = []  # (exclude?, pattern)
        for line in text.splitlines():
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            keep = line.startswith("!")
            pattern = str(PurePosixPath(line.lstrip("!").strip().lstrip("/")))
            self.rules.append((not keep, pattern))

    @staticmethod
    def _matches(pattern: str, path: str) -> bool:
        regex = ""
        i = 0
        while i < len(pattern):
            if pattern.startswith("**/", i):
                regex += "(?:.*/)?"
                i += 3
            elif pattern.startswith("**", i):
                regex += ".*"
                i += 2
            elif pattern[i] == "*":
                regex += "[^/]*"
                i += 1
            elif pattern[i] == "?":
                regex += "[^/]"
                i += 1
            elif pattern[i] == "[":
                end = pattern.find("]", i)
                if end < 0:
                    raise Unsupported(f".dockerignore pattern {pattern!r}")
                regex += fnmatch.translate(pattern[i:end + 1])[4:-3]  # the class alone
                i = end + 1
            else:
                regex += re.escape(pattern[i])
                i += 1
        return re.fullmatch(regex, path) is not None

    def excluded(self, relative: str) -> bool:
        """Whether ``relative`` (a path in the build context) stays out of it."""
        parts = PurePosixPath(relative).parts
        prefixes = ["/".join(parts[:n]) for n in range(1, len(parts) + 1)]
        verdict = False
        for exclude, pattern in self.rules:
            if any(self._matches(pattern, p) for p in prefixes):
                verdict = exclude
        return verdict
