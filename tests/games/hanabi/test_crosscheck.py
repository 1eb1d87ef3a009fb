"""Cross-check of our Hanabi engine against OpenSpiel's ``hanabi`` (DeepMind's HLE inside).

How the two engines are kept in step:

- Options: ``empty_clues`` off and no multicolor (OpenSpiel has neither), 8 clue tokens,
  3 fuses, hand size 5 for 2-3 players and 4 for 4-5.
- Colours: ours red, yellow, green, black, blue are OpenSpiel's R, Y, G, W, B (any
  bijection would do; this one is fixed).
- Seats: OpenSpiel always starts with player 0, ours starts with the seat the RNG picked
  (``state.turn`` after ``setup``). We keep our setup untouched and rotate instead:
  OpenSpiel player ``p`` is our seat ``(p + first) % n``. Both engines deal whole hands,
  player after player (OpenSpiel: "the first player whose hand is not full", i.e. player 0
  first). So at OpenSpiel's initial chance nodes we feed it the hand of our seat ``first``,
  then ``first + 1``, ..., each in draw order, and after that every later draw comes from
  ``HanabiEngine.deal_order`` past the initial hands, in order. Card positions agree because
  both engines drop a played or discarded card from the hand and append the new one.
- Moves: chosen from OUR legal actions (random, or a bot that looks at its own cards so
  that long games, deck-outs and perfect games happen too), mapped to OpenSpiel's action by
  its string ("(Play 2)", "(Discard 0)", "(Reveal player +1 color R)", ...).

After every move both engines must agree on: the legal moves (mapped), clue and fuse
tokens, fireworks, deck size, every hand, what every card's holder was told (HLE's
"RX|R12345" notation: the hinted colour and rank, then the colours and ranks still
possible, negative clues included), the discard pile, whose turn it is, the end of the
game and the final score (strikeout scores 0 in both).
"""

from __future__ import annotations

import random
import re
import time

import pytest

from app.games.hanabi.data import COLORS
from app.games.hanabi.rules import ENGINE, Card, HanabiEngine, HanabiState

pyspiel = pytest.importorskip("pyspiel")

LETTER = {"red": "R", "yellow": "Y", "green": "G", "black": "W", "blue": "B"}
COLOR_OF = {v: k for k, v in LETTER.items()}
OPTIONS = {"empty_clues": False}
# the rulebook's hand sizes, written out (not read from our data file) so both are checked
HAND_SIZE = {2: 5, 3: 5, 4: 4, 5: 4}

assert set(LETTER) == set(COLORS)


def os_game(players: int):
    return pyspiel.load_game("hanabi", {
        "players": players, "colors": 5, "ranks": 5, "hand_size": HAND_SIZE[players],
        "max_information_tokens": 8, "max_life_tokens": 3,
        "observation_type": "card_knowledge",
    })


def card_str(color: str, rank: int) -> str:
    return f"{LETTER[color]}{rank}"


def deal(os_state, color: str, rank: int) -> None:
    """At an OpenSpiel chance node, deal exactly this card."""
    assert os_state.is_chance_node()
    wanted = f"(Deal {card_str(color, rank)})"
    for action, prob in os_state.chance_outcomes():
        if os_state.action_to_string(action) == wanted:
            assert prob > 0
            os_state.apply_action(action)
            return
    raise AssertionError(f"OpenSpiel cannot deal {wanted}")


def to_os(state: HanabiState, seat: int, action: dict) -> str:
    """Our action as OpenSpiel's action string."""
    if action["type"] in ("play", "discard"):
        ids = [c.id for c in state.hands[seat]]
        verb = "Play" if action["type"] == "play" else "Discard"
        return f"({verb} {ids.index(action['card'])})"
    offset = (action["target"] - seat) % state.seats
    if "color" in action:
        return f"(Reveal player +{offset} color {LETTER[action['color']]})"
    return f"(Reveal player +{offset} rank {action['rank']})"


def parse_os(os_state) -> dict:
    """What OpenSpiel's full state string says: tokens, fireworks, hands, deck, discards."""
    text = str(os_state)
    lives = int(re.search(r"^Life tokens: (\d+)$", text, re.M).group(1))
    info = int(re.search(r"^Info tokens: (\d+)$", text, re.M).group(1))
    fw = re.search(r"^Fireworks: (.*)$", text, re.M).group(1).split()
    fireworks = {COLOR_OF[f[0]]: int(f[1:]) for f in fw}
    deck = int(re.search(r"^Deck size: (\d+)$", text, re.M).group(1))
    discards_line = re.search(r"^Discards:(.*)$", text, re.M).group(1).split()
    hands_text = text.split("Hands:\n", 1)[1].split("Deck size:", 1)[0]
    hands = []
    knowledge = []
    for block in hands_text.split("-----\n"):
        cards = re.findall(r"^([RYGWB]\d) \|\| (\S+)$", block, re.M)
        hands.append([card for card, _ in cards])
        knowledge.append([known for _, known in cards])
    return {"lives": lives, "info": info, "fireworks": fireworks, "deck": deck,
            "hands": hands, "knowledge": knowledge, "discards": sorted(discards_line)}


def knowledge_str(card: Card) -> str:
    """Our clue marks in HLE's notation: "RX|R12345" = told red, may be any rank."""
    known = card.knowledge(COLORS)
    hinted = (LETTER[known["color"]] if known["color"] else "X") + str(known["rank"] or "X")
    colors = "".join(LETTER[c] for c in sorted(known["possible_colors"],
                                              key=lambda c: "RYGWB".index(LETTER[c])))
    ranks = "".join(str(r) for r in known["possible_ranks"])
    return f"{hinted}|{colors}{ranks}"


def bot_action(state: HanabiState, seat: int, legal: list[dict], rng: random.Random,
               smart: float) -> dict:
    """Random, or (with probability ``smart``) a cheating bot that sees its own cards."""
    if rng.random() >= smart:
        return rng.choice(legal)
    fireworks = state.fireworks()
    hand = state.hands[seat]
    playable = [c for c in hand if fireworks[c.color] == c.rank - 1]
    if playable:
        return {"type": "play", "card": rng.choice(playable).id}
    discards = [a for a in legal if a["type"] == "discard"]
    useless = [c for c in hand if fireworks[c.color] >= c.rank]
    if discards and useless:
        return {"type": "discard", "card": useless[0].id}
    clues = [a for a in legal if a["type"] == "clue"]
    if clues and (not discards or rng.random() < 0.5):
        return rng.choice(clues)
    if discards:
        # keep the 5s: they are the only copy
        safe = [a for a in discards
                if next(c for c in hand if c.id == a["card"]).rank != 5]
        return rng.choice(safe or discards)
    return rng.choice(legal)


def compare(state: HanabiState, os_state, first: int, label: str) -> None:
    n = state.seats
    got = parse_os(os_state)
    assert got["info"] == state.clues, label
    assert got["lives"] == state.fuses, label
    assert got["fireworks"] == state.fireworks(), label
    assert got["deck"] == len(state.deck), label
    assert got["hands"] == [
        [card_str(c.color, c.rank) for c in state.hands[(p + first) % n]] for p in range(n)
    ], label
    assert got["knowledge"] == [
        [knowledge_str(c) for c in state.hands[(p + first) % n]] for p in range(n)
    ], label
    assert got["discards"] == sorted(card_str(c.color, c.rank) for c in state.discard), label
    assert os_state.is_terminal() == (state.over is not None), label
    if state.over:
        assert ENGINE.to_act(state) == set()
        assert os_state.returns() == [float(state.score())] * n, label
        return
    assert not os_state.is_chance_node(), label
    os_player = os_state.current_player()
    assert (os_player + first) % n == state.turn, label
    ours = sorted(to_os(state, state.turn, a) for a in ENGINE.legal_actions(state, state.turn))
    theirs = sorted(os_state.action_to_string(a) for a in os_state.legal_actions())
    assert ours == theirs, label


def play_game(players: int, seed: int, smart: float) -> tuple[str, int, int]:
    """One game in lockstep; returns (how it ended, score, number of moves)."""
    rng = random.Random(seed * 7919 + players)
    state = ENGINE.setup(players, OPTIONS, seed)
    first = state.turn
    n = players
    size = HAND_SIZE[n]
    order = HanabiEngine.deal_order(state)  # the cards still to draw, next one first
    game = os_game(n)
    os_state = game.new_initial_state()
    for p in range(n):
        for card in state.hands[(p + first) % n]:
            deal(os_state, card.color, card.rank)
    assert len(order) == 50 - n * size
    draws = iter(order)
    moves = 0
    compare(state, os_state, first, f"{n}p seed {seed} start")
    while state.over is None:
        assert moves < 500, "no end after 500 moves"
        seat = state.turn
        legal = ENGINE.legal_actions(state, seat)
        action = bot_action(state, seat, legal, rng, smart)
        os_action = os_state.string_to_action(to_os(state, seat, action))
        assert os_action in os_state.legal_actions()
        deck_before = len(state.deck)
        state, _ = ENGINE.apply(state, seat, action)
        os_state.apply_action(os_action)
        if len(state.deck) < deck_before:
            drawn = next(draws)
            assert state.hands[seat][-1].color == drawn[0]
            assert state.hands[seat][-1].rank == drawn[1]
            deal(os_state, *drawn)
        moves += 1
        compare(state, os_state, first, f"{n}p seed {seed} move {moves} {action}")
    return state.over, state.score(), moves


GAMES_PER_COUNT = 75  # x 4 player counts = 300 games


@pytest.mark.slow  # 300 games move by move in both engines
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_lockstep_with_openspiel(players: int) -> None:
    started = time.monotonic()
    endings: dict[str, int] = {}
    scores = []
    for i in range(GAMES_PER_COUNT):
        seed = 1000 * players + i
        smart = (0.0, 0.5, 0.9, 1.0)[i % 4]
        over, score, _moves = play_game(players, seed, smart)
        endings[over] = endings.get(over, 0) + 1
        scores.append(score)
    # the mix of bots must reach every way a game can end
    assert endings.get("strikeout", 0) > 0
    assert endings.get("deck_out", 0) > 0
    assert endings.get("perfect", 0) > 0
    assert time.monotonic() - started < 60


def test_perfect_game_in_lockstep() -> None:
    """A perfect game (25, ends at once without drawing) agrees with OpenSpiel too."""
    perfect = 0
    for seed in range(200):
        over, score, _ = play_game(2, 50_000 + seed, 1.0)
        if over == "perfect":
            assert score == 25
            perfect += 1
            if perfect >= 3:
                break
    assert perfect >= 1, "the cheating bot never reached 25"


def test_deal_order_matches_openspiel_dealing() -> None:
    """Both engines deal whole hands player after player, and draws come off the same deck."""
    state = ENGINE.setup(3, OPTIONS, 7)
    order = HanabiEngine.deal_order(state)
    os_state = os_game(3).new_initial_state()
    dealt = [(c.color, c.rank) for hand in state.hands for c in hand]
    for card in dealt:
        deal(os_state, *card)
    assert not os_state.is_chance_node()
    assert os_state.current_player() == 0
    assert parse_os(os_state)["hands"] == [
        [card_str(c.color, c.rank) for c in hand] for hand in state.hands
    ]
    assert len(order) == 50 - 15
    assert sorted(dealt + order) == sorted(
        (c, r) for c in COLORS for r, k in {1: 3, 2: 2, 3: 2, 4: 2, 5: 1}.items()
        for _ in range(k)
    )
    # ids are handed out in draw order
    assert [c.id for hand in state.hands for c in hand] == list(range(15))
