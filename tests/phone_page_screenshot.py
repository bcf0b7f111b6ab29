"""Writes docs/screenshots/phone-page.png (and phone-page-<code>.png with --language): the phone page of
tests/test_phones_page.py's game, served on loopback and drawn by headless Chromium at a phone's size."""

from __future__ import annotations

import argparse
import sys
import tempfile
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import conftest  # noqa: E402,F401  (Kivy's settings for the tests, before the translator loads Kivy)
from rules_helpers import game  # noqa: E402
from test_phones_page import COLOURS, HEADER, LINES, browse  # noqa: E402

from companion.phones.server import PhoneServer  # noqa: E402
from companion.table.model import table_model  # noqa: E402
from companion.ui.i18n import tr  # noqa: E402
from companion.ui.phone_page import phone_snapshot  # noqa: E402

OUT = Path(__file__).parent.parent / "docs" / "screenshots"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--language", default="en")
    args = parser.parse_args()
    tr.switch(args.language)
    played = game(*LINES, header=HEADER)
    server = PhoneServer("127.0.0.1", "screenshot").start()
    server.publish(partial(phone_snapshot, table_model(played), played, tuple(played.setup.names), COLOURS))
    suffix = "" if args.language == "en" else f"-{args.language}"
    try:
        with tempfile.TemporaryDirectory() as folder:
            browse(server.url, Path(folder), f"--screenshot={OUT / f'phone-page{suffix}.png'}")
    finally:
        server.stop()
    print(OUT / f"phone-page{suffix}.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
