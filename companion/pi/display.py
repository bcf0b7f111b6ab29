"""The screen and touch set-up for a kiosk on the official Raspberry Pi displays.

Kivy reads its settings once, when ``kivy.core.window`` is imported, so the app
calls :func:`configure_kivy` before that. What it settles (see
docs/design/KIVY-NOTES.md for the facts behind each):

- exactly one source of touches, or every tap arrives twice: Kivy's default
  ``probesysfs`` device reads the touchscreen while SDL also turns each touch
  into a mouse click;
- rotation in Kivy itself, which turns drawing and touches together (the
  kernel's ``rotate=`` does not reach a KMSDRM app);
- no cursor, no screen saver, and no Escape key quitting a full-screen kiosk
  (the service restarts the app only when it fails, not when it exits cleanly);
- Kivy's ``free_all`` clock (:data:`CLOCK`): frames keep to 60 a second, but
  a buzzer's decision wakes the loop at once (companion/ui/threads.py);
- no multisampling (:data:`MULTISAMPLES`).

The SDL video driver (KMSDRM without a desktop) is the service's business:
systemd/spicy-companion.service sets it, so the same app runs in a desktop window.
"""

from __future__ import annotations

import os

from companion.config import DisplayConfig

CLOCK = "free_all"
"""Kivy's clock: read when ``kivy.clock`` is first imported, so tests and benchmarks set it the same way."""

MULTISAMPLES = "0"
"""The window's samples per pixel. Kivy asks for 2 unless told (Mesa gives 4), which multiplies the cost of
filling every pixel, and buys next to nothing here: the theme's shapes and text are anti-aliased in their own
textures, and only the dashes' few corner quads are left hard-edged (docs/PERFORMANCE.md, "The app",
"One sample a pixel"). Tests and benchmarks open their windows the same way."""


def kivy_settings(display: DisplayConfig) -> dict[str, dict[str, str]]:
    """Kivy config values by section; ``[input]`` is replaced whole.

    >>> kivy_settings(DisplayConfig(rotation=90))["graphics"]["rotation"]
    '90'
    """
    touch = {
        # SDL's touches arrive as mouse events; right-click "multitouch" dots are kept off.
        "sdl": {"mouse": "mouse,multitouch_on_demand"},
        # Kivy reads the touchscreen itself; SDL must stop making clicks of it (see kivy_environment).
        "hidinput": {"mouse": "mouse,multitouch_on_demand", "touchscreen": "probesysfs,provider=hidinput"},
    }[display.touch]
    return {
        "graphics": {
            "width": str(display.width),
            "height": str(display.height),
            "fullscreen": "auto" if display.fullscreen else "0",  # auto: the screen's own size
            "rotation": str(display.rotation),
            "show_cursor": "1" if display.show_cursor else "0",
            "allow_screensaver": "0",
            "multisamples": MULTISAMPLES,
        },
        "kivy": {"exit_on_escape": "0" if display.fullscreen else "1", "kivy_clock": CLOCK},
        "input": touch,
    }


def kivy_environment(display: DisplayConfig) -> dict[str, str]:
    """SDL hints that must be in the environment before the window opens."""
    env = {"SDL_VIDEO_ALLOW_SCREENSAVER": "0"}
    if display.touch == "hidinput":
        env["SDL_TOUCH_MOUSE_EVENTS"] = "0"
    return env


def configure_kivy(display: DisplayConfig) -> None:
    """Apply the display settings to Kivy; call before ``kivy.core.window`` is imported."""
    os.environ.update(kivy_environment(display))
    from kivy.config import Config

    for section, values in kivy_settings(display).items():
        if section == "input" and Config.has_section("input"):
            Config.remove_section("input")  # no device from the host's ~/.kivy joins in
        if not Config.has_section(section):
            Config.add_section(section)
        for key, value in values.items():
            Config.set(section, key, value)
