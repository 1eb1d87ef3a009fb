"""The conformance suite every engine must pass (see ARCHITECTURE.md, Tests).

Random legal playouts over many seeds, checking after every step:

- termination within a bound, and that the game over state has no one to act;
- legality: every listed legal action is accepted; a seat not to act, an unknown action
  type and junk are rejected with ``IllegalAction``; a rejected action changes nothing;
- purity: ``apply`` never mutates its input;
- determinism: the same seed and actions give the same state;
- ``load(dump(s)) == s`` and the dump survives JSON;
- card conservation (when the engine has ``all_cards``);
- timed windows (engines with ``window``): the seats a window waits for are in ``to_act``;
  playouts close open windows at random, as the actor does at a deadline (a
  ``SYSTEM_SEAT`` action through ``apply_any``), and everything above holds for those too;
- no leaks: ``view(s, seat)`` is unchanged when everything hidden from ``seat`` is re-dealt
  (``engine.scramble``), and the events ``seat`` receives tell it nothing its next view
  does not (checked by applying the same action in the re-dealt world).

Branches (:func:`check_branches`: playing on from a moment of a finished game), at many
steps of a game: ``redeal_unknown`` leaves every seat's view and legal actions (and the
spectator's view) as they were and does not touch its input; it forgets what it re-deals
(re-dealing a re-dealt state gives what re-dealing the original gives, so nothing of the
original's future survives); for some seed the original's future actions no longer give
the original's views (what was re-dealt differs); and a random game played on from a
re-dealt position reaches its end with every check above.

Use :func:`run_conformance` from a game's own tests, or rely on ``test_conformance.py``,
which runs it over every registered engine.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from app.games.base import CLOSE_WINDOW, SYSTEM_SEAT, Engine, IllegalAction, Rng, event_for
from app.tables.engine import apply_any, open_window

MAX_STEPS = 5000


def _json_round_trip(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _check_no_leak(engine: Engine, state: Any, seat: int | None, rng: Rng) -> None:
    scramble = getattr(engine, "scramble", None)
    if scramble is None:
        return
    other = scramble(state, seat, rng)
    assert engine.view(state, seat) == engine.view(other, seat), (
        f"{engine.id}: view for seat {seat} depends on something hidden from it"
    )
    if seat is not None:
        assert sorted(map(repr, engine.legal_actions(state, seat))) == sorted(
            map(repr, engine.legal_actions(other, seat))
        ), f"{engine.id}: legal actions of {seat} leak"


def _check_event_leak(engine: Engine, state: Any, actor: int, action: Any,
                      events: list, after: Any, rng: Rng) -> None:
    """Events an observer sees must be fixed by what its next view shows."""
    scramble = getattr(engine, "scramble", None)
    if scramble is None:
        return
    observers: list[int | None] = [None, *range(_seat_count(engine, state))]
    for seat in observers:
        other = scramble(state, seat, rng)
        try:
            other_after, other_events = apply_any(engine, other, actor, action)
        except IllegalAction:
            continue  # legality hinged on something hidden from this observer; fine
        if engine.view(after, seat) != engine.view(other_after, seat):
            continue  # the action revealed something to this observer; events may too
        assert event_for(events, seat) == event_for(other_events, seat), (
            f"{engine.id}: events for {seat} after {action} reveal hidden information"
        )


def _seat_count(engine: Engine, state: Any) -> int:
    return int(engine.dump(state)["seats"])


def playout(engine: Engine, seats: int, options: dict, seed: int,
            choose_seed: int | None = None, deep_checks: bool = True,
            start: Any = None) -> tuple[Any, list]:
    """Play one random game to the end with every check on; return (final state, log).
    ``start``: play on from this state instead of the set-up (a branch)."""
    chooser = random.Random(choose_seed if choose_seed is not None else seed)
    check_rng = Rng.from_seed(seed ^ 0x5EED)
    state = engine.setup(seats, options, seed) if start is None else start
    initial_cards = Counter(engine.all_cards(state)) if hasattr(engine, "all_cards") else None
    log: list[tuple[int, Any]] = []
    for _step in range(MAX_STEPS):
        dumped = engine.dump(state)
        assert int(dumped["seats"]) == seats
        assert engine.load(dumped) == state, f"{engine.id}: load(dump(s)) != s"
        assert engine.load(_json_round_trip(dumped)) == state, f"{engine.id}: dump not JSON-safe"
        for seat in [None, *range(seats)]:
            _json_round_trip(engine.view(state, seat))
            if deep_checks:
                _check_no_leak(engine, state, seat, check_rng)
        if initial_cards is not None:
            assert Counter(engine.all_cards(state)) == initial_cards, "cards not conserved"

        acting = engine.to_act(state)
        window = open_window(engine, state)
        if window is not None:
            assert engine.outcome(state) is None, f"{engine.id}: a window open after the end"
            assert window.seats <= acting, f"{engine.id}: window seats not in to_act"
            if not acting or chooser.random() < 0.3:  # the deadline passes
                close = {"type": CLOSE_WINDOW, "window": window.id}
                new_state, events = apply_any(engine, state, SYSTEM_SEAT, close)
                assert engine.dump(state) == dumped, f"{engine.id}: close mutated its input"
                assert open_window(engine, new_state) is None or \
                    open_window(engine, new_state).id != window.id, "window still open"
                if deep_checks:
                    _check_event_leak(engine, state, SYSTEM_SEAT, close, events, new_state,
                                      check_rng)
                log.append((SYSTEM_SEAT, close))
                state = new_state
                continue
        if engine.outcome(state) is not None:
            assert not acting, f"{engine.id}: seats to act after the end"
            for seat in range(seats):
                assert engine.legal_actions(state, seat) == []
            return state, log
        assert acting, f"{engine.id}: nobody to act but no outcome"

        idle = [s for s in range(seats) if s not in acting]
        for seat in idle:
            assert engine.legal_actions(state, seat) == []
        if idle:
            probe = engine.legal_actions(state, next(iter(acting)))[0]
            _expect_illegal(engine, state, chooser.choice(idle), probe)
        seat = chooser.choice(sorted(acting))
        legal = engine.legal_actions(state, seat)
        assert legal, f"{engine.id}: seat {seat} to act with no legal action"
        for junk in ({"type": "no-such-action"}, {}, {"type": legal[0].get("type"), "x": []}):
            if junk not in legal:
                _expect_illegal(engine, state, seat, junk)
        action = chooser.choice(legal)
        _json_round_trip(action)
        new_state, events = engine.apply(state, seat, _json_round_trip(action))
        assert engine.dump(state) == dumped, f"{engine.id}: apply mutated its input"
        for event in events:
            for observer in [None, *range(seats)]:
                shown = event.for_seat(observer)
                if shown is not None:
                    _json_round_trip(shown)
        if deep_checks:
            _check_event_leak(engine, state, seat, _json_round_trip(action), events,
                              new_state, check_rng)
        log.append((seat, action))
        state = new_state
    raise AssertionError(f"{engine.id}: no end after {MAX_STEPS} steps")


def _expect_illegal(engine: Engine, state: Any, seat: int, action: Any) -> None:
    before = engine.dump(state)
    try:
        engine.apply(state, seat, action)
    except IllegalAction as exc:
        assert exc.code and exc.message
    else:
        raise AssertionError(f"{engine.id}: seat {seat} could play {action!r}")
    assert engine.dump(state) == before


def replay(engine: Engine, seats: int, options: dict, seed: int, log: list) -> Any:
    state = engine.setup(seats, options, seed)
    for seat, action in log:
        state, _ = apply_any(engine, state, seat, action)
    return state


def run_conformance(engine: Engine, seats: int, options: dict, seeds: range,
                    deep_every: int = 1) -> None:
    """Random playouts for each seed with every check; ``deep_every`` thins the leak checks."""
    for i, seed in enumerate(seeds):
        final, log = playout(engine, seats, options, seed, deep_checks=(i % deep_every == 0))
        again = replay(engine, seats, options, seed, log)
        assert engine.dump(again) == engine.dump(final), f"{engine.id}: not deterministic"
        assert engine.outcome(final) is not None


# --------------------------------------------------------------------------- branches


def known(engine: Engine, state: Any, seats: int) -> list[Any]:
    """Everything some seat (or a spectator) is told about ``state``: each view, each
    seat's legal actions, who is to act and the open window."""
    window = open_window(engine, state)
    out: list[Any] = [sorted(engine.to_act(state)), window.to_json() if window else None]
    for seat in [None, *range(seats)]:
        out.append(_json_round_trip(engine.view(state, seat)))
        if seat is not None:
            out.append(_json_round_trip(engine.legal_actions(state, seat)))
    return out


def future_differs(engine: Engine, branch: Any, originals: list[Any], actions: list,
                   seats: int, limit: int = 400) -> bool:
    """Whether the original's next actions, played in ``branch``, stop giving what the
    original's seats were told (``originals[i]``: the original after ``actions[i]``)."""
    state = branch
    for (seat, action), original in list(zip(actions, originals, strict=True))[:limit]:
        try:
            state, _ = apply_any(engine, state, seat, action)
        except IllegalAction:
            return True
        if known(engine, state, seats) != known(engine, original, seats):
            return True
    return False


def check_branches(engine: Engine, seats: int, options: dict, seed: int, log: list,
                   points: int = 6, seeds: int = 3) -> int:
    """Check ``redeal_unknown`` at ``points`` steps spread over the game of ``log`` (always
    the set-up among them); answer at how many of them the re-dealt future differed."""
    redeal = getattr(engine, "redeal_unknown", None)
    assert redeal is not None, f"{engine.id}: no redeal_unknown (a branch needs it)"
    states = [engine.setup(seats, options, seed)]
    for seat, action in log:
        states.append(apply_any(engine, states[-1], seat, action)[0])
    live = [k for k, st in enumerate(states) if engine.outcome(st) is None]
    chosen = sorted({live[round(i * (len(live) - 1) / max(1, points - 1))]
                     for i in range(points)})
    assert chosen[0] == 0
    differed = 0
    for k in chosen:
        state = states[k]
        dumped = engine.dump(state)
        before = known(engine, state, seats)
        differs = False
        for r in range(seeds):
            other = redeal(state, Rng.from_seed(seed * 1000 + r))
            assert engine.dump(state) == dumped, f"{engine.id}: redeal_unknown mutated its input"
            assert known(engine, other, seats) == before, (
                f"{engine.id}: step {k}: a re-deal changed what some seat knows")
            again = engine.load(_json_round_trip(engine.dump(other)))
            assert again == other, f"{engine.id}: a re-dealt state does not round-trip"
            fresh = Rng.from_seed(seed * 1000 + r + 7)
            twice = redeal(other, Rng.from_seed(seed * 1000 + r + 7))
            assert engine.dump(twice) == engine.dump(redeal(state, fresh)), (
                f"{engine.id}: step {k}: a re-deal keeps something of what it re-dealt")
            differs = differs or future_differs(engine, other, states[k + 1:], log[k:], seats)
        if k == 0:
            assert differs, f"{engine.id}: re-dealing the set-up changed nothing to come"
        differed += differs
    return differed
