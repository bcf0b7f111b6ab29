"""Write docs/screenshots/<scene>-<size>.png for every scene in tests/ui/scenes*.py (run by scripts/screenshots).

Each scene runs in a fresh app at 800x480, 1280x720 and 720x1280, and once more
at 800x480 with the seats facing their edges (a screen lying flat); the scenes
registered with ``wide_flat`` are taken lying flat at 1280x720 too.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import tempfile
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]  # the UI helpers, and the list of layouts (tests/layouts.py)

import conftest  # noqa: E402  (starts the virtual display and sets Kivy up, as for the tests)
from scenes import SCENES  # noqa: E402
from scenes import WIDE_FLAT as WIDE_FLAT_SCENES  # noqa: E402

from companion.config import UiConfig  # noqa: E402
from layouts import LAYOUTS, WIDE_FLAT  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=HERE.parent.parent / "docs" / "screenshots")
    parser.add_argument("--language", default="en", help="a code of companion/languages.py, en by default; other languages' files end in -<code>")
    parser.add_argument("--layouts", type=lambda text: text.split(","), default=[], help="only these layouts, by commas: 800x480,720x1280,800x480-flat (default: all)")
    parser.add_argument("names", nargs="*", help="only these scenes (default: all)")
    args = parser.parse_args()
    for module in sorted(HERE.glob("scenes_*.py")):
        importlib.import_module(module.stem)
    unknown = set(args.names) - set(SCENES)
    if unknown:
        print(f"screenshots: no scene named {', '.join(sorted(unknown))}; known: {', '.join(SCENES)}", file=sys.stderr)
        return 2
    for name, scene in SCENES.items():
        if args.names and name not in args.names:
            continue
        for layout in (*LAYOUTS, *([WIDE_FLAT] if name in WIDE_FLAT_SCENES else [])):
            if args.layouts and str(layout) not in args.layouts:
                continue
            with tempfile.TemporaryDirectory() as folder:
                os.environ.update(XDG_CONFIG_HOME=f"{folder}/config", XDG_DATA_HOME=f"{folder}/data")
                driver = conftest.UiDriver(Path(folder))
                config = driver.config(ui=UiConfig(face_seats=layout.flat, language=args.language))
                driver.start(size=layout.size, config=config)
                try:
                    scene(driver)
                    suffix = "" if args.language == "en" else f"-{args.language}"
                    print(driver.screenshot(args.out / f"{name}-{layout}{suffix}.png"))
                except Exception:
                    traceback.print_exc(file=sys.__stderr__)  # Kivy's logger holds sys.stderr
                    return 1
                finally:
                    driver.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
