"""Alan & Bobby's Block and Guess (RULES.md §6): a pure, simultaneous engine.

The state is one JSON-shaped dict (``dump`` copies it, ``load`` copies it back). A round:
``draft`` (builders alternately choose a block from the pool for the other builder; cards 6
and 9 change it; in stage 2 with one build left the other builder gives all its blocks),
``build`` (builders still in play place, move and remove blocks at once, then ``submit``
when ``build.reasons`` finds nothing wrong), ``guess`` (each build's guessers propose and
guess one of the 7 objects; the first guess is final; a guesser may ask "which side is the
front?" once per guess phase and the builder marks a side). Stage 1 right: 2 points; wrong:
stage 2 with more blocks; stage 2 right: 1 point. Roles and rounds: ``roles.py``.

Secrets: a build's target number is known to this round's builders; everyone else (guessers,
spectators) learns it only when the build is done (right, or wrong in stage 2), in views,
events and legal actions alike. Answers are judged together when the guess phase is over for
every build in play (``_judge``): until then nobody learns whether an answer was right, and
the scores do not move (RULES.md §6 ruling on the secrecy of the targets). Everything else
is public. Dragging a block is an ``ephemeral`` update (relayed, never stored); placing,
moving, removing and submitting are actions. Chat is closed to the round's builders
(``chat_allowed``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games.base import (
    JSON,
    Action,
    BaseEngine,
    Event,
    Field,
    IllegalAction,
    OptionSpec,
    Outcome,
    Rng,
    action_field,
    check_action,
    first_seat,
    first_seat_option,
    rank_by,
    require,
)
from app.games.block_and_guess import build as bld
from app.games.block_and_guess import geometry as geo
from app.games.block_and_guess import roles
from app.games.block_and_guess.data import BLOCKS, BOARD_MODES, CLUE_CARDS, CONSTRUCTION_CARDS
from app.games.block_and_guess.views import view_of

SIDES = ("left", "right")
# every action's fields with their kinds (app.games.base.check_action); where a value must
# also fit the board, the build or the clue card, the rules say so with their own codes
_PLACE = {"block": Field("int"), "x": Field("number"), "y": Field("number"),
          "angle": Field("int"), "flip": Field("bool")}
_GUESS = {"build": Field("int"), "object": Field("int")}
ACTIONS = {"draft": {"block": Field("int")}, "place": _PLACE, "remove": {"block": Field("int")},
           "submit": {}, "guess": _GUESS, "propose": _GUESS, "ask_front": {"build": Field("int")},
           "mark_front": {"side": Field("str")}}


def _name(s: JSON, number: int) -> JSON:
    """Object ``number`` of this round's clue card in both languages (for logs and results)."""
    es, en = CLUE_CARDS[s["clue"]][number - 1]
    return {"es": es, "en": en}


def _copy(value: Any) -> Any:
    if isinstance(value, list):
        return [_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    return value


class BlockAndGuessEngine(BaseEngine):
    id = "block-and-guess"
    name = "Alan & Bobby's Block and Guess"
    min_players = 3
    max_players = 8
    simultaneous = True
    options: tuple[OptionSpec, ...] = (first_seat_option(8),)

    # ------------------------------------------------------------------ setup

    def setup(self, seats: int, options: Mapping[str, Any] | None, seed: int) -> JSON:
        opts = self.check_setup(seats, options)
        rng = Rng.from_seed(seed)
        start = first_seat(opts, seats, rng)
        clues = list(range(len(CLUE_CARDS)))
        rng.shuffle(clues)
        cards = sorted(CONSTRUCTION_CARDS)
        rng.shuffle(cards)
        state: JSON = {
            "seats": seats, "options": opts, "rng": rng.state,
            "teams": roles.teams_for(seats), "start": start,
            "round": 0, "rounds": roles.planned_rounds(seats), "extra": 0,
            "first": start, "first_counts": [0] * seats, "last_first_team": None,
            "builders": [], "clue_deck": clues, "clue_used": [], "clue": None,
            "card_deck": cards, "card_used": [], "card": None,
            "pool": list(range(len(BLOCKS))), "builds": [], "phase": "draft", "stage": 1,
            "draft": None, "points": [0] * len(roles.teams_for(seats)), "round_points": [],
            "results": [], "over": False,
        }
        self._start_round(state, [])
        return state

    def _start_round(self, s: JSON, events: list[Event]) -> None:
        rng = Rng(s["rng"])
        index = s["round"]
        s["round"] += 1
        builders, first = roles.round_roles(s, index)
        s["first_counts"][first] += 1
        s["last_first_team"] = roles.team_of(s, first)
        s["builders"], s["first"] = builders, first
        if s["clue"] is not None:
            s["clue_used"].append(s["clue"])
        if not s["clue_deck"]:
            s["clue_deck"], s["clue_used"] = s["clue_used"], []
            rng.shuffle(s["clue_deck"])
        s["clue"] = s["clue_deck"].pop(0)
        if s["card"] is not None:
            s["card_used"].append(s["card"])
        if not s["card_deck"]:
            s["card_deck"], s["card_used"] = s["card_used"], []
            rng.shuffle(s["card_deck"])
        s["card"] = s["card_deck"].pop(0)
        s["pool"] = list(range(len(BLOCKS)))
        s["builds"] = []
        for b in builders:
            deck = list(range(1, 8))  # the builder's team shuffles its number cards
            rng.shuffle(deck)
            s["builds"].append({
                "builder": b, "team": roles.team_of(s, b), "target": deck[0], "held": [],
                "placed": [], "in_play": True, "submitted": False, "guess": None,
                "guessed_by": None, "wrong": [], "result": None, "revealed": False,
                "asked": False, "question": False, "front": None, "proposals": {},
            })
        s["rng"] = rng.state
        s["round_points"] = [0] * len(s["points"])
        s["stage"] = 1
        events.extend(self._round_events(s))
        self._start_draft(s)

    def opening(self, state: JSON) -> list[Event]:
        """Round 1's lines, as a later round's start gives them (the set-up dealt it)."""
        return self._round_events(state)

    @staticmethod
    def _round_events(s: JSON) -> list[Event]:
        """A round's first lines: who builds, with which cards; the objects, to builders."""
        return [
            Event("round_started", {
                "round": s["round"], "builders": list(s["builders"]), "first": s["first"],
                "clue": s["clue"], "card": s["card"], "tiebreak": s["round"] > s["rounds"]}),
            # the objects' names with their numbers: a log line drawn later (a reconnect, a
            # replay) has another round's clue card in its view
            Event("targets", {
                "targets": {str(x["builder"]): x["target"] for x in s["builds"]},
                "names": {str(x["builder"]): _name(s, x["target"]) for x in s["builds"]}},
                visible_to=frozenset(s["builders"])),
        ]

    def _start_draft(self, s: JSON) -> None:
        s["phase"] = "draft"
        playing = [x["builder"] for x in s["builds"] if x["in_play"]]
        quota = 2 if s["card"] == 9 else 3
        steps: list[list[int]] = []
        if len(playing) == 2:
            a, b = s["builders"]
            for k in range(2 * quota):
                picker, other = (a, b) if k % 2 == 0 else (b, a)
                own = s["card"] == 6 and s["stage"] == 1 and k < 2
                steps.append([picker, picker if own else other])
        else:
            (active,) = playing
            giver = next(b for b in s["builders"] if b != active)
            steps = [[giver, active] for _ in range(quota)]
        s["draft"] = {"steps": steps, "index": 0}

    # ------------------------------------------------------------------ queries

    def _build(self, s: JSON, builder: int) -> JSON | None:
        return next((x for x in s["builds"] if x["builder"] == builder), None)

    def guessers(self, s: JSON, builder: int) -> list[int]:
        return roles.guessers_of(s, builder)

    def legal_actions(self, state: JSON, seat: int) -> list[Action]:
        if state["over"] or not self._valid_seat(state, seat):
            return []
        phase = state["phase"]
        if phase == "draft":
            picker, _ = state["draft"]["steps"][state["draft"]["index"]]
            return [{"type": "draft", "block": b} for b in state["pool"]] if seat == picker else []
        if phase == "build":
            mine = self._build(state, seat)
            if mine is None or not mine["in_play"] or mine["submitted"]:
                return []
            out: list[Action] = []
            for move in self._suggest(state, mine):
                if move[0] == "submit":
                    out.append({"type": "submit"})
                elif move[0] == "remove":
                    out.append({"type": "remove", "block": move[1]})
                else:
                    b, x, y, angle, flip = move[1]
                    out.append({"type": "place", "block": b, "x": x, "y": y, "angle": angle,
                                "flip": flip})
            return out
        out = []
        for x in state["builds"]:
            if not x["in_play"] or x["guess"] is not None:
                continue
            if seat == x["builder"] and x["question"]:
                out += [{"type": "mark_front", "side": side} for side in SIDES]
            if seat not in self.guessers(state, x["builder"]):
                continue
            open_objects = [k for k in range(1, 8) if k not in x["wrong"]]
            out += [{"type": "guess", "build": x["builder"], "object": k} for k in open_objects]
            if len(self.guessers(state, x["builder"])) > 1:
                mine_now = x["proposals"].get(str(seat))
                out += [{"type": "propose", "build": x["builder"], "object": k}
                        for k in open_objects if k != mine_now]
            if not x["asked"]:
                out.append({"type": "ask_front", "build": x["builder"]})
        return out

    def _suggest(self, s: JSON, b: JSON) -> tuple[tuple, ...]:
        return bld.suggestions(tuple(b["held"]), self._placements(b), s["card"])

    @staticmethod
    def _placements(b: JSON) -> bld.Build:
        return tuple((p[0], p[1], p[2], p[3], p[4]) for p in b["placed"])

    def to_act(self, state: JSON) -> set[int]:
        return {s for s in range(state["seats"]) if self.legal_actions(state, s)}

    def holding_up(self, state: JSON) -> set[int]:
        """Seats the game waits for (a builder asked about the front holds nothing up).

        Deliberately not the actor's optional ``waiting_for`` hook: with it the platform's
        secrecy suite treats the game as one of secret simultaneous picks, but builds here
        are public by design (everyone watches them take shape)."""
        if state["phase"] != "guess":
            return self.to_act(state)
        return {g for x in state["builds"] if x["in_play"] and x["guess"] is None
                for g in self.guessers(state, x["builder"])}

    def chat_allowed(self, state: JSON, seat: int) -> bool:
        return state["over"] or seat not in state["builders"]

    def scores(self, state: JSON) -> list[int]:
        return [state["points"][roles.team_of(state, s)] for s in range(state["seats"])]

    def current_scores(self, state: JSON) -> list[int]:
        return list(self.scores(state))

    def outcome(self, state: JSON) -> Outcome | None:
        if not state["over"]:
            return None
        scores = self.scores(state)
        ranking = rank_by(scores)
        return Outcome(scores=tuple(scores), ranking=ranking, winners=ranking[0], details={
            "teams": _copy(state["teams"]), "team_points": list(state["points"]),
            "rounds": _copy(state["results"]), "tiebreak_rounds": state["extra"]})

    # ------------------------------------------------------------------ apply

    def apply(self, state: JSON, seat: int, action: Action) -> tuple[JSON, list[Event]]:
        kind = check_action(action, ACTIONS)
        require(not state["over"], "game_over", "the game is over")
        require(self._valid_seat(state, seat), "bad_seat", "no such seat")
        handler = {"draft": self._draft, "place": self._place, "remove": self._remove,
                   "submit": self._submit, "guess": self._guess, "propose": self._propose,
                   "ask_front": self._ask_front, "mark_front": self._mark_front}[kind]
        s = _copy(state)
        events: list[Event] = []
        handler(s, seat, action, events)  # type: ignore[misc]
        return s, events

    def _fields(self, action: Action, *names: str) -> None:
        extra = set(action) - {"type", *names}
        require(not extra, "bad_action", f"unknown field(s): {', '.join(sorted(extra))}")

    def _draft(self, s: JSON, seat: int, action: Action, events: list[Event]) -> None:
        self._fields(action, "block")
        require(s["phase"] == "draft", "wrong_phase", "the block draft is not on")
        picker, recipient = s["draft"]["steps"][s["draft"]["index"]]
        require(seat == picker, "not_your_turn", "it is not your turn to choose a block")
        block = action_field(action, "block", int)
        require(block in s["pool"], "no_such_block", "that block is not in the pool")
        s["pool"].remove(block)
        self._build(s, recipient)["held"].append(block)  # type: ignore[index]
        s["draft"]["index"] += 1
        events.append(Event("drafted", {"seat": seat, "block": block, "to": recipient}))
        if s["draft"]["index"] == len(s["draft"]["steps"]):
            s["draft"] = None
            s["phase"] = "build"
            for x in s["builds"]:
                x["submitted"] = not x["in_play"]
            events.append(Event("building", {"stage": s["stage"]}))

    def _my_build(self, s: JSON, seat: int) -> JSON:
        require(s["phase"] == "build", "wrong_phase", "nobody is building now")
        mine = self._build(s, seat)
        require(mine is not None and mine["in_play"], "not_builder", "you are not building")
        assert mine is not None
        require(not mine["submitted"], "submitted", "your build is already submitted")
        return mine

    def check_placement(self, s: JSON, seat: int, data: Mapping[str, Any]) -> bld.Placement:
        """Validate a placement (an action's or a live drag's) for ``seat``'s build."""
        mine = self._my_build(s, seat)
        block = action_field(data, "block", int)
        require(block in mine["held"], "not_your_block", "that block is not one of yours")
        x = action_field(data, "x", (int, float))
        y = action_field(data, "y", (int, float))
        # compared before any conversion: Python compares a huge int (10**400) with a float
        # exactly, while float() or math.isfinite() of it raises OverflowError; NaN and the
        # infinities fail the comparisons too
        require(0 <= x <= geo.BOARD_W and 0 <= y <= geo.BOARD_H, "out_of_board",
                "that point is off the board")
        angle = action_field(data, "angle", int)
        require(0 <= angle < 360 and angle % geo.ANGLE_STEP == 0, "bad_angle",
                f"turn blocks in steps of {geo.ANGLE_STEP} degrees (0 to 345)")
        require(s["card"] != 4 or angle == 0, "no_rotation",
                "construction card 4: blocks cannot be rotated this round")
        flip = action_field(data, "flip", bool)
        return (block, round(float(x), 2), round(float(y), 2), angle, flip)

    def _place(self, s: JSON, seat: int, action: Action, events: list[Event]) -> None:
        self._fields(action, "block", "x", "y", "angle", "flip")
        p = self.check_placement(s, seat, action)
        mine = self._build(s, seat)
        assert mine is not None
        problem = bld.fits(self._placements(mine), p)
        if problem == "overlap":
            raise IllegalAction("overlap", "that block would overlap another block")
        require(problem is None, "out_of_board", "the block would stick out of the board")
        moved = any(q[0] == p[0] for q in mine["placed"])
        mine["placed"] = [q for q in mine["placed"] if q[0] != p[0]] + [list(p)]
        events.append(Event("moved" if moved else "placed", {
            "builder": seat, "block": p[0], "x": p[1], "y": p[2], "angle": p[3], "flip": p[4]}))

    def _remove(self, s: JSON, seat: int, action: Action, events: list[Event]) -> None:
        self._fields(action, "block")
        mine = self._my_build(s, seat)
        block = action_field(action, "block", int)
        require(any(q[0] == block for q in mine["placed"]), "not_placed",
                "that block is not on your board")
        mine["placed"] = [q for q in mine["placed"] if q[0] != block]
        events.append(Event("removed", {"builder": seat, "block": block}))

    def _submit(self, s: JSON, seat: int, action: Action, events: list[Event]) -> None:
        self._fields(action)
        mine = self._my_build(s, seat)
        why = bld.reasons(tuple(mine["held"]), self._placements(mine), s["card"])
        require(not why, "invalid_build",
                "the build is not valid yet: " + ", ".join(code for code, _ in why))
        mine["submitted"] = True
        events.append(Event("submitted", {"builder": seat}))
        if all(x["submitted"] for x in s["builds"]):
            s["phase"] = "guess"
            for x in s["builds"]:
                x.update(guess=None, guessed_by=None, asked=False, question=False,
                         proposals={})
            events.append(Event("guessing", {"stage": s["stage"]}))

    def _guess_target(self, s: JSON, seat: int, action: Action) -> tuple[JSON, int]:
        self._fields(action, "build", "object")
        require(s["phase"] == "guess", "wrong_phase", "it is not time to guess")
        builder = action_field(action, "build", int)
        target = self._build(s, builder)
        require(target is not None and target["in_play"] and target["guess"] is None,
                "no_such_build", "that build is not waiting for a guess")
        assert target is not None
        require(seat in self.guessers(s, builder), "not_guesser", "you do not guess that build")
        obj = action_field(action, "object", int)
        require(1 <= obj <= 7, "bad_object", "choose one of the 7 objects (1 to 7)")
        require(obj not in target["wrong"], "already_wrong", "that object was already wrong")
        return target, obj

    def _propose(self, s: JSON, seat: int, action: Action, events: list[Event]) -> None:
        target, obj = self._guess_target(s, seat, action)
        require(len(self.guessers(s, target["builder"])) > 1, "alone",
                "you guess alone: just guess")
        target["proposals"][str(seat)] = obj
        events.append(Event("proposed", {"seat": seat, "build": target["builder"], "object": obj,
                                         "name": _name(s, obj)},
                            visible_to=frozenset(self.guessers(s, target["builder"]))))

    def _guess(self, s: JSON, seat: int, action: Action, events: list[Event]) -> None:
        """The team's answer, final; judged only when every build in play has its answer
        (RULES.md §6 ruling: both teams may have drawn the same number, so a right answer,
        its target and the scores are held until the guess phase is over for every team)."""
        target, obj = self._guess_target(s, seat, action)
        target.update(guess=obj, guessed_by=seat, question=False)
        events.append(Event("guessed", {"seat": seat, "build": target["builder"], "object": obj,
                                        "name": _name(s, obj)}))
        if any(x["in_play"] and x["guess"] is None for x in s["builds"]):
            return
        self._judge(s, events)
        if s["stage"] == 1 and any(x["in_play"] for x in s["builds"]):
            s["stage"] = 2
            for x in s["builds"]:
                x["submitted"] = False
            events.append(Event("second_stage", {
                "builds": [x["builder"] for x in s["builds"] if x["in_play"]]}))
            self._start_draft(s)
            return
        self._end_round(s, events)

    def _judge(self, s: JSON, events: list[Event]) -> None:
        """Every answer of the phase at once: points, right or wrong, and the targets of the
        builds that are done (right, or wrong in stage 2)."""
        for x in s["builds"]:
            if not x["in_play"]:
                continue
            obj = x["guess"]
            right = obj == x["target"]
            points = (2 if s["stage"] == 1 else 1) if right else 0
            if right:
                for team in {roles.team_of(s, x["guessed_by"]), x["team"]}:
                    s["points"][team] += points
                    s["round_points"][team] += points
            else:
                x["wrong"].append(obj)
            events.append(Event("judged", {"seat": x["guessed_by"], "build": x["builder"],
                                           "object": obj, "name": _name(s, obj),
                                           "right": right, "points": points}))
            if right or s["stage"] == 2:
                x.update(in_play=False, revealed=True,
                         result=(f"right{s['stage']}" if right else "missed"))
                events.append(Event("revealed", {"build": x["builder"], "target": x["target"],
                                                 "name": _name(s, x["target"])}))

    def _ask_front(self, s: JSON, seat: int, action: Action, events: list[Event]) -> None:
        self._fields(action, "build")
        require(s["phase"] == "guess", "wrong_phase", "ask while guessing")
        builder = action_field(action, "build", int)
        target = self._build(s, builder)
        require(target is not None and target["in_play"] and target["guess"] is None,
                "no_such_build", "that build is not waiting for a guess")
        assert target is not None
        require(seat in self.guessers(s, builder), "not_guesser", "you do not guess that build")
        require(not target["asked"], "already_asked", "the front was already asked about")
        target.update(asked=True, question=True)
        events.append(Event("asked_front", {"seat": seat, "build": builder}))

    def _mark_front(self, s: JSON, seat: int, action: Action, events: list[Event]) -> None:
        self._fields(action, "side")
        mine = self._build(s, seat)
        require(s["phase"] == "guess" and mine is not None and mine["question"],
                "not_asked", "nobody asked you where the front is")
        assert mine is not None
        side = action.get("side")
        require(side in SIDES, "bad_side", "mark the left or the right side")
        mine.update(question=False, front=side)
        events.append(Event("marked_front", {"builder": seat, "side": side}))

    def _end_round(self, s: JSON, events: list[Event]) -> None:
        row = {"round": s["round"], "builders": list(s["builders"]), "clue": s["clue"],
               "card": s["card"], "points": list(s["round_points"]),
               "builds": [{"builder": x["builder"], "target": x["target"],
                           "name": _name(s, x["target"]), "result": x["result"]}
                          for x in s["builds"]]}
        s["results"].append(row)
        events.append(Event("round_scored", _copy(row)))
        top = max(s["points"])
        leaders = [t for t, p in enumerate(s["points"]) if p == top]
        if s["round"] >= s["rounds"] and (len(leaders) == 1 or
                                          s["extra"] >= roles.MAX_EXTRA_ROUNDS):
            s["over"], s["phase"], s["builders"] = True, "over", []
            events.append(Event("game_over", {"points": list(s["points"]),
                                              "scores": self.scores(s)}))
            return
        if s["round"] >= s["rounds"]:
            s["extra"] += 1
        self._start_round(s, events)

    # ------------------------------------------------------------------ live updates

    def ephemeral(self, state: JSON, seat: int, data: Any) -> Event:
        """A block being dragged: checked like a placement (bar overlaps), relayed to all."""
        require(isinstance(data, dict), "bad_action", "a live update is a JSON object")
        self._fields(data, "block", "x", "y", "angle", "flip")
        require(not state["over"], "game_over", "the game is over")
        p = self.check_placement(state, seat, data)
        return Event("dragging", {"builder": seat, "block": p[0], "x": p[1], "y": p[2],
                                  "angle": p[3], "flip": p[4]})

    # ------------------------------------------------------------------ view

    def view(self, state: JSON, seat: int | None) -> JSON:
        me = seat if seat is not None and self._valid_seat(state, seat) else None
        return view_of(self, state, me)

    def view_all(self, state: JSON) -> JSON:
        """Every target and guess proposal shown (replays of finished games only)."""
        return view_of(self, state, None, reveal=True)

    def board_mode(self, state: JSON) -> str | None:
        return BOARD_MODES.get(state["card"]) if state["card"] is not None else None

    # ------------------------------------------------------------------ persistence

    def dump(self, state: JSON) -> JSON:
        return _copy(state)  # type: ignore[no-any-return]

    def load(self, data: JSON) -> JSON:
        return _copy(data)  # type: ignore[no-any-return]

    # ------------------------------------------------------------------ tests

    def scramble(self, state: JSON, seat: int | None, rng: Rng) -> JSON:
        """Re-deal what ``seat`` cannot know: unrevealed targets (unless it builds this
        round), the order of the clue and construction decks, the hidden RNG."""
        s = _copy(state)
        for x in s["builds"]:
            if not x["revealed"] and seat not in s["builders"]:
                x["target"] = rng.below(7) + 1
        rng.shuffle(s["clue_deck"])
        rng.shuffle(s["card_deck"])
        s["rng"] = rng.next64()
        return s  # type: ignore[no-any-return]

    def redeal_unknown(self, state: JSON, rng: Rng) -> JSON:
        """What no seat knows, dealt anew from ``rng`` (a branch of a replay starts from
        it): the order of the clue and construction decks, and the seed of the next
        rounds' targets. A build's target is known to this round's builders and stays.
        Each deck is put in a fixed order before the shuffle, so nothing of the old order
        survives."""
        s = _copy(state)
        for deck in ("clue_deck", "card_deck"):
            s[deck] = sorted(s[deck])
            rng.shuffle(s[deck])
        s["rng"] = rng.next64()
        return s  # type: ignore[no-any-return]

    def all_cards(self, state: JSON) -> list[Any]:
        blocks = [("block", b) for b in state["pool"]]
        blocks += [("block", b) for x in state["builds"] for b in x["held"]]
        if state["over"]:
            blocks = [("block", b) for b in range(len(BLOCKS))]
        clues = [("clue", c) for c in [*state["clue_deck"], *state["clue_used"]]]
        cards = [("card", c) for c in [*state["card_deck"], *state["card_used"]]]
        clues += [("clue", state["clue"])] if state["clue"] is not None else []
        cards += [("card", state["card"])] if state["card"] is not None else []
        return blocks + clues + cards

    @staticmethod
    def _valid_seat(state: JSON, seat: Any) -> bool:
        return isinstance(seat, int) and not isinstance(seat, bool) and \
            0 <= seat < state["seats"]


ENGINE = BlockAndGuessEngine()
