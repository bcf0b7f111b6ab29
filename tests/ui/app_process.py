"""The real ``spicy-companion`` command as its own process, for the crash test.

Runs ``companion.cli.main`` with the arguments given, as the console script
does, and prints one line to stdout for each thing the test waits for:
``started`` when the app is up, ``screen <name>`` on every change of screen,
``toast <text>`` for every toast, and ``table <state JSON>`` each time a table
opens.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from companion.cli import main  # noqa: E402
from companion.session import Session  # noqa: E402
from companion.ui.app import SpicyApp  # noqa: E402

show_table, on_start = SpicyApp.show_table, SpicyApp.on_start


def reporting_show_table(app: SpicyApp, session: Session) -> None:
    show_table(app, session)
    print("table", json.dumps(session.state.to_json(), ensure_ascii=False), flush=True)


def reporting_on_start(app: SpicyApp) -> None:
    on_start(app)
    app.root.bind(current=lambda _manager, name: print("screen", name, flush=True))
    app.toast.bind(text=lambda _toast, text: print("toast", text, flush=True))
    print("started", flush=True)


if __name__ == "__main__":  # only in its own process: pytest imports this file to look for doctests
    SpicyApp.show_table = reporting_show_table  # type: ignore[method-assign]
    SpicyApp.on_start = reporting_on_start  # type: ignore[method-assign]
    sys.exit(main(sys.argv[1:]))
