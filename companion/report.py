"""The terminal commands' text: what they read (a file or standard input) and the tables they print."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from companion.errors import UsageError
from companion.files import TRANSCRIPT, read_capped, read_file
from companion.rules import State, decode_transcript


def read_input(name: str) -> str:
    """The whole transcript in file ``name``, or on standard input for ``-``; one way for every command.

    Bytes are read and then decoded by the transcript's one rule (``decode_transcript``),
    so a byte that is not UTF-8 is refused with its line by ``replay`` and ``import`` alike;
    a FIFO, a device or a file larger than any transcript is refused before it is read.
    """
    if name == "-":
        return decode_transcript(read_capped(sys.stdin.buffer, "standard input", TRANSCRIPT))
    try:
        return decode_transcript(read_file(Path(name), TRANSCRIPT))
    except FileNotFoundError:
        raise UsageError(f"no file {name}") from None
    except OSError as exc:
        raise UsageError(f"cannot read {name}: {exc.strerror}") from None


def table(rows: Sequence[Sequence[str]]) -> str:
    """Names left, numbers right, columns as wide as their widest cell."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join(
        "  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths, strict=True)))
        for row in rows
    )


def score_text(score: int | None) -> str:
    """Five-spices has no scores: a dash."""
    return "-" if score is None else str(score)


def describe_state(state: State) -> str:
    """One row a seat, then the stack, the draw pile and who plays (or how it ended)."""
    rows = [("seat", "hand", "won", "trophies", "score")]
    rows += [
        (seat.name, str(seat.hand), str(seat.won), str(seat.trophies), score_text(state.score(i)))
        for i, seat in enumerate(state.seats)
    ]
    claim = "empty" if state.claim is None else str(state.claim)
    lines = [table(rows), "", f"rules {state.profile.id}; stack {state.stack} ({claim}); draw pile {state.draw_pile}"]
    if state.profile.numbered:
        lines.append(f"trophies left {state.trophies_left}")
    if state.ended:
        winners = ", ".join(state.name(i) for i in state.winners)
        lines.append(f"game over: {state.end_reason}; winners: {winners}")
    else:
        assert state.turn is not None
        lines.append(f"to play: {state.name(state.turn)}")
    return "\n".join(lines)
