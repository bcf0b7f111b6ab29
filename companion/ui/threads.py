"""Calls from the buzzers' threads onto the UI thread, without waiting for a frame's turn.

Kivy's ``@mainthread`` schedules the call for the next frame: with the clock
pacing frames at 60 a second, a referee's decision taken just after a frame
began waits up to 16.7 ms before the challenge sheet can even start to draw.
The app runs Kivy's ``free_all`` clock (companion/pi/display.py): frames keep to
the frame rate, but a *free* event ends the clock's sleep and the whole frame
follows at once: the call, layout and the draw that shows it. (``free_only``
would run the call at once but still draw at the frame's turn.)
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial, wraps
from typing import Any

from kivy.clock import Clock


def mainthread_now(func: Callable[..., None]) -> Callable[..., None]:
    """Like ``@mainthread``, but the call wakes the clock (under any other clock: the next frame, as before)."""
    schedule = getattr(Clock, "schedule_once_free", Clock.schedule_once)

    @wraps(func)
    def post(*args: Any, **kwargs: Any) -> None:
        schedule(lambda _dt: func(*args, **kwargs), 0)

    return post


def after_drawn(callback: Callable[[], None]) -> None:
    """Call ``callback`` on the frame after the one being made is on screen.

    A call scheduled for "the next frame" from a touch still runs before the
    current frame is drawn (Kivy runs it in ``tick_draw``), so whatever the
    touch changed would only show once the call is done. The window's flip
    ends the frame that shows it; the call follows on the next tick.
    """
    from kivy.core.window import Window

    def flipped(*_args: object) -> None:
        Window.unbind(on_flip=flipped)
        _waiting.remove(flipped)
        Clock.schedule_once(lambda _dt: callback())

    _waiting.append(flipped)
    Window.bind(on_flip=flipped)


_waiting: list[Callable[..., None]] = []
"""The ``after_drawn`` calls whose frame has not flipped yet: the window holds them, and what they call."""


def cancel_pending() -> None:
    """Nothing the app asked for later runs once it stops: its clock events and ``after_drawn`` calls go.

    The window and the clock are the process's and outlive the app: an event
    still pending (the end screen's rows made 2 s after a table opens, a
    replay read ahead a step a frame, a toast's timer, a thread's notice) held
    the stopped app and all its widgets, and would have run on them in the
    next app's frames. Kivy's own events (a label's texture, a layout) are
    left to run: they hold a widget for a frame, not the app.
    """
    from kivy.core.window import Window

    for flipped in _waiting:
        Window.unbind(on_flip=flipped)
    _waiting.clear()
    for event in Clock.get_events():
        if _ours(event.get_callback()):
            event.cancel()


def _ours(callback: object) -> bool:
    """A callback of the app's code: a function, a bound method or a partial defined under ``companion``."""
    while isinstance(callback, partial):
        callback = callback.func
    return str(getattr(callback, "__module__", "")).startswith("companion.")
