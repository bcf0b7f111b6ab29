"""What the table tests share: a table on GPIO buzzers (gpiozero's MockFactory), taps by meaning, the toast."""

from __future__ import annotations

import math
import re
import time
from dataclasses import replace
from collections.abc import Mapping
from typing import Any, TypeVar

from kivy.core.text import Label as CoreLabel
from kivy.core.window import Window
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from buzzers_fixtures import timed_factory
from companion.config import BuzzerConfig, UiConfig
from companion.rules import Setup
from companion.ui.screens.table import TableScreen
from companion.ui.view import TableView
from companion.ui.widgets.buttons import BaseButton
from companion.ui.widgets.claim_pad import NumberButton, SpiceButton
from companion.ui.widgets.fit import ELLIPSIS
from companion.ui.widgets.toast import Toast
from layout_checks import inside, overlap  # noqa: F401  (the table tests take them from here too)

W = TypeVar("W", bound=Widget)
BUTTONS = BuzzerConfig().button_pins
LEDS = (17, 27, 22, 23, 24, 25)
"""The LED pins hardware/README.md suggests (the default config has no LEDs)."""
READS_FROM = {0: "bottom", 270: "left", 180: "top", 90: "right"}
"""Which edge a widget reads from, by the angle (anticlockwise) its own left-to-right runs on screen."""


def within(parent: Widget, cls: type[W], **props: Any) -> W:
    """The one widget of ``cls`` with ``props`` inside ``parent``."""
    found = [
        w for w in parent.walk(restrict=True)
        if isinstance(w, cls) and all(getattr(w, k, None) == v for k, v in props.items())
    ]
    assert len(found) == 1, f"{len(found)} {cls.__name__} with {props} in {parent}"
    return found[0]


def on_screen(widget: Widget) -> tuple[float, float, float, float]:
    """(left, bottom, right, top) of ``widget`` on the screen, however it is turned."""
    corners = [widget.to_window(x, y) for x in (widget.x, widget.right) for y in (widget.y, widget.top)]
    xs, ys = [x for x, _ in corners], [y for _, y in corners]
    return min(xs), min(ys), max(xs), max(ys)


def reads_from(widget: Widget) -> str:
    """The edge a widget is turned to: where its reader sits."""
    (x0, y0), (x1, y1) = widget.to_window(widget.x, widget.y), widget.to_window(widget.right, widget.y)
    return READS_FROM[round(math.degrees(math.atan2(y1 - y0, x1 - x0))) % 360]


MAX = "Maximilian-Alexander von Hohenzollern"
"""A seat's name as long as a name gets: it gives way in every sentence."""


def shows(label: Label, template: str, names: Mapping[str, str], **words: object) -> None:
    """``label`` reads ``template`` with every fixed word whole, each name whole or its start and an
    ellipsis, and its text fits the label (on one line, or wrapped within its height)."""
    pieces = re.split(r"\{(" + "|".join(names) + r")\}", template.format(
        **words, **{field: "{" + field + "}" for field in names}))
    pattern = "".join(
        "(" + re.escape(names[piece]) + "|" + "|".join(
            re.escape(names[piece][:n].rstrip(" -") + ELLIPSIS) for n in range(1, len(names[piece]))) + ")"
        if i % 2 else re.escape(piece)
        for i, piece in enumerate(pieces))
    assert re.fullmatch(pattern, label.text, re.DOTALL), (label.text, template)
    wrapped = label.text_size[1] is not None and label.height > 1.6 * label.font_size
    core = CoreLabel(text=label.text, font_size=label.font_size, bold=label.bold,
                     text_size=(label.width, None) if wrapped else (None, None))
    width, height = core.render()
    assert (height <= label.height + 1) if wrapped else (width <= label.width + 1), (label.text, label.size)


def whole(label: Label) -> bool:
    """The label's text is drawn whole on one line, not shortened."""
    full = CoreLabel(text=label.text, font_size=label.font_size, bold=label.bold)
    full.refresh()
    return bool(full.texture.size[0] <= label.width)


def targets_fit(screen: Any) -> bool:
    """Every key of the pad and every button of the turn shown is at least 48 dp each way."""
    keys = [w for box in (screen.ids.pad, screen.ids.info) for w in box.walk(restrict=True)
            if isinstance(w, BaseButton) and w.opacity > 0]
    return len(keys) >= 14 and all(min(key.size) >= 48 for key in keys)


def on_the_last_step(ui: Any, names: tuple[str, ...] | list[str], **start: Any) -> tuple[Any, Any]:
    """A started app (``start``: its size, its config) on set-up's last step, where "Start the game" is:
    these seats, the first to play first; the app and the set-up screen."""
    app = ui.start(**start)
    app.show("setup")
    setup = app.screen("setup")
    for name in names:
        setup.draft.add_seat(name)
    setup.draft.first = 0
    setup.go("table")
    return app, setup


class Table:
    """A started app with a game on its table, driven the way the table plays it."""

    def __init__(self, ui: Any, setup: Setup, *, gpio: bool = True, size: tuple[int, int] = (800, 480),
                 face_seats: bool = False, from_home: bool = False, settings: UiConfig | None = None) -> None:
        self.ui = ui
        self.factory = timed_factory() if gpio else None
        config = ui.config(buzzers=BuzzerConfig(backend="gpio", led_pins=LEDS)) if gpio else ui.config()
        if settings is not None:
            config = replace(config, ui=settings)
        self.app = ui.start(size=size, config=config, pin_factory=self.factory)
        self.sounds: list[str] = []
        self.app.play_sound = self.sounds.append
        self.app.face_seats = face_seats
        if from_home:
            self.set_up_by_touch(setup)
        else:
            self.app.start_game(setup)
        ui.step(2)
        self.screen: TableScreen = self.app.screen("table")
        self.view: TableView = self.screen.view

    def set_up_by_touch(self, setup: Setup) -> None:
        """From the home screen through set-up: the rules as they come, seats typed, buzzers in
        seat order, the first player chosen, the World's End card where the rules put it."""
        ui, app = self.ui, self.app
        assert setup.profile.id == "spicy" and not setup.variants
        ui.tap(app.screen("home").ids.new_game)
        screen = app.screen("setup")
        ui.tap(screen.ids.next)
        ui.step(2)
        for name in setup.names:
            screen.ids.new_name.text = name
            ui.tap(screen.ids.add)
        for step in ("buzzers", "first"):
            ui.tap(screen.ids.next)
            ui.step(2)
            assert screen.step == step
        ui.tap(list(reversed(screen.ids.first_seats.children))[setup.first])
        ui.tap(screen.ids.next)
        ui.step(2)
        ui.tap(screen.ids.next)
        assert app.root.current == "table" and app.session.state.setup == setup

    # --- taps --------------------------------------------------------------------------

    def declare(self, spice: str, number: int | None = None) -> None:
        pad = self.screen.ids.pad
        self.ui.tap(within(pad, SpiceButton, spice=spice))
        if number is not None:
            self.ui.tap(within(pad, NumberButton, number=number))

    def tap(self, widget: Widget) -> None:
        self.ui.tap(widget)

    def pass_turn(self) -> None:
        self.ui.tap(self.screen.ids.pass_button)

    def sheet(self) -> Widget:
        name = self.screen.sheet_name
        assert name, "no sheet is showing"
        return self.screen._sheets[name]

    # --- buzzers -----------------------------------------------------------------------

    def buzz(self, *presses: tuple[int, float]) -> None:
        """Press each (seat, edge offset in seconds) in the order given; let go once the presses are confirmed.

        A press counts only when its line is still down ``confirm_ms`` after the
        edge, so the buttons stay down a moment (as a slap does) before they rise.
        """
        assert self.factory is not None
        base = self.factory.ticks()
        for seat, offset in presses:
            self.factory.pin(BUTTONS[seat]).press(at=base + 0.002 + offset)
        time.sleep(0.03)
        for seat, _offset in presses:
            self.factory.pin(BUTTONS[seat]).release(at=base + 0.06)

    def lit(self) -> list[int]:
        """The LEDs on or pulsing, once the referee has carried out what the table asked of it."""
        assert self.factory is not None
        pulsing = self.pulsing()
        return [seat for seat, pin in enumerate(LEDS) if self.factory.pin(pin).state or seat == pulsing]

    def pulsing(self) -> int | None:
        """The seat whose LED pulses (gpiozero blinks it), once the referee has carried out what the table
        asked of it; None when none does."""
        assert self.app.referee is not None
        self.app.referee.flush()
        leds = self.app.buzzers._leds
        return next((seat for seat, led in enumerate(leds) if led._blink_thread is not None), None)

    def toast(self) -> str:
        toasts = [w for w in Window.children if isinstance(w, Toast)]
        return toasts[-1].text if toasts else ""

