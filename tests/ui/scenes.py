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


def scene(name: str) -> Callable[[Scene], Scene]:
    def register(func: Scene) -> Scene:
        if name in SCENES:
            raise ValueError(f"two scenes are named {name!r}")
        SCENES[name] = func
        return func

    return register
