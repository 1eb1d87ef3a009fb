"""Every benchmark in bench/ is runnable as ``python -m bench.<name> --help`` (what
bench/README.md tells a reader to try first): it imports and describes its options. The
benchmarks' figures are printed by running them, never asserted here."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RUNNABLE = sorted(p.stem for p in (ROOT / "bench").glob("*.py")
                  if "\ndef main(" in p.read_text())


def test_the_benchmarks_of_issue_22_are_there() -> None:
    assert {"actor", "load", "scale", "floor", "wsfloor"} <= set(RUNNABLE)


@pytest.mark.parametrize("name", RUNNABLE)
def test_a_benchmark_answers_help(name: str) -> None:
    done = subprocess.run([sys.executable, "-m", f"bench.{name}", "--help"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage:")
    assert f"bench.{name}" in done.stdout or name in done.stdout


def test_scale_repeat_summary_pairs_each_repeat_with_its_own_one_process() -> None:
    """``bench.scale --repeat``: medians over the repeats, and each repeat's ratio divided by
    the one-process rate of the same repeat (not by the median, nor the first)."""
    from bench.scale import repeat_summary

    lines = repeat_summary({"nginx": {1: [300.0, 400.0, 350.0], 2: [600.0, 640.0, 700.0],
                                      3: [800.0, 1200.0, 950.0]}})
    assert lines[0] == "over 3 repeats, 1 process, nginx: median 350 actions/s (300-400)"
    assert lines[1] == ("over 3 repeats, 2 processes, nginx: median 640 actions/s (600-700); "
                        "ratio of the medians 1.83x; each repeat's ratio 2.00x, 1.60x, 2.00x "
                        "(median 2.00x; 2 of 3 >= 1.8x)")
    assert lines[2].endswith("each repeat's ratio 2.67x, 3.00x, 2.71x (median 2.71x; "
                             "2 of 3 >= 2.7x)")
    # no one-process run: rates alone
    assert repeat_summary({"direct": {2: [500.0]}}) == [
        "over 1 repeat, 2 processes, direct: median 500 actions/s (500-500)"]


def test_actor_bench_counts_only_the_actions_between_its_pauses() -> None:
    """``bench.actor --pause-ms/--evict-mb``: a whole game is played with the loop asleep
    and the memory walked between actions; what is printed compares it with the hot run."""
    import argparse
    import asyncio
    import time

    from bench.actor import _walk, line, play

    memory = bytearray(b"\x01") * (1 << 20)
    _walk(memory)  # one byte written in every 64-byte cache line, and only that one
    assert memory[::64].count(0) == len(memory) // 64 == memory.count(0)
    began = time.process_time()
    actions, cpu = asyncio.run(play("hanabi", 2, 1, pause=0.002, evict=memory))
    spent = time.process_time() - began
    assert actions > 10
    # each action's own CPU only: the walks (and the set-up) are left out
    assert 0 < cpu < spent
    args = argparse.Namespace(game="hanabi", seats=2)
    text = line(args, (actions, cpu), "both", 0.002, 1, (actions, cpu / 2))
    assert text.startswith(f"both  hanabi x2: {actions} actions, ")
    assert text.endswith("; between two actions 2 ms asleep and 1 MiB walked; 2.00x hot")


def test_the_transport_floor_replays_recorded_messages_and_refuses_what_the_floor_refuses(
) -> None:
    """``bench.scale --modes transport`` (bench.wsfloor ``--replay``): a recorded game is
    every version's message for every seat, as the floor encodes them; the replay answers
    an action of the acting seat at the current version with the durable append, then the
    next version's messages, and a stale version or the wrong seat with an error and
    nothing else."""
    import asyncio

    import orjson

    from bench.wsfloor import Floor, Table, record

    recording = record("hanabi", 4, 1)
    assert len(recording) > 40  # games as long as the generators play (no early strikeout)
    for index, (to_act, texts) in enumerate(recording):
        assert sorted(texts) == [0, 1, 2, 3]
        for seat, text in texts.items():
            message = orjson.loads(text)
            assert message["version"] == index + 1 and message["seat"] == seat
            assert bool(message["legal_actions"]) == (seat in to_act)
    assert orjson.loads(recording[-1][1][0])["status"] == "finished"
    assert not recording[-1][0]

    class Socket:
        def __init__(self) -> None:
            self.sent: list[str] = []

        async def send(self, text: str) -> None:
            self.sent.append(text)

    class Writer:
        def __init__(self) -> None:
            self.rows: list[tuple[object, ...]] = []

        async def append(self, row: tuple[object, ...]) -> None:
            self.rows.append(row)

    async def scenario() -> None:
        writer = Writer()
        floor = Floor(writer, "hanabi", 4, [recording])  # type: ignore[arg-type]
        table = Table("t1", "hanabi", 4)
        sockets = {seat: Socket() for seat in range(4)}
        table.sockets = sockets  # type: ignore[assignment]
        floor.replaying[table.id], table.version = recording, 1
        actor = min(recording[0][0])
        other = (actor + 1) % 4
        action = orjson.loads(recording[0][1][actor])["legal_actions"][0]
        for seat, version in ((actor, 2), (other, 1)):  # stale, then not that seat's turn
            await floor.replay(table, seat, orjson.dumps({"action": action,
                                                          "version": version}))
            assert orjson.loads(sockets[seat].sent[-1]) == {"type": "error",
                                                            "code": "stale_version"}
        await floor.replay(table, actor, b"{not json")
        assert orjson.loads(sockets[actor].sent[-1])["code"] == "bad_message"
        assert writer.rows == [] and table.version == 1
        assert all(not s.sent for seat, s in sockets.items() if seat not in (actor, other))
        await floor.replay(table, actor, orjson.dumps({"action": action, "version": 1}))
        assert writer.rows == [("t1", 2, actor, orjson.dumps(action).decode())]
        assert table.version == 2
        assert {seat: s.sent[-1] for seat, s in sockets.items()} == recording[1][1]

    asyncio.run(scenario())


def test_the_rest_floors_commit_is_durable_before_it_answers(tmp_path: Path) -> None:
    """``bench.floor``'s write with one durable commit: each awaited insert is committed
    (another connection reads it at once), on a database set up as the server's (WAL,
    synchronous FULL)."""
    import asyncio
    import sqlite3

    from bench.floor import Committer

    committer = Committer(tmp_path / "floor.db")

    async def writes() -> None:
        for name in ("a", "b", "c"):
            await committer.insert(name)

    asyncio.run(writes())
    other = sqlite3.connect(tmp_path / "floor.db")
    assert [r for (r,) in other.execute("SELECT name FROM floor_rows ORDER BY id")] == [
        "a", "b", "c"]
    assert other.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    assert committer.thread.submit(
        lambda: committer.db.execute("PRAGMA synchronous").fetchone()).result() == (2,)
    other.close()
