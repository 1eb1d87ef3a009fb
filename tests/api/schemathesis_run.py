"""schemathesis against the OpenAPI schema, on a real server: every operation with generated
valid and invalid input, without a token and with one. No 500, only documented status codes,
bodies and headers as the schema says, invalid input refused.

Bounded: ``MAX_EXAMPLES`` per operation and mode (about a minute in all).

Run by ``test_schemathesis.py`` in a pytest of its own, without pytest-xdist: schemathesis
gives every operation's test one node id, and a run spread over workers keeps one test per
id, so all but one operation would go untested (and silently).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from app.main import create_app
from tests.support.server import LiveServer

MAX_EXAMPLES = 200

# the schema the server publishes, built in-process to parametrise the tests (the same app)
SCHEMA = schemathesis.openapi.from_dict(
    create_app("sqlite+aiosqlite:///:memory:", run_migrations=False).openapi())

# Every other built-in check runs. "Schema-valid input is accepted" cannot hold for this API:
# a table's options are checked against its game's catalogue, a name once trimmed and a seat
# against the table's size, which no JSON Schema says; those refusals are documented 400/422
# answers in ErrorOut form (and the checks below hold them to it).
NOT_APPLICABLE = [positive_data_acceptance]

SETTINGS = settings(max_examples=MAX_EXAMPLES, deadline=None, derandomize=True,
                    suppress_health_check=list(HealthCheck), database=None)


# (token?, operation, status) of every call made, for the figures in test-artifacts/
CALLS: Counter[tuple[bool, str, int]] = Counter()
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.fixture(scope="module")
def api_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """Limits relaxed so that generated calls go past them into every route."""
    tmp = tmp_path_factory.mktemp("schemathesis")
    live = LiveServer(f"sqlite+aiosqlite:///{tmp / 't.db'}", tmp / "data", env={
        "LUDOTECA_MAX_HOSTED_TABLES": "0", "LUDOTECA_TABLES_PER_MINUTE": "0",
        "LUDOTECA_TABLES_PER_MINUTE_PER_IP": "0", "LUDOTECA_PLAYERS_PER_MINUTE_PER_IP": "0"})
    live.start()
    yield live
    live.stop()


@pytest.fixture(scope="module")
def token(api_server: LiveServer) -> str:
    r = httpx.post(api_server.url + "/api/players", json={"name": "Schemathesis"}, timeout=10)
    return r.json()["token"]


def test_the_published_schema_is_the_one_tested(api_server: LiveServer) -> None:
    published = httpx.get(api_server.url + "/openapi.json", timeout=10).json()
    assert published["paths"].keys() == SCHEMA.raw_schema["paths"].keys()


@SCHEMA.parametrize()
@SETTINGS
def test_api_without_a_token(case, api_server: LiveServer) -> None:  # noqa: ANN001
    response = case.call_and_validate(base_url=api_server.url,
                                      excluded_checks=NOT_APPLICABLE)
    CALLS[False, case.operation.label, response.status_code] += 1


@SCHEMA.parametrize()
@SETTINGS
def test_api_with_a_token(case, api_server: LiveServer, token: str) -> None:  # noqa: ANN001
    response = case.call_and_validate(base_url=api_server.url,
                                      excluded_checks=NOT_APPLICABLE,
                                      headers={"Authorization": f"Bearer {token}"})
    CALLS[True, case.operation.label, response.status_code] += 1


def test_the_generated_calls_went_past_the_doors() -> None:
    """Figures of the runs above (when they ran in this session): many calls, and with a
    token the creating routes really created (the calls were not all refused at the door)."""
    if not CALLS:
        pytest.skip("the schemathesis runs did not run in this session")
    figures = {"calls": sum(CALLS.values()), "by_status": {}}
    for (_, _, status), count in CALLS.items():
        figures["by_status"][str(status)] = figures["by_status"].get(str(status), 0) + count
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "schemathesis.json").write_text(json.dumps(
        {**figures, "calls_by_operation": {f"{'token' if t else 'anonymous'} {op} {st}": n
                                           for (t, op, st), n in sorted(CALLS.items())}},
        indent=1))
    assert not any(status >= 500 for (_, _, status) in CALLS)
    assert CALLS[True, "POST /api/tables", 201] and CALLS[True, "POST /api/players", 201]
    assert any(t is False and status == 401 for (t, _, status) in CALLS)
