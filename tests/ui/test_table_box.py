"""The table on a USB buzzer box (a real pty): playing a card never waits for the box."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
from kivy.core.window import Window

from buzzers_fixtures import PtyPair
from companion.buzzers import serialbox
from companion.buzzers.protocol import encode_hello, encode_opened, encode_press, encode_release
from companion.config import BuzzerConfig
from companion.rules import SPICY, new_setup
from companion.ui.app import SpicyApp
from companion.ui.widgets.claim_pad import NumberButton, SpiceButton
from companion.ui.widgets.toast import Toast
from table_helpers import within

ANA, BEN = 0, 1


def micros(seconds: float) -> int:
    return round(seconds * 1e6)


@pytest.fixture
def box() -> Iterator[PtyPair]:
    pair = PtyPair()
    yield pair
    pair.close()


def table_on(ui, box: PtyPair) -> SpicyApp:  # type: ignore[no-untyped-def]
    """The app on the box, which has answered, with Ana to play the first card."""
    app: SpicyApp = ui.start(config=ui.config(buzzers=BuzzerConfig(backend="serial", serial_ports=(box.path,))))
    box.read_until(b"?\n")
    box.write(encode_hello(6, 0, 0))
    assert app.buzzers is not None and app.buzzers.wait_connected(20)
    app.start_game(new_setup(SPICY, ["Ana", "Ben", "Cy"], first=ANA))
    ui.step(2)
    return app


def test_a_card_played_by_touch_is_drawn_before_a_slow_box_answers_its_arm(
    ui, box: PtyPair, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The box answers ``A`` 200 ms after it at the earliest, and only once the card is on screen
    (or 5 s have passed). A table that waited for the box would draw the card only after it.
    """
    monkeypatch.setattr(serialbox, "ARM_REPLY", 10.0)  # the box's answer counts, however slow the frames
    app = table_on(ui, box)
    table = app.screen("table")
    view, pad = table.view, table.ids.pad

    order: list[str] = []  # from the UI thread and the box's
    card_drawn = threading.Event()

    def slow_box() -> None:
        box.read_until(b"A 6\n")  # Ben and Cy armed: Ana's card is on the table
        answer_at = time.monotonic() + 0.2
        card_drawn.wait(5)
        time.sleep(max(0.0, answer_at - time.monotonic()))
        order.append("box answered")
        box.write(encode_opened(micros(10.0)))

    def drawn(*_args: object) -> None:
        if view.turn == BEN and view.seats[ANA].played == "1" and not card_drawn.is_set():
            order.append("card drawn")
            card_drawn.set()

    replier = threading.Thread(target=slow_box)
    replier.start()
    Window.bind(on_flip=drawn)
    try:
        ui.tap(within(pad, SpiceButton, spice="chili"))
        ui.tap(within(pad, NumberButton, number=1))
        replier.join()
    finally:
        Window.unbind(on_flip=drawn)
    assert order == ["card drawn", "box answered"]

    # The window opened at the box's own time of arming: a slap stamped longer than early_ms before it is refused.
    box.write(encode_press(BEN, micros(8.4)) + encode_release(BEN, micros(8.5)))
    ui.until(lambda: any("Ben pressed before the card was played" in w.text
                         for w in Window.children if isinstance(w, Toast)))
    box.write(encode_press(BEN, micros(10.004)))
    ui.until(lambda: table.sheet_name == "challenge")
    assert view.buzz is not None and view.buzz.challenger == BEN


def test_quitting_while_the_box_has_not_answered_an_arm_does_not_wait_for_it(
    ui, box: PtyPair, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The box takes the arm and never answers it. Were the app's stop to wait for the box's answer,
    the box would answer first (it gives up on the app after a while and writes ``T``)."""
    monkeypatch.setattr(serialbox, "ARM_REPLY", 60.0)
    app = table_on(ui, box)
    order: list[str] = []
    stopped = threading.Event()

    def silent_box() -> None:
        box.read_until(b"A 6\n")
        order.append("arm taken")
        if not stopped.wait(10):
            order.append("box answered")
            box.write(encode_opened(micros(10.0)))

    listener = threading.Thread(target=silent_box)
    listener.start()
    assert app.screen("table").view.declare("chili", 1)
    while not order and listener.is_alive():
        listener.join(0.01)
    assert order == ["arm taken"]  # the referee's thread is now in the box's arm wait
    referee = app.referee
    assert referee is not None
    ui.app = None
    app.stop()
    order.append("app stopped")
    stopped.set()
    listener.join()
    assert order == ["arm taken", "app stopped"]
    assert not referee._thread.is_alive()


def test_the_box_pulses_the_seat_to_play_and_the_challenger_alone_is_lit(ui, box: PtyPair) -> None:
    app = table_on(ui, box)
    table = app.screen("table")
    heard = bytearray()

    def hear(line: bytes) -> bytes:
        """What the app has sent the box up to ``line`` (waiting for it), from where the last call stopped."""
        while line not in heard:
            heard.extend(box.read_until(line))
        said, _, rest = bytes(heard).partition(line)
        heard[:] = rest
        return said + line

    assert hear(b"N 1\n").endswith(b"N 1\n")  # Ana to play: her LED pulses
    assert table.view.declare("chili", 1)
    hear(b"A 6\n")  # Ben and Cy armed
    box.write(encode_opened(micros(10.0)))
    assert hear(b"N 2\n") == b"N 2\n"  # Ben to play
    box.write(encode_press(2, micros(10.1)))  # Cy slaps
    ui.until(lambda: table.sheet_name == "challenge")
    assert hear(b"N 0\n") == b"L 4\nN 0\n"  # Cy's light alone; nothing pulses while the challenge is shown


def test_a_box_with_older_firmware_plays_on_and_the_table_is_told_once_it_cannot_pulse(ui, box: PtyPair) -> None:
    app: SpicyApp = ui.start(config=ui.config(buzzers=BuzzerConfig(backend="serial", serial_ports=(box.path,))))
    box.read_until(b"?\n")
    box.write(b"HELLO spicy-buzzers 2 6 0 0\n")  # protocol 2: no N
    assert app.buzzers is not None and app.buzzers.wait_connected(20)

    def told() -> list[str]:
        return [w.text for w in Window.children if isinstance(w, Toast) and "cannot pulse" in w.text]

    ui.until(lambda: told())
    assert told() == [serialbox.CANNOT_PULSE]
    app.start_game(new_setup(SPICY, ["Ana", "Ben", "Cy"], first=ANA))
    ui.step(2)
    assert app.screen("table").view.declare("chili", 1)
    assert b"A 6\n" in box.read_until(b"A 6\n")
    box.write(encode_opened(micros(10.0)))
    ui.step(3)
    assert b"N" not in box.read_available()  # nothing the old firmware would take for noise
