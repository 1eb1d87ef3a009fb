"""Where the cards of Allegra lie: own grids, displays of 15 and the lines that clear.

Each seat owns a grid of 3 rows x 4 columns (slots 0..11, row-major). RULES.md's general
ruling puts "to the left" at seat + 1, so seat ``s``'s display of 15 (3 rows x 5 columns,
positions 0..14, row-major) is the rightmost column of seat ``s + 1`` (display column 0,
next to ``s``'s own leftmost column) followed by ``s``'s own four columns. Seat ``s``'s own
rightmost column is therefore also column 0 of the display of seat ``s - 1`` (the player to
its right). With two players each seat's rightmost column is in the other's display.

A display position names a physical slot ``(owner, slot)``; a shared card is one slot seen
from two displays.

Lines (RULES.md §5, step 3): three equal face-up cards filling one display column, or three
equal face-up cards consecutive in one display row, where cleared spaces are skipped (the
cards either side of a gap are neighbours) but a face-down card breaks the run.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from app.games.allegra.data import DISPLAY_COLUMNS, DISPLAY_SIZE, OWN_COLUMNS, ROWS

Slot = tuple[int, int]  # (owner seat, index in the owner's 12-card grid)
CLEARED = 1000  # in a display's cells: a value no card has, the space is empty


def left_of(seats: int, seat: int) -> int:
    """The player to the left (RULES.md general ruling: increasing seat index)."""
    return (seat + 1) % seats


def right_of(seats: int, seat: int) -> int:
    return (seat - 1) % seats


def slot_at(seats: int, seat: int, pos: int) -> Slot:
    """The physical slot at display position ``pos`` (0..14) of ``seat``'s display."""
    row, col = divmod(pos, DISPLAY_COLUMNS)
    if col == 0:
        return left_of(seats, seat), row * OWN_COLUMNS + OWN_COLUMNS - 1
    return seat, row * OWN_COLUMNS + col - 1


@cache
def display_slots(seats: int, seat: int) -> tuple[Slot, ...]:
    """The 15 slots of ``seat``'s display, by display position."""
    return tuple(slot_at(seats, seat, pos) for pos in range(DISPLAY_SIZE))


def positions_of(seats: int, slot: Slot) -> list[tuple[int, int]]:
    """Every ``(seat, display position)`` that shows ``slot`` (one or two displays)."""
    owner, index = slot
    row, col = divmod(index, OWN_COLUMNS)
    out = [(owner, row * DISPLAY_COLUMNS + col + 1)]
    if col == OWN_COLUMNS - 1:
        out.append((right_of(seats, owner), row * DISPLAY_COLUMNS))
    return out


def find_lines(cells: list[int | None]) -> list[list[int]]:
    """The clearable lines of one display, as sorted lists of display positions.

    ``cells[pos]`` is the face-up value at ``pos``, ``None`` for a face-down card, or
    :data:`CLEARED` for an empty (cleared) space.
    """
    lines: list[list[int]] = []
    for col in range(DISPLAY_COLUMNS):
        column = [row * DISPLAY_COLUMNS + col for row in range(ROWS)]
        if _equal_up([cells[p] for p in column]):
            lines.append(column)
    for row in range(ROWS):
        present = [p for p in range(row * DISPLAY_COLUMNS, (row + 1) * DISPLAY_COLUMNS)
                   if cells[p] != CLEARED]
        for i in range(len(present) - 2):
            run = present[i:i + 3]
            if _equal_up([cells[p] for p in run]) and run not in lines:
                lines.append(run)
    return lines


def _equal_up(values: list[int | None]) -> bool:
    first = values[0]
    return first is not None and first != CLEARED and all(v == first for v in values)


def display_cells(seats: int, seat: int, cell: Callable[[Slot], int | None]) -> list[int | None]:
    """``cell(slot)`` for each display position of ``seat`` (see :func:`find_lines`)."""
    return [cell(slot) for slot in display_slots(seats, seat)]
