"""Block and Guess content: 36 clue cards of 7 objects in Spanish and English, 15 blocks in
five colours, 11 construction cards, 7 number cards per team."""

from __future__ import annotations

import json
from pathlib import Path

from app.games.block_and_guess import geometry as geo
from app.games.block_and_guess.data import (
    BLOCKS,
    CLUE_CARDS,
    COLOURS,
    CONSTRUCTION_CARDS,
    NUMBERS,
)

CATALOGUES = Path(__file__).resolve().parents[3] / "app" / "i18n"


def test_clue_cards() -> None:
    assert len(CLUE_CARDS) == 36
    words_es = [es for card in CLUE_CARDS for es, _ in card]
    words_en = [en for card in CLUE_CARDS for _, en in card]
    assert all(len(card) == 7 for card in CLUE_CARDS)
    assert all(w.strip() == w and w for w in words_es + words_en)
    assert len(set(words_es)) == len(words_es) == 252  # no object twice anywhere
    assert len(set(words_en)) == 252
    assert ("trompeta", "trumpet") in CLUE_CARDS[0] and ("fuente", "fountain") in CLUE_CARDS[0]


def test_blocks_and_cards() -> None:
    assert len(BLOCKS) == 15 and [b.id for b in BLOCKS] == list(range(15))
    for colour in COLOURS:
        assert sum(b.colour == colour for b in BLOCKS) == 3
    assert sorted(CONSTRUCTION_CARDS) == list(range(1, 12))
    assert NUMBERS == (1, 2, 3, 4, 5, 6, 7)
    for b in BLOCKS:
        w, h = geo.size(b.id)
        assert 10 <= w <= 120 and 10 <= h <= 80
        for part in b.parts:  # convex and counter-clockwise
            n = len(part)
            for i in range(n):
                (x1, y1), (x2, y2), (x3, y3) = part[i], part[(i + 1) % n], part[(i + 2) % n]
                assert (x2 - x1) * (y3 - y2) - (y2 - y1) * (x3 - x2) >= -1e-9


def test_interface_strings_exist_in_both_catalogues() -> None:
    es = json.loads((CATALOGUES / "es.json").read_text())
    en = json.loads((CATALOGUES / "en.json").read_text())
    mine_es = {k for k in es if k.startswith("block-and-guess.")}
    mine_en = {k for k in en if k.startswith("block-and-guess.")}
    assert mine_es == mine_en and len(mine_es) > 40
    assert "game.block-and-guess" in es and "game.block-and-guess" in en
    for b in BLOCKS:
        assert f"block-and-guess.block.{b.key}" in es
        assert f"block-and-guess.colour.{b.colour}" in es
    for card in CONSTRUCTION_CARDS:
        assert f"block-and-guess.card.{card}" in es
    for code in ("unplaced", "not_standing", "not_touching", "card1_ground", "card2_touching",
                 "card5_colours", "card7_ground", "card8_colours"):
        assert f"block-and-guess.reason.{code}" in es
    for code in ("overlap", "out_of_board", "no_rotation", "invalid_build", "bad_angle"):
        assert f"block-and-guess.error.{code}" in es
