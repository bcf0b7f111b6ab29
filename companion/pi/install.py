"""``spicy-companion install``: a Pi that boots straight into the game.

It creates the service user (in the groups for pins, serial, screen and
sound; the touchscreen alone is given to it by a udev rule, not the whole
``input`` group, which would let it read every keyboard), a venv in
/opt/spicy-companion (Raspberry Pi OS refuses system-wide pip) with the app,
seeing the system's python3-lgpio, the config file if there is none, the
kiosk service and the udev rules, and enables them. Every step looks
before it writes, so a second run changes nothing; ``--uninstall`` removes it
all except the saved games.

``--root DIR`` installs into a directory instead of the running system: users
are added with ``useradd --root``, which edits DIR/etc/passwd and never the
host's, owners are taken from those files, the service is enabled with
``systemctl --root``, and nothing is started, reloaded or fetched with apt.
The venv is still built in place, so its scripts name the prefixed path: the
prefix is for checking the installer, not for building SD card images.
"""

from __future__ import annotations

import argparse
import errno
import hashlib
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from companion import __version__
from companion.errors import CompanionError, UsageError

USER = "spicy-companion"
GROUPS = ("gpio", "dialout", "video", "render", "audio")
SERVICE = "spicy-companion.service"
DROPPED_GROUPS = ("input",)
"""Groups an earlier install put the user in: ``input`` reads every keyboard (the touch rule replaced it).

The service gets every group the user is in, not only ``SupplementaryGroups=``,
so leaving the user in one keeps its access."""
UDEV_RULES = ("99-spicy-buzzers.rules", "99-spicy-touch.rules")
"""The buzzer box's stable name, and the touchscreen (only it) for the service user."""
APT_PACKAGES = ("libgl1", "libegl1", "libgles2", "libmtdev1", "python3-lgpio", "espeak-ng", "syncthing")
"""What Kivy's wheel needs on Raspberry Pi OS Lite (docs/design/KIVY-NOTES.md), lgpio, espeak-ng for the
spoken calls (README "Spoken calls"), and Syncthing for club night (README "Club night"; it runs only while a
league is on).

Raspberry Pi OS builds python3-lgpio for its own Python (3.11 on Bookworm, 3.13
on Trixie); PyPI has no lgpio wheel for 3.13, and its sdist needs a compiler,
swig and liblgpio-dev. The venv sees it through ``--system-site-packages``.
"""

OPT = Path("/opt/spicy-companion")
VENV = OPT / "venv"
ETC = Path("/etc/spicy-companion")
CONFIG = ETC / "config.toml"
UNIT = Path("/etc/systemd/system") / SERVICE
RULES = Path("/etc/udev/rules.d")
STICK_RULE = "99-spicy-usb-sticks.rules"
EJECT_UNITS = ("spicy-companion-eject.service", "spicy-companion-eject.path")
SYNCTHING_UNITS = ("spicy-companion-syncthing.service", "spicy-companion-syncthing.path")
BEACON_UNIT = "spicy-companion-beacon.service"
"""Started and stopped with Syncthing's service (its ``Wants=``, its own ``PartOf=``): the table's name said."""
"""Syncthing for club night (README "Club night"): started by its path unit while the league is on."""
PHONES_UNITS = ("spicy-companion-phones.service", "spicy-companion-phones.path")
"""The root helper behind "Show the game on phones" (companion/phones/switch.py) and the path unit that starts it."""
DROP_INS = UNIT.with_name(SERVICE + ".d")
"""Where that helper puts the kiosk's network drop-in; made here, since its unit may write only there."""
MEDIA = Path("/media/spicy-companion")
"""Where the udev rule mounts USB sticks; the one folder outside its state the service may write."""
STATE = Path("/var/lib/spicy-companion")
"""The service's StateDirectory: the saved games live here and outlive an uninstall."""
BUILD_LEFTOVERS = (".git", ".venv", "build", "*.egg-info", "__pycache__", ".pytest_cache", ".hypothesis",
                   ".mypy_cache", ".ruff_cache")
"""Left out of the copy pip builds from: a developer's clone may hold any of them."""


class InstallError(CompanionError):
    """A step failed; the message names it and what to do."""


def source_tree() -> Path:
    """The clone this app runs from: it holds the service, the udev rule and what pip installs."""
    tree = Path(__file__).resolve().parents[2]
    if not (tree / "pyproject.toml").exists() or not (tree / "systemd" / SERVICE).exists():
        raise InstallError(f"{tree} is not a clone of spicy-companion: run the installer from a clone")
    return tree


def _entry(root: Path, table: str, name: str) -> list[str] | None:
    """A user's or group's fields from root/etc/passwd or root/etc/group (never the host's, under --root)."""
    path = root / "etc" / table
    if not path.exists():
        return None
    for line in path.read_text(encoding="utf-8").splitlines():
        fields = line.split(":")
        if fields[0] == name and len(fields) > 3:
            return fields
    return None


def _ids(root: Path, table: str, name: str) -> int | None:
    entry = _entry(root, table, name)
    return None if entry is None else int(entry[2])


def _members(root: Path, group: str) -> list[str]:
    entry = _entry(root, "group", group)
    return [] if entry is None else entry[3].split(",")


def _tree_digest(tree: Path) -> str:
    """One digest of every file's name and bytes: a changed source is a new install."""
    digest = hashlib.sha256()
    for path in sorted(p for p in tree.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(tree)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def _last_line(result: subprocess.CompletedProcess[str]) -> str:
    """What a failed command said last, its last error line first: pip's and apt's name what is missing."""
    lines = [line.strip() for line in (result.stderr or result.stdout).splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith(("ERROR: ", "E: "))]
    return (errors or lines or [f"status {result.returncode}"])[-1]


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class Installer:
    """One run: each step reports what it changed, and ``changes`` counts them."""

    def __init__(self, root: Path, source: Path, out: TextIO, pip_options: Sequence[str] = ()) -> None:
        self.root = root
        self.live = root == Path("/")
        self.source = source
        self.out = out
        self.pip_options = list(pip_options)
        self.changes = 0

    def at(self, path: Path) -> Path:
        return self.root / path.relative_to("/")

    def changed(self, what: str) -> None:
        self.changes += 1
        print(what, file=self.out)

    def run(self, *command: str | Path) -> str:
        words = [str(word) for word in command]
        result = subprocess.run(words, capture_output=True, text=True)
        if result.returncode != 0:
            raise InstallError(f"{' '.join(words)} failed: {_last_line(result)}")
        return result.stdout

    def root_args(self) -> list[str]:
        return [] if self.live else ["--root", str(self.root)]

    # installing

    def install(self) -> None:
        if self.live:
            self.apt_packages()
        self.user()
        self.venv()
        self.file(UNIT, (self.source / "systemd" / SERVICE).read_bytes(), 0o644)
        for rule in UDEV_RULES:
            self.file(RULES / rule, (self.source / "systemd" / rule).read_bytes(), 0o644)
        self.directory(ETC, 0o750, group=USER)
        example = (self.source / "companion" / "config.example.toml").read_bytes()
        if not self.at(CONFIG).exists():  # the owner's edits are kept
            self.file(CONFIG, example, 0o640, group=USER)
        self.directory(STATE, 0o750, owner=USER, group=USER, deep=True)
        self.usb_sticks()
        self.path_started(SYNCTHING_UNITS, "Syncthing runs while the league is on")
        self.file(UNIT.parent / BEACON_UNIT, (self.source / "systemd" / BEACON_UNIT).read_bytes(), 0o644)
        self.phones()
        self.enable()

    def usb_sticks(self) -> None:
        """The rule that mounts a stick under MEDIA (FAT and exFAT owned by the service user), and Eject.

        The rule is written with the user's numbers: vfat and exfat take only numeric ``uid=``.
        """
        rule = (self.source / "systemd" / STICK_RULE).read_text(encoding="utf-8")
        uid, gid = self.id_of("passwd", USER), self.id_of("group", USER)
        self.file(Path("/etc/udev/rules.d") / STICK_RULE,
                  rule.replace("@UID@", str(uid)).replace("@GID@", str(gid)).encode(), 0o644)
        self.directory(MEDIA, 0o750, group=USER)
        self.path_started(EJECT_UNITS, "Eject on screen unmounts the stick")

    def phones(self) -> None:
        """The helper that opens the kiosk's network for the phone page, and the folder it writes its drop-in in."""
        self.directory(DROP_INS, 0o755)
        self.path_started(PHONES_UNITS, "the setting Show the game on phones can open the local network")

    def path_started(self, units: tuple[str, str], why: str) -> None:
        """A helper service and the path unit that starts it when the kiosk asks (a file appears): the kiosk
        may start no service itself."""
        for unit in units:
            self.file(UNIT.parent / unit, (self.source / "systemd" / unit).read_bytes(), 0o644)
        state = subprocess.run(["systemctl", *self.root_args(), "is-enabled", units[1]],
                               capture_output=True, text=True).stdout.strip()
        if state != "enabled":
            self.run("systemctl", *self.root_args(), "enable", units[1])
            self.changed(f"enabled {units[1]}: {why}")

    def remove_path_started(self, units: tuple[str, str]) -> None:
        if self.at(UNIT.parent / units[1]).exists():
            self.run("systemctl", *self.root_args(), "disable", units[1])
            self.changed(f"disabled {units[1]}")
        for path in (UNIT.parent / unit for unit in units):
            if self.at(path).exists():
                self.at(path).unlink()
                self.changed(f"removed {path}")

    def remove_usb_sticks(self) -> None:
        self.remove_path_started(EJECT_UNITS)
        stick_rule = Path("/etc/udev/rules.d") / STICK_RULE
        if self.at(stick_rule).exists():
            self.at(stick_rule).unlink()
            self.changed(f"removed {stick_rule}")
        if self.at(MEDIA).is_dir() and not any(self.at(MEDIA).iterdir()):
            self.at(MEDIA).rmdir()
            self.changed(f"removed {MEDIA}")

    def apt_packages(self) -> None:
        missing = [p for p in APT_PACKAGES if subprocess.run(["dpkg", "-s", p], capture_output=True).returncode]
        if missing:
            self.run("apt-get", "update", "-q")
            result = subprocess.run(
                ["env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "install", "-y", "-q", *missing],
                capture_output=True, text=True,
            )  # fmt: skip
            if result.returncode != 0:  # python3-lgpio is in Raspberry Pi OS's archive, not Debian's
                raise InstallError(
                    f"apt-get could not install {' '.join(missing)} ({_last_line(result)}): "
                    f"on Raspberry Pi OS, run sudo apt-get install {' '.join(missing)} and read what it says"
                )
            self.changed(f"installed {' '.join(missing)} (apt)")

    def user(self) -> None:
        for group in GROUPS:
            if _ids(self.root, "group", group) is None:
                self.run("groupadd", *self.root_args(), "--system", group)
                self.changed(f"created group {group}")
        if _ids(self.root, "passwd", USER) is None:
            self.run(
                "useradd", *self.root_args(), "--system", "--user-group", "--no-create-home",
                "--home-dir", STATE, "--shell", "/usr/sbin/nologin", "--groups", ",".join(GROUPS), USER,
            )  # fmt: skip
            self.changed(f"created user {USER} in groups {', '.join(GROUPS)}")
        for group in GROUPS:
            if USER not in _members(self.root, group):
                self.run("usermod", *self.root_args(), "--append", "--groups", group, USER)
                self.changed(f"added {USER} to group {group}")
        for group in DROPPED_GROUPS:
            if USER in _members(self.root, group):
                self.run("gpasswd", *self.root_args(), "--delete", USER, group)
                self.changed(f"removed {USER} from group {group}")

    def venv(self) -> None:
        """The venv, with this source installed, or no venv at all.

        The marker is written last, so a venv without it is one a failed or
        interrupted run left (maybe without Kivy): it is made again from
        scratch, and a venv this run made is removed when pip fails.
        """
        venv, marker = self.at(VENV), self.at(VENV) / "spicy-companion-source.sha256"
        python = venv / "bin" / "python"
        if venv.exists() and not marker.exists():
            shutil.rmtree(venv)
            self.changed(f"removed {VENV}: an earlier install did not finish")
        fresh = not python.exists()
        if fresh:
            self.run(sys.executable, "-m", "venv", "--system-site-packages", venv)
            self.changed(f"created the venv {VENV}")
        elif "include-system-site-packages = true" not in (venv / "pyvenv.cfg").read_text():
            self.run(sys.executable, "-m", "venv", "--upgrade", "--system-site-packages", venv)
            self.changed(f"the venv {VENV} now sees the system's packages (python3-lgpio)")
        with tempfile.TemporaryDirectory() as scratch:  # the build leaves nothing of root's in the clone
            copy = Path(scratch) / "spicy-companion"
            shutil.copytree(self.source, copy, ignore=shutil.ignore_patterns(*BUILD_LEFTOVERS))
            digest = _tree_digest(copy)
            if marker.exists() and marker.read_text() == digest:
                return  # this very source is installed: same version is not enough after a git pull
            pip: list[str | Path] = [python, "-m", "pip", "install", "-q", "--disable-pip-version-check", *self.pip_options, copy]
            result = subprocess.run([str(word) for word in pip], capture_output=True, text=True)
            if result.returncode != 0:
                if fresh:
                    shutil.rmtree(venv)
                raise InstallError(
                    f"pip could not install the app into {VENV} ({_last_line(result)}): "
                    "fix that, then run sudo .venv/bin/spicy-companion install again"
                )
        if self.live:
            self.need_lgpio(python)
        marker.write_text(digest)
        self.changed(f"installed spicy-companion {__version__} from {self.source} into {VENV}")

    def need_lgpio(self, python: Path) -> None:
        """On the Pi, a venv that cannot see lgpio would fall back to the keys: say so now instead."""
        if subprocess.run([python, "-c", "import lgpio"], capture_output=True).returncode:
            raise InstallError(f"{VENV} cannot import lgpio: run sudo apt-get install python3-lgpio, then install again")

    def file(self, path: Path, content: bytes, mode: int, group: str = "root") -> None:
        target = self.at(path)
        gid = self.id_of("group", group)
        if target.exists() and _digest(target) == hashlib.sha256(content).hexdigest():
            self.fix_owner_and_mode(path, 0, gid, mode)
            return
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(target.name + ".new")
        partial.write_bytes(content)
        os.chown(partial, 0, gid)
        partial.chmod(mode)
        partial.replace(target)
        self.changed(f"wrote {path}")

    def directory(self, path: Path, mode: int, owner: str = "root", group: str = "root", *, deep: bool = False) -> None:
        target = self.at(path)
        uid, gid = self.id_of("passwd", owner), self.id_of("group", group)
        if not target.exists():
            target.mkdir(parents=True)
            os.chown(target, uid, gid)
            target.chmod(mode)
            self.changed(f"created {path}")
        self.fix_owner_and_mode(path, uid, gid, mode)
        if deep:  # saved games kept from an earlier install, under an older uid
            self.give_inside(target, uid, gid, owner)

    def give_inside(self, top: Path, uid: int, gid: int, owner: str) -> None:
        """Give everything inside the state folder to the service user, never what a link points to.

        The service user can write there while root walks it: a link it planted
        (``games.db-x -> /etc/shadow``), or a folder it swaps for a link to /etc
        between the walk listing it and descending, must not make root hand the
        target over. So the walk holds each folder open (``os.fwalk`` never
        descends through a link), and each entry is opened by that descriptor
        without following a link and given away through its own descriptor:
        what is checked is what is changed. A symbolic link itself is left as
        it is; so is a file with a second name.
        """
        for folder, folders, files, folder_fd in os.fwalk(top, follow_symlinks=False):
            for name in (*folders, *files):
                self.give(Path(folder, name).relative_to(self.root), folder_fd, name, (uid, gid), owner)

    def give(self, shown: Path, folder_fd: int, name: str, ids: tuple[int, int], owner: str) -> None:
        try:  # O_NONBLOCK: a FIFO (lgpio leaves some) or a leased file there must not keep root waiting
            fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC,
                         dir_fd=folder_fd)  # fmt: skip
        except OSError as exc:
            why = f"a link is never given to {owner}" if exc.errno == errno.ELOOP else exc.strerror
            print(f"left {shown} alone: {why}", file=self.out)
            return
        try:
            info = os.fstat(fd)
            if not stat.S_ISDIR(info.st_mode) and info.st_nlink > 1:
                print(f"left {shown} alone: a link is never given to {owner}", file=self.out)
            elif (info.st_uid, info.st_gid) != ids:
                os.fchown(fd, *ids)
                self.changed(f"gave {shown} to {owner}")
        finally:
            os.close(fd)

    def fix_owner_and_mode(self, path: Path, uid: int, gid: int, mode: int) -> None:
        target = self.at(path)
        info = target.lstat()
        if stat.S_ISLNK(info.st_mode):
            raise InstallError(f"{path} is a symbolic link: remove it (sudo rm {path}), then install again")
        if (info.st_uid, info.st_gid) != (uid, gid):
            os.chown(target, uid, gid, follow_symlinks=False)
            self.changed(f"owner of {path} set")
        if info.st_mode & 0o7777 != mode:
            target.chmod(mode)
            self.changed(f"mode of {path} set to {mode:04o}")

    def id_of(self, table: str, name: str) -> int:
        number = _ids(self.root, table, name)
        if number is None:
            raise InstallError(f"no {'user' if table == 'passwd' else 'group'} {name} in {self.root / 'etc' / table}")
        return number

    def enable(self) -> None:
        state = subprocess.run(
            ["systemctl", *self.root_args(), "is-enabled", SERVICE], capture_output=True, text=True
        ).stdout.strip()
        if self.live and self.changes:
            self.run("systemctl", "daemon-reload")
            self.run("udevadm", "control", "--reload")
            self.run("udevadm", "trigger", "--subsystem-match=tty", "--subsystem-match=input")
        if state != "enabled":
            self.run("systemctl", *self.root_args(), "enable", SERVICE)
            self.changed(f"enabled {SERVICE}: it starts at boot")

    # uninstalling

    def uninstall(self) -> None:
        if self.at(UNIT).exists():
            self.run("systemctl", *self.root_args(), "disable", *(["--now"] if self.live else []), SERVICE)
            self.changed(f"disabled {SERVICE}")
        self.remove_usb_sticks()
        self.remove_path_started(SYNCTHING_UNITS)
        self.remove_path_started(PHONES_UNITS)
        if self.at(DROP_INS).exists():
            shutil.rmtree(self.at(DROP_INS))
            self.changed(f"removed {DROP_INS}")
        for path in (UNIT, UNIT.parent / BEACON_UNIT, *(RULES / rule for rule in UDEV_RULES)):
            if self.at(path).exists():
                self.at(path).unlink()
                self.changed(f"removed {path}")
        for path in (OPT, ETC):
            if self.at(path).exists():
                shutil.rmtree(self.at(path))
                self.changed(f"removed {path}")
        if _ids(self.root, "passwd", USER) is not None:
            self.run("userdel", *self.root_args(), USER)
            self.changed(f"removed user {USER}")
        if self.live and self.changes:
            self.run("systemctl", "daemon-reload")
            self.run("udevadm", "control", "--reload")
        if self.at(STATE).exists():
            print(f"kept {STATE}: the saved games (delete it by hand if they should go too)", file=self.out)


def add_commands(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "install",
        help="install the kiosk service on a Raspberry Pi (as root)",
        description="Create the user, the venv in /opt/spicy-companion, /etc/spicy-companion/config.toml "
        "(if absent), the service and the udev rule, and enable them. A second run changes nothing.",
    )
    parser.add_argument("--uninstall", action="store_true", help="remove it all, except the saved games")
    parser.add_argument("--root", type=Path, default=Path("/"), metavar="DIR", help="install into this directory instead")
    parser.add_argument(
        "--pip-option", action="append", default=[], metavar="OPTION",
        help="passed on to pip (repeat for more), e.g. --pip-option=--no-index",
    )  # fmt: skip
    parser.set_defaults(handler=_install)


def _install(args: argparse.Namespace) -> int:
    if os.geteuid() != 0:
        raise UsageError("the installer sets owners and users: run it as root (sudo)")
    installer = Installer(args.root.resolve(), source_tree(), sys.stdout, args.pip_option)
    try:
        if args.uninstall:
            installer.uninstall()
        else:
            installer.install()
    except OSError as exc:
        raise InstallError(str(exc)) from None
    if not installer.changes:
        print("nothing to change: everything is installed" if not args.uninstall else "nothing to remove")
    elif installer.live and not args.uninstall:
        print(f"done: reboot, or start it now with: systemctl start {SERVICE}")
    return 0
