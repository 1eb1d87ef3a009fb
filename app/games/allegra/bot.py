"""Allegra's bot: one-ply golf on expected display sums, from the seat's view only.

Everything on an Allegra table is public except the face-down cards, which nobody knows, so
the view holds the whole picture. The bot values a face-down card at the mean of the cards it
has not seen and scores a position by ``J = my display's sum - LAMBDA * mean(other displays'
sums)`` (a shared column counts in two displays, so lowering it helps a neighbour too).
Each decision takes the action with the lowest ``J`` afterwards:

- take the discard pile's top card when placing it beats the expected best use of a card
  from the deck (averaged over the unseen values);
- keep a card where it lowers ``J`` most (a line of three it completes counts as cleared),
  else discard it and turn up a face-down card, preferring one that may complete a line;
- the end of the round: an action that leaves no face-down card in its display ends the
  round; the bot does that when its sum is clearly the lowest (else the rule doubles it)
  and otherwise keeps the card on a face-up one, until, after many turns of a round (counted
  in its history) or by a small chance each turn, it accepts ending a stalled round;
- clear a line whose cards are worth something (never a line of -1s or 0s);
- knock window: knock only for a card no higher than its own lowest and low (an active
  player who takes its best card back then costs it nothing), or one that completes a line
  it can clear at once; as the active player, accept the knocker whose display offers a
  better card than the drawn one (step b may take any of its cards, the drawn one included)
  and take that card in exchange for its worst.

It reads only the view, the legal actions and, to count its turns, its history.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache
from typing import Any

from app.games.allegra.data import DISPLAY_COLUMNS, ROWS, deck_values
from app.games.allegra.geometry import CLEARED, display_slots, find_lines
from app.games.base import JSON, Action, Rng

LAMBDA = 0.5  # how much the others' sums count against the bot's own
TRIGGER_MARGIN = 2.0  # end the round only this far below everyone's expected sum
LAST_TURN_GAIN = 2.5  # what the others are expected to gain in their last turns
KEEP_MIN_GAIN = 0.5  # a kept card must lower J at least this much, else flip
TAKE_MIN_GAIN = 0.5  # the discard's top must beat a card from the deck by this much
PATIENT_TURNS = 10  # own turns in a round before the fear of ending it starts to fade
FADING_TURNS = 10  # ... and how many more until ending it costs nothing
STALEMATE_FLIP = 0.1  # chance per turn to end a stalled round anyway
KNOCK_AT_MOST = 2  # knock for cards this low (and no higher than the bot's lowest)
DOWN = None  # a face-down cell (cleared cells hold CLEARED)

Slot = tuple[int, int]
Cell = int | None


@cache
def seen_in(seats: int) -> dict[Slot, tuple[int, ...]]:
    """The seats whose display shows each slot (one or two)."""
    out: dict[Slot, list[int]] = {}
    for seat in range(seats):
        for slot in display_slots(seats, seat):
            out.setdefault(slot, []).append(seat)
    return {slot: tuple(s) for slot, s in out.items()}


@cache
def weights(seats: int, me: int) -> dict[Slot, float]:
    """How much a change of each slot's value moves J for ``me``."""
    out = {}
    for slot, shown in seen_in(seats).items():
        mine = 1.0 if me in shown else 0.0
        others = sum(1 for s in shown if s != me)
        out[slot] = mine - LAMBDA * others / max(1, seats - 1)
    return out


def own_turns(history: Sequence[JSON], seat: int) -> int:
    """The seat's turns in the current round so far, counted back through its history."""
    turns = 0
    for entry in reversed(history):
        for event in reversed(entry.get("events", ())):
            kind = event.get("type")
            if kind == "round_started":
                return turns
            if kind == "turn" and event.get("seat") == seat:
                turns += 1
    return turns


class Board:
    """The table as one seat sees it, and the J changes of moves on it."""

    def __init__(self, view: JSON, history: Sequence[JSON] = ()) -> None:
        self.n = n = int(view["seats"])
        self.me = int(view["you"])
        self.cells: dict[Slot, Cell] = {}
        for player in view["players"]:
            seat = int(player["seat"])
            for index, cell in enumerate(player["grid"]):
                self.cells[(seat, index)] = (CLEARED if cell is None else
                                             int(cell["value"]) if cell["up"] else DOWN)
        self.display = display_slots(n, self.me)
        self.weight = weights(n, self.me)
        self.seen_in = seen_in(n)
        self.unseen = self._unseen(view)
        total = sum(self.unseen.values())
        self.mean = sum(v * k for v, k in self.unseen.items()) / total if total else 5.0
        self.trigger = view.get("trigger")
        self.history = history
        self._fear: float | None = None
        self.sums = [self.expected_sum(s) for s in range(n)]
        self.down_here = sum(1 for s in self.display if self.cells[s] is DOWN)
        self.mine_up = Counter(v for v in (self.cells[s] for s in self.display)
                               if v is not DOWN and v != CLEARED)
        # lines already there can be cleared after any move: only a change counts
        self.base_line = self.line_gain(self.cells)[0] if any(
            k >= 3 for k in self.mine_up.values()) else 0.0

    def _unseen(self, view: JSON) -> Counter[int]:
        left = Counter(deck_values(self.n))
        shown = [v for v in self.cells.values() if v is not DOWN and v != CLEARED]
        shown += [v for v in (view["discard"]["top"], view["hand"], view["outgoing"])
                  if v is not None]
        knock = view.get("knock") or {}
        if knock.get("held") is not None:
            shown.append(int(knock["held"]))
        for value in shown:
            if left[value] > 0:
                left[value] -= 1
        return +left

    @property
    def fear(self) -> float:
        """How much ending the round while not clearly lowest is feared (fades with time)."""
        if self._fear is None:
            beyond = max(0, own_turns(self.history, self.me) - PATIENT_TURNS)
            self._fear = max(0.0, 1.0 - beyond / FADING_TURNS)
        return self._fear

    def value(self, slot: Slot) -> float:
        cell = self.cells[slot]
        if cell is DOWN:
            return self.mean
        return 0.0 if cell == CLEARED else float(cell)

    def expected_sum(self, seat: int) -> float:
        return sum(self.value(slot) for slot in display_slots(self.n, seat))

    def prob(self, value: int) -> float:
        total = sum(self.unseen.values())
        return self.unseen[value] / total if total else 0.0

    def live(self) -> list[tuple[int, Slot]]:
        """The bot's display positions that hold a card."""
        return [(p, s) for p, s in enumerate(self.display) if self.cells[s] != CLEARED]

    # ------------------------------------------------------------------ evaluation

    def line_gain(self, cells: dict[Slot, Cell]) -> tuple[float, list[int]]:
        """The best clear in the bot's display on ``cells``: (J change, positions)."""
        best: tuple[float, list[int]] = (0.0, [])
        for line in find_lines([cells[s] for s in self.display]):
            slots = [self.display[p] for p in line]
            value = cells[slots[0]]
            assert isinstance(value, int)
            gain = -sum(self.weight[s] for s in slots) * value
            if gain < best[0]:
                best = (gain, line)
        return best

    def change(self, changes: dict[Slot, int], ends_turn: bool) -> float:
        """J change of putting face-up values in some slots (clears, the round's end)."""
        delta = 0.0
        sums = None
        for slot, new in changes.items():
            step = new - self.value(slot)
            delta += self.weight[slot] * step
            if ends_turn and self.trigger is None:
                sums = sums or list(self.sums)
                for seat in self.seen_in[slot]:
                    sums[seat] += step
        if self.base_line or any(self.mine_up[v] >= 2 for v in changes.values()):
            delta += self.line_gain({**self.cells, **changes})[0] - self.base_line
        if sums is not None:
            turned = sum(1 for slot in changes
                         if self.cells[slot] is DOWN and slot in self.display)
            if self.down_here - turned <= 0:
                delta += self.trigger_cost(sums)
        return delta

    def trigger_cost(self, sums: Sequence[float]) -> float:
        """What ending the round with these display sums costs (negative: worth it)."""
        mine = sums[self.me]
        others = [sums[s] - LAST_TURN_GAIN for s in range(self.n) if s != self.me]
        if others and mine + TRIGGER_MARGIN < min(others):
            return -1.0
        return (max(mine, 0.0) + 3.0) * self.fear

    def flip_score(self, slot: Slot) -> float:
        """Expected J change of turning ``slot`` up: a chance of a line, maybe the end."""
        score = 0.0
        if self.trigger is None and self.down_here == 1:
            score += self.trigger_cost(self.sums)
        pos = self.display.index(slot)
        row, col = divmod(pos, DISPLAY_COLUMNS)
        column = [self.display[r * DISPLAY_COLUMNS + col] for r in range(ROWS) if r != row]
        a, b = (self.cells[s] for s in column)
        if a == b and isinstance(a, int) and a != CLEARED and a > 0:
            score -= self.prob(a) * a * (self.weight[slot] + sum(self.weight[s] for s in column))
        return score


class AllegraBot:
    """The bot seat (see the module docstring)."""

    game = "allegra"

    def choose(self, view: JSON, legal: Sequence[Action], history: Sequence[JSON],
               rng: Rng) -> Action:
        kinds = {a["type"] for a in legal}
        board = Board(view, history)
        if "reveal" in kinds:
            return self._reveal(board, legal, rng)
        if "knock" in kinds:
            return self._knock(board, int(view["hand"]))
        if "draw" in kinds:
            return self._take(board, view, legal)
        if "accept" in kinds:
            return self._accept(board, int(view["hand"]), legal)
        if "keep" in kinds or "flip" in kinds:
            return self._place(board, int(view["hand"]), legal, rng)
        if "place" in kinds:
            return self._knock_place(board, int(view["hand"]), legal)
        if "exchange" in kinds:
            return self._exchange(board, view, legal)
        if "clear" in kinds or "skip_clear" in kinds:
            return self._clear(board, legal)
        return legal[0]

    # ------------------------------------------------------------------ the turn

    def _reveal(self, board: Board, legal: Sequence[Action], rng: Rng) -> Action:
        """Turn up the bot's own cards first (a shared one tells a neighbour as much)."""
        own = [a for a in legal if len(board.seen_in[board.display[a["pos"]]]) == 1]
        return rng.choice(own or list(legal))

    @staticmethod
    def best_keep(board: Board, hand: int) -> tuple[float, int]:
        """The best place to keep ``hand``: (J change, display position)."""
        best = (float("inf"), -1)
        for pos, slot in board.live():
            score = board.change({slot: hand}, True)
            if score < best[0]:
                best = (score, pos)
        return best

    @staticmethod
    def best_flip(board: Board) -> tuple[float, int]:
        best = (float("inf"), -1)
        for pos, slot in board.live():
            if board.cells[slot] is DOWN:
                score = board.flip_score(slot)
                if score < best[0]:
                    best = (score, pos)
        return best

    def _place_score(self, board: Board, hand: int) -> float:
        keep, _ = self.best_keep(board, hand)
        flip, _ = self.best_flip(board)
        return keep if keep < flip - KEEP_MIN_GAIN else flip

    def _place(self, board: Board, hand: int, legal: Sequence[Action], rng: Rng) -> Action:
        keep, keep_pos = self.best_keep(board, hand)
        flip, flip_pos = self.best_flip(board)
        if flip_pos >= 0 and keep > -0.1 and rng.below(1000) < 1000 * STALEMATE_FLIP:
            return {"type": "flip", "pos": flip_pos}  # nothing to gain: maybe end a stall
        if flip_pos < 0 or keep < flip - KEEP_MIN_GAIN:
            return {"type": "keep", "pos": keep_pos}
        return {"type": "flip", "pos": flip_pos}

    def _take(self, board: Board, view: JSON, legal: Sequence[Action]) -> Action:
        top = view["discard"]["top"]
        total = sum(board.unseen.values())
        if top is None or {"type": "take_discard"} not in legal or not total:
            return {"type": "draw"}
        take = self._place_score(board, int(top))
        draw = sum(count * self._place_score(board, value)
                   for value, count in board.unseen.items()) / total
        return {"type": "take_discard"} if take < draw - TAKE_MIN_GAIN else {"type": "draw"}

    # ------------------------------------------------------------------ clears

    def _clear(self, board: Board, legal: Sequence[Action]) -> Action:
        best: tuple[float, Action] = (0.0, {"type": "skip_clear"})
        for action in legal:
            if action["type"] != "clear":
                continue
            slots = [board.display[p] for p in action["cells"]]
            value = board.cells[slots[0]]
            if not isinstance(value, int) or value <= 0:
                continue
            gain = -sum(board.weight[s] for s in slots) * value
            if gain < best[0]:
                best = (gain, action)
        return best[1]

    # ------------------------------------------------------------------ the knock

    def _knock(self, board: Board, drawn: int) -> Action:
        up = [v for v in board.mine_up.elements()]
        if drawn <= min([*up, KNOCK_AT_MOST]):
            return {"type": "knock"}
        if drawn >= 1 and board.mine_up[drawn] >= 2:
            for _pos, slot in board.live():
                gain, line = board.line_gain({**board.cells, slot: drawn})
                if line and gain < -1.0:
                    return {"type": "knock"}
        return {"type": "no_knock"}

    def _accept(self, board: Board, drawn: int, legal: Sequence[Action]) -> Action:
        best: tuple[float, Action] = (self._place_score(board, drawn), {"type": "decline"})
        for action in legal:
            if action["type"] != "accept":
                continue
            theirs = display_slots(board.n, int(action["knocker"]))
            offered = [v for v in (board.cells[s] for s in theirs)
                       if v is not DOWN and v != CLEARED]
            score = self.best_keep(board, min([drawn, *offered]))[0]
            if score < best[0] - 0.5:
                best = (score, action)
        return best[1]

    def _knock_place(self, board: Board, drawn: int, legal: Sequence[Action]) -> Action:
        """As the accepted knocker: place the card like a keep (a line clears at once)."""
        best: tuple[float, Action] | None = None
        for action in legal:
            score = board.change({board.display[action["pos"]]: drawn}, False)
            if best is None or score < best[0]:
                best = (score, action)
        assert best is not None
        return best[1]

    def _exchange(self, board: Board, view: JSON, legal: Sequence[Action]) -> Action:
        """Step b: take the knocker's card worth most to the bot for its worst one."""
        knock: Any = view["knock"]
        theirs = display_slots(board.n, int(knock["accepted"]))
        # the knocker's card in hand is hidden from the active player: reckon on the mean
        held = int(knock["held"]) if knock.get("held") is not None else round(board.mean)
        best: tuple[float, Action] | None = None
        for action in legal:
            took, gave = theirs[action["take"]], board.display[action["give"]]
            taken = board.cells[took]
            value = round(board.mean) if taken is DOWN else taken
            assert isinstance(value, int)
            score = board.change({gave: value, took: held}, True)
            if best is None or score < best[0]:
                best = (score, action)
        assert best is not None
        return best[1]


BOT = AllegraBot()
