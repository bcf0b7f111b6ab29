"""Take games home, by touch: back up and export into the data folder, restore after seeing what it adds."""

from __future__ import annotations

import os
import re
import subprocess
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from kivy.core.text import Label as CoreLabel

from companion.config import UiConfig
from companion.languages import CODES
from companion.pi import eject

from companion.store import Store
from companion.store.backup import backup, backups_in
from companion.store.simulate import simulate
from companion.ui.widgets import ChoiceButton
from scenes_table import end
from scenes_takehome import restore_plan_shown, tapped_in


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


OVERHANG = 3
"""Pixels a line may reach past its texture: Persian's joined letters are drawn a pixel or two wider than
Kivy measured them apart."""


def record_drawing(monkeypatch: pytest.MonkeyPatch) -> dict[int, list[tuple[str, bool]]]:
    """By each core text's id, what its last drawing drew, run by run, and whether the run reached past the
    texture's edges: cut off. Kivy lays a word longer than a line out on a line of its own, as wide as the
    line, and draws all of it."""
    drawn: dict[int, list[tuple[str, bool]]] = {}
    begin, render_text = CoreLabel._render_begin, CoreLabel._render_text

    def drawing(core: Any, text: str, x: int, y: int) -> None:
        past = x < 0 or x + core.get_extents(text)[0] > core._size[0] + OVERHANG
        drawn.setdefault(id(core), []).append((text, past))
        render_text(core, text, x, y)

    monkeypatch.setattr(CoreLabel, "_render_begin", lambda core: (drawn.pop(id(core), None), begin(core))[1])
    monkeypatch.setattr(CoreLabel, "_render_text", drawing)
    return drawn


def misdrawn(label: Any, drawn: dict[int, list[tuple[str, bool]]], typed: str) -> list[str]:
    """What ``label`` drew past its edges, and each piece of a path or a file's name it drew otherwise than as
    ``typed`` ("db.192535" for "192535.db")."""
    runs = drawn.get(id(label._label), [])
    pieces = [piece for text, _past in runs for piece in re.findall(r"[\w.]*[/-][\w./-]*", text, re.ASCII)
              if re.search("[A-Za-z0-9]", piece)]
    return [text for text, past in runs if past] + [piece for piece in pieces if piece not in typed]


@pytest.mark.parametrize(("language", "size"), [*[(code, (800, 480)) for code in CODES], ("fa", (720, 1280))])
def test_a_backups_long_file_name_is_broken_into_lines_inside_the_box(
        ui, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, language: str, size: tuple[int, int]) -> None:
    """Issue 25: "spicy-companion-backup-2026-12-04-185329.db: 5 games to add" ran past the plan's box, in
    Persian every line of the plan with it. The name, and the path a backup was written to, break after a
    hyphen or a slash instead, and each part is drawn as typed ("192535.db", not "db.192535", in Persian)."""
    drawn = record_drawing(monkeypatch)
    app = ui.start(size=size, config=ui.config(ui=UiConfig(language=language)))
    other = tmp_path / "from-another-table"
    other.mkdir()
    with Store.open(other / "games.db") as store:
        simulate(store, 3, seed=8, start=datetime(2026, 11, 20, 19))
        found = backup(store, other)
    restore_plan_shown(ui, other)
    screen = app.screen("takehome")
    status = screen.ids.status
    ui.step(2)
    assert screen.plan is not None and found.name in "".join(status.text.split())
    assert misdrawn(status, drawn, found.name) == [], status.text
    ui.tap(screen.ids.cancel)
    tapped_in(ui, tmp_path, "back_up")
    ui.step(2)
    (written,) = backups_in(tmp_path)
    assert str(written) in "".join(status.text.split()) and misdrawn(status, drawn, str(written)) == [], status.text
