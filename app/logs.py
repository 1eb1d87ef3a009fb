"""The server's log: one line per event on standard error, as text or, with
``LUDOTECA_LOG_FORMAT=json``, as one JSON object per line (``time, level, logger, message``,
``exc`` for a traceback, and ``client, method, path, status`` for an access-log line).

A traceback stays on its event's line (its line breaks written ``\\n``), so a log shipper
never splits one event in two. Nothing secret is written: invite tokens, spectator keys and
tokens in URLs are cut (app.api.security.RedactSecrets does the access log; every line goes
through the same patterns here again), so are bearer tokens and database passwords.
"""

from __future__ import annotations

import json
import logging
import re
import sys
from datetime import UTC, datetime
from typing import Any

# capabilities and credentials, wherever they appear in a line
_SECRETS = [
    # /join/<invite>, /watch/<table>/<key>, ?invite= ?watch= ?token=
    (re.compile(r"(/join/|/watch/[^/?&#\s\"']+/|[?&](?:invite|token|watch)=)[^?&#\s\"']+"),
     r"\1…"),
    (re.compile(r"(?i)(bearer\s+)[^\s\"',;]+"), r"\1…"),
    # scheme://user:password@host: the password
    (re.compile(r"([a-z][a-z0-9+.-]*://[^:/@\s\"']*:)[^@\s\"']+@"), r"\1…@"),
]


def redact(text: str) -> str:
    # each pattern only where what it needs is in the line (a substring test first: most
    # lines hold none of it, and it is far cheaper than a regular expression's pass)
    (capability, capability_to), (bearer, bearer_to), (password, password_to) = _SECRETS
    if "/join/" in text or "/watch/" in text or "=" in text:
        text = capability.sub(capability_to, text)
    if "bearer" in text.lower():
        text = bearer.sub(bearer_to, text)
    if "://" in text:
        text = password.sub(password_to, text)
    return text


def _one_line(text: str) -> str:
    return text.replace("\\", "\\\\").replace("\r", "\\r").replace("\n", "\\n")


def _access_fields(record: logging.LogRecord) -> dict[str, Any]:
    """uvicorn's access line: ``'%s - "%s %s HTTP/%s" %d'`` (client, method, path, version,
    status), its arguments already redacted by RedactSecrets."""
    args = record.args
    if record.name != "uvicorn.access" or not isinstance(args, tuple) or len(args) != 5:
        return {}
    client, method, path, _version, status = args
    return {"client": client, "method": method, "path": redact(str(path)), "status": status}


class TextFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        stamp = datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds")
        line = f"{stamp} {record.levelname} {record.name}: {record.getMessage()}"
        if record.exc_info:
            line += " | " + self.formatException(record.exc_info)
        if record.stack_info:
            line += " | " + self.formatStack(record.stack_info)
        return _one_line(redact(line))


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        event: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(
                timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": redact(record.getMessage()),
        }
        event.update(_access_fields(record))
        if record.exc_info:
            event["exc"] = redact(self.formatException(record.exc_info))
        if record.stack_info:
            event["stack"] = redact(self.formatStack(record.stack_info))
        # json.dumps escapes line breaks: one event, one line
        return json.dumps(event, ensure_ascii=False, default=str)


FORMATTERS = {"text": TextFormatter, "json": JsonFormatter}


def configure(fmt: str = "text", level: int = logging.INFO) -> None:
    """Every logger (ours, uvicorn's, the libraries') writes through one handler on
    standard error, in ``fmt``; uvicorn is then started with ``log_config=None``."""
    if fmt not in FORMATTERS:
        raise ValueError(f"LUDOTECA_LOG_FORMAT must be one of {sorted(FORMATTERS)}, not {fmt!r}")
    # what neither format writes is not gathered for every record (the logging HOWTO's
    # "Optimization" section): the caller's file and line (a walk up the stack for each
    # access-log line), the thread's name, the process's id and name
    logging._srcfile = None  # type: ignore[attr-defined]
    logging.logThreads = False
    logging.logProcesses = False
    logging.logMultiprocessing = False
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(FORMATTERS[fmt]())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    # alembic's start-up chatter (its plugins), not its "Running upgrade" lines
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        for old in list(logger.handlers):
            logger.removeHandler(old)
        logger.propagate = True


def log_start(host: str, port: int) -> None:
    """Where this server listens, keeps its data and its database (password cut), and
    where the operator token is (never the token)."""
    from app.config import get_settings

    settings = get_settings()
    log = logging.getLogger("ludoteca")
    log.info("starting on %s:%d; data directory %s; database %s", host, port, settings.data_dir,
             redact(settings.resolved_database_url()))
    if not settings.operator_token:  # generated now, so the operator can read it at once
        settings.resolved_operator_token()
        log.info("operator token (for /metrics): the file %s",
                 settings.data_dir / "operator_token")
