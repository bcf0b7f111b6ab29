"""The one way a file handed to the companion is read: only a regular file, and only up to its kind's size.

A name can point at anything: a FIFO, whose opening waits for a writer that never
comes; ``/dev/zero``, which never ends and fills the memory until the kernel kills
the process; a folder; a file a thousand times the size of any real one. Each is
refused here in one sentence, before a byte is read, by every command and by the
app alike. The file is opened without blocking and looked at through the open
descriptor, so what is read is what was looked at, even if the name is switched
meanwhile, and no more than the cap is ever read, even from a file still growing.
"""

from __future__ import annotations

import os
import stat
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from companion.errors import CompanionError, Reason

MB = 1_000_000


@dataclass(frozen=True, slots=True)
class Kind:
    """What a file is for: the words for it, and the most bytes a real one could hold, with room to spare."""

    name: Reason
    most: int


CONFIG = Kind(Reason("config file"), MB)
"""The example config, every key set, is under 3 kB."""
SETTINGS = Kind(Reason("settings file"), MB)
"""The settings the table changes on screen: a few hundred bytes."""
TRANSCRIPT = Kind(Reason("transcript"), 8 * MB)
"""A game of the most actions allowed (rules.MAX_ACTIONS), every line at its longest, is under 4 MB."""
BACKUP = Kind(Reason("backup"), 2_000 * MB)
"""100,000 games make a database of 0.86 GB (docs/PERFORMANCE.md)."""
DATABASE = Kind(Reason("database"), sys.maxsize)
"""The table's own file grows with every game: no cap, but a regular file all the same."""
LEAGUE = Kind(Reason("league file"), 16 * MB)
"""One game another table sent (its JSON export), or a player's record: a game of the most actions allowed
is under 8 MB as JSON."""


class FileRefused(CompanionError, ValueError):
    """The file is not one that can be read as this kind: not a regular file, or too big; says which."""


def _what(mode: int) -> Reason:
    if stat.S_ISDIR(mode):
        return Reason("a folder")
    if stat.S_ISLNK(mode):
        return Reason("a link")
    if stat.S_ISFIFO(mode):
        return Reason("a named pipe (FIFO)")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return Reason("a device")
    if stat.S_ISSOCK(mode):
        return Reason("a socket")
    return Reason("not a regular file")


def check_file(path: Path, kind: Kind, mode: int, size: int) -> int:
    """The size of a regular file within its kind's cap; else ``FileRefused`` saying what it is and what to do."""
    if not stat.S_ISREG(mode):
        raise FileRefused("{path} is {what}, not a file: give the {kind} itself", path=str(path),
                          what=_what(mode), kind=kind.name)
    if size > kind.most:
        raise FileRefused(too_big(path, kind))
    return size


def too_big(path: Path | str, kind: Kind) -> Reason:
    return Reason("{path} is larger than {most} MB, more than any {kind} holds: check that it is the right file",
                  path=str(path), kind=kind.name, most=kind.most // MB)


def file_size(path: Path, kind: Kind, follow: bool = True) -> int:
    """For a file another library opens (SQLite): the checks of ``read_file`` without reading it.

    ``FileNotFoundError`` when there is none, for the caller to say what that means. With ``follow`` off a
    link is refused as one, not read through (a folder another machine fills).
    """
    try:
        found = os.stat(path, follow_symlinks=follow)
    except ValueError:  # a NUL in the name
        raise FileRefused("{path} is not a usable file name: it holds a NUL character", path=repr(str(path))) from None
    return check_file(path, kind, found.st_mode, found.st_size)


def read_file(path: Path, kind: Kind, follow: bool = True) -> bytes:
    """The bytes of a regular file of at most ``kind.most`` bytes (with ``follow`` off, never through a link).

    ``FileNotFoundError`` and other ``OSError`` are the caller's to word (a
    missing config means the defaults, a missing transcript is a mistake).
    """
    file_size(path, kind, follow)  # a FIFO is refused before it is opened at all
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC | (0 if follow else os.O_NOFOLLOW)
    descriptor = os.open(path, flags)
    with os.fdopen(descriptor, "rb") as file:
        found = os.fstat(descriptor)
        check_file(path, kind, found.st_mode, found.st_size)  # the name may point elsewhere by now
        return read_capped(file, path, kind)


def read_capped(stream: BinaryIO, name: Path | str, kind: Kind) -> bytes:
    """At most ``kind.most`` bytes of a stream (standard input too): one more is refused, never read on."""
    data = stream.read(kind.most + 1)
    if len(data) > kind.most:
        raise FileRefused(too_big(name, kind))
    return data


__all__ = ["BACKUP", "CONFIG", "DATABASE", "LEAGUE", "SETTINGS", "TRANSCRIPT", "FileRefused", "Kind", "file_size", "read_capped",
           "read_file"]


def write_whole(path: Path, data: bytes, mode: int) -> None:
    """``data`` written aside, flushed to the disk and renamed over ``path``: a power cut leaves the old file or
    the new one, never half of it; a link at the aside name is refused, not followed. OSError on failure."""
    aside = path.with_name(path.name + ".new")
    aside.unlink(missing_ok=True)
    descriptor = os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, mode)
    try:
        os.fchmod(descriptor, mode)  # whatever the umask: a unit's drop-in is read by all, a key by its owner
        os.write(descriptor, data)
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
    os.replace(aside, path)
