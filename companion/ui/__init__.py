"""The touchscreen table (Kivy). ``run(config)`` opens it; nothing here is imported by the CLI until then,
so the command line starts without a window."""

from __future__ import annotations

import gc
import os
from pathlib import Path
from typing import Any

from companion.pi import notify
from companion.config import Config
from companion.pi.display import configure_kivy
from companion.pi.logs import log_start


def run(config: Config, config_path: Path | None = None) -> int:
    """Open the app and return its exit status when the window closes.

    Under systemd (systemd/spicy-companion.service) it says READY once the first
    frame is drawn and feeds the watchdog from the drawing loop; elsewhere those
    calls do nothing.
    """
    os.environ.setdefault("KIVY_NO_ARGS", "1")  # our own command line, not Kivy's
    gc.disable()  # until the first frame is on screen (collect_after_drawn); the command line's already did
    try:
        configure_kivy(config.display)
        log_start(config, config_path)
        from kivy.clock import Clock
        from kivy.core.window import Window

        from companion.ui.app import SpicyApp  # imports the window: after the graphics settings

        notify.ready_when_drawn(Window)
        collect_after_drawn(Window)
        notify.keep_alive(Clock)
        try:
            SpicyApp(config).run()
        finally:
            notify.stopping()
    finally:
        gc.enable()  # the first frame may never have come (a window that failed to open)
    return 0


def collect_after_drawn(window: Any) -> None:
    """The garbage collector back on as the first frame flips. Start-up makes some 56,000 objects (Kivy, the
    kv rules, the home screen), nearly all kept as long as the app (a collection at the first frame frees
    19); the collector's passes while they were made cost about 20 ms of the first frame's CPU."""

    def flipped(*_args: object) -> None:
        window.unbind(on_flip=flipped)
        gc.enable()

    window.bind(on_flip=flipped)
