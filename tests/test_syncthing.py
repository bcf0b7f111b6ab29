"""Three tables, three real Syncthing instances on loopback, one league (README "Club night").

Each instance has its own home, port and device ID; global discovery, relays and
local discovery are off, and each table is reached at its static
``tcp://127.0.0.1:PORT``. They are paired only through the app's own league code
and its accepting of a table that asks. Every wait is bounded, and every
instance is stopped however the test ends.
"""

from __future__ import annotations

import shutil
import socket
import tempfile
import time
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta, UTC
from pathlib import Path

import pytest

from companion.config import LeagueConfig
from companion.store import Store
from companion.league.beacon import Beacon
from companion.league.folders import League
from companion.store.simulate import simulate
from companion.league.syncthing import (
    Standing,
    Syncthing,
    accept,
    ask,
    folder_id,
    join,
    keep_in_step,
    leave,
    league_code,
    league_state,
    Member,
    league_words,
    nearby,
    read_code,
    refuse,
    short_code,
    start_league,
)

START = datetime(2026, 11, 6, 19, 0, tzinfo=UTC)
ARRIVES = 60.0
"""The issue's bound: a game finished at one table is in the others' league within this."""


def free_udp_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.bind(("", 0))
        return int(probe.getsockname()[1])


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Table:
    def __init__(self, base: Path, name: str) -> None:
        self.name = name
        self.league = League(LeagueConfig(table_name=name, folder=base / name))
        self.store = Store.open(base / f"{name}.db")
        self.syncthing = Syncthing(self.league.root / "syncthing", f"tcp://127.0.0.1:{free_port()}",
                                   local_discovery=False)

    def step(self) -> None:
        """What the app does now and then while the league is on."""
        keep_in_step(self.league, self.syncthing)
        self.league.import_tables(self.store)

    def finish_games(self, count: int, seed: int) -> set[str]:
        before = set(self.store.uids())
        simulate(self.store, count, seed, START)
        self.league.publish_ended(self.store)
        self.syncthing.scan(folder_id(self.league.table.id))
        return set(self.store.uids()) - before


@pytest.fixture
def league_of() -> Iterator[Callable[[int], list[Table]]]:
    """Tables A, B, ... each with its Syncthing running; all stopped and removed however the test ends."""
    base = Path(tempfile.mkdtemp(prefix="st-", dir="/tmp"))  # short: a Unix socket's path has at most 107 bytes
    made: list[Table] = []

    def make(count: int) -> list[Table]:
        for name in "ABC"[:count]:
            made.append(Table(base, name))
            made[-1].syncthing.start()
        return made

    try:
        yield make
    finally:
        for table in made:
            table.syncthing.stop()
            table.store.close()
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture
def tables(league_of: Callable[[int], list[Table]]) -> list[Table]:
    return league_of(3)


def until(what: Callable[[], bool], running: list[Table], seconds: float) -> float:
    """Steps every running table until ``what`` holds; the seconds it took, or a failure after ``seconds``."""
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        for table in running:
            table.step()
        if what():
            return time.monotonic() - started
        time.sleep(0.5)
    pytest.fail(f"not within {seconds:.0f} s")


def pair(tables: list[Table]) -> tuple[float, float]:
    """The others join the first through its league code, and it accepts each table that asked, by name;
    the seconds until it had been asked, and until every table received every other one's folder."""
    first, *others = tables
    start_league(first.league, first.syncthing)
    code = league_code(first.league, first.syncthing)
    assert read_code(code).table == first.league.table.id
    for newcomer in others:
        join(newcomer.league, newcomer.syncthing, code)
    devices = {t.syncthing.device_id(): t.name for t in others}
    asked = until(lambda: set(devices) <= set(first.syncthing.pending_devices()), [], 30)
    for device, asking in first.syncthing.pending_devices().items():
        assert asking["name"] == devices[device]  # the asking table, by its name
        accept(first.league, first.syncthing, device)

    def everyone_receives_everyone() -> bool:
        return all(t.syncthing.folder(folder_id(o.league.table.id)) is not None
                   for t in tables for o in tables if o is not t)

    return asked, until(everyone_receives_everyone, tables, 60)


def test_three_tables_keep_one_league_and_one_stopped_catches_up(tables: list[Table]) -> None:
    a, b, c = tables
    asked, paired = pair(tables)
    pending = a.syncthing.pending_devices()
    assert pending == {}  # each asked and was accepted
    for table in tables:
        kinds = {o.name: table.syncthing.folder(folder_id(o.league.table.id))["type"] for o in tables}
        assert kinds == {o.name: "sendonly" if o is table else "receiveonly" for o in tables}

    until(lambda: all(league_state(t.league, t.syncthing) == ["League: 3 tables, all in step"] for t in tables),
          tables, 30)

    from_a = a.finish_games(1, seed=1)
    took = until(lambda: all(from_a <= set(t.store.uids()) for t in (b, c)), tables, ARRIVES)
    for table in (b, c):
        (uid,) = from_a
        assert table.store.load(table.store.uids()[uid]).game().state.ended

    c.syncthing.stop()
    until(lambda: league_state(a.league, a.syncthing) == ["C last seen just now"], [a, b], 30)
    from_b = b.finish_games(1, seed=2)
    until(lambda: from_b <= set(a.store.uids()), [a, b], ARRIVES)
    assert not from_b & set(c.store.uids())
    c.syncthing.start()
    caught_up = until(lambda: from_b <= set(c.store.uids()), tables, ARRIVES)
    assert len(c.store.uids()) == len(a.store.uids()) == len(b.store.uids()) == 2

    name = a.store.players()[0]
    a.league.rename_player(a.store, name, "Renamed at A")
    a.syncthing.scan(folder_id(a.league.table.id))
    until(lambda: all("Renamed at A" in t.store.players() and name not in t.store.players() for t in (b, c)),
          tables, ARRIVES)
    leave(c.league, c.syncthing)
    c.step()  # what the other tables list of it no longer brings them back
    me = c.syncthing.device_id()
    assert [d["deviceID"] for d in c.syncthing.request("GET", "/rest/config/devices")] == [me]
    (own,) = c.syncthing.request("GET", "/rest/config/folders")
    assert own["id"] == folder_id(c.league.table.id) and [d["deviceID"] for d in own["devices"]] == [me]
    assert len(c.store.uids()) == 2  # the games taken in stay
    print(f"asked {asked:.1f} s, paired {paired:.1f} s, a game arrived in {took:.1f} s, caught up in {caught_up:.1f} s")


def test_a_table_found_asks_by_its_code_and_a_refused_one_asks_no_more(league_of) -> None:
    """Join a league's list (``nearby``) holds the tables of ``[league] tables``, never this table; asking
    one is join's own path; a table refused is ignored by Syncthing from then on."""
    a, b = league_of(2)
    start_league(a.league, a.syncthing)
    code = league_code(a.league, a.syncthing)
    assert nearby(a.league, a.syncthing, (code,)) == []  # this table is not offered to itself
    (found,) = nearby(b.league, b.syncthing, (code, "spicy-league-1-cut"))  # a code cut short is left out
    assert (found.name, found.table, found.addresses) == ("A", a.league.table.id, (a.syncthing.listen,))
    ask(b.league, b.syncthing, found)
    me = b.syncthing.device_id()
    until(lambda: me in a.syncthing.pending_devices(), [], 30)
    refuse(a.syncthing, me)
    ignored = a.syncthing.request("GET", "/rest/config")["remoteIgnoredDevices"]
    assert [(d["deviceID"], d["name"]) for d in ignored] == [(me, "B")]
    time.sleep(12)  # B tries again after Syncthing's reconnection interval (10 s)
    assert me not in a.syncthing.pending_devices()
    assert [d["deviceID"] for d in a.syncthing.request("GET", "/rest/config/devices")] == [a.syncthing.device_id()]


def test_the_leagues_state_in_words() -> None:
    at = datetime(2026, 11, 9, 21, 0, tzinfo=UTC)
    two = Standing("Table 2", True, at, 0)
    assert league_words([], at) == ["League: this table alone so far; another table joins from its Settings, League"]
    assert league_words([two, Standing("Table 3", True, at, 0)], at) == ["League: 3 tables, all in step"]
    away = Standing("Table 2", False, at - timedelta(days=3, hours=2), 0)
    arriving = Standing("Table 4", True, at, 3)
    assert league_words([away, arriving, Standing("Table 5", False, None, 0)], at) == [
        "Table 2 last seen 3 days ago", "Table 5 not seen yet", "3 games from Table 4 arriving"]
    assert [str(league_words([Standing("T", False, at - ago, 0)], at)[0]) for ago in (
        timedelta(seconds=30), timedelta(minutes=5), timedelta(minutes=70), timedelta(hours=5), timedelta(hours=30))
    ] == ["T last seen just now", "T last seen 5 minutes ago", "T last seen an hour ago", "T last seen 5 hours ago",
          "T last seen yesterday"]
    assert league_words([Standing("Table 4", True, at, 1)], at) == ["a game from Table 4 arriving"]


def test_syncthing_killed_while_games_arrive_leaves_whole_games_and_catches_up(league_of) -> None:
    a, b = league_of(2)
    pair([a, b])
    sent = a.finish_games(300, seed=3)
    games = b.league.folder_of(a.league.table.id) / "games"
    started = time.monotonic()
    while time.monotonic() - started < ARRIVES and len(list(games.glob("*.json"))) < 5:
        time.sleep(0.01)
    assert b.syncthing.process is not None
    b.syncthing.process.kill()  # kill -9, files half received
    b.syncthing.process.wait(timeout=10)
    arrived = {path.stem for path in games.glob("*.json")}
    assert 5 <= len(arrived) < 300
    done = b.league.import_tables(b.store)
    assert done.notices == [] and set(b.store.uids()) == arrived and b.store.check() == []
    theirs = {uid: len(a.store.load(game_id).log) for uid, game_id in a.store.uids().items()}
    assert all(len(b.store.load(game_id).log) == theirs[uid] for uid, game_id in b.store.uids().items())
    b.syncthing.start()
    until(lambda: set(b.store.uids()) == sent, [a, b], ARRIVES)



def test_a_table_learns_another_ones_name_only_by_a_connection_that_asks_to_join(league_of) -> None:
    """Why the tables say their names with a beacon of their own (companion/league/beacon.py): the one place
    Syncthing says a device's name is its connection's hello, and a table that connects to learn it is at once
    listed by the other as asking to join (``pending_devices``, what "Table 3 asks" is drawn from), its name
    with it."""
    a, b = league_of(2)
    start_league(a.league, a.syncthing)
    assert nearby(b.league, b.syncthing) == []  # no discovery here: nothing heard, nothing named
    b.syncthing.know(Member(a.syncthing.device_id(), "", "", (a.syncthing.listen,)))  # only connecting is left
    me = b.syncthing.device_id()
    until(lambda: me in a.syncthing.pending_devices(), [], 30)
    assert a.syncthing.pending_devices()[me]["name"]  # the name goes with the ask: A's "B asks to join"
    learned = {d["deviceID"]: d["name"] for d in b.syncthing.request("GET", "/rest/config/devices")}
    print(f"B knows A as {learned[a.syncthing.device_id()]!r} once A lists B as asking")
    assert short_code(a.syncthing.device_id()) == a.syncthing.device_id()[:7]


def test_join_a_league_lists_a_table_by_the_name_its_beacon_says_and_never_this_one(league_of) -> None:
    """A table in a league says its device and name (``start_league`` has its beacon say them); a table looking
    lists it by that name, with the device its Syncthing authenticates; leaving the league stops the saying."""
    a, b = league_of(2)
    port = free_udp_port()
    beacons = [Beacon(table.league.root, port, every=0.2) for table in (a, b)]
    for beacon in beacons:
        beacon.start()
    try:
        start_league(a.league, a.syncthing)
        until(lambda: [(m.name, m.device) for m in nearby(b.league, b.syncthing)] == [
            ("A", a.syncthing.device_id())], [], 30)
        assert nearby(a.league, a.syncthing) == []  # B is in no league: it says nothing, and A is not offered A
        leave(a.league, a.syncthing)
        assert not (a.league.root / "me.json").exists()
    finally:
        for beacon in beacons:
            beacon.stop()
