"""The kiosk service file: rated by systemd's own security check, and in step with the installer and the config."""

from __future__ import annotations

import configparser
import ipaddress
import re
import subprocess
from pathlib import Path

import pytest

from companion.config import load_config
from companion.pi.install import GROUPS, STATE, USER, VENV
from companion.phones import switch

UNIT = Path(__file__).parent.parent / "systemd" / "spicy-companion.service"
EJECT_UNIT = UNIT.with_name("spicy-companion-eject.service")
SYNCTHING_UNIT = UNIT.with_name("spicy-companion-syncthing.service")
PHONES_UNIT = UNIT.with_name("spicy-companion-phones.service")
BEACON_UNIT = UNIT.with_name("spicy-companion-beacon.service")
EXAMPLE = Path(__file__).parent.parent / "companion" / "config.example.toml"


def service(unit: Path = UNIT) -> configparser.SectionProxy:
    parser = configparser.ConfigParser(strict=False, interpolation=None, delimiters=("=",))
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(unit.read_text())
    return parser["Service"]


def rating(unit: Path) -> tuple[str, str]:
    result = subprocess.run(
        ["systemd-analyze", "security", "--offline=yes", "--no-pager", str(unit)], capture_output=True, text=True
    )
    found = re.search(rf"Overall exposure level for {re.escape(unit.name)}: ([\d.]+) (\w+)", result.stdout)
    assert found, result.stdout[-500:] + result.stderr
    assert found[2] in ("SAFE", "OK") and float(found[1]) < 5.0
    return found[1], found[2]


@pytest.mark.parametrize("unit", [UNIT, EJECT_UNIT, PHONES_UNIT, SYNCTHING_UNIT, BEACON_UNIT], ids=lambda unit: unit.name)
def test_systemd_rates_the_service_ok_or_better(unit: Path) -> None:
    level, word = rating(unit)
    documented = (UNIT.parent.parent / "docs" / "SERVICE.md").read_text()
    assert f"**Overall exposure level for {unit.name}: {level} {word}**" in documented


def test_with_the_phone_page_on_the_service_still_rates_ok_and_reaches_only_the_local_network(tmp_path: Path) -> None:
    """The drop-in the setting puts beside the unit (read offline from ``<unit>.d``, as systemd reads it)."""
    unit = tmp_path / UNIT.name
    unit.write_bytes(UNIT.read_bytes())
    assert switch.put(True, tmp_path / f"{UNIT.name}.d" / "phones.conf")
    level, word = rating(unit)
    assert float(level) > float(rating(UNIT)[0])  # the drop-in is read: the network is open
    documented = (UNIT.parent.parent / "docs" / "SERVICE.md").read_text()
    assert f"**Overall exposure level for {UNIT.name} with the phone page on: {level} {word}**" in documented
    drop_in = configparser.ConfigParser(interpolation=None)
    drop_in.read_string(switch.NETWORK.read_text())
    allowed = drop_in["Service"]["IPAddressAllow"].split()
    assert all(name in ("localhost", "link-local") or ipaddress.ip_network(name).is_private for name in allowed)
    assert service()["IPAddressDeny"] == "any"  # the base unit's deny stays under the drop-in's allow list


def test_the_eject_helper_can_neither_hang_nor_fill_the_memory() -> None:
    """A oneshot service has no start timeout of its own, and the helper runs as root."""
    unit = service(EJECT_UNIT)
    assert unit["Type"] == "oneshot" and 0 < int(unit["TimeoutStartSec"]) <= 120
    assert unit["MemoryMax"].endswith("M") and 0 < int(unit["MemoryMax"][:-1]) <= 128


def test_the_service_runs_what_the_installer_puts_in_place() -> None:
    unit = service()
    assert unit["ExecStart"].split()[0] == str(VENV / "bin" / "spicy-companion")
    assert (unit["User"], unit["Group"]) == (USER, USER)
    assert unit["SupplementaryGroups"].split() == list(GROUPS)
    assert f"/var/lib/{unit['StateDirectory']}" == str(STATE)
    # The saved games are in the state folder, the one place the app may write.
    assert load_config(EXAMPLE).store.db.parent == STATE


def test_a_frozen_or_crashing_app_is_restarted_but_not_for_ever() -> None:
    unit = service()
    assert (unit["Type"], unit["Restart"]) == ("notify", "on-failure")
    assert 0 < int(unit["WatchdogSec"]) <= 60
    text = UNIT.read_text()
    assert re.search(r"^StartLimitBurst=\d+$", text, re.MULTILINE)
    assert re.search(r"^StartLimitIntervalSec=\d+$", text, re.MULTILINE)


def test_syncthing_runs_as_the_kiosks_user_with_the_home_the_app_prepares() -> None:
    """The app writes Syncthing's settings (companion.league.syncthing) into the home the service runs, in the league
    folder of the shipped config, and marks the league on in that folder; the kiosk keeps no network."""
    unit = service(SYNCTHING_UNIT)
    league = load_config(EXAMPLE).league.folder
    assert (unit["User"], unit["Group"]) == (USER, USER) and league.parent == STATE
    assert f"--home={league / 'syncthing'}" in unit["ExecStart"].split()
    watched = re.findall(r"^PathExists=(.+)$", SYNCTHING_UNIT.with_suffix(".path").read_text(), re.MULTILINE)
    assert watched == [str(league / "on"), str(league / "looking")]  # the league on; the League screen looking
    conditions = re.findall(r"^ConditionPathExists=(.+)$", SYNCTHING_UNIT.read_text(), re.MULTILINE)
    assert conditions == [f"|{league / 'on'}", f"|{league / 'looking'}", str(league / "syncthing" / "config.xml")]
    assert unit["IPAddressDeny"] == "any" and "0.0.0.0/0" not in unit["IPAddressAllow"]
    assert service()["PrivateNetwork"] == "yes"



def test_the_beacon_runs_with_syncthing_as_the_kiosks_user_on_the_kiosks_config() -> None:
    """Syncthing's service brings the beacon (its name said on the network) and takes it down with it; the beacon
    reads the kiosk's config (the league folder and the port) and reaches the club's network alone."""
    syncthing = configparser.ConfigParser(strict=False, interpolation=None, delimiters=("="))
    syncthing.read_string(SYNCTHING_UNIT.read_text())
    beacon = configparser.ConfigParser(strict=False, interpolation=None, delimiters=("="))
    beacon.read_string(BEACON_UNIT.read_text())
    assert syncthing["Unit"]["Wants"] == BEACON_UNIT.name
    assert beacon["Unit"]["PartOf"] == beacon["Unit"]["After"] == SYNCTHING_UNIT.name
    unit = service(BEACON_UNIT)
    assert (unit["User"], unit["Group"]) == (USER, USER)
    assert unit["ExecStart"].split() == [str(VENV / "bin" / "spicy-companion"), "--config",
                                         *service()["ExecStart"].split()[2:], "league", "beacon"]
    allowed = unit["IPAddressAllow"].split()
    assert unit["IPAddressDeny"] == "any" and "multicast" in allowed
    assert all(name in ("localhost", "link-local", "multicast") or ipaddress.ip_network(name).is_private
               for name in allowed)
