"""The seat to play's LED pulses slowly on gpiozero's MockFactory, beside the armed seats' steady lights."""

from __future__ import annotations

import time

from companion.buzzers.gpio import PULSE_SECONDS
from companion.rules import SPICY, new_setup
from table_helpers import LEDS, Table

ANA, BEN, CY = 0, 1, 2


def changes(table: Table, seat: int, seconds: float) -> list[float]:
    """Each change of the seat's LED pin over the next ``seconds``: the seconds since the one before, as the
    pin recorded it (the first, since the watch began)."""
    pin = table.factory.pin(LEDS[seat])
    pin.clear_states()
    time.sleep(seconds)
    return [state.timestamp for state in pin.states[1:]]


def test_the_seat_to_play_pulses_slowly_and_the_armed_seats_stay_lit(ui) -> None:
    table = Table(ui, new_setup(SPICY, ["Ana", "Ben", "Cy"], first=ANA))
    assert table.lit() == [ANA] and table.pulsing() == ANA  # a new stack: nobody may challenge, Ana plays
    toggles = changes(table, ANA, 3.5 * PULSE_SECONDS)
    assert len(toggles) >= 3  # on, off, on: a pulse, not a light
    assert all(gap > PULSE_SECONDS / 2 for gap in toggles[1:])  # a slow one
    assert changes(table, BEN, 0.2) == [] and not table.factory.pin(LEDS[BEN]).state

    table.declare("chili", 1)
    assert table.pulsing() == BEN and table.lit() == [BEN, CY]  # Ben to play, Cy armed: steady
    assert changes(table, CY, 2.5 * PULSE_SECONDS) == [] and table.factory.pin(LEDS[CY]).state
    assert not table.factory.pin(LEDS[ANA]).state  # Ana's own card: no light

    table.buzz((CY, 0.0))
    ui.until(lambda: table.screen.sheet_name == "challenge")
    assert table.pulsing() is None and table.lit() == [CY]  # the winner's light alone, nothing pulses
    table.view.cancel()
    ui.step(2)
    assert table.pulsing() == BEN  # nobody challenges after all: Ben is to play again

    table.view.close()
    assert table.pulsing() is None and table.lit() == []  # the game leaves the table: every light off
