"""Scenario tests for the Ikebana engine, built from hand-made states (RULES.md §2)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence

import pytest

from app.games.base import BadOptions, IllegalAction, event_for
from app.games.ikebana import ENGINE, IkebanaState
from app.games.ikebana.data import CARDS, Card
from app.games.ikebana.rules import next_starter, payee

R, G, K, B, Y, W = "red", "green", "black", "blue", "yellow", "wild"


def make_state(
    seats: int,
    *,
    draws: Sequence[Card] = (),
    piles: dict[int, Sequence[Card]] | None = None,
    bouquets: dict[int, Sequence[Card]] | None = None,
    prestige: Sequence[int] | None = None,
    current: int = 0,
    round_: int = 1,
    starter: int | None = None,
    double: bool = False,
    deck_rest: bool = True,
) -> IkebanaState:
    """A state whose next draws are ``draws`` (in order); unused cards fill the deck bottom
    (or are left out of the game entirely when ``deck_rest`` is false)."""
    free = list(range(len(CARDS)))

    def take(card: Card) -> int:
        for cid in free:
            if CARDS[cid] == card:
                free.remove(cid)
                return cid
        raise AssertionError(f"no card {card} left")

    pile_ids = [[take(c) for c in (piles or {}).get(s, ())] for s in range(seats)]
    bouquet_ids = [[take(c) for c in (bouquets or {}).get(s, ())] for s in range(seats)]
    draw_ids = [take(c) for c in draws]
    deck = (free if deck_rest else []) + draw_ids[::-1]
    return IkebanaState(
        seats=seats, options={"final_bouquet_double": double}, rng=12345, round=round_,
        starter=current if starter is None else starter, current=current, deck=deck,
        piles=pile_ids, bouquets=bouquet_ids,
        prestige=list(prestige) if prestige is not None else [6] * seats,
    )


def play(state: IkebanaState, seat: int, action: dict) -> tuple[IkebanaState, list[dict]]:
    before = ENGINE.dump(state)
    new, events = ENGINE.apply(state, seat, action)
    assert ENGINE.dump(state) == before
    assert ENGINE.load(json.loads(json.dumps(ENGINE.dump(new)))) == new
    return new, event_for(events, None)


def cards_of(ids: Sequence[int]) -> list[Card]:
    return [CARDS[c] for c in ids]


# --------------------------------------------------------------------------- setup


def test_setup() -> None:
    state = ENGINE.setup(4, {}, seed=7)
    assert sorted(ENGINE.all_cards(state)) == list(range(55))
    assert len(state.deck) == 55 and state.prestige == [6, 6, 6, 6]
    assert state.options == {"final_bouquet_double": False, "first_seat": "random"}
    assert Counter(c for c, _ in CARDS) == {R: 10, G: 10, K: 10, B: 10, Y: 10, W: 5}
    assert sorted(n for c, n in CARDS if c == R) == [1, 1, 1, 2, 2, 3, 3, 4, 4, 5]
    assert sorted(n for c, n in CARDS if c == W) == [1, 2, 3, 4, 5]
    assert ENGINE.setup(4, {}, seed=7) == state
    assert ENGINE.to_act(state) == {state.starter} and state.current == state.starter
    starters = {ENGINE.setup(5, {}, seed=s).starter for s in range(40)}
    assert starters == {0, 1, 2, 3, 4}  # round 1's start player comes from the seeded RNG


@pytest.mark.parametrize("seats", [1, 6])
def test_player_count(seats: int) -> None:
    with pytest.raises(BadOptions):
        ENGINE.setup(seats, {}, seed=1)


def test_options() -> None:
    with pytest.raises(BadOptions):
        ENGINE.setup(3, {"final_bouquet_double": "yes"}, seed=1)
    with pytest.raises(BadOptions):
        ENGINE.setup(3, {"nope": True}, seed=1)
    assert ENGINE.setup(3, {"final_bouquet_double": True}, 1).options["final_bouquet_double"]
    assert ENGINE.catalogue_entry()["options"][0] == {
        "name": "final_bouquet_double", "type": "bool", "default": False}


# --------------------------------------------------------------------------- rejecting


def test_payee_order() -> None:
    assert [payee(2, 0, k) for k in range(1, 5)] == [1, 1, 1, 1]
    assert [payee(2, 1, k) for k in range(1, 5)] == [0, 0, 0, 0]
    assert [payee(3, 0, k) for k in range(1, 5)] == [1, 2, 1, 2]
    assert [payee(3, 2, k) for k in range(1, 5)] == [0, 1, 0, 1]
    assert [payee(5, 3, k) for k in range(1, 7)] == [4, 0, 1, 2, 4, 0]


def test_rulebook_rejection_example_three_players() -> None:
    """María (0) pays Luis (1) 1, Sandra (2) 2, then Luis 3, then Sandra 4."""
    draws = [(R, 1), (G, 2), (K, 3), (B, 4), (Y, 5)]
    state = make_state(3, draws=draws, prestige=[10, 0, 0])
    state, events = play(state, 0, {"type": "draw"})
    assert events == [{"type": "drew", "seat": 0, "card": {"colour": R, "number": 1},
                       "deck": 54}]
    paid = []
    for _ in range(4):
        assert {"type": "reject"} in ENGINE.legal_actions(state, 0)
        state, events = play(state, 0, {"type": "reject"})
        rejected = events[0]
        assert rejected["type"] == "rejected" and events[1]["type"] == "drew"
        paid.append((rejected["price"], rejected["to"]))
    assert paid == [(1, 1), (2, 2), (3, 1), (4, 2)]
    assert state.prestige == [0, 4, 6]
    assert cards_of(state.piles[0]) == draws[:4]
    assert CARDS[state.hand or 0] == (Y, 5)
    assert ENGINE.legal_actions(state, 0) == [{"type": "keep"}]  # 0 prestige left
    state, events = play(state, 0, {"type": "keep"})
    assert events == [{"type": "kept", "seat": 0, "card": {"colour": Y, "number": 5}}]
    assert cards_of(state.bouquets[0]) == [(Y, 5)] and state.current == 1
    assert state.rejections == 0 and state.hand is None


def test_two_players_pay_the_opponent() -> None:
    state = make_state(2, draws=[(R, 1), (R, 2), (R, 3)], prestige=[6, 6], current=1)
    state, _ = play(state, 1, {"type": "draw"})
    state, ev1 = play(state, 1, {"type": "reject"})
    state, ev2 = play(state, 1, {"type": "reject"})
    assert (ev1[0]["price"], ev1[0]["to"], ev2[0]["price"], ev2[0]["to"]) == (1, 0, 2, 0)
    assert state.prestige == [9, 3]


def test_five_players_wrap_and_skip_self() -> None:
    draws = [(R, 1), (R, 1), (R, 1), (R, 2), (R, 2), (R, 3)]
    state = make_state(5, draws=draws, prestige=[0, 0, 0, 20, 0], current=3)
    state, _ = play(state, 3, {"type": "draw"})
    paid = []
    for _ in range(5):
        view = ENGINE.view(state, None)
        state, events = play(state, 3, {"type": "reject"})
        paid.append((events[0]["price"], events[0]["to"]))
        assert view["reject_price"] == {"amount": paid[-1][0], "to": paid[-1][1],
                                        "affordable": True}
    assert paid == [(1, 4), (2, 0), (3, 1), (4, 2), (5, 4)]
    assert state.prestige == [2, 3, 4, 5, 6]


def test_cannot_reject_without_prestige() -> None:
    state = make_state(3, draws=[(R, 1), (R, 2), (R, 3)], prestige=[2, 6, 6])
    state, _ = play(state, 0, {"type": "draw"})
    state, _ = play(state, 0, {"type": "reject"})  # costs 1, leaves 1
    assert state.prestige[0] == 1
    assert ENGINE.legal_actions(state, 0) == [{"type": "keep"}]
    assert ENGINE.view(state, 0)["reject_price"] == {"amount": 2, "to": 2,
                                                     "affordable": False}
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, 0, {"type": "reject"})
    assert err.value.code == "cannot_pay"
    broke = make_state(2, draws=[(R, 1)], prestige=[0, 6])
    broke, _ = play(broke, 0, {"type": "draw"})
    assert ENGINE.legal_actions(broke, 0) == [{"type": "keep"}]


def test_keep_and_reject_need_a_drawn_card() -> None:
    state = make_state(2, draws=[(R, 1)])
    for kind in ("keep", "reject"):
        with pytest.raises(IllegalAction) as err:
            ENGINE.apply(state, 0, {"type": kind})
        assert err.value.code == "not_drawing"
    state, _ = play(state, 0, {"type": "draw"})
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, 0, {"type": "draw"})
    assert err.value.code == "already_drawing"


# --------------------------------------------------------------------------- buying


def test_buying() -> None:
    state = make_state(3, piles={0: [(R, 5)], 1: [(G, 2), (B, 4)], 2: []},
                       prestige=[6, 3, 6], current=1)
    # seat 1 has 3 prestige: cannot afford seat 0's 5, cannot buy its own pile, 2 is empty
    assert ENGINE.legal_actions(state, 1) == [{"type": "draw"}]
    for source, code in ((0, "cannot_pay"), (1, "own_pile"), (2, "empty_pile"),
                         (3, "bad_action"), (-1, "bad_action")):
        with pytest.raises(IllegalAction) as err:
            ENGINE.apply(state, 1, {"type": "buy", "from": source})
        assert err.value.code == code
    for junk in ({"type": "buy"}, {"type": "buy", "from": "0"}, {"type": "buy", "from": True}):
        with pytest.raises(IllegalAction) as err:
            ENGINE.apply(state, 1, junk)
        assert err.value.code == "bad_action"

    state.current = 2
    assert ENGINE.legal_actions(state, 2) == [
        {"type": "draw"}, {"type": "buy", "from": 0}, {"type": "buy", "from": 1}]
    after, events = play(state, 2, {"type": "buy", "from": 1})
    assert events == [{"type": "bought", "seat": 2, "from": 1,
                       "card": {"colour": B, "number": 4}, "price": 4}]
    assert after.prestige == [6, 7, 2]
    assert cards_of(after.bouquets[2]) == [(B, 4)]
    assert cards_of(after.piles[1]) == [(G, 2)]  # the card underneath is now the top
    assert ENGINE.view(after, None)["players"][1]["pile"] == {
        "size": 1, "top": {"colour": G, "number": 2}}
    assert after.current == 0


def test_cannot_buy_after_drawing() -> None:
    state = make_state(2, draws=[(R, 1)], piles={1: [(G, 1)]})
    assert {"type": "buy", "from": 1} in ENGINE.legal_actions(state, 0)
    state, _ = play(state, 0, {"type": "draw"})
    assert {"type": "buy", "from": 1} not in ENGINE.legal_actions(state, 0)
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, 0, {"type": "buy", "from": 1})
    assert err.value.code == "already_drawing"


def test_buy_exactly_what_you_can_pay() -> None:
    state = make_state(2, piles={1: [(K, 4)]}, prestige=[4, 0])
    state, _ = play(state, 0, {"type": "buy", "from": 1})
    assert state.prestige == [0, 4]


# --------------------------------------------------------------------------- reshuffle


def test_reshuffle_when_the_deck_runs_out_keeps_the_tops() -> None:
    piles = {0: [(R, 1), (R, 2)], 1: [(G, 1), (G, 2), (G, 3)], 2: [(B, 5)]}
    state = make_state(3, piles=piles, draws=[(Y, 4)], deck_rest=False)
    total = Counter(ENGINE.all_cards(state))
    state, events = play(state, 0, {"type": "draw"})
    assert [e["type"] for e in events] == ["drew"] and state.deck == []  # lazy: no reshuffle
    state, events = play(state, 0, {"type": "reject"})
    assert [e["type"] for e in events] == ["rejected", "reshuffled", "drew"]
    assert events[1] == {"type": "reshuffled", "cards": 4}
    assert cards_of([p[-1] for p in state.piles]) == [(Y, 4), (G, 3), (B, 5)]
    assert all(len(p) == 1 for p in state.piles)
    drawn = CARDS[state.hand or 0]
    assert sorted([*cards_of(state.deck), drawn]) == sorted([(R, 1), (R, 2), (G, 1), (G, 2)])
    assert Counter(ENGINE.all_cards(state)) == total


def test_reshuffle_on_a_plain_draw_and_view_hides_the_deck() -> None:
    piles = {0: [(R, 1), (R, 2)], 1: [(G, 1), (G, 2)]}
    state = make_state(2, piles=piles, deck_rest=False, current=1)
    view = ENGINE.view(state, 0)
    assert view["deck"] == 0
    assert [p["pile"] for p in view["players"]] == [
        {"size": 2, "top": {"colour": R, "number": 2}},
        {"size": 2, "top": {"colour": G, "number": 2}}]
    state, events = play(state, 1, {"type": "draw"})
    assert [e["type"] for e in events] == ["reshuffled", "drew"]
    assert len(state.deck) == 1 and cards_of([state.piles[0][-1], state.piles[1][-1]]) == [
        (R, 2), (G, 2)]


def test_no_card_to_draw_is_never_offered() -> None:
    """Degenerate hand-made state (impossible with 55 cards): nothing to draw, a pile top
    to buy. Draw is not offered; a drawn card that cannot be replaced cannot be rejected."""
    state = make_state(2, piles={0: [(R, 1)]}, deck_rest=False, current=1)
    assert ENGINE.legal_actions(state, 1) == [{"type": "buy", "from": 0}]
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, 1, {"type": "draw"})
    assert err.value.code == "no_cards"
    one = make_state(2, draws=[(R, 1)], deck_rest=False)
    one, _ = play(one, 0, {"type": "draw"})
    assert ENGINE.legal_actions(one, 0) == [{"type": "keep"}]
    # with an old top under the rejected card, that top becomes the new deck
    two = make_state(2, draws=[(R, 1)], piles={0: [(G, 3)]}, deck_rest=False)
    two, _ = play(two, 0, {"type": "draw"})
    assert ENGINE.legal_actions(two, 0) == [{"type": "keep"}, {"type": "reject"}]
    two, events = play(two, 0, {"type": "reject"})
    assert CARDS[two.hand or 0] == (G, 3) and cards_of(two.piles[0]) == [(R, 1)]


# --------------------------------------------------------------------------- rounds


FIVE_FIVES = [(R, 5), (G, 5), (K, 1), (B, 2), (R, 3)]  # a pair of 5s, no bonus: 10
NOTHING = [(R, 1), (G, 2), (K, 3), (B, 5), (Y, 1)]  # a pair of 1s, multicolor: 2*3 = 6


def test_round_end_scoring_and_next_round() -> None:
    state = make_state(2, bouquets={0: FIVE_FIVES, 1: NOTHING[:4]}, draws=[NOTHING[4]], current=1,
                       starter=0)
    state, _ = play(state, 1, {"type": "draw"})
    state, events = play(state, 1, {"type": "keep"})
    assert [e["type"] for e in events] == ["kept", "round_scored", "round_started"]
    result = events[1]
    assert result["round"] == 1 and result["doubled"] is False
    assert [p["points"] for p in result["players"]] == [10, 6]
    assert [p["prestige"] for p in result["players"]] == [16, 12]
    assert result["players"][0]["score"]["combinations"] == [
        {"kind": "pair", "cards": [0, 1], "numbers": [5, 5], "points": 10}]
    assert state.round == 2 and state.prestige == [16, 12]
    assert events[2] == {"type": "round_started", "round": 2, "starter": 0}
    assert state.current == 0 and state.starter == 0
    assert len(state.deck) == 55 and state.piles == [[], []] and state.bouquets == [[], []]
    view = ENGINE.view(state, None)
    assert view["last_round"] == {k: v for k, v in result.items() if k != "type"}
    assert view["rounds"] == [{"round": 1, "starter": 0, "doubled": False, "points": [10, 6],
                               "prestige": [16, 12]}]


def test_start_player_after_a_round() -> None:
    assert next_starter([10, 30, 20], previous=0) == 1
    # ties: the tied player nearest clockwise from the previous starter (itself included)
    assert next_starter([30, 10, 30, 30], previous=1) == 2
    assert next_starter([30, 10, 30, 30], previous=3) == 3
    assert next_starter([30, 10, 10, 30], previous=2) == 3
    assert next_starter([30, 10, 10, 20], previous=3) == 0


def test_start_player_tie_through_play() -> None:
    # seat 2 started; seats 0 and 1 tie on top; clockwise from 2: 2, 0, 1 -> seat 0 starts
    bouquets = {0: FIVE_FIVES, 1: [(Y, 5), (K, 5), (G, 1), (K, 2), (Y, 3)], 2: NOTHING[:4]}
    state = make_state(3, bouquets=bouquets, draws=[NOTHING[4]], current=2, starter=2)
    state, _ = play(state, 2, {"type": "draw"})
    state, _ = play(state, 2, {"type": "keep"})
    assert state.prestige == [16, 16, 12] and state.starter == 0 and state.current == 0


@pytest.mark.parametrize("double", [False, True])
def test_final_bouquet_double(double: bool) -> None:
    state = make_state(2, bouquets={0: FIVE_FIVES, 1: NOTHING[:4]}, draws=[NOTHING[4]], current=1,
                       round_=4, double=double, prestige=[20, 30])
    assert ENGINE.view(state, None)["doubled_round"] is double
    state, _ = play(state, 1, {"type": "draw"})
    state, events = play(state, 1, {"type": "keep"})
    factor = 2 if double else 1
    assert [e["type"] for e in events] == ["kept", "round_scored", "game_over"]
    assert events[1]["doubled"] is double
    assert state.prestige == [20 + 10 * factor, 30 + 6 * factor]
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.scores == tuple(state.prestige)
    assert outcome.details["final_bouquet_double"] is double
    assert ENGINE.to_act(state) == set() and ENGINE.legal_actions(state, 1) == []
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, 1, {"type": "draw"})
    assert err.value.code == "game_over"


def test_only_the_fourth_round_is_doubled() -> None:
    state = make_state(2, bouquets={0: FIVE_FIVES, 1: NOTHING[:4]}, draws=[NOTHING[4]], current=1,
                       round_=3, double=True)
    state, _ = play(state, 1, {"type": "draw"})
    state, events = play(state, 1, {"type": "keep"})
    assert events[1]["doubled"] is False and state.prestige == [16, 12]


def test_tie_shares_the_victory() -> None:
    low = [(G, 1), (R, 2), (B, 3), (K, 5), (K, 1)]  # a pair of 1s, four colours: 2
    state = make_state(3, bouquets={0: FIVE_FIVES, 1: NOTHING[:4], 2: low}, draws=[NOTHING[4]],
                       current=1, round_=4, prestige=[10, 14, 3])
    state, _ = play(state, 1, {"type": "draw"})
    state, events = play(state, 1, {"type": "keep"})
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.scores == (20, 20, 5)
    assert outcome.winners == (0, 1) and outcome.ranking == ((0, 1), (2,))
    assert events[-1] == {"type": "game_over", "scores": [20, 20, 5], "winners": [0, 1]}
    assert ENGINE.view(state, 2)["outcome"] == outcome.to_json()


def test_outcome_details_per_round() -> None:
    from tests.games.conformance import playout

    final, _ = playout(ENGINE, 3, {"final_bouquet_double": True}, seed=5, deep_checks=False)
    outcome = ENGINE.outcome(final)
    assert outcome is not None
    rounds = outcome.details["rounds"]
    assert [r["round"] for r in rounds] == [1, 2, 3, 4]
    assert [r["doubled"] for r in rounds] == [False, False, False, True]
    for r in rounds:
        for p in r["players"]:
            assert len(p["bouquet"]) == 5
            assert p["points"] == p["score"]["total"] * (2 if r["doubled"] else 1)
    assert [p["prestige"] for p in rounds[-1]["players"]] == list(outcome.scores)


# --------------------------------------------------------------------------- input, views


def test_bad_input_never_mutates() -> None:
    state = make_state(3, draws=[(R, 1)], current=1)
    for seat, action, code in (
        (0, {"type": "draw"}, "not_your_turn"),
        (1, {"type": "fly"}, "unknown_action"),
        (1, {}, "bad_action"),
        (1, {"type": 3}, "bad_action"),
        (1, {"type": "draw", "x": []}, "bad_action"),
        (1, ["draw"], "bad_action"),
        (1, {"type": "draw", 1: 2, "z": 3}, "bad_action"),
        (1, {"type": "keep"}, "not_drawing"),
        (1, {"type": "buy", "from": 0}, "empty_pile"),
    ):
        before = ENGINE.dump(state)
        with pytest.raises(IllegalAction) as err:
            ENGINE.apply(state, seat, action)  # type: ignore[arg-type]
        assert err.value.code == code, action
        assert ENGINE.dump(state) == before


def test_timeout_action_is_free() -> None:
    state = make_state(2, draws=[(R, 1)], piles={1: [(G, 1)]})
    assert ENGINE.timeout_action(state, 0) == {"type": "draw"}
    state, _ = play(state, 0, {"type": "draw"})
    assert ENGINE.timeout_action(state, 0) == {"type": "keep"}


def test_view_shape_and_hidden_cards() -> None:
    state = make_state(3, piles={0: [(R, 1), (B, 5)], 1: [], 2: [(Y, 2)]},
                       bouquets={0: [(G, 4)], 1: [(W, 3)]}, draws=[(K, 2)], current=1,
                       prestige=[6, 7, 8])
    state, _ = play(state, 1, {"type": "draw"})
    view = ENGINE.view(state, 2)
    assert view == {
        "game": "ikebana", "seats": 3, "you": 2,
        "options": {"final_bouquet_double": False},
        "round": 1, "rounds_total": 4, "doubled_round": False, "phase": "consider",
        "starter": 1, "current": 1, "deck": 49,
        "hand": {"colour": K, "number": 2}, "rejections": 0,
        "reject_price": {"amount": 1, "to": 2, "affordable": True},
        "players": [
            {"seat": 0, "prestige": 6, "bouquet": [{"colour": G, "number": 4}],
             "pile": {"size": 2, "top": {"colour": B, "number": 5}}, "score": None, "points": None},
            {"seat": 1, "prestige": 7, "bouquet": [{"colour": W, "number": 3}],
             "pile": {"size": 0, "top": None}, "score": None, "points": None},
            {"seat": 2, "prestige": 8, "bouquet": [],
             "pile": {"size": 1, "top": {"colour": Y, "number": 2}}, "score": None, "points": None},
        ],
        "starting_prestige": 6,
        "rounds": [], "last_round": None, "legal": [], "outcome": None,
    }
    assert ENGINE.view(state, 1)["legal"] == [{"type": "keep"}, {"type": "reject"}]
    assert ENGINE.view(state, None)["you"] is None
    # the card under seat 0's top, and the deck, appear nowhere in any view
    text = json.dumps(ENGINE.view(state, None))
    assert '"number": 1' not in text


@pytest.mark.parametrize("double", [False, True])
def test_a_finished_bouquet_says_what_it_will_add(double: bool) -> None:
    """While the others finish the round, a complete bouquet's score shows, and the points it
    will add: doubled in the fourth round of the "final bouquet" variant (the score alone
    read 10 for a bouquet that then added 20)."""
    state = make_state(2, bouquets={1: FIVE_FIVES[:4]}, draws=[FIVE_FIVES[4], (R, 1)],
                       current=1, round_=4, double=double)
    state, _ = play(state, 1, {"type": "draw"})
    state, _ = play(state, 1, {"type": "keep"})
    player = ENGINE.view(state, 0)["players"][1]
    assert player["score"]["total"] == 10  # FIVE_FIVES: a pair of 5s, no bonus
    assert player["points"] == (20 if double else 10)
    assert ENGINE.view(state, 0)["players"][0]["points"] is None  # not finished yet


def test_scramble_redeals_only_hidden_cards() -> None:
    from app.games.base import Rng

    state = make_state(3, piles={0: [(R, 1), (R, 2), (B, 5)], 2: [(Y, 2)]},
                       bouquets={0: [(G, 4)]})
    other = ENGINE.scramble(state, 1, Rng(99))
    assert Counter(ENGINE.all_cards(other)) == Counter(ENGINE.all_cards(state))
    assert [p[-1:] for p in other.piles] == [p[-1:] for p in state.piles]
    assert [len(p) for p in other.piles] == [3, 0, 1] and len(other.deck) == len(state.deck)
    assert other.bouquets == state.bouquets and other.deck != state.deck
    for seat in (None, 0, 1, 2):
        assert ENGINE.view(other, seat) == ENGINE.view(state, seat)


def test_first_seat_option_picks_the_first_round_starter() -> None:
    for seat in range(4):
        state = ENGINE.setup(4, {"first_seat": seat}, 5)
        assert state.starter == seat and state.current == seat
    with pytest.raises(BadOptions):
        ENGINE.setup(2, {"first_seat": 2}, 5)
