"""The touchscreen table (Kivy). ``run(config)`` opens it; nothing here is imported by the CLI until then,
so the command line starts without a window."""

from __future__ import annotations

import os

from companion.config import Config


def run(config: Config) -> int:
    """Open the app and return its exit status when the window closes."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")  # our own command line, not Kivy's
    from kivy.config import Config as KivyConfig

    KivyConfig.set("graphics", "width", str(config.display.width))
    KivyConfig.set("graphics", "height", str(config.display.height))
    from companion.ui.app import SpicyApp  # imports the window: after the graphics settings

    SpicyApp(config).run()
    return 0
