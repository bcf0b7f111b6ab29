"""The tables' names said on the club's network (companion/league/beacon.py), with real UDP sockets.

Each test takes a free port of its own, so that tests running side by side do
not hear each other; the beacons speak on the real multicast group, looped back
to this machine as to any table of the same network.
"""

from __future__ import annotations

import base64
import json
import os
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from test_syncthing import free_udp_port
from companion.league.beacon import FORGET, GROUP, HEARD, KEPT, LONGEST, ME, Beacon, heard, heard_in, say_me, saying

ANA = "MFZWI3D-BONSGYC-YLTMRWG-C43ENR5-QXGG3DD-OTOO6JA-L6C6GY2-DTH5UQB"
BEN = "P56IOI7-MZJNU2Y-IQGDREY-DM2MGTI-MGL3BXN-PQ6W5BM-TBBZ4TJ-XZWICQ2"
WAIT = 30.0
"""The longest a test waits for a beacon to be heard on a loaded machine: each says every 0.2 s here."""


def until(check: Callable[[], bool], seconds: float = WAIT) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "not heard in time"
        time.sleep(0.05)


@pytest.fixture
def beacons(tmp_path: Path) -> Iterator[Callable[[str], Beacon]]:
    """Beacons on one free port, each with a league folder of its own; all stopped however the test ends."""
    port = free_udp_port()
    made: list[Beacon] = []

    def make(name: str) -> Beacon:
        folder = tmp_path / name
        folder.mkdir()
        beacon = Beacon(folder, port, every=0.2)
        beacon.start()
        made.append(beacon)
        return beacon

    yield make
    for beacon in made:
        beacon.stop()


def send(port: int, data: bytes) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as out:
        out.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_LOOP, 1)
        out.sendto(data, (GROUP, port))


def test_two_tables_hear_each_others_names_and_not_their_own(beacons) -> None:
    a, b = beacons("a"), beacons("b")
    say_me(a.root, ANA, "Table Ana")
    say_me(b.root, BEN, "طاولة بن")  # a name in any script, as the League screen takes it
    until(lambda: heard(a.root) == {BEN: "طاولة بن"} and heard(b.root) == {ANA: "Table Ana"})
    say_me(a.root, ANA, "Table 3")  # renamed in Settings: the others hear the new name
    until(lambda: heard(b.root) == {ANA: "Table 3"})
    assert ANA not in heard(a.root)


def test_a_table_out_of_the_league_says_nothing_and_is_forgotten(beacons) -> None:
    a, b = beacons("a"), beacons("b")
    say_me(a.root, ANA, "Table Ana")
    until(lambda: heard(b.root) == {ANA: "Table Ana"})
    say_me(a.root, None)  # Leave the league
    assert not (a.root / ME).exists()
    time.sleep(0.5)  # what A said before it left has arrived
    stamp = json.loads((b.root / HEARD).read_text())[ANA]["at"]
    time.sleep(1.0)  # five of A's turns
    assert json.loads((b.root / HEARD).read_text())[ANA]["at"] == stamp  # A said nothing more
    assert heard(b.root, now=stamp + FORGET + 1) == {}


@pytest.mark.parametrize("data", [
    b"\xff\xfe not text",
    b"not json",
    b"[1, 2]",
    json.dumps({"kind": "something-else", "device": ANA, "name": "x"}).encode(),
    json.dumps({"kind": "spicy-companion-table", "device": "ABC", "name": "x"}).encode(),
    json.dumps({"kind": "spicy-companion-table", "device": ANA, "name": 3}).encode(),
    json.dumps({"kind": "spicy-companion-table", "device": ANA, "name": "  "}).encode(),
    json.dumps({"kind": "spicy-companion-table", "device": ANA, "name": "two\nlines"}).encode(),
    json.dumps({"kind": "spicy-companion-table", "device": ANA, "name": "x" * 41}).encode(),
    json.dumps({"kind": "spicy-companion-table", "device": ANA, "name": "x", "pad": "y" * LONGEST}).encode(),
], ids=["bytes", "text", "list", "kind", "device", "number", "blank", "lines", "long", "too-big"])
def test_what_is_not_a_tables_saying_is_dropped(data: bytes) -> None:
    assert heard_in(data) is None


@given(st.text(min_size=1, max_size=40).filter(lambda name: name.strip() == name and name.isprintable()))
def test_a_saying_is_heard_as_said(name: str) -> None:
    assert heard_in(saying(ANA, name)) == (ANA, name)


def test_a_flood_of_made_up_tables_and_garbage_fills_nothing(beacons) -> None:
    """A hostile machine on the network: thousands of datagrams, none of which the list keeps beyond ``KEPT``
    tables, and a real table is still heard among them."""
    b = beacons("b")

    def flood() -> bool:
        for number in range(3 * KEPT):
            device = "-".join([base64.b32encode(number.to_bytes(5, "big")).decode()[-7:]] * 8)
            send(b.port, saying(device, f"<b>Fake {number}</b>"))
            send(b.port, b"x" * 4000)
        return len(b.heard) >= KEPT

    until(flood)  # again until the beacon listens and has taken enough of them in
    assert len(b.heard) == KEPT and len(heard(b.root)) == KEPT
    a = beacons("a")
    say_me(a.root, ANA, "Table Ana")
    until(lambda: heard(b.root).get(ANA) == "Table Ana")
    assert len(heard(b.root)) == KEPT


def test_the_heard_file_spoiled_by_hand_lists_nothing_rather_than_failing(tmp_path: Path) -> None:
    (tmp_path / HEARD).write_text("{not json")
    assert heard(tmp_path) == {}
    (tmp_path / HEARD).write_text(json.dumps({ANA: {"name": "Table", "at": "yesterday"}, BEN: [1]}))
    assert heard(tmp_path) == {}
    (tmp_path / HEARD).unlink()
    os.mkfifo(tmp_path / HEARD)  # read without waiting for a writer
    assert heard(tmp_path) == {}
    (tmp_path / HEARD).unlink()
    (tmp_path / HEARD).symlink_to("/dev/zero")  # never followed
    assert heard(tmp_path) == {}
