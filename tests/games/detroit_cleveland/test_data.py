"""The deck as data: the rulebook's cards at their numbers, every card tagged."""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources

import pytest

from racedeck.core.errors import DataError
from racedeck.games.detroit_cleveland import data
from racedeck.games.detroit_cleveland.data import DATA, MOVES, SWITCHES, WHITE, load

Y, B, G, K, R, O = range(6)  # noqa: E741
W = WHITE


def test_the_rulebook_cards_are_at_their_rulebook_numbers() -> None:
    assert MOVES[5] == ((B, 6), (Y, 4), (R, 2), (G, 1))
    assert MOVES[7] == ((G, 6), (Y, 4), (K, 2))
    assert MOVES[8] == ((B, 6), (G, 4), (W, 2), (R, 1))
    assert MOVES[14] == ((O, 6), (K, 4), (W, 2), (Y, 1))
    assert MOVES[17] == ((K, 6), (G, 4), (O, 2), (Y, 1))
    assert [car for car, _ in MOVES[24]] == [R, B, G] and MOVES[24][1] == (B, 4)
    assert MOVES[34] == ((W, 5),)
    assert MOVES[38] == ((G, 5),)
    assert MOVES[39] == ((K, 5),)
    assert SWITCHES[47] == (K, Y)
    assert data.BIDDING == (50, 51, 52, 53, 54, 55)
    for number in (5, 7, 8, 14, 17, 24, 34, 38, 39, 47, 50, 51, 52, 53, 54, 55):
        assert data.CARDS[number].source == "seed"


def test_every_card_is_tagged_and_the_deck_has_the_proposed_shape() -> None:
    assert {card.source for card in DATA.cards} <= {"seed", "published", "proposal"}
    kinds = Counter(card.kind for card in DATA.cards)
    assert kinds == {"move": 36, "switch": 3, "ten": 7, "bid": 6}
    assert sorted(SWITCHES.values()) == sorted([(K, Y), (O, B), (R, G)])
    assert any(card.source == "published" for card in DATA.cards)


def test_each_colour_moves_62_spaces_and_cards_are_well_formed() -> None:
    totals: Counter[int] = Counter()
    for number in data.RACE_DECK:
        for car, count in MOVES.get(number, ()):
            totals[car] += count
        moves = MOVES.get(number, ())
        counts = [count for _, count in moves]
        assert counts == sorted(counts, reverse=True), f"#{number}: highest value on top"
        assert len({car for car, _ in moves}) == len(moves), f"#{number}: a colour twice"
    assert all(totals[car] == 62 for car in range(6))
    assert [MOVES[n] for n in data.TEN_COUNT] == [((car, 10),) for car in range(7)]


def test_the_loader_rejects_a_malformed_deck() -> None:
    raw = json.loads(
        resources.files("racedeck.games.detroit_cleveland")
        .joinpath("data/detroit-cleveland.json")
        .read_text()
    )
    raw["cards"].append(dict(raw["cards"][0]))
    with pytest.raises(DataError, match="card #1 appears twice"):
        load(json.dumps(raw).encode(), "deck.json")
    raw["cards"].pop()
    raw["cards"][0]["moves"] = [["B", 6], ["B", 4]]
    with pytest.raises(DataError, match="shows a colour twice"):
        load(json.dumps(raw).encode(), "deck.json")
    with pytest.raises(DataError, match=r"deck\.json"):
        load(b"{}", "deck.json")
