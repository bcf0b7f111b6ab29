"""Settings → League by touch, with real Syncthing instances on loopback (README "Club night").

Kivy has one window a process, so the two tables take turns in it: table A's
app, then B's, then A's again, each with its own store and league folder. Their
Syncthing instances run beside the apps as the Pi's service does (each its home,
port and device; local discovery off, static ``tcp://127.0.0.1:PORT``), and keep
sending while no app is up; the app uses the one answering on its socket. B
lists A through ``[league] tables``, A's league code: what the foundation's
join path needs where local discovery cannot be used (loopback has no
broadcast).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sys
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from companion.config import LeagueConfig, StoreConfig, UiConfig
from companion.league.beacon import Beacon
from companion.league.folders import League
from companion.store.simulate import simulate
from companion.league.syncthing import (CODE_PREFIX, ON, Member, Syncthing, SyncthingError, ask, folder_id,
                                        league_code, read_code, start_league)
from companion.rules import SPICY, new_setup
from companion.ui.keyboard import BACKSPACE, ENTER
from companion.ui.screens.league import AskingRow, FoundTable
from keyboard_helpers import keys, type_on_screen

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from test_syncthing import free_port, free_udp_port  # noqa: E402

SYNCED = float(os.environ.get("SYNCED", "120"))
"""Seconds a step of the league may take on a loaded 2-core machine: Syncthing reconnects every 10 s."""
START = datetime(2026, 11, 6, 19, 0, tzinfo=UTC)


@pytest.fixture
def base() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="sl-", dir="/tmp"))  # short: a Unix socket's path has at most 107 bytes
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


class Tables:
    """Tables A and B: each a league folder, a database, and a Syncthing running as a Pi's service would."""

    def __init__(self, base: Path) -> None:
        self.base = base
        self.syncthing: dict[str, Syncthing] = {}
        self.tables: dict[str, tuple[str, ...]] = {}

    def serve(self, name: str) -> Syncthing:
        syncthing = Syncthing(self.base / name / "syncthing", f"tcp://127.0.0.1:{free_port()}", local_discovery=False)
        syncthing.start()
        self.syncthing[name] = syncthing
        return syncthing

    def config(self, ui, name: str):  # type: ignore[no-untyped-def]
        listen = self.syncthing[name].listen if name in self.syncthing else f"tcp://127.0.0.1:{free_port()}"
        league = LeagueConfig(folder=self.base / name, listen=listen, local_discovery=False,
                              tables=self.tables.get(name, ()))
        return ui.config(ui=UiConfig(keyboard="screen"), league=league,
                         store=StoreConfig(db=self.base / f"{name}.db"))

    def stop(self) -> None:
        for syncthing in self.syncthing.values():
            syncthing.stop()


@pytest.fixture
def tables(base: Path) -> Iterator[Tables]:
    made = Tables(base)
    try:
        yield made
    finally:
        made.stop()


def until_on(ui, app) -> None:  # type: ignore[no-untyped-def]
    """The league on and at rest; else the failure says where it stood."""
    league = app.league
    ui.until(lambda: league.on and not league.busy, SYNCED,
             state=lambda: f"on={league.on} busy={league.busy} problem={league.problem!r} words={list(league.words)}")


def open_league(ui, config):  # type: ignore[no-untyped-def]
    """The app, Settings, then League by touch."""
    app = ui.start(config=config)
    ui.tap(app.screen("home").ids.settings)
    ui.until(lambda: app.root.current == "settings")
    settings = app.screen("settings")
    settings.ids.scroll.scroll_y = 0  # the League row is the last
    ui.step(3)
    ui.tap(settings.ids.league)
    ui.until(lambda: app.root.current == "league")
    return app, app.screen("league")


def name_table(ui, screen, name: str) -> None:  # type: ignore[no-untyped-def]
    ui.tap(screen.ids.name)
    for _ in screen.ids.name.text:
        ui.tap(keys(ui)[BACKSPACE])
    type_on_screen(ui, name)
    ui.tap(keys(ui)[ENTER])
    ui.until(lambda: ui.app.league.name == name and not ui.app.league.busy, SYNCED)


def test_a_league_started_joined_and_accepted_by_touch_carries_a_game_across(ui, tables: Tables) -> None:
    tables.serve("A")
    tables.serve("B")
    app, screen = open_league(ui, tables.config(ui, "A"))
    ui.until(lambda: app.league.name.startswith("Table "), SYNCED)
    name_table(ui, screen, "Table Ana")
    ui.tap(screen.ids.start)
    until_on(ui, app)
    assert (tables.base / "A" / ON).exists()
    assert screen.ids.start.opacity == 0 and screen.ids.leave.opacity == 1
    ui.stop()

    league_a = League(LeagueConfig(folder=tables.base / "A"))
    assert league_a.table.name == "Table Ana"  # the name set by touch is the table's, after a restart too
    tables.tables["B"] = (league_code(league_a, tables.syncthing["A"]),)
    app, screen = open_league(ui, tables.config(ui, "B"))
    listed = f"Table Ana · {tables.syncthing['A'].device_id()[:7]}"  # the code A's own screen shows
    ui.until(lambda: any(f.text == listed for f in ui.find_all(FoundTable)), SYNCED)
    assert not app.league.on
    assert (tables.base / "B" / "looking").exists()  # what has a Pi's path unit start Syncthing meanwhile
    ui.tap(next(f for f in ui.find_all(FoundTable) if f.text == listed))
    until_on(ui, app)
    assert "Table Ana" in screen.ids.state.text or app.league.words
    b_name = app.league.name
    ui.stop()
    assert not (tables.base / "B" / "looking").exists()  # gone with the screen

    app, screen = open_league(ui, tables.config(ui, "A"))
    ui.until(lambda: any(r.table == b_name for r in ui.find_all(AskingRow)), SYNCED)
    row = next(r for r in ui.find_all(AskingRow) if r.table == b_name)
    assert row.children[-1].text == f"{b_name} asks to join the league"
    ui.tap(row.ids.accept)
    ui.until(lambda: not ui.find_all(AskingRow) and not app.league.busy, SYNCED)
    assert app.store is not None
    before = set(app.store.uids())
    simulate(app.store, 1, 5, START)  # a game finished on A while the app runs: the league sends it
    (uid,) = set(app.store.uids()) - before
    ui.until(lambda: (league_a.own / "games" / f"{uid}.json").exists(), SYNCED)
    ui.stop()

    app, screen = open_league(ui, tables.config(ui, "B"))
    assert app.store is not None
    ui.until(lambda: uid in app.store.uids(), SYNCED)
    ui.until(lambda: not app.league.busy, SYNCED)
    ui.tap(screen.ids.leave)
    ui.until(lambda: not app.league.on and not app.league.busy, SYNCED)
    assert not (tables.base / "B" / ON).exists()
    assert uid in app.store.uids()  # the games already taken in stay
    assert screen.ids.start.opacity == 1


def as_discovered(syncthing: Syncthing) -> str:
    """A table as Syncthing's local discovery hears it, its device and address and nothing else (no name, no
    table), in the ``[league] tables`` form the list also reads: loopback carries no discovery broadcast."""
    return as_listed(Member(syncthing.device_id(), "", "", (syncthing.listen,)))


def as_listed(member: Member) -> str:
    """``member`` in the ``[league] tables`` form (a league code), which Join a league lists."""
    import base64

    return CODE_PREFIX + base64.urlsafe_b64encode(json.dumps(member.to_json()).encode()).decode().rstrip("=")


def test_a_table_found_on_the_network_is_listed_by_the_name_its_beacon_says(ui, tables: Tables) -> None:
    """Each table's beacon runs beside its Syncthing, as the Pi's services do: A, in a league, says its name;
    B's Join a league lists A by it, with A's code, and asking names A by it."""
    tables.serve("A")
    tables.serve("B")
    port = free_udp_port()
    beacons = [Beacon(tables.base / name, port, every=0.2) for name in ("A", "B")]
    for beacon in beacons:
        beacon.start()
    try:
        app, screen = open_league(ui, tables.config(ui, "A"))
        name_table(ui, screen, "Table Ana")
        ui.tap(screen.ids.start)
        until_on(ui, app)
        ui.stop()

        app, screen = open_league(ui, tables.config(ui, "B"))
        listed = f"Table Ana · {tables.syncthing['A'].device_id()[:7]}"
        ui.until(lambda: [f.text for f in ui.find_all(FoundTable)] == [listed], SYNCED)
        ui.tap(ui.find_all(FoundTable)[0])
        ui.until(lambda: screen.asked == "Table Ana", SYNCED)
    finally:
        for beacon in beacons:
            beacon.stop()


def test_a_table_found_without_its_name_is_listed_by_the_code_its_own_screen_shows(ui, tables: Tables) -> None:
    """Discovery gives no name: Join a league lists such a table as "A table · ABC1234", the code its own
    League screen shows beside its name; once it has accepted, its name is the one the joining table knows."""
    tables.serve("A")
    tables.serve("B")
    app, screen = open_league(ui, tables.config(ui, "A"))
    name_table(ui, screen, "Table Ana")
    code = tables.syncthing["A"].device_id()[:7]
    ui.until(lambda: screen.ids.code.text == f"Table Ana · {code}", SYNCED)
    ui.tap(screen.ids.start)
    until_on(ui, app)
    ui.stop()

    tables.tables["B"] = (as_discovered(tables.syncthing["A"]),)
    app, screen = open_league(ui, tables.config(ui, "B"))
    ui.until(lambda: any(f.text == f"A table · {code}" for f in ui.find_all(FoundTable)), SYNCED)
    ui.until(lambda: screen.ids.code.text == f"{app.league.name} · {tables.syncthing['B'].device_id()[:7]}", SYNCED)
    b_name = app.league.name
    ui.tap(next(f for f in ui.find_all(FoundTable) if f.text == f"A table · {code}"))
    until_on(ui, app)
    ui.stop()

    app, screen = open_league(ui, tables.config(ui, "A"))
    ui.until(lambda: any(r.table == b_name for r in ui.find_all(AskingRow)), SYNCED)
    ui.tap(next(r for r in ui.find_all(AskingRow) if r.table == b_name).ids.accept)
    ui.until(lambda: not ui.find_all(AskingRow) and not app.league.busy, SYNCED)
    ui.stop()

    app, screen = open_league(ui, tables.config(ui, "B"))
    a = tables.syncthing["A"].device_id()
    ui.until(lambda: any(d["deviceID"] == a and d["name"] == "Table Ana"
                         for d in tables.syncthing["B"].request("GET", "/rest/config/devices")), SYNCED)


def test_a_game_ended_at_the_table_is_in_its_own_league_folder_as_it_ends(ui, tables: Tables, monkeypatch) -> None:
    """The app's league thread steps every ``STEP_SECONDS``; with that an hour, only the game's end can have
    sent it: played by touch to the World's End card, the game is in this table's own folder, and in its
    Syncthing's index, while no other step has run."""
    from companion.ui.widgets.claim_pad import NumberButton, SpiceButton
    from table_helpers import within

    monkeypatch.setattr("companion.ui.league.STEP_SECONDS", 3600.0)
    syncthing = tables.serve("A")
    league = League(LeagueConfig(folder=tables.base / "A"))
    start_league(league, syncthing)
    app = ui.start(config=tables.config(ui, "A"))
    ui.until(lambda: app.league.on and not app.league.busy and bool(app.league.words), SYNCED)
    app.start_game(new_setup(SPICY, ["Ana", "Ben", "Cy"], end_card=27))
    ui.step(2)
    screen = app.screen("table")
    ui.tap(within(screen.ids.pad, SpiceButton, spice="chili"))
    ui.tap(within(screen.ids.pad, NumberButton, number=1))
    (uid,) = app.store.uids()
    sent = league.own / "games" / f"{uid}.json"
    ui.step(5)
    assert not sent.exists()  # a game going on is not sent
    ui.tap(screen.ids.draw_pile)
    ui.tap(screen._sheets[screen.sheet_name].ids.end_card)
    assert app.root.current == "end"
    ui.until(sent.exists, SYNCED)
    record = json.loads(sent.read_text(encoding="utf-8"))
    assert record["uid"] == uid and record["ended_at"] is not None and len(record["actions"]) == 2

    def indexed() -> bool:
        try:
            found = syncthing.request("GET", f"/rest/db/file?folder={folder_id(league.table.id)}&file=games/{uid}.json")
        except SyncthingError:
            return False  # not in its index yet
        return bool(found and found.get("local", {}).get("size"))

    ui.until(indexed, SYNCED)


def test_syncthing_missing_is_said_and_nothing_is_started(ui, tables: Tables, monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no syncthing on it
    app, screen = open_league(ui, tables.config(ui, "A"))
    ui.until(lambda: "Syncthing is not installed" in screen.ids.state.text, SYNCED)
    ui.tap(screen.ids.start)
    ui.until(lambda: not app.league.busy, SYNCED)
    assert "Syncthing is not installed: run sudo apt-get install syncthing" in screen.ids.state.text
    assert app.league.said == app.league.problem  # the Settings row says it too
    assert not app.league.on and not (tables.base / "A" / ON).exists()
    app.change_settings(language="fr")
    ui.step(2)
    assert screen.ids.state.text.startswith("Syncthing n’est pas installé")  # said again in French
    assert app.league.said == screen.ids.state.text


def test_a_start_that_met_no_syncthing_is_tried_again_until_it_is_there(ui, tables: Tables, monkeypatch,
                                                                         tmp_path: Path) -> None:
    """The screen says "the table tries again": the tap is not lost, the league comes on once Syncthing is."""
    path = os.environ["PATH"]
    monkeypatch.setenv("PATH", str(tmp_path))  # no syncthing on it
    app, screen = open_league(ui, tables.config(ui, "A"))
    ui.tap(screen.ids.start)
    ui.until(lambda: "Syncthing is not installed" in screen.ids.state.text and not app.league.busy, SYNCED)
    assert not app.league.on
    monkeypatch.setenv("PATH", path)  # installed
    ui.until(lambda: app.league.on and not app.league.problem, SYNCED)  # with no other tap
    assert (tables.base / "A" / ON).exists()


def test_a_syncthing_slow_to_answer_is_waited_for_not_started_again_beside_it(ui, tables: Tables) -> None:
    """A loaded machine: the Syncthing already running takes seconds to answer. The app must not take its
    socket and start a second one in its home (which fails on the first one's lock): it waits."""
    served = tables.serve("A")
    assert served.process is not None
    served.process.send_signal(signal.SIGSTOP)  # takes connections, answers nothing
    try:
        app, screen = open_league(ui, tables.config(ui, "A"))
        ui.tap(screen.ids.start)
        ui.until(lambda: "Syncthing is slow to answer" in screen.ids.state.text, SYNCED)
        assert served.socket.exists() and app.league.syncthing is None  # none started beside it
    finally:
        served.process.send_signal(signal.SIGCONT)
    ui.until(lambda: app.league.on and not app.league.problem, SYNCED)  # the tap's start, tried again
    assert app.league.syncthing is not None and app.league.syncthing.process is None  # the served one's
    assert app.league.code == served.device_id()[:7]


def test_its_socket_gone_is_said_and_the_league_goes_on(ui, tables: Tables) -> None:
    """The app's own Syncthing loses its socket: the app says so or starts it again; the league stays on."""
    app, screen = open_league(ui, tables.config(ui, "A"))
    ui.tap(screen.ids.start)
    until_on(ui, app)
    assert app.league.syncthing is not None and app.league.syncthing.process is not None
    first = app.league.syncthing.process
    (tables.base / "A" / "syncthing" / "api.sock").unlink()
    ui.until(lambda: app.league.syncthing is not None and app.league.syncthing.process is not first, SYNCED)
    ui.until(lambda: app.league.syncthing is not None and app.league.syncthing.answers() and not app.league.problem,
             SYNCED)
    assert first.poll() is not None  # the one that lost its socket was stopped, not left behind
    assert app.league.on and (tables.base / "A" / ON).exists()


def test_start_stays_under_the_finger_while_the_first_step_shows_the_code(ui, tables: Tables) -> None:
    """The code arrives a moment after the screen opens (Syncthing starting), just as a hand reaches for Start:
    the line it takes is kept, so Start does not move under the finger (ScrollView releases a tap 0.2 s late,
    where the button no longer is)."""
    app, screen = open_league(ui, tables.config(ui, "A"))  # no Syncthing served: the app starts its own
    assert not app.league.code
    start = screen.ids.start
    aimed = start.to_window(*start.center)
    ui.until(lambda: app.league.code, SYNCED)
    ui.step(3)
    assert start.to_window(*start.center) == aimed
    assert screen.ids.code.text.endswith(app.league.code)
    ui.tap(start)
    until_on(ui, app)


def test_a_refused_file_is_named_once_and_nothing_else_changes(ui, tables: Tables) -> None:
    tables.serve("A")
    app, screen = open_league(ui, tables.config(ui, "A"))
    ui.tap(screen.ids.start)
    until_on(ui, app)
    assert app.store is not None
    before = app.store.uids()
    dropped = tables.base / "A" / "tables" / "other" / "games"
    dropped.mkdir(parents=True)
    (dropped / "not-ours.json").write_text("{ cut short", encoding="utf-8")
    said: list[str] = []
    notify = app.notify
    app.notify = lambda text, *args, **kwargs: (said.append(text), notify(text, *args, **kwargs))
    ui.until(lambda: any("not-ours.json" in text for text in said), SYNCED)
    ui.until(lambda: not app.league.busy, SYNCED)
    app.league._post(lambda: None)  # another step: the file is not named again
    ui.until(lambda: not app.league.busy, SYNCED)
    assert sum("not-ours.json" in text for text in said) == 1
    assert app.store.uids() == before and (dropped / "not-ours.json").exists()
    assert app.league.on and not app.league.problem


def test_the_services_socket_gone_is_said_and_passes_when_it_is_back(ui, tables: Tables) -> None:
    """The Syncthing running beside the app (the Pi's service) loses its socket: a sentence on screen, the
    league stays on with every game, and the words come back once it answers again."""
    served = tables.serve("A")
    app, screen = open_league(ui, tables.config(ui, "A"))
    ui.tap(screen.ids.start)
    until_on(ui, app)
    assert app.store is not None
    simulate(app.store, 2, 5, START)
    games = set(app.store.uids())
    served.socket.unlink()
    ui.until(lambda: app.league.problem, SYNCED)
    assert "Syncthing" in app.league.problem  # "... is another instance of Syncthing running?"
    assert screen.ids.state.text == app.league.problem and "Traceback" not in app.league.problem
    served.stop()
    served.start()
    ui.until(lambda: not app.league.problem and app.league.words, SYNCED)
    assert app.league.on and set(app.store.uids()) == games


def test_a_table_refused_by_touch_is_asked_no_more(ui, tables: Tables) -> None:
    tables.serve("A")
    b = tables.serve("B")
    app, screen = open_league(ui, tables.config(ui, "A"))
    ui.tap(screen.ids.start)
    until_on(ui, app)
    league_a = League(LeagueConfig(folder=tables.base / "A"))
    league_b = League(LeagueConfig(table_name="Table 5", folder=tables.base / "B"))
    ask(league_b, b, read_code(league_code(league_a, tables.syncthing["A"])))
    ui.until(lambda: any(r.table == "Table 5" for r in ui.find_all(AskingRow)), SYNCED)
    row = next(r for r in ui.find_all(AskingRow) if r.table == "Table 5")
    ui.tap(row.ids.refuse)
    ui.until(lambda: not ui.find_all(AskingRow) and not app.league.busy, SYNCED)
    b_device = b.device_id()
    ignored = tables.syncthing["A"].request("GET", "/rest/config")["remoteIgnoredDevices"]
    assert [d["deviceID"] for d in ignored] == [b_device]
    assert b_device not in {d["deviceID"] for d in tables.syncthing["A"].request("GET", "/rest/config/devices")}


def test_a_tables_name_ending_in_a_number_reads_as_typed_on_a_persian_table(ui, tables: Tables,
                                                                             monkeypatch) -> None:
    """This table named "Ben 2" and a table found on the network named "Table 3", the table speaking Persian:
    each line reads from the right the name as typed (Latin, its digit after it), then the code at its left.
    Drawn "۳ Table" the name lost its number to the line; the texts the screen set stay the plain words."""
    from companion.ui.widgets.label import Label
    from test_persian import record_drawn

    drawn = record_drawn(monkeypatch)
    device = "-".join(["AAAAAAA"] * 8)
    tables.tables["A"] = (as_listed(Member(device, "aaaaaa", "Table 3", ("tcp://192.168.1.65:22000",))),)
    app, screen = open_league(ui, tables.config(ui, "A"))  # no Syncthing served: the app starts its own
    name_table(ui, screen, "Ben 2")
    ui.until(lambda: app.league.code and ui.find_all(FoundTable), SYNCED)
    assert app.change_settings(language="fa")
    ui.step(3)
    code, found = screen.ids.code, ui.find_all(FoundTable)[0]
    assert (code.text, found.text) == (f"Ben 2 · {app.league.code}", "Table 3 · AAAAAAA")
    assert drawn[id(code._label)] == f"{app.league.code} – Ben 2"
    (words,) = [label for label in found.walk(restrict=True) if isinstance(label, Label)]
    assert drawn[id(words._label)] == "AAAAAAA – Table 3"
