"""The real ``spicy-companion`` command as its own process, for the crash test.

Runs ``companion.cli.main`` with the arguments given, as the console script
does, and prints one line to stdout for each thing the test waits for:
``started`` when the app is up, ``screen <name>`` on every change of screen,
``toast <text>`` for every toast, ``table <state JSON>`` each time a table
opens, and on set-up ``setup <step>``, ``seats <names JSON>`` and ``focus <True|False>``
(the name field's), so the test clicks and types only once the app has taken the last
click or key in: a loaded machine may draw a frame seconds after the X events.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from companion.cli import main  # noqa: E402
from companion.table.session import Session  # noqa: E402
from companion.ui.app import SpicyApp  # noqa: E402

show_table, open_store_and_buzzers, notify = SpicyApp.show_table, SpicyApp.open_store_and_buzzers, SpicyApp.notify


def reporting_show_table(app: SpicyApp, session: Session) -> None:
    show_table(app, session)
    print("table", json.dumps(session.state.to_json(), ensure_ascii=False), flush=True)


def reporting_open(app: SpicyApp) -> None:
    """The first frame is drawn: the store opens now, and the unfinished game with it; then the app is up."""
    open_store_and_buzzers(app)
    app.root.bind(current=lambda _manager, name: print("screen", name, flush=True))
    setup = app.screen("setup")
    setup.bind(step=lambda _screen, step: print("setup", step, flush=True))
    setup.bind(changed=lambda screen, _n: print("seats", json.dumps(screen.draft.names), flush=True))
    setup.ids.new_name.bind(focus=lambda _field, focused: print("focus", focused, flush=True))
    print("started", flush=True)


def reporting_notify(app: SpicyApp, text: str, seconds: float = 3.0) -> None:
    print("toast", text, flush=True)
    notify(app, text, seconds)


if __name__ == "__main__":  # only in its own process: pytest imports this file to look for doctests
    SpicyApp.show_table = reporting_show_table  # type: ignore[method-assign]
    SpicyApp.open_store_and_buzzers = reporting_open  # type: ignore[method-assign]
    SpicyApp.notify = reporting_notify  # type: ignore[method-assign]
    sys.exit(main(sys.argv[1:]))
