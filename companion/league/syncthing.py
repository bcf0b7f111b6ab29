"""Syncthing keeps the league's folders in step: run by the app, as its user, and spoken to by REST alone.

Its home is ``syncthing/`` in the league folder (``[league] folder``). The web
GUI listens on a Unix socket in that home (mode 0700) instead of a TCP port, so
no person reaches it with a browser and no other user reaches the REST API;
the API key is one the app makes. Global discovery, relays, NAT traversal,
usage reports, crash reports and upgrades are off: the tables find each other
on the club's network (local discovery) or at the addresses they are given.

Each table shares its own folder **send-only** and every other member's
**receive-only** (``companion.league.folders`` writes and reads them). Joining
takes a table's league code; that table accepts the newcomer; from then on each
member's ``table.json`` lists the members it knows, so every table learns every
other one from the folders it receives (``keep_in_step``), and no file is ever
written by two tables.
"""

from __future__ import annotations

import base64
import ctypes
import http.client
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import time
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

from companion.config import LEAGUE_CODE, LeagueConfig
from companion.errors import CompanionError, Name, Reason
from companion.store.db import Store
from companion.league.beacon import Beacon, heard, say_me
from companion.league.folders import Imported, League, Refused, read_json

FOLDER_PREFIX = "spicy-"
"""A league folder's Syncthing id is this and the table's id: how a folder offered is known to be a table's."""
CODE_PREFIX = LEAGUE_CODE
OPTIONS = {
    "globalAnnounceEnabled": "false",
    "relaysEnabled": "false",
    "natEnabled": "false",
    "urAccepted": "-1",
    "startBrowser": "false",
    "autoUpgradeIntervalH": "0",
    "crashReportingEnabled": "false",
    "reconnectionIntervalS": "10",
}
"""What every table's Syncthing runs with, whatever its defaults: nothing leaves the club's network."""
START_WAIT = 30.0
PR_SET_PDEATHSIG = 1
ON = "on"
"""The file in the league folder that says this table is in a league (systemd/spicy-companion-syncthing.path)."""


class SyncthingError(CompanionError):
    """Syncthing could not be started or asked; the message says what to do."""


class _UnixConnection(http.client.HTTPConnection):
    """HTTP over the Unix socket Syncthing's REST API listens on."""

    def __init__(self, path: Path, timeout: float) -> None:
        super().__init__("localhost", timeout=timeout)
        self.socket_path = str(path)

    def connect(self) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(self.timeout)
        self.sock.connect(self.socket_path)


@dataclass(frozen=True)
class Member:
    """A table of the league as the others know it: its device, its table id (once known), name, addresses."""

    device: str
    table: str = ""
    name: str = ""
    addresses: tuple[str, ...] = ("dynamic",)

    def to_json(self) -> dict[str, Any]:
        return {"device": self.device, "table": self.table, "name": self.name, "addresses": list(self.addresses)}

    @property
    def code(self) -> str:
        return short_code(self.device)


def short_code(device: str) -> str:
    """A table's short code, the first 7 characters of its Syncthing device ID (as Syncthing itself shortens
    it): what Join a league lists a table found on the network by, and what that table's League screen shows
    beside its name, so a person matches the two."""
    return device[:7]


class Syncthing:
    """One Syncthing instance with its home, listening where ``listen`` says (``default``: port 22000). One
    this object starts has the table's beacon beside it (``beacon_port``, with local discovery on): the names
    Join a league lists the tables by (``companion.league.beacon``)."""

    def __init__(self, home: Path, listen: str = "default", local_discovery: bool = True,
                 binary: str = "syncthing", beacon_port: int | None = None) -> None:
        self.home = home
        self.listen = listen
        self.local_discovery = local_discovery
        self.binary = binary
        self.socket = home / "api.sock"
        self.process: subprocess.Popen[bytes] | None = None
        self.beacon = Beacon(home.parent, beacon_port) if local_discovery and beacon_port else None

    # --- the process ----------------------------------------------------------

    def prepare(self) -> None:
        """Keys and config made once (``syncthing generate``), then this app's settings written into it."""
        found = shutil.which(self.binary)
        if found is None:
            raise SyncthingError("Syncthing is not installed: run sudo apt-get install syncthing")
        config = self.home / "config.xml"
        if not config.exists():
            self.home.mkdir(parents=True, exist_ok=True)
            self.home.chmod(0o700)
            made = subprocess.run([found, "generate", f"--home={self.home}", "--no-default-folder",
                                   "--skip-port-probing"], capture_output=True, text=True, timeout=60)
            if made.returncode != 0:
                raise SyncthingError("Syncthing could not make its keys in {home}: {problem}", home=str(self.home),
                                     problem=(made.stderr.strip().splitlines() or ["no reason given"])[-1])
        tree = ET.parse(config)
        gui = tree.getroot().find("gui")
        options = tree.getroot().find("options")
        if gui is None or options is None:
            raise SyncthingError("{path} is not a Syncthing configuration: move its folder aside", path=str(config))
        _set(gui, "address", str(self.socket))
        if len(_get(gui, "apikey")) < 32:
            _set(gui, "apikey", secrets.token_urlsafe(32))
        _set(gui, "unixSocketPermissions", "0600")
        for key, value in {**OPTIONS, "listenAddress": self.listen,
                           "localAnnounceEnabled": "true" if self.local_discovery else "false"}.items():
            _set(options, key, value)
        tree.write(config)
        config.chmod(0o600)

    @property
    def api_key(self) -> str:
        gui = ET.parse(self.home / "config.xml").getroot().find("gui")
        return "" if gui is None else _get(gui, "apikey")

    def start(self) -> None:
        """Syncthing running, its REST API answering; SyncthingError with its last words if it does not."""
        self.prepare()
        self.socket.unlink(missing_ok=True)
        log = (self.home / "syncthing.log").open("wb")
        # STMONITORED: no monitor process of its own (the app is its monitor), so a stop or a kill reaches it.
        environment = {**os.environ, "STNOUPGRADE": "1", "STNODEFAULTFOLDER": "1", "STMONITORED": "1"}
        self.process = subprocess.Popen(
            [self.binary, "serve", f"--home={self.home}", "--no-browser", "--no-restart", "--logflags=0"],
            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=environment,
            preexec_fn=_dies_with_parent)
        log.close()
        deadline = time.monotonic() + START_WAIT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SyncthingError("Syncthing stopped as it started: {problem}", problem=self._last_words())
            if self.answers():
                if self.beacon is not None:
                    self.beacon.start()
                return
            time.sleep(0.1)
        self.stop()
        raise SyncthingError("Syncthing did not answer within {seconds} s: {problem}", seconds=int(START_WAIT),
                             problem=self._last_words())

    def _last_words(self) -> str:
        try:
            lines = (self.home / "syncthing.log").read_text(errors="replace").strip().splitlines()
        except OSError:
            lines = []
        return lines[-1] if lines else "it said nothing"

    def stop(self) -> None:
        """Asked to stop; killed if it has not within 10 s."""
        if self.beacon is not None:
            self.beacon.stop()
        if self.process is None or self.process.poll() is not None:
            self.process = None
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None

    # --- the REST API ---------------------------------------------------------

    def answers(self) -> bool:
        try:
            self.request("GET", "/rest/system/ping", timeout=2)
        except (OSError, SyncthingError, ValueError, ET.ParseError):
            return False
        return True

    def listening(self) -> bool:
        """Something takes connections on the REST socket, answering or not: a Syncthing that is slow to answer
        (a loaded machine, a stopped process) is still the one in this home, never to be started again beside
        it (a second one would take its socket away and fail on its lock)."""
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
            probe.settimeout(1)
            try:
                probe.connect(str(self.socket))
            except OSError:
                return False
        return True

    def request(self, method: str, path: str, body: Any = None, timeout: float = 10.0) -> Any:
        connection = _UnixConnection(self.socket, timeout)
        try:
            data = None if body is None else json.dumps(body).encode()
            connection.request(method, path, body=data,
                               headers={"X-API-Key": self.api_key, "Content-Type": "application/json"})
            response = connection.getresponse()
            text = response.read()
        finally:
            connection.close()
        if response.status >= 300:
            raise SyncthingError("Syncthing refused {method} {path}: {status} {problem}", method=method, path=path,
                                 status=response.status, problem=text.decode(errors="replace").strip()[:200])
        return json.loads(text) if text.strip() else None

    def device_id(self) -> str:
        return str(self.request("GET", "/rest/system/status")["myID"])

    def addresses(self) -> tuple[str, ...]:
        """Where the others reach this table: its listen address when it is one, else found on the network."""
        return (self.listen,) if self.listen.startswith("tcp://") and ":0" not in self.listen else ("dynamic",)

    def folder(self, folder_id: str) -> dict[str, Any] | None:
        folders = self.request("GET", "/rest/config/folders")
        return next((folder for folder in folders if folder["id"] == folder_id), None)

    def share(self, folder_id: str, path: Path, kind: str, devices: list[str], label: str) -> None:
        """The folder, of ``kind`` (sendonly, receiveonly), shared with ``devices`` as well as any it has."""
        found = self.folder(folder_id)
        if found is None:
            found = self.request("GET", "/rest/config/defaults/folder")
            found.update(id=folder_id, label=label, path=str(path), type=kind, fsWatcherDelayS=1,
                         rescanIntervalS=60, devices=[])
        have = {device["deviceID"] for device in found["devices"]}
        wanted = set(devices) | {self.device_id()}
        if wanted <= have and found["type"] == kind and found.get("label") == label:
            return
        found["devices"] += [{"deviceID": device} for device in sorted(wanted - have)]
        found.update(type=kind, label=label)
        path.mkdir(parents=True, exist_ok=True)
        self.request("PUT", f"/rest/config/folders/{quote(folder_id)}", found)

    def know(self, member: Member) -> None:
        """The member's device, added or with its name and addresses brought up to date."""
        devices = {device["deviceID"]: device for device in self.request("GET", "/rest/config/devices")}
        found = devices.get(member.device)
        if found is None:
            found = self.request("GET", "/rest/config/defaults/device")
            found["deviceID"] = member.device
        elif found["addresses"] == list(member.addresses) and (found["name"] == member.name or not member.name):
            return
        found.update(addresses=list(member.addresses), name=member.name or found.get("name", ""))
        self.request("PUT", f"/rest/config/devices/{quote(member.device)}", found)

    def pending_devices(self) -> dict[str, dict[str, Any]]:
        """Devices that asked to connect and are not known: a table asking to join, by device, with its name."""
        return self.request("GET", "/rest/cluster/pending/devices") or {}

    def pending_folders(self) -> dict[str, list[str]]:
        """The folders offered by known devices and not shared here yet: the devices offering each."""
        found = self.request("GET", "/rest/cluster/pending/folders") or {}
        return {folder: list(offer.get("offeredBy", {})) for folder, offer in found.items()}

    def scan(self, folder_id: str) -> None:
        """Look at the folder now rather than at the watcher's next pass: a game just written is sent at once."""
        self.request("POST", f"/rest/db/scan?folder={quote(folder_id)}")


def _dies_with_parent() -> None:
    """Linux's ``PR_SET_PDEATHSIG``: a Syncthing the app started stops when the app goes, even killed with
    SIGKILL. The signal comes when the *thread* that started it ends: start it from one that lasts."""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def _get(parent: ET.Element, key: str) -> str:
    found = parent.find(key)
    return "" if found is None or found.text is None else found.text


def _set(parent: ET.Element, key: str, value: str) -> None:
    found = parent.find(key)
    if found is None:
        found = ET.SubElement(parent, key)
    found.text = value


# --- the league over Syncthing ----------------------------------------------------


def folder_id(table_id: str) -> str:
    return FOLDER_PREFIX + table_id


@contextmanager
def running(league: League, listen: str = "default", local_discovery: bool = True,
            beacon_port: int | None = None) -> Iterator[Syncthing]:
    """This table's Syncthing: the one already answering on its socket (the service on a Pi, the app), else one
    started for as long as the block lasts."""
    syncthing = Syncthing(league.root / "syncthing", listen, local_discovery, beacon_port=beacon_port)
    if syncthing.answers():
        yield syncthing
        return
    syncthing.start()
    try:
        yield syncthing
    finally:
        syncthing.stop()


def is_on(league: League) -> bool:
    """Whether this table is in a league: the file the Pi's path unit starts Syncthing for."""
    return (league.root / ON).exists()


def start_league(league: League, syncthing: Syncthing) -> None:
    """This table's own folder, send-only, and its name as its device's: the first table, or any table."""
    (league.root / ON).touch()
    syncthing.know(Member(syncthing.device_id(), league.table.id, league.table.name, ("dynamic",)))
    syncthing.share(folder_id(league.table.id), league.own, "sendonly", [], league.table.name)
    _describe(league, syncthing, _members(league))


def league_code(league: League, syncthing: Syncthing) -> str:
    """What another table needs to ask to join: this table's device, table id, name and addresses."""
    me = Member(syncthing.device_id(), league.table.id, league.table.name, syncthing.addresses())
    text = json.dumps(me.to_json(), ensure_ascii=False, separators=(",", ":")).encode()
    return CODE_PREFIX + base64.urlsafe_b64encode(text).decode().rstrip("=")


def read_code(code: str) -> Member:
    """The table a league code names; SyncthingError for anything else (a code cut short, another app's)."""
    code = code.strip()
    try:
        if not code.startswith(CODE_PREFIX) or len(code) > 4000:
            raise ValueError
        data = json.loads(base64.urlsafe_b64decode(code[len(CODE_PREFIX):] + "=" * (-len(code) % 4)))
        member = Member(str(data["device"]), str(data["table"]), str(data["name"]),
                        tuple(str(address) for address in data["addresses"]))
    except (ValueError, KeyError, TypeError):
        raise SyncthingError("this is not a league code: copy the whole code the other table shows") from None
    return member


def join(league: League, syncthing: Syncthing, code: str) -> Member:
    """Ask the table of ``code`` to join: its folder received here, this table's offered to it; it must accept."""
    return ask(league, syncthing, read_code(code))


def ask(league: League, syncthing: Syncthing, host: Member) -> Member:
    """Ask ``host`` (from a code, or found on the network) to join its league: it sees this table asking."""
    start_league(league, syncthing)
    _admit(league, syncthing, host)
    return host


def refuse(syncthing: Syncthing, device: str) -> None:
    """A table that asked to join is refused: Syncthing ignores it from now on, and it is asked no more."""
    asked = syncthing.pending_devices().get(device, {})
    config = syncthing.request("GET", "/rest/config")
    ignored = config.get("remoteIgnoredDevices") or []
    if all(each.get("deviceID") != device for each in ignored):
        ignored.append({"deviceID": device, "name": str(asked.get("name", "")), "address": str(asked.get("address", "")),
                        "time": datetime.now(UTC).isoformat()})
        config["remoteIgnoredDevices"] = ignored
        syncthing.request("PUT", "/rest/config", config)


def nearby(league: League, syncthing: Syncthing, codes: tuple[str, ...] = ()) -> list[Member]:
    """The tables Join a league offers: those Syncthing's local discovery heard on the network, and those of
    ``codes`` (``[league] tables``); never this table. Discovery carries no name (its packets hold a device's
    ID and addresses alone, and the name in Syncthing's hello comes only by connecting, which the other table's
    Syncthing lists as a device asking: tests/test_syncthing.py), so a table found that way is named by what
    its beacon said (``companion.league.beacon``), else by its Syncthing once told (a table that asked here, a
    device known), else listed by its short code (``short_code``), which its own League screen shows. A table
    whose beacon is heard before Syncthing's discovery finds it is listed at once, reached where discovery
    finds it."""
    me = syncthing.device_id()
    found: dict[str, Member] = {}
    for code in codes:
        try:
            member = read_code(code)
        except SyncthingError:
            continue
        found[member.device] = member
    known = {device["deviceID"]: str(device.get("name", "")) for device in syncthing.request("GET", "/rest/config/devices")}
    asked = syncthing.pending_devices()
    named = heard(league.root)
    discovered = syncthing.request("GET", "/rest/system/discovery") or {}
    for device in set(discovered) | set(named):
        seen = discovered.get(device)
        if device not in found and isinstance(seen, dict | None):
            addresses = tuple(str(a) for a in (seen or {}).get("addresses") or [])
            found[device] = Member(device, "", "", addresses or ("dynamic",))
    for device, member in found.items():
        if not member.name:
            name = named.get(device) or known.get(device) or str(asked.get(device, {}).get("name", ""))
            found[device] = replace(member, name=name)
    found.pop(me, None)
    return sorted(found.values(), key=lambda m: (m.name == "", m.name, m.device))


def accept(league: League, syncthing: Syncthing, device: str) -> None:
    """A table that asked to join is a member: this table's folder goes to it, and the others learn of it."""
    asked = syncthing.pending_devices().get(device, {})
    _admit(league, syncthing, Member(device, "", str(asked.get("name", ""))))
    keep_in_step(league, syncthing)


def _admit(league: League, syncthing: Syncthing, member: Member) -> None:
    _share_with(league, syncthing, member)
    members = {m.device: m for m in _members(league)}
    members[member.device] = _newer(members.get(member.device), member)
    _describe(league, syncthing, list(members.values()))


def _share_with(league: League, syncthing: Syncthing, member: Member) -> None:
    """The member's device known, this table's folder sent to it, and its own (once its id is known) received."""
    syncthing.know(member)
    syncthing.share(folder_id(league.table.id), league.own, "sendonly", [member.device], league.table.name)
    if member.table:
        syncthing.share(folder_id(member.table), league.folder_of(member.table), "receiveonly", [member.device],
                        member.name)


def leave(league: League, syncthing: Syncthing) -> None:
    """This table out of the league: the other tables' devices and folders gone from its Syncthing, its own
    folder shared with no one. The games already taken in stay, and so do the files received."""
    me = syncthing.device_id()
    own = folder_id(league.table.id)
    for folder in syncthing.request("GET", "/rest/config/folders"):
        if folder["id"] == own:
            folder["devices"] = [device for device in folder["devices"] if device["deviceID"] == me]
            syncthing.request("PUT", f"/rest/config/folders/{quote(own)}", folder)
        elif folder["id"].startswith(FOLDER_PREFIX):
            syncthing.request("DELETE", f"/rest/config/folders/{quote(folder['id'])}")
    for device in syncthing.request("GET", "/rest/config/devices"):
        if device["deviceID"] != me:
            syncthing.request("DELETE", f"/rest/config/devices/{quote(device['deviceID'])}")
    (league.root / ON).unlink(missing_ok=True)
    _describe(league, syncthing, [])


def keep_in_step(league: League, syncthing: Syncthing) -> list[Member]:
    """What every table does now and then: every member any table lists is known here, this table's folder is
    shared with it, and its folder received; a folder a member offers is taken receive-only. Returns the
    members, this table apart."""
    me = syncthing.device_id()
    members = {m.device: m for m in _members(league)}
    offered = syncthing.pending_folders()
    for offer, devices in offered.items():
        table = offer.removeprefix(FOLDER_PREFIX)
        for device in devices:
            if offer.startswith(FOLDER_PREFIX) and device in members:
                members[device] = _newer(members[device], Member(device, table, members[device].name,
                                                                 members[device].addresses))
    for folder in league.others():
        for listed in _listed(folder):
            if listed.device != me and (listed.device in members or _said_by_member(folder, members)):
                members[listed.device] = _newer(members.get(listed.device), listed)
    members.pop(me, None)
    for member in members.values():
        _share_with(league, syncthing, member)
    _describe(league, syncthing, list(members.values()))
    return sorted(members.values(), key=lambda m: m.name)


def step(league: League, syncthing: Syncthing, store: Store) -> Imported:
    """One round of a table in a league, as ``league run`` and the app each repeat it: in step with the
    members, every game that ended here written to this table's folder (and Syncthing told to look at once),
    and what the others sent taken in."""
    keep_in_step(league, syncthing)
    if league.publish_ended(store):
        syncthing.scan(folder_id(league.table.id))
    return league.import_tables(store)


def _said_by_member(folder: Path, members: dict[str, Member]) -> bool:
    """A table folder received from a member: what its ``table.json`` lists is vouched for by that member."""
    return any(member.table == folder.name for member in members.values())


def _newer(old: Member | None, new: Member) -> Member:
    """What is known of a member, the more precise of two accounts field by field."""
    if old is None:
        return new
    return Member(new.device, new.table or old.table, new.name or old.name,
                  new.addresses if new.addresses != ("dynamic",) else old.addresses)


def _listed(folder: Path) -> list[Member]:
    """A received table's account of itself and of the members it knows."""
    try:
        data = read_json(folder / "table.json")
        itself = _member({**data, "table": data["id"]})
        found = [itself, *(_member(m) for m in data.get("members", []))]
    except (Refused, KeyError, TypeError, AttributeError):
        return []
    return [m for m in found if m is not None]


def _members(league: League) -> list[Member]:
    return [member for m in league.described().get("members", []) if (member := _member(m)) is not None]


def _member(data: Any) -> Member | None:
    try:
        return Member(str(data["device"]), str(data["table"]), str(data["name"]),
                      tuple(str(a) for a in data["addresses"]))
    except (KeyError, TypeError):
        return None


def _describe(league: League, syncthing: Syncthing, members: list[Member]) -> None:
    """This table as its folder lists it, and as its beacon says it on the network while it is in a league."""
    me = syncthing.device_id()
    league.describe(device=me, addresses=list(syncthing.addresses()),
                    members=[m.to_json() for m in sorted(members, key=lambda m: m.device)])
    say_me(league.root, me if is_on(league) else None, league.table.name)


# --- the league's state in words ----------------------------------------------------


@dataclass(frozen=True)
class Standing:
    """How one member stands, as this table's Syncthing sees it."""

    name: str
    connected: bool
    last_seen: datetime | None
    """When it was last connected; None: never."""
    arriving: int
    """Its games not here yet (files of its ``games/`` that Syncthing still needs)."""


NEVER = datetime(1970, 1, 1, tzinfo=UTC)
"""What Syncthing says of a device never seen."""


def ago(then: datetime, at: datetime) -> Reason:
    """How long ago, in the words a person uses."""
    minutes = int((at - then).total_seconds() // 60)
    if minutes < 2:
        return Reason("just now")
    if minutes < 60:
        return Reason("{count} minutes ago", count=minutes)
    if minutes < 120:
        return Reason("an hour ago")
    if minutes < 24 * 60:
        return Reason("{count} hours ago", count=minutes // 60)
    if minutes < 48 * 60:
        return Reason("yesterday")
    return Reason("{count} days ago", count=minutes // (24 * 60))


def league_words(members: list[Standing], at: datetime) -> list[Reason]:
    """The league's state as the Saved games strip says it: each table out of reach, then each one whose games
    are arriving; else all in step."""
    if not members:
        return [Reason("League: this table alone so far; another table joins from its Settings, League")]
    lines = []
    for member in members:
        if member.connected:
            continue
        if member.last_seen is None:
            lines.append(Reason("{table} not seen yet", table=Name(member.name)))
        else:
            lines.append(Reason("{table} last seen {when}", table=Name(member.name), when=ago(member.last_seen, at)))
    for member in members:
        if member.arriving == 1:
            lines.append(Reason("a game from {table} arriving", table=Name(member.name)))
        elif member.arriving:
            lines.append(Reason("{count} games from {table} arriving", count=member.arriving, table=Name(member.name)))
    return lines or [Reason("League: {count} tables, all in step", count=len(members) + 1)]


def league_state(league: League, syncthing: Syncthing) -> list[Reason]:
    """``league_words`` from what Syncthing's REST API says now of every member."""
    connections = (syncthing.request("GET", "/rest/system/connections") or {}).get("connections", {})
    stats = syncthing.request("GET", "/rest/stats/device") or {}
    seen = []
    for member in _members(league):
        last = stats.get(member.device, {}).get("lastSeen")
        when = datetime.fromisoformat(last) if isinstance(last, str) else None
        arriving = 0
        if member.table and syncthing.folder(folder_id(member.table)) is not None:
            need = syncthing.request("GET", f"/rest/db/need?folder={quote(folder_id(member.table))}") or {}
            arriving = sum(1 for part in ("progress", "queued", "rest") for item in need.get(part) or []
                           if str(item.get("name", "")).startswith("games/"))
        seen.append(Standing(member.name or member.code, bool(connections.get(member.device, {}).get("connected")),
                         None if when is None or when <= NEVER else when, arriving))
    return league_words(sorted(seen, key=lambda s: s.name), datetime.now(UTC))


def words_now(config: LeagueConfig) -> list[Reason] | None:
    """What the Saved games strip says: None while this table is in no league (nothing is made or started to
    find out); the league's state from this table's Syncthing when it answers, else that it is not running.
    It waits on Syncthing's socket, so a screen asks from another thread."""
    if not (config.folder / ON).exists():
        return None
    try:
        league = League(config)
        syncthing = Syncthing(league.root / "syncthing", config.listen)
        if not syncthing.answers():
            return [Reason("League: this table's Syncthing is not running")]
        return league_state(league, syncthing)
    except (CompanionError, OSError, ValueError) as exc:
        reason = exc.reason if isinstance(exc, CompanionError) else Reason(str(exc))
        return [Reason("League: its state cannot be read ({problem})", problem=reason)]
