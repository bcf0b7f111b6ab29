"""Take games home, by touch: back up and export into the data folder, restore after seeing what it adds."""

from __future__ import annotations

import os
import subprocess
from datetime import datetime
from pathlib import Path

import pytest

from companion.pi import eject

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
    ui.tap(screen.ids.restore)  # the same backup again: nothing to add, so OK, and no plus
    ui.until(lambda: not screen.busy)
    assert screen.plan is not None and (screen.ids.add.text, screen.ids.add.icon) == ("OK", "check")
    ui.tap(screen.ids.add)
    assert screen.plan is None and len(app.store.uids()) == 3
    ui.tap(screen.ids.eject)
    assert screen.status == "Eject is for a USB stick; this is a folder"


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a stand-in stick needs root (CI runs as root)")
def test_a_stick_is_the_place_and_eject_says_when_it_can_be_pulled_out(ui, tmp_path: Path, monkeypatch) -> None:
    """A tmpfs mounted where the udev rule mounts sticks; the privileged half of Eject is run as systemd would."""
    media, request = tmp_path / "media", tmp_path / "run" / "eject"
    (media / "sdz1").mkdir(parents=True)
    request.parent.mkdir()
    monkeypatch.setattr(eject, "MEDIA", media)
    monkeypatch.setattr(eject, "REQUEST", request)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", media / "sdz1"], check=True)
    try:
        app = ui.start()
        app.show("takehome")
        ui.step(2)
        screen = app.screen("takehome")
        assert (screen.folder, screen.stick_chosen) == (str(media / "sdz1"), True)
        assert not screen.ids.eject.dimmed  # a kv rule does not follow a property named on_...: it looked dimmed
        assert ui.find(ChoiceButton, text="sdz1").selected
        ui.tap(screen.ids.back_up)
        ui.until(lambda: not screen.busy)
        assert len(backups_in(media / "sdz1")) == 1
        ui.tap(screen.ids.eject)
        assert screen.status == "Ejecting…" and request.read_text() == "sdz1\n"
        stick = eject.requested_stick(request, media)
        assert stick == media / "sdz1"
        subprocess.run(["umount", stick], check=True)
        ui.until(lambda: not screen.busy)
        assert screen.status == "You can pull the stick out now" and screen.folder == str(tmp_path)
    finally:
        subprocess.run(["umount", media / "sdz1"], capture_output=True)


def test_a_saved_game_exports_alone(ui, tmp_path: Path) -> None:
    app = ui.start()
    with Store.open(tmp_path / "games.db") as store:
        simulate(store, 3, seed=1, start=datetime(2026, 1, 1))
    page = app.screen("game")
    assert page.open(2)
    app.show("game")
    ui.step(2)
    ui.tap(page.ids.take_home)
    screen = app.screen("takehome")
    assert app.root.current == "takehome" and screen.only == 2
    ui.tap(screen.ids.export)
    ui.until(lambda: not screen.busy)
    folder = tmp_path / screen.status.split(" to ")[1]
    assert screen.status.startswith("1 game exported") and sorted(p.name for p in (folder / "json").iterdir()) == [
        "game-00002.json"]
    app.show("home")
    ui.step(2)
    assert screen.only == 0
