"""A table's clock: none, a per-turn limit, or a chess clock with an increment.

Pure bookkeeping on a number line of seconds (the actor's clock while it runs, the stored
actions' times when a table is rebuilt after a restart), so tests drive it without sleeping.
After every change the table core updates a copy (``copy().update(...)``: a table's state is
never changed in place) with the seats the game waits for; ``wakeups`` asks for a wake-up at
:meth:`next_due`, and each wake-up plays the game's timeout move for the first seat in
:meth:`due` (stored with source ``"timeout"``; one per wake-up, so other commands go in
between).

- ``turn``: each seat has ``turn_seconds`` from when it became due to act until it is not.
  Engines with a ``turn_marker`` (simultaneous turns) share one deadline per turn, so
  changing one's mind does not buy time.
- ``chess``: each seat has a bank (``bank_seconds``) that runs down while the game waits for
  that seat, and ``increment_seconds`` added when its turn ends (once per turn for engines
  with a ``turn_marker``, so picking and unpicking earns nothing). At zero the timeout move
  is played; the seat then has its increment for each later turn (with no increment, its
  remaining turns are played automatically as they come).

Seats answering a timed window (Allegra's knock) are left to the window's own deadline.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

MODES = ("none", "turn", "chess")


class TableClock:
    def __init__(self, mode: str, seats: int, turn_seconds: int = 0, bank_seconds: int = 600,
                 increment_seconds: int = 0) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown clock mode {mode!r}")
        self.mode = mode
        self.turn_seconds = turn_seconds
        self.bank_seconds = bank_seconds
        self.increment = increment_seconds
        self.banks = [float(bank_seconds)] * seats
        self.running: set[int] = set()
        self.since = 0.0
        self.deadlines: dict[int, float] = {}  # seat -> time it runs out
        self._marker: Any = None
        self._turn_deadline = 0.0
        self._paid: set[int] = set()  # seats given this turn's increment already

    @classmethod
    def from_options(cls, options: Mapping[str, Any], seats: int) -> TableClock:
        turn = int(options.get("turn_seconds") or 0)
        mode = options.get("clock") or ("turn" if turn > 0 else "none")
        return cls(mode, seats, turn, int(options.get("bank_seconds", 600)),
                   int(options.get("increment_seconds", 0)))

    def copy(self) -> TableClock:
        new = TableClock.__new__(TableClock)
        new.__dict__.update(self.__dict__)
        new.banks, new.running = list(self.banks), set(self.running)
        new.deadlines, new._paid = dict(self.deadlines), set(self._paid)
        return new

    # ------------------------------------------------------------------ the clock runs

    def update(self, now: float, waiting: set[int], marker: Any = None,
               has_marker: bool = False) -> None:
        """The game now waits for ``waiting`` (as of ``now``); ``marker`` is the engine's
        turn marker when it has one."""
        if self.mode == "turn":
            self._update_turn(now, waiting, marker, has_marker)
        elif self.mode == "chess":
            self._update_chess(now, waiting, marker, has_marker)

    def stop(self, now: float) -> None:
        """The game is over (or not started): nothing runs."""
        if self.mode == "chess":
            self._settle(now)
        self.running = set()
        self.deadlines = {}

    def rebase(self, now: float) -> None:
        """Carry on from ``now`` on another clock (after a restart): the running seats keep
        what they had left at the last stored action; the downtime is not charged."""
        if self.mode == "chess":
            self.since = now
            self.deadlines = {s: now + self.banks[s] for s in self.running}
        elif self.mode == "turn":
            self._turn_deadline = now + self.turn_seconds
            self.deadlines = {s: now + self.turn_seconds for s in self.running}

    def _update_turn(self, now: float, waiting: set[int], marker: Any,
                     has_marker: bool) -> None:
        limit = self.turn_seconds
        if has_marker:
            if marker != self._marker:
                self._marker, self._turn_deadline = marker, now + limit
            self.deadlines = {s: self._turn_deadline for s in waiting}
        else:
            self.deadlines = {s: self.deadlines.get(s, now + limit) for s in waiting}
        self.running = set(waiting)

    def _settle(self, now: float) -> None:
        spent = max(0.0, now - self.since)
        for s in self.running:
            self.banks[s] = max(0.0, self.banks[s] - spent)
        self.since = now

    def _update_chess(self, now: float, waiting: set[int], marker: Any,
                      has_marker: bool) -> None:
        self._settle(now)
        if has_marker and marker != self._marker:
            self._marker, self._paid = marker, set()
        for s in self.running - waiting:  # their turn ended: the increment
            if s not in self._paid:
                self.banks[s] += self.increment
                if has_marker:
                    self._paid.add(s)
        self.running = set(waiting)
        self.deadlines = {s: now + self.banks[s] for s in self.running}

    # ------------------------------------------------------------------ reading it

    def next_due(self) -> float | None:
        return min(self.deadlines.values()) if self.deadlines else None

    def due(self, now: float) -> list[int]:
        return sorted(s for s, at in self.deadlines.items() if at <= now)

    def remaining(self, now: float) -> dict[int, float]:
        return {s: max(0.0, at - now) for s, at in self.deadlines.items()}

    def to_json(self, now: float) -> dict[str, Any]:
        """What clients show: seconds left for each seat the clock presses, and in chess
        mode every seat's bank."""
        if self.mode == "none":
            return {"mode": "none", "running": [], "remaining": {}}
        out: dict[str, Any] = {"mode": self.mode,
                               "running": sorted(self.running) if self.mode != "none" else [],
                               "remaining": {str(s): round(v, 1)
                                             for s, v in self.remaining(now).items()}}
        if self.mode == "turn":
            out["turn_seconds"] = self.turn_seconds
        elif self.mode == "chess":
            banks = list(self.banks)
            for s in self.running:
                banks[s] = max(0.0, banks[s] - max(0.0, now - self.since))
            out.update(bank_seconds=self.bank_seconds, increment_seconds=self.increment,
                       banks=[round(b, 1) for b in banks])
        return out
