"""Named screen states for screenshots: ``@scene("name")`` on a function that takes a started app's driver.

``scripts/screenshots`` starts the app at each size, runs each scene and saves
``docs/screenshots/<scene>-<size>.png``. Scenes live beside the tests
(``scenes_*.py``) because they drive the app the way the tests do.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Scene = Callable[[Any], None]
SCENES: dict[str, Scene] = {}
WIDE_FLAT: set[str] = set()
"""Scenes also taken lying flat at 1280x720, where the seats' edges are long enough to change the layout."""


def scene(name: str, wide_flat: bool = False) -> Callable[[Scene], Scene]:
    def register(func: Scene) -> Scene:
        if name in SCENES:
            raise ValueError(f"two scenes are named {name!r}")
        SCENES[name] = func
        if wide_flat:
            WIDE_FLAT.add(name)
        return func

    return register
