"""Many apps started in one process, as the suite does: nothing of an app outlives it.

Start-up freezes what it made (``gc.freeze``), and frozen objects are never
collected: before the app gave them back at its stop, every app started
kept about 15 MB and its 87 kv rules bound to ``tr``, so that each language
switch ran every earlier app's rules again, and a clean clone's suite grew
past 7 GB.

A stopped app must also be free for one collection to take: before it let go
of the clock at its stop, an event still pending (the end screen's rows, made
2 s after a table opens; a toast's timer) kept the app and its widgets alive,
and each of the collector's full passes in the next tests walked them again.
"""

from __future__ import annotations

import gc
from pathlib import Path

from kivy.animation import Animation

from companion.config import UiConfig
from companion.rules import SPICY, new_setup
from companion.ui.app import SpicyApp
from companion.ui.i18n import tr
from companion.ui.screens.setup import SetupScreen
from keyboard_helpers import type_on_screen
from tests.ui.conftest import UiDriver

STARTS = 20
GROWTH_MB = 50


def _resident_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS in /proc/self/status")


def _rules_a_switch_runs() -> int:
    """The kv rules bound to ``tr`` whose widget still lives: what the next switch would run. A kv rule's first
    argument is its ``(widget, key, value, rule, idmap)``; the app's own bindings (a table view's hint, the phone
    page's status) pass a weak proxy of their object, and are not counted."""
    gc.collect()
    return sum(_alive(args[0][0]) for _func, args, _kwargs in list(tr._observers.values())
               if type(args[0]) in (tuple, list))


def _alive(widget: object) -> bool:
    """Kv hands ``tr`` the widget as a weak proxy, which raises once the widget is gone."""
    try:
        return widget.__class__ is not None
    except ReferenceError:
        return False


def _apps_alive(kind: type = SpicyApp) -> int:
    """The ``SpicyApp``s (or other ``kind``) one collection leaves (``type``, as ``isinstance`` raises on a dead
    weak proxy)."""
    gc.collect()
    return sum(type(thing) is kind for thing in gc.get_objects())


def test_twenty_app_starts_keep_neither_memory_nor_kv_rules(tmp_path: Path) -> None:
    rules: list[int] = []
    resident: list[float] = []
    alive: list[int] = []
    for start in range(STARTS):
        ui = UiDriver(tmp_path / f"start-{start}")
        ui.tmp_path.mkdir()
        app = ui.start()
        rules.append(_rules_a_switch_runs())
        tr.switch("fr" if start % 2 else "en")  # a switch runs the live app's rules alone
        assert app.start_game(new_setup(SPICY, ["Ann", "Ben", "Cy"]))  # its end screen's rows come 2 s later
        app.notify("a toast still showing at the stop", 10)
        ui.step(2)
        del app
        ui.stop()
        del ui
        alive.append(_apps_alive())
        resident.append(_resident_mb())
    assert rules[0] > 50, "the home screen binds its words to tr: the count proved nothing"
    assert max(alive) == 0, f"stopped apps still alive after a collection, one count per stop: {alive}"
    assert max(rules) <= rules[0], f"kv rules bound to tr, one count per start: {rules}"
    assert _rules_a_switch_runs() == 0, "a stopped app's rules are still bound to tr"
    growth = resident[-1] - resident[1]
    assert growth < GROWTH_MB, f"{growth:.0f} MB more after {STARTS - 2} more app starts: {resident}"


def test_a_field_that_scrolled_keeps_nothing_of_its_app_once_it_stops(tmp_path: Path) -> None:
    """Kivy's text input scrolls every field through one trigger of its class, which kept the last field that
    scrolled, and so its screen and its whole app, until another field scrolled (``OrderedCursor``): a
    stopped app's few hundred thousand objects, walked again by every collection of the next tests."""
    ui = UiDriver(tmp_path)
    ui.start()
    ui.tap(ui.app.screen("home").ids.new_game)
    setup = ui.app.screen("setup")
    ui.tap(setup.ids.next)
    ui.step(2)
    field = setup.ids.new_name
    field.insert_text("Anne-Charlotte Maximilienne")  # as a hardware keyboard types it: the field scrolls
    ui.step(2)
    assert field.scroll_x > 0, "the name fits its field: nothing scrolled, and the test proves nothing"
    ui.stop()
    del ui, setup, field
    assert _apps_alive(SetupScreen) == 0


def _seats_step(ui: UiDriver) -> SetupScreen:
    """Home, New game, Next: set-up's seats step, reached by taps."""
    assert ui.app is not None
    ui.tap(ui.app.screen("home").ids.new_game)
    setup: SetupScreen = ui.app.screen("setup")
    ui.tap(setup.ids.next)
    ui.step(2)
    assert setup.step == "seats"
    return setup


def test_a_name_typed_on_the_screen_keyboard_keeps_nothing_of_its_app_once_it_stops(tmp_path: Path) -> None:
    """Kivy keeps the field with the focus in a dict of its class (``FocusBehavior._keyboards``) until another
    field takes it: a name typed on the on-screen keyboard, its field still focused at the stop, kept the field,
    its set-up screen and the stopped app's widgets (the app gives the focus up at its stop)."""
    ui = UiDriver(tmp_path)
    ui.start(config=ui.config(ui=UiConfig(keyboard="screen")))
    setup = _seats_step(ui)
    field = setup.ids.new_name
    ui.tap(field)
    type_on_screen(ui, "Zoë")
    assert field.text == "Zoë" and field.focus, "no name typed in a focused field: the test proves nothing"
    ui.stop()
    del ui, setup, field
    assert _apps_alive(SetupScreen) == 0
    assert _apps_alive() == 0


def test_an_animation_on_a_step_not_shown_keeps_nothing_of_its_app_once_it_stops(tmp_path: Path) -> None:
    """Kivy keeps a running animation, and its widget, in a set of its class (``Animation._instances``) until it
    ends: set-up's steps not shown (a screen manager's child is only its current screen) fade their scroll bars
    for a second after a step opens, and a stop just then kept the set-up screen, out of reach of a walk from
    the app's screens."""
    _stop_while_a_step_not_shown_animates(UiDriver(tmp_path))
    assert _apps_alive(SetupScreen) == 0
    assert _apps_alive() == 0


def _stop_while_a_step_not_shown_animates(ui: UiDriver) -> None:
    """A function of its own: its frame, which holds the step, is gone before the caller counts."""
    ui.start()
    rules = _seats_step(ui).ids.steps.get_screen("rules")
    ui.until(lambda: rules.parent is None)
    Animation(opacity=0.5, d=60).start(rules)  # as its scroll bar's fade, on a step not shown
    ui.stop()
