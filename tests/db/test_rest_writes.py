"""The REST side of the repository on a real SQLite database: a bearer token's player
remembered by one process (and forgotten the moment its name changes), new players and
tables' rows written in shared commits (on SQLite the chat lines waiting meanwhile with
them), a fenced write refused alone."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime

import pytest
from sqlalchemy import event, text
from sqlalchemy.exc import IntegrityError

from app.db.models import GameTable
from app.db.repository import Repository, StaleOwner, now
from app.db.session import make_engine, make_sessionmaker, migrate

pytestmark = pytest.mark.asyncio


async def make_repo(tmp_path, cache: bool = True) -> Repository:
    url = f"sqlite+aiosqlite:///{tmp_path / 'r.db'}"
    await asyncio.to_thread(migrate, url)
    return Repository(make_sessionmaker(make_engine(url)), cache_identities=cache)


async def done(repo: Repository) -> None:
    await repo.close()
    await repo.engine.dispose()


def table(i: int) -> GameTable:
    return GameTable(id=f"t{i}", game="hanabi", seat_count=4, options={"a": 1}, private=False,
                     invite_token=f"inv{i}", host_id="p0", status="waiting", seed=7,
                     version=1, created_at=now())


async def repo_with_table(tmp_path, guest: bool = False) -> Repository:
    """A repository with the host p0 (and the guest p1) and their table t0."""
    repo = await make_repo(tmp_path)
    await repo.create_player("p0", "Host", "tok-0")
    if guest:
        await repo.create_player("p1", "Ana", "tok-1")
    await repo.create_table(table(0), host_seat=0)
    return repo


@pytest.fixture
def lingering(monkeypatch) -> None:
    """System lines linger in the chat writer for 30 s: never on their own, in a test."""
    from app.db import chat_writer

    monkeypatch.setattr(chat_writer, "LINGER", 30.0)


async def test_a_token_is_remembered_and_a_rename_is_seen_at_once(tmp_path) -> None:
    repo = await make_repo(tmp_path)
    await repo.create_player("p1", "Ana", "tok-1")
    first = await repo.player_by_token("tok-1")
    assert first is not None and (first.id, first.name, first.bot) == ("p1", "Ana", False)
    assert await repo.player_by_token("tok-1") is first  # from memory
    assert await repo.player_by_token("nobody's") is None
    await repo.rename_player("p1", "Bea")
    again = await repo.player_by_token("tok-1")
    assert again is not None and again.name == "Bea"
    await done(repo)


async def test_a_look_up_that_read_before_a_rename_is_not_remembered(tmp_path) -> None:
    repo = await make_repo(tmp_path)
    player = await repo.create_player("p1", "Ana", "tok-1")
    cache = repo.identities
    assert cache is not None
    cache.by_hash.clear()
    started = cache.generation  # a look-up reads the row ("Ana")...
    await repo.rename_player("p1", "Bea")  # ...the name changes meanwhile...
    cache.put(player.token_hash, player, started)  # ...what it read is not kept
    assert cache.by_hash == {}
    seen = await repo.player_by_token("tok-1")
    assert seen is not None and seen.name == "Bea"
    await done(repo)


async def test_without_the_cache_every_look_up_reads_the_database(tmp_path) -> None:
    # a cluster's processes: a rename made by another process (another repository on the
    # same database here) is seen by the next call
    repo = await make_repo(tmp_path, cache=False)
    other = Repository(make_sessionmaker(repo.engine))
    await repo.create_player("p1", "Ana", "tok-1")
    assert (await repo.player_by_token("tok-1")).name == "Ana"
    await other.rename_player("p1", "Bea")
    assert (await repo.player_by_token("tok-1")).name == "Bea"
    await other.close()
    await done(repo)


async def test_the_cache_is_bounded(tmp_path) -> None:
    repo = await make_repo(tmp_path)
    assert repo.identities is not None
    repo.identities.limit = 10
    for i in range(25):
        await repo.create_player(f"p{i}", "N", f"tok-{i}")
    assert len(repo.identities.by_hash) <= 10
    assert (await repo.player_by_token("tok-0")).id == "p0"  # dropped, read again
    await done(repo)


async def test_players_and_tables_created_at_once_are_all_stored(tmp_path) -> None:
    repo = await make_repo(tmp_path)
    await asyncio.gather(*(repo.create_player(f"p{i}", f"N{i}", f"tok-{i}") for i in range(30)))
    assert repo.player_writer is not None
    stored = await repo.players_by_id([f"p{i}" for i in range(30)])
    assert sorted(stored) == sorted(f"p{i}" for i in range(30))
    await asyncio.gather(*(repo.create_table(table(i), host_seat=0) for i in range(20)))
    await asyncio.gather(*(repo.save_seats(f"t{i}", ["p0", f"p{i + 1}", None, "p29"], "p0", 3,
                                           epoch=0) for i in range(20)))
    row = await repo.table("t7")
    assert row is not None and row.version == 3 and row.options == {"a": 1}
    assert [(s.seat, s.player_id) for s in row.seats] == [(0, "p0"), (1, "p8"), (3, "p29")]
    await done(repo)


async def test_a_fenced_write_fails_alone_in_a_shared_commit(tmp_path) -> None:
    repo = await make_repo(tmp_path)
    await repo.create_player("p0", "Host", "tok-0")
    await asyncio.gather(*(repo.create_table(table(i), host_seat=0) for i in range(3)))
    results = await asyncio.gather(
        repo.set_status("t0", "playing", 2, epoch=0),
        repo.set_status("t1", "playing", 2, epoch=5),  # another process owns it now
        repo.save_seats("t2", ["p0", "nobody"], "p0", 2, epoch=0),  # no such player
        repo.set_status("t2", "playing", 3, epoch=0),
        return_exceptions=True)
    assert results[0] is None and results[3] is None
    assert isinstance(results[1], StaleOwner)
    assert isinstance(results[2], Exception)  # the foreign key: refused, nothing written
    assert (await repo.table("t0")).status == "playing"
    assert (await repo.table("t1")).status == "waiting"
    t2 = await repo.table("t2")
    assert t2.status == "playing" and [s.player_id for s in t2.seats] == ["p0"]
    await done(repo)


# ------------------------------------------------------------- SQLite: a batch in one hop

AT = datetime(2026, 5, 4, 3, 2, 1, 123456, tzinfo=UTC)


def count_commits(repo: Repository) -> list[int]:
    """Every transaction committed on the repository's engine, counted (SQLAlchemy's own
    ``commit`` event)."""
    commits = [0]

    def counted(_conn: object) -> None:
        commits[0] += 1
    event.listen(repo.engine.sync_engine, "commit", counted)
    return commits


async def test_sqlite_writes_made_together_share_one_commit(tmp_path) -> None:
    repo = await make_repo(tmp_path)
    await repo.create_player("p0", "Host", "tok-0")
    await asyncio.gather(*(repo.create_table(table(i), host_seat=0) for i in range(20)))
    commits = count_commits(repo)
    await asyncio.gather(*(repo.create_player(f"q{i}", f"Q{i}", f"tq-{i}") for i in range(20)))
    assert commits[0] == 1  # twenty players: their inserts in one transaction
    commits[0] = 0
    await asyncio.gather(*(repo.save_seats(f"t{i}", ["p0", f"q{i}"], "p0", 2, epoch=0)
                           for i in range(20)))
    assert commits[0] == 1  # twenty tables' update, delete and insert, and the commit
    commits[0] = 0
    await asyncio.gather(*(repo.queue_chat_line(f"t{i}", 1, at=AT, kind="system", seat=1,
                                                player_id=None, name="", text=None,
                                                code="joined", params={"name": f"Q{i}"})
                           for i in range(20)))
    assert commits[0] == 1
    for i in (0, 19):
        row = await repo.table(f"t{i}")
        assert row is not None and row.version == 2
        assert [(s.seat, s.player_id) for s in row.seats] == [(0, "p0"), (1, f"q{i}")]
        assert [(c.seq, c.code, c.params) for c in await repo.chat_lines(f"t{i}")] == [
            (1, "joined", {"name": f"Q{i}"})]
    await done(repo)


def dump(path) -> dict[str, list[tuple]]:
    db = sqlite3.connect(path)
    try:
        return {name: db.execute(f"SELECT * FROM {name} ORDER BY 1, 2").fetchall()
                for name in ("players", "tables", "table_seats", "chat_lines")}
    finally:
        db.close()


async def fill(repo: Repository) -> None:
    """The same writes, whichever way they are made."""
    await repo.player_writer.append({"id": "p0", "name": "Ána", "token_hash": "h0",
                                     "created_at": AT, "bot": False})
    await repo.player_writer.append({"id": "p1", "name": "Bot", "token_hash": "h1",
                                     "created_at": AT})  # bot: left to its default
    t = table(0)
    t.created_at = AT
    t.options = {"clues": 8, "variant": "ñ", "list": [1, None]}
    await repo.create_table(t, host_seat=2)
    left_out = table(1)  # outcome, position... left out: NULL
    left_out.created_at = AT
    await repo.create_table(left_out, host_seat=0)
    # the registry's way: the columns' values, the unset ones None (left to their defaults)
    as_dict = {c.key: getattr(left_out, c.key) for c in GameTable.__table__.columns}
    as_dict.update(id="t2", invite_token="inv2")
    await repo.create_table(as_dict, host_seat=0)
    await repo.save_seats("t0", [None, "p1", "p0"], "p0", 2, epoch=0)
    await repo.set_status("t0", "finished", 9, epoch=0, started_at=AT, finished_at=AT,
                          outcome={"score": 25, "why": None})
    await repo.queue_chat_line("t0", 1, at=AT, kind="system", seat=1, player_id=None,
                               name="", text=None, code="joined", params={"name": "Bot"})
    await repo.queue_chat_line("t0", 2, at=AT, kind="player", seat=2, player_id="p0",
                               name="Ána", text="hola \"😀\"", code=None, params=None)


async def test_a_row_given_as_values_is_stored_as_the_same_row_given_as_an_instance(
        tmp_path) -> None:
    repo = await make_repo(tmp_path)
    await fill(repo)
    await done(repo)
    stored = dump(tmp_path / "r.db")
    assert len(stored["players"]) == 2 and len(stored["chat_lines"]) == 2
    columns = [c.name for c in GameTable.__table__.columns]  # SELECT *'s order
    t1, t2 = (dict(zip(columns, row, strict=True)) for row in stored["tables"]
              if row[0] in ("t1", "t2"))
    assert {k for k in columns if t1[k] != t2[k]} == {"id", "invite_token"}
    db = sqlite3.connect(tmp_path / "r.db")
    try:  # a JSON column left out is SQL NULL, not JSON null
        assert db.execute("SELECT outcome IS NULL, position IS NULL FROM tables "
                          "WHERE id = 't1'").fetchone() == (1, 1)
    finally:
        db.close()


async def test_batched_writes_are_there_after_a_restart(tmp_path) -> None:
    repo = await make_repo(tmp_path)
    await fill(repo)
    await repo.create_player("p2", "Cy", "tok-2")
    await done(repo)
    again = await make_repo(tmp_path)  # a new process on the same file
    player = await again.player_by_token("tok-2")
    assert player is not None and (player.id, player.name) == ("p2", "Cy")
    players = await again.players_by_id(["p0", "p1"])
    assert players["p1"].bot is False and players["p0"].created_at == AT
    row = await again.table("t0")
    assert row is not None and (row.status, row.version, row.started_at) == ("finished", 9, AT)
    assert row.outcome == {"score": 25, "why": None} and row.options["variant"] == "ñ"
    assert [(s.seat, s.player_id) for s in row.seats] == [(1, "p1"), (2, "p0")]
    assert [c.text for c in await again.chat_lines("t0")] == [None, "hola \"😀\""]
    await done(again)


async def test_a_failing_write_in_a_batch_fails_alone(tmp_path) -> None:
    repo = await make_repo(tmp_path)
    await repo.create_player("p0", "Host", "tok-0")
    results = await asyncio.gather(
        repo.create_player("p1", "Ana", "tok-1"),
        repo.create_player("p0", "Twin", "tok-x"),  # that id is taken
        repo.create_player("p2", "Bea", "tok-2"),
        return_exceptions=True)
    assert isinstance(results[1], IntegrityError)  # SQLAlchemy's error, as before
    assert [p.name for p in results if not isinstance(p, BaseException)] == ["Ana", "Bea"]
    stored = await repo.players_by_id(["p0", "p1", "p2"])
    assert {k: p.name for k, p in stored.items()} == {"p0": "Host", "p1": "Ana", "p2": "Bea"}
    assert await repo.player_by_token("tok-x") is None
    await done(repo)


async def test_a_connection_given_back_mid_transaction_is_rolled_back(tmp_path) -> None:
    repo = await make_repo(tmp_path)
    async with repo.engine.connect() as conn:  # SQLAlchemy began a transaction: rolled back
        await conn.execute(text("INSERT INTO players (id, name, token_hash, created_at, bot) "
                                "VALUES ('x', 'X', 'hx', '2026-01-01 00:00:00', 0)"))
    async with repo.engine.connect() as conn:  # behind SQLAlchemy's back: the pool's reset
        driver = (await conn.get_raw_connection()).driver_connection
        await driver.execute("INSERT INTO players (id, name, token_hash, created_at, bot) "
                             "VALUES ('y', 'Y', 'hy', '2026-01-01 00:00:00', 0)")
        assert driver.in_transaction
    await repo.create_player("p1", "Ana", "tok-1")  # commits on that same connection
    assert sorted(await repo.players_by_id(["x", "y", "p1"])) == ["p1"]
    await done(repo)


def system_line(repo: Repository, seq: int) -> asyncio.Future[None]:
    return repo.queue_chat_line("t0", seq, at=AT, kind="system", seat=1, player_id=None,
                                name="", text=None, code="joined", params={"name": "Bea"})


@pytest.mark.usefixtures("lingering")
async def test_system_lines_wait_for_company_and_a_message_is_stored_at_once(
        tmp_path) -> None:
    repo = await repo_with_table(tmp_path)
    lines = [system_line(repo, 1)]
    for seq in (2, 3):
        await asyncio.sleep(0.01)  # the writer has taken the first line: it lingers
        lines.append(system_line(repo, seq))
    assert not any(line.done() for line in lines) and repo.chat_writer.batches == 0
    message = repo.queue_chat_line("t0", 4, at=AT, kind="player", seat=0, player_id="p0",
                                   name="Host", text="hola", code=None, params=None)
    await asyncio.wait_for(message, 10)  # a message ends the wait: stored with the others
    await asyncio.gather(*lines)
    assert repo.chat_writer.batches == 1 and repo.chat_writer.lines == 4
    assert [c.seq for c in await repo.chat_lines("t0")] == [1, 2, 3, 4]
    await done(repo)


@pytest.mark.usefixtures("lingering")
async def test_lingering_system_lines_are_stored_by_a_shutdown(tmp_path) -> None:
    repo = await repo_with_table(tmp_path)
    first = system_line(repo, 1)
    await asyncio.sleep(0.01)  # lingering
    second = system_line(repo, 2)  # still queued
    await asyncio.wait_for(done(repo), 10)
    assert first.done() and second.done() and first.exception() is None
    again = await make_repo(tmp_path)
    assert [c.seq for c in await again.chat_lines("t0")] == [1, 2]
    await done(again)


@pytest.mark.usefixtures("lingering")
async def test_waiting_system_lines_share_a_table_writes_commit(tmp_path) -> None:
    repo = await repo_with_table(tmp_path, guest=True)
    lines = [system_line(repo, 1)]
    await asyncio.sleep(0.01)  # the chat writer has taken it: it lingers
    lines.append(system_line(repo, 2))  # and this one is queued behind it
    assert not any(line.done() for line in lines)
    # a seat write (a join) stores them in its own transaction: no commit of their own
    await asyncio.wait_for(repo.save_seats("t0", ["p0", "p1", None, None], "p0", 2), 10)
    assert all(line.done() and line.exception() is None for line in lines)
    assert repo.chat_writer.batches == 0 and repo.chat_writer.lines == 2
    assert [c.seq for c in await repo.chat_lines("t0")] == [1, 2]
    # the chat writer, woken later, finds nothing left to store (and stores no line twice)
    repo.chat_writer._end_linger()
    await asyncio.sleep(0.05)
    assert repo.chat_writer.batches == 0 and repo.chat_writer._task is not None \
        and not repo.chat_writer._task.done()
    lines.append(system_line(repo, 3))  # later lines are the chat writer's again
    await asyncio.sleep(0.01)  # (taken: lingering)
    repo.chat_writer._end_linger()
    await asyncio.wait_for(lines[-1], 10)
    assert repo.chat_writer.batches == 1 and repo.chat_writer.lines == 3
    assert [c.seq for c in await repo.chat_lines("t0")] == [1, 2, 3]
    await done(repo)


@pytest.mark.usefixtures("lingering")
async def test_lines_riding_a_failed_table_write_are_stored_by_their_own_writer(
        tmp_path) -> None:
    repo = await repo_with_table(tmp_path)
    line = system_line(repo, 1)
    await asyncio.sleep(0.01)  # lingering
    with pytest.raises(IntegrityError):  # that table id is taken: the transaction fails
        await asyncio.wait_for(repo.create_table(table(0), host_seat=0), 10)
    # the line went back to the chat writer, which stores it (a system line: it had been
    # lingering; a failed table write must not cost it its place)
    repo.chat_writer._end_linger()
    await asyncio.wait_for(line, 10)
    assert repo.chat_writer.batches == 1 and repo.chat_writer.lines == 1
    assert [c.seq for c in await repo.chat_lines("t0")] == [1]
    # a fenced write refused alone still stores the lines riding with it
    second = system_line(repo, 2)
    await asyncio.sleep(0.01)
    with pytest.raises(StaleOwner):
        await asyncio.wait_for(repo.set_status("t0", "playing", 2, epoch=99), 10)
    assert second.done() and second.exception() is None
    assert [c.seq for c in await repo.chat_lines("t0")] == [1, 2]
    await done(repo)


# ---------------------------------------------- a seat write's own system line (a join's)


def joined_row(seq: int, name: str = "Ana"):  # noqa: ANN201
    from app.db.repository import chat_row

    return chat_row("t0", seq, at=AT, kind="system", seat=1, player_id=None, name="",
                    text=None, code="joined", params={"name": name})


async def test_a_seat_writes_own_line_is_stored_by_its_commit_and_survives_a_restart(
        tmp_path) -> None:
    repo = await repo_with_table(tmp_path, guest=True)
    await asyncio.wait_for(repo.save_seats("t0", ["p0", "p1", None, None], "p0", 2, epoch=0,
                                           chat=[joined_row(1)]), 10)
    # stored when the seat write returns, by its own transaction: no chat commit
    assert repo.chat_writer.batches == 0 and repo.chat_writer.lines == 1
    await done(repo)
    again = await make_repo(tmp_path)  # a new process on the same file
    lines = await again.chat_lines("t0")
    assert [(c.seq, c.kind, c.code, c.params, c.created_at) for c in lines] == [
        (1, "system", "joined", {"name": "Ana"}, AT)]
    row = await again.table("t0")
    assert row is not None and [s.player_id for s in row.seats] == ["p0", "p1"]
    await done(again)


async def test_a_refused_seat_write_stores_none_of_its_lines(tmp_path) -> None:
    repo = await repo_with_table(tmp_path, guest=True)
    results = await asyncio.gather(
        repo.save_seats("t0", ["p0", "p1"], "p0", 2, epoch=7, chat=[joined_row(1)]),  # fenced
        repo.save_seats("t0", ["p0", "nobody"], "p0", 2, epoch=0,  # no such player
                        chat=[joined_row(2, "Nobody")]),
        repo.save_seats("t0", ["p0", None, "p1"], "p0", 3, epoch=0, chat=[joined_row(3)]),
        return_exceptions=True)
    assert isinstance(results[0], StaleOwner) and isinstance(results[1], Exception)
    assert results[2] is None
    assert [c.seq for c in await repo.chat_lines("t0")] == [3]
    assert repo.chat_writer.lines == 1
    row = await repo.table("t0")
    assert row is not None and row.version == 3
    assert [(s.seat, s.player_id) for s in row.seats] == [(0, "p0"), (2, "p1")]
    await done(repo)


# ------------------------------------- SQLite's one connection: waited for, and connected again

async def test_a_write_waits_while_the_connection_is_held(tmp_path) -> None:
    repo = await make_repo(tmp_path)
    await repo.create_player("p0", "Host", "tok-0")
    async with repo.engine.connect() as conn:  # a session's reads hold the only connection
        await conn.execute(text("SELECT 1"))
        pending = asyncio.ensure_future(repo.create_player("p1", "Ana", "tok-1"))
        await asyncio.sleep(0.1)
        assert not pending.done()  # waiting for the connection, not beside it
    assert (await pending).name == "Ana"
    assert repo.engine.sync_engine.pool.checkedout() == 0
    stored = await repo.players_by_id(["p0", "p1"])
    assert sorted(stored) == ["p0", "p1"]
    await done(repo)


async def test_a_write_after_the_connection_was_invalidated_connects_again(tmp_path) -> None:
    repo = await make_repo(tmp_path)
    await repo.create_player("p0", "Host", "tok-0")
    async with repo.engine.connect() as conn:
        await conn.invalidate()  # as after a disconnect: the pool must connect anew
    await repo.create_player("p1", "Ana", "tok-1")
    await repo.create_player("p2", "Bea", "tok-2")
    stored = await repo.players_by_id(["p0", "p1", "p2"])
    assert sorted(stored) == ["p0", "p1", "p2"]
    await done(repo)
