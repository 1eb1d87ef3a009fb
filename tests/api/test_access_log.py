"""The access log's redaction (app/api/security.py RedactSecrets) looks for what its pattern
needs before running it: every path it leaves alone is one the pattern would leave alone."""

from __future__ import annotations

import logging

import pytest

from app.api.security import RedactSecrets

PATHS = [
    "/api/tables/abc", "/api/tables/abc/join", "/api/tables", "/api/players/me",
    "/join/secret-invite", "/join/secret-invite?x=1", "/handoff/nonce.123.mac",
    "/watch/tbl/secret-key", "/watch/tbl/secret-key?seat=1", "/screen/tbl/secret-key",
    "/ws/tables/tbl?invite=secret-invite", "/ws/tables/tbl?seat=1&invite=secret-invite",
    "/ws/tables/tbl?watch=secret-key", "/api/tables/tbl?token=secret-token",
    "/api/tables?game=x&token=secret-token", "/tables/abc?lang=es", "/static/app.js",
    "/watch/", "/join/", "/api/tables?status=waiting",
]


@pytest.mark.parametrize("path", PATHS)
def test_each_path_is_cut_as_the_pattern_cuts_it(path: str) -> None:
    record = logging.LogRecord("uvicorn.access", logging.INFO, "", 0,
                               '%s - "%s %s HTTP/%s" %d',
                               ("127.0.0.1:5000", "GET", path, "1.1", 200), None)
    RedactSecrets().filter(record)
    assert record.args == ("127.0.0.1:5000", "GET", RedactSecrets.PATTERN.sub(r"\1…", path),
                           "1.1", 200)
    assert "secret" not in str(record.args)
