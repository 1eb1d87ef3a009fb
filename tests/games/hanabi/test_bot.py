"""The Hanabi bot: legal, deterministic, blind to what its seat cannot see, and conventional.

Positions are reached by real moves from a deal whose cards the test chooses (``position``),
because the bot rebuilds everything from the public log. Card shorthand as in test_rules.py:
"r1" = red 1; r red, g green, k black, b blue, y yellow, m multicolor. Strength figures are
measured by bench/hanabi_bot.py, never asserted here.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from app.games.base import Rng
from app.games.bots import bot_for, bot_rng
from app.games.hanabi import ENGINE
from app.games.hanabi.bot import BOT, BOT_HAT, HanabiBot, Turn, fallback
from app.games.hanabi.data import MULTICOLOR, full_deck
from app.games.hanabi.hat import Hat
from app.games.hanabi.rules import HanabiState

LETTERS = {"r": "red", "g": "green", "k": "black", "b": "blue", "y": "yellow", "m": MULTICOLOR}
STANDARD = {"empty_clues": False, "fuses": 3, "clue_tokens": 8, "multicolor": False}
VARIANTS = [
    STANDARD,
    {**STANDARD, "multicolor": True},
    {**STANDARD, "fuses": 1},
    {**STANDARD, "clue_tokens": 10},
    {**STANDARD, "empty_clues": True},
]


def face(code: str) -> tuple[str, int]:
    return LETTERS[code[0]], int(code[1:])


def position(hands: list[list[str]], moves: Sequence[dict[str, Any]] = (), *,
             top: Sequence[str] = (), first: int = 0,
             options: dict[str, Any] | None = None) -> HanabiState:
    """A game dealt these hands (oldest card first), with ``top`` the next cards to draw
    and the rest of the deck in a fixed order, after ``moves`` (each by the seat to act)."""
    opts = {**STANDARD, "first_seat": first, **(options or {})}
    state = ENGINE.setup(len(hands), opts, 0)
    pool = Counter(full_deck(opts["multicolor"]))
    for seat, codes in enumerate(hands):
        assert len(codes) == len(state.hands[seat])
        for card, code in zip(state.hands[seat], codes, strict=True):
            card.color, card.rank = face(code)
            pool[face(code)] -= 1
    for code in top:
        pool[face(code)] -= 1
    assert all(n >= 0 for n in pool.values()), "more copies than the game has"
    rest = []
    for f in full_deck(opts["multicolor"]):
        if pool[f] > 0:
            rest.append(f)
            pool[f] -= 1
    state.deck = list(reversed([face(c) for c in top] + rest))
    for move in moves:
        state, _ = ENGINE.apply(state, state.turn, move)
    return state


def ids(state: HanabiState, seat: int) -> list[int]:
    return [c.id for c in state.hands[seat]]


def decide(state: HanabiState, bot: HanabiBot = BOT) -> dict[str, Any]:
    """The bot's move for the seat to act, by its conventions (errors are not hidden)."""
    return bot.decide(ENGINE.view(state, state.turn))


def play_out(seats: int, options: dict[str, Any], seed: int, bots: set[int],
             bot: HanabiBot = BOT) -> list[tuple[HanabiState, dict[str, Any]]]:
    """A whole game: the seats in ``bots`` play with the bot, the others at random.
    Returns every state a bot moved in, with its move."""
    rng = random.Random(seed)
    state = ENGINE.setup(seats, options, seed)
    moves = []
    while not state.over:
        seat = state.turn
        legal = ENGINE.legal_actions(state, seat)
        if seat in bots:
            action = bot.decide(ENGINE.view(state, seat))
            assert action in legal, action
            assert bot.choose(ENGINE.view(state, seat), legal, [], Rng(seed)) == action
            moves.append((state, action))
        else:
            # random partners, but not so reckless that every game ends in three turns
            safe = [a for a in legal if a["type"] != "play"] or legal
            action = rng.choice(safe if rng.random() < 0.8 else legal)
        state, _ = ENGINE.apply(state, seat, action)
    return moves


# --------------------------------------------------------------------------- the protocol


def test_registered_for_the_platform() -> None:
    assert bot_for("hanabi") is BOT
    assert BOT.game == BOT_HAT.game == "hanabi"
    assert (BOT.convention, BOT_HAT.convention) == ("human", "hat")
    with pytest.raises(ValueError):
        HanabiBot("telepathy")


@pytest.mark.parametrize("options", VARIANTS, ids=["standard", "multicolor", "one fuse",
                                                   "ten clues", "empty clues"])
@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_all_bot_games_are_legal_to_the_end(seats: int, options: dict[str, Any]) -> None:
    for bot in (BOT, BOT_HAT):
        moves = play_out(seats, options, seed=seats, bots=set(range(seats)), bot=bot)
        last, action = moves[-1]
        final = ENGINE.apply(last, last.turn, action)[0]
        assert final.over in ("perfect", "deck_out", "strikeout")


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_legal_beside_players_who_ignore_the_conventions(seats: int) -> None:
    # random partners give clues no convention explains: the bot must cope, never raise
    for seed in range(6):
        options = VARIANTS[seed % len(VARIANTS)]
        bot = BOT_HAT if seed % 2 else BOT
        assert play_out(seats, options, seed, bots={0, seats - 1}, bot=bot)


def test_deterministic_and_ignores_the_rng() -> None:
    for state, action in play_out(3, STANDARD, 11, bots={0, 1, 2})[::7]:
        view = ENGINE.view(state, state.turn)
        legal = ENGINE.legal_actions(state, state.turn)
        for seed in (1, 2, 3):
            assert BOT.choose(view, legal, [], bot_rng(seed, 4, state.turn)) == action


@pytest.mark.parametrize("bot", [BOT, BOT_HAT], ids=["human", "hat"])
@pytest.mark.parametrize("seats", [2, 4])
def test_sees_only_its_seats_view(seats: int, bot: HanabiBot) -> None:
    """Re-dealing everything hidden from the seat (its own hand and the deck) changes
    neither its view nor its move."""
    rng = Rng.from_seed(99)
    for state, action in play_out(seats, STANDARD, 5, bots=set(range(seats)), bot=bot)[::5]:
        seat = state.turn
        view = ENGINE.view(state, seat)
        for _ in range(3):
            other = ENGINE.scramble(state, seat, rng)
            assert ENGINE.view(other, seat) == view
            legal = ENGINE.legal_actions(other, seat)
            assert bot.choose(ENGINE.view(other, seat), legal, [], rng) == action


def test_a_broken_view_falls_back_to_a_safe_move() -> None:
    state = position([["r1", "g1", "k1", "b1", "y1"], ["r2", "g2", "k2", "b2", "y2"]],
                     [{"type": "clue", "target": 1, "rank": 2},
                      {"type": "discard", "card": 5}])
    view = ENGINE.view(state, 0)
    view["log"] = []  # the hands no longer match what the log deals
    legal = ENGINE.legal_actions(state, 0)
    with pytest.raises(ValueError):
        Turn(view)
    with pytest.raises(ValueError):
        Hat(view)
    for bot in (BOT, BOT_HAT):
        move = bot.choose(view, legal, [], Rng(1))
        assert move == fallback(view, legal) == next(a for a in legal if a["type"] == "clue")


# --------------------------------------------------------------------------- conventions


def test_plays_a_card_clued_as_playable() -> None:
    hands = [["k3", "b4", "g4", "r1", "y3"], ["k4", "b3", "g3", "r3", "y4"]]
    by_rank = position(hands, [{"type": "clue", "target": 0, "rank": 1}], first=1)
    assert decide(by_rank) == {"type": "play", "card": ids(by_rank, 0)[3]}
    by_color = position(hands, [{"type": "clue", "target": 0, "color": "red"}], first=1)
    assert decide(by_color) == {"type": "play", "card": ids(by_color, 0)[3]}


def test_a_card_clued_to_follow_a_known_card_waits_for_it() -> None:
    # seat 1 is told its newest card is black (so: black 1), then seat 0 is told "2" on
    # its black 2: it plays it only once black 1 is on the table
    hands = [["k3", "b4", "g4", "k2", "y3"], ["b4", "b3", "g3", "r3", "k1"]]
    state = position(hands, [{"type": "clue", "target": 1, "color": "black"},
                             {"type": "clue", "target": 0, "rank": 2}], top=["y4", "y4"])
    black_2 = ids(state, 0)[3]
    move = decide(state)
    assert move != {"type": "play", "card": black_2}
    state, _ = ENGINE.apply(state, 0, move)
    state, _ = ENGINE.apply(state, 1, {"type": "play", "card": ids(state, 1)[4]})
    assert state.fireworks()["black"] == 1
    assert decide(state) == {"type": "play", "card": black_2}


def test_saves_a_critical_card_on_the_next_players_chop() -> None:
    hands = [["r1", "b1", "g1", "y1", "k1"], ["g5", "r3", "b4", "y3", "k4"],
             ["r4", "b3", "y4", "k3", "g3"]]
    state = position(hands, [{"type": "clue", "target": 2, "rank": 3},
                             {"type": "clue", "target": 1, "rank": 3}], first=1)
    assert state.turn == 0 and state.clues == 6
    move = decide(state)
    assert move["type"] == "clue" and move["target"] == 1
    assert move.get("rank") == 5 or move.get("color") == "green"


def test_discards_its_chop_when_nothing_is_worth_a_clue() -> None:
    hands = [["k3", "b4", "g4", "r4", "y3"], ["g4", "r3", "b4", "y3", "k4"],
             ["r4", "b3", "y4", "k3", "g3"]]
    state = position(hands, [{"type": "clue", "target": 2, "rank": 3},
                             {"type": "clue", "target": 1, "rank": 3}], first=1)
    assert state.turn == 0 and state.clues == 6
    # nothing playable or worth saving in sight: the oldest card nobody clued goes
    assert decide(state) == {"type": "discard", "card": ids(state, 0)[0]}


def test_discards_a_card_it_knows_is_useless_before_its_chop() -> None:
    hands = [["k3", "b4", "r1", "g4", "y4"], ["k4", "b3", "g3", "y3", "r1"],
             ["k3", "b3", "r3", "g4", "y4"]]
    state = position(hands, [
        {"type": "clue", "target": 1, "rank": 1},  # seat 0: seat 1's red 1
        {"type": "play", "card": 9},  # seat 1 plays it
        {"type": "clue", "target": 0, "color": "red"},  # seat 2: seat 0's red card
        {"type": "clue", "target": 2, "rank": 3},  # seat 0
        {"type": "clue", "target": 0, "rank": 1},  # seat 1: that red card is a 1
        {"type": "clue", "target": 1, "rank": 4},  # seat 2
    ], top=["k5"])
    assert state.turn == 0 and state.fireworks()["red"] == 1
    assert decide(state) == {"type": "discard", "card": ids(state, 0)[2]}


def test_never_discards_with_every_clue_token_in_hand() -> None:
    state = position([["k3", "b4", "g4", "r4", "y3"], ["k4", "b3", "g3", "r3", "y4"]])
    assert state.clues == state.max_clues
    assert decide(state)["type"] == "clue"


def test_does_not_risk_the_last_fuse() -> None:
    # in the last round with one fuse left, a card not known to be playable is not tried
    one_fuse = {**STANDARD, "fuses": 1}
    for seed in range(4):
        for state, action in play_out(2, one_fuse, seed, bots={0, 1}):
            if action["type"] == "play":
                seat = state.turn
                card = next(c for c in state.hands[seat] if c.id == action["card"])
                assert state.fireworks()[card.color] == card.rank - 1, (seed, action)


def test_tries_its_likeliest_card_on_its_last_turn_with_a_fuse_to_spare() -> None:
    for seed in range(6):
        for state, action in play_out(2, STANDARD, seed, bots={0, 1}):
            if not state.deck and state.fuses >= 2 and action["type"] == "discard":
                turn = Turn(ENGINE.view(state, state.turn))
                card, chance, _ = turn.gamble()
                assert chance == 0, (seed, action)
