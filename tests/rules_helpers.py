"""Short transcripts for rules tests: each test reads like the table talking."""

from __future__ import annotations

import pytest

from companion.rules import Game, Seat, State, TranscriptError, replay_transcript

THREE = "rules spicy\nseats Ana Ben Cy\nend-card 27"


def game(*lines: str, header: str = THREE) -> Game:
    return replay_transcript("\n".join([header, *lines]))


def state(*lines: str, header: str = THREE) -> State:
    return game(*lines, header=header).state


def seat(state: State, name: str) -> Seat:
    return state.seats[state.setup.names.index(name)]


def refused(*lines: str, header: str = THREE) -> TranscriptError:
    """The last line must be refused; the lines before it must all be accepted."""
    with pytest.raises(TranscriptError) as caught:
        game(*lines, header=header)
    error = caught.value
    assert error.line == header.count("\n") + 1 + len(lines), f"refused too early: {error}"
    return error


def scores(state: State) -> dict[str, int | None]:
    return {s.name: state.score(i) for i, s in enumerate(state.seats)}
