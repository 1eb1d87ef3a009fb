"""Who plays which part in each round of Block and Guess (RULES.md §6): teams, builders,
guessers, the first player, and how many rounds a table plays.

Teams (4+ players): seats alternate teams (seat % 2), so teammates sit apart as the rulebook
asks and teams are as even as possible. Each team's builders rotate through its members,
starting with the first player's team at the first player and the other team at its first
member after the first player. The first player of a round is the builder who has been first
player least often, and on a tie the builder whose team did not have the first player in the
previous round (this reproduces the rulebook's 4-player order and the 6-player alternation).

Rounds (**Ruling** where RULES.md leaves a choice): 3 players: 6 (each guesses twice);
4: 4; 6: 6; 5, 7 and 8: as many as the larger team has members (everyone builds once or
twice). A tie for the most points adds rounds, at most ``MAX_EXTRA_ROUNDS`` (after which the
tied leaders share the win: a house ruling so a game always ends).
"""

from __future__ import annotations

from typing import Any

MAX_EXTRA_ROUNDS = 10


def teams_for(seats: int) -> list[list[int]]:
    if seats == 3:
        return [[0], [1], [2]]
    return [[s for s in range(seats) if s % 2 == t] for t in range(2)]


def planned_rounds(seats: int) -> int:
    if seats == 3:
        return 6
    if seats in (4, 6):
        return seats
    return (seats + 1) // 2


def team_of(state: Any, seat: int) -> int:
    return next(t for t, members in enumerate(state["teams"]) if seat in members)


def rotation(seats: int, start: int, members: list[int]) -> list[int]:
    """A team's members in building order: from the first seat at or after ``start``."""
    return sorted(members, key=lambda s: (s - start) % seats)


def round_roles(state: Any, index: int) -> tuple[list[int], int]:
    """(builders with the first player first, first player) for round ``index`` (0-based).
    Uses and updates ``state["first_counts"]`` and ``state["last_first_team"]``."""
    seats, start = state["seats"], state["start"]
    if seats == 3:
        first = (start + index) % 3
        return [first, (first + 1) % 3], first
    builders = []
    for members in state["teams"]:
        order = rotation(seats, start, members)
        builders.append(order[index % len(order)])
    if index == 0:
        first = start
    else:
        counts = state["first_counts"]
        last = state["last_first_team"]
        first = min(builders, key=lambda b: (counts[b], team_of(state, b) == last))
    other = next(b for b in builders if b != first)
    return [first, other], first


def guessers_of(state: Any, builder: int) -> list[int]:
    """The seats who guess ``builder``'s build this round."""
    if state["seats"] == 3:
        return [s for s in range(3) if s not in state["builders"]]
    return [s for s in state["teams"][team_of(state, builder)] if s != builder]
