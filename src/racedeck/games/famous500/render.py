"""A text picture of a Famous 500 race: the track, both car sheets and the cards in play."""

from __future__ import annotations

from racedeck.games.famous500.data import KINDS, SAMPLE_CARS, sample_name
from racedeck.games.famous500.state import Famous500State

_LETTER = ("B", "G", "W")
"""Per section kind (0 black, 1 grey, 2 white), its letter on the track line."""
_KIND_WORD = ("black hairpin", "grey curve", "white straightaway")
"""Per section kind, what it is called."""


def track_line(state: Famous500State) -> str:
    """Return the track as one line, the penny in brackets.

    B, G and W stand for black, grey and white sections, ``:`` marks a dotted pit section
    and ``»`` the start.
    """
    setup = state.setup
    cells = []
    racing = state.lap > 0 and state.phase != "over"
    for i, kind in enumerate(setup.kinds):
        cell = _LETTER[kind] + (":" if setup.pits[i] else "")
        if racing and i == state.section:
            cell = f"[{cell}]"
        cells.append(cell)
    return "  »" + " ".join(cells)


def _card_list(cards: tuple[int, ...]) -> str:
    return " ".join(str(c) for c in cards) if cards else "-"


def render_state(state: Famous500State, viewer: int | None = None) -> str:
    """Return the race as text; with a ``viewer`` seat, what that driver cannot see is hidden."""
    setup = state.setup
    laps = setup.laps
    where = "before the start"
    if state.lap:
        i = state.section
        where = (
            f"lap {min(state.lap, laps)} of {laps}, section {i + 1} of {len(setup.kinds)}: "
            f"{setup.names[i]} ({_KIND_WORD[setup.kinds[i]]}{', pit' if setup.pits[i] else ''})"
        )
    lines = [
        f"Famous 500 at {setup.track} (difficulty {setup.difficulty}, cards {setup.cards}): "
        f"{where}; phase {state.phase}",
        "  track (B hairpin, G curve, W straightaway, : dotted pit section, [ ] the penny):",
        track_line(state),
        "  car sheets        tires  fuel  engine  speed",
    ]
    lines += _car_sheets(state, viewer)
    revealed = state.phase in ("pit_draw", "pit_return", "pit_repair")
    for seat in (0, 1):
        mine = viewer is None or viewer == seat
        hand = state.hands[seat]
        shown = _card_list(hand) if mine else " ".join("?" for _ in hand)
        laid = state.laid[seat]
        extra = ""
        if laid:
            pit = state.pits[seat]
            face_up = revealed and not pit
            card = str(laid) if (mine or face_up) else "?"
            declared = pit and (mine or revealed)
            extra = f"   laid: {card}{' (pit stop, face down)' if declared else ''}"
        lines.append(f"  seat {seat} hand: {shown}{extra}")
    deck = state.pit_deck
    if viewer is None:
        deck_text = _card_list(deck) + " (top first)"
    else:
        bit = 1 << viewer
        deck_text = " ".join(
            str(c) if m & bit else "?" for c, m in zip(deck, state.deck_known, strict=True)
        )
    lines.append(f"  pit deck: {len(deck)} face down: {deck_text or '-'}")
    if state.discards:
        lines.append(
            "  out of the game: " + ", ".join(f"{c} (seat {s})" for s, c in state.discards)
        )
    if state.phase == "discard":
        lines.append(f"  between laps: seat {state.trailing} trails and discards")
    if state.pit_order:
        lines.append(f"  in the pit: seat {state.pit_order[0]}")
    for record in state.history[-3:]:
        parts = []
        for seat in (0, 1):
            mark = " pit" if record.pits[seat] else ""
            parts.append(f"{record.cards[seat]}{mark}")
        lines.append(
            f"  lap {record.lap} section {record.section + 1} "
            f"({KINDS[setup.kinds[record.section]]}): {' vs '.join(parts)}, "
            f"points {record.points[0]}/{record.points[1]}"
        )
    if state.phase == "over":
        lines.append(f"  winner: seat {state.winner} ({state.reason})")
    return "\n".join(lines)


def _car_sheets(state: Famous500State, viewer: int | None) -> list[str]:
    """Return the car sheets, face down to a viewer until both are designed; the samples.

    The sample cars are listed while the drivers design.
    """
    lines: list[str] = []
    setup = state.setup
    both_designed = state.designed[0] and state.designed[1]
    for seat in (0, 1):
        visible = viewer is None or viewer == seat or both_designed
        if not state.designed[seat]:
            lines.append(f"  seat {seat}            (not designed yet)")
        elif not visible:
            lines.append(f"  seat {seat}            (designed, face down)")
        else:
            t, f, e, s = state.cars[seat]
            first = state.designs[seat]
            name = sample_name(first)
            design = "/".join(str(n) for n in first) + (f", the {name}" if name else "")
            lines.append(
                f"  seat {seat}          {t:6d} {f:5d} {e:7d} {s:6d}   (designed {design})"
            )
    if state.phase == "design":
        samples = [c for c in SAMPLE_CARS if sum(c.split) == setup.difficulty]
        if samples:
            lines.append(
                "  sample cars: "
                + ", ".join(f"{c.name} {'/'.join(str(n) for n in c.split)}" for c in samples)
            )
    return lines
