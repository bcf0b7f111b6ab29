"""Take games home, by touch: back up and export into the data folder, restore after seeing what it adds."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from companion.store import Store
from companion.store.backup import backup, backups_in
from companion.store.simulate import simulate
from companion.ui.widgets import ChoiceButton
from scenes_table import end


def test_back_up_export_and_restore_by_touch(ui, tmp_path: Path) -> None:
    app = ui.start()
    end(ui)
    app.show("home")
    ui.step(2)
    ui.tap(app.screen("home").ids.takehome)
    screen = app.screen("takehome")
    assert app.root.current == "takehome" and screen.folder == str(tmp_path)

    ui.tap(screen.ids.back_up)
    ui.until(lambda: not screen.busy)
    (written,) = backups_in(tmp_path)
    assert screen.status == f"Every game was backed up to {written}"
    ui.tap(screen.ids.export)
    ui.until(lambda: not screen.busy)
    assert screen.status.startswith("1 game exported to ") and (tmp_path / screen.status.split(" to ")[1]).is_dir()

    # Another table's backup, with two games this one lacks, in a folder reached by taps.
    other = tmp_path / "sticks" / "from Dee"
    other.mkdir(parents=True)
    with Store.open(other / "games.db") as store:
        simulate(store, 2, seed=4, start=datetime(2026, 1, 1))
        backup(store, other)
    screen.choose(tmp_path)
    ui.step(2)
    ui.tap(ui.find(ChoiceButton, text="sticks"))
    ui.tap(ui.find(ChoiceButton, text="from Dee"))
    assert screen.folder == str(other)
    ui.tap(screen.ids.restore)
    ui.until(lambda: not screen.busy)
    assert screen.plan is not None and screen.status.splitlines()[0].endswith(": 2 games to add, 0 already here")
    assert len(app.store.uids()) == 1  # shown, not yet added
    ui.tap(screen.ids.add)
    ui.until(lambda: not screen.busy)
    assert screen.status == "2 games added" and len(app.store.uids()) == 3
    ui.tap(screen.ids.eject)
    assert screen.status == "Eject is for a USB stick; this is a folder"
