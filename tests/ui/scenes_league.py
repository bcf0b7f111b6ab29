"""Scenes of Settings → League for ``scripts/screenshots``: joining (the tables found on the network) and a
league with a table asking to join. Real Syncthing instances on loopback, as in tests/ui/test_league_screen.py."""

from __future__ import annotations

import base64
import json
from dataclasses import replace
from typing import Any

from companion.config import LeagueConfig
from companion.league.folders import League
from companion.league.syncthing import CODE_PREFIX, Member, Syncthing, ask, league_code
from scenes import scene
from test_syncthing import free_port

WAIT = 60.0


def _code(name: str, letter: str) -> str:
    """A league code of a table that is not running: only listed, never asked."""
    device = "-".join([letter * 7] * 8)
    member = Member(device, letter.lower() * 6, name, (f"tcp://192.168.1.{ord(letter)}:22000",))
    return CODE_PREFIX + base64.urlsafe_b64encode(json.dumps(member.to_json()).encode()).decode().rstrip("=")


def _league(ui: Any, **settings: Any) -> Any:
    """This table's league in the scene's folder, its Syncthing started by the app on loopback; the League
    screen open, named "Table 3"."""
    runner = ui.app.league
    runner.config = LeagueConfig(folder=ui.tmp_path / "league", listen=f"tcp://127.0.0.1:{free_port()}",
                                 local_discovery=False, **settings)
    ui.app.show("league")
    ui.until(lambda: runner.name and not runner.busy, WAIT)
    runner.rename("Table 3")
    ui.until(lambda: runner.name == "Table 3" and not runner.busy, WAIT)
    return ui.app.screen("league")


@scene("league-join")
def league_join(ui: Any) -> None:
    """Another table's League screen: three tables found on the network, two by the names their beacons say,
    with their codes, one by its code alone (a table whose name is not heard yet); a tap asks one."""
    runner = ui.app.league
    _league(ui, tables=(_code("Table 1", "A"), _code("Maximilian's long corner", "B"), _code("", "C")))
    ui.until(lambda: len(runner.found) == 3, WAIT)
    ui.step(3)


@scene("league-asking")
def league_asking(ui: Any) -> None:
    """The first table, in a league, with Table 5 asking to join."""
    runner = ui.app.league
    screen = _league(ui)
    ui.tap(screen.ids.start)
    ui.until(lambda: runner.on and not runner.busy, WAIT)
    folder = ui.tmp_path / "other"
    other = League(LeagueConfig(table_name="Table 5", folder=folder))
    syncthing = Syncthing(folder / "syncthing", f"tcp://127.0.0.1:{free_port()}", local_discovery=False)
    syncthing.start()
    assert runner.syncthing is not None and runner.league is not None
    host = replace(Member(runner.syncthing.device_id()), addresses=(runner.config.listen,))
    assert league_code(runner.league, runner.syncthing)
    ask(other, syncthing, host)
    ui.until(lambda: runner.asking, WAIT)
    ui.step(3)


@scene("settings-league")
def settings_league(ui: Any) -> None:
    """Settings scrolled to its last row, League, which opens the League screen."""
    ui.app.show("settings")
    ui.step(3)
    settings = ui.app.screen("settings")
    settings.ids.scroll.scroll_to(settings.ids.league, animate=False)
    ui.step(3)
