"""What the table draws fits where it is drawn: the turn's buttons fill their row, a claim's word its card."""

from __future__ import annotations

import pytest

from companion.rules import SPICY, SWEET_SPICY, new_setup
from table_helpers import Table

ANA = 0
SIZES = [(800, 480), (720, 1280)]


@pytest.mark.parametrize("size", SIZES)
def test_pass_alone_spans_the_turn_row(ui, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy"], first=ANA), gpio=False, size=size)
    ids = table.screen.ids
    row = ids.pass_button.parent
    hidden = (ids.universal, ids.tuck, ids.take_universal, ids.challenge_button, ids.chain_button)
    assert not any(button.shown for button in hidden)
    assert (ids.pass_button.x, ids.pass_button.width) == pytest.approx((row.x, row.width), abs=1)


def test_a_button_shown_again_takes_its_share_of_the_row(ui) -> None:  # type: ignore[no-untyped-def]
    table = Table(ui, new_setup(SWEET_SPICY, ["Ana", "Ben", "Cy"], first=ANA), gpio=False)
    ids = table.screen.ids
    row = ids.pass_button.parent
    assert ids.universal.shown and ids.universal.parent is row
    assert ids.pass_button.x == pytest.approx(row.x, abs=1) and ids.universal.right == pytest.approx(row.right, abs=1)
    assert ids.pass_button.width == pytest.approx(ids.universal.width, abs=1)
