"""Where games go when they leave the table: the USB sticks mounted for the kiosk, or a folder on a desktop.

The installer's udev rule mounts each stick's partition at ``eject.MEDIA/NAME``; a
stick's label, when it has one, comes from ``/dev/disk/by-label``. Ejecting asks
the privileged half (``companion.pi.eject``) through ``eject.REQUEST``; the stick is out
when its folder is no longer a mount point.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from companion.pi import eject

BY_LABEL = Path("/dev/disk/by-label")
REQUEST_MODE = 0o640


@dataclass(frozen=True, slots=True)
class Stick:
    folder: Path
    label: str


def sticks(media: Path | None = None, by_label: Path | None = None) -> list[Stick]:
    """The sticks mounted now (under ``eject.MEDIA`` and ``BY_LABEL`` unless told, looked up at the call so
    the tests can give each their own), by folder name."""
    media = media or eject.MEDIA
    try:
        folders = sorted(p for p in media.iterdir() if os.path.ismount(p))
    except OSError:
        return []
    labels: dict[str, str] = {}
    try:
        for link in (by_label or BY_LABEL).iterdir():
            labels[Path(os.path.realpath(link)).name] = link.name.replace("\\x20", " ")
    except OSError:
        pass
    return [Stick(folder, labels.get(folder.name, folder.name)) for folder in folders]


def request_eject(stick: Path, request: Path | None = None) -> None:
    """Ask for the stick to be unmounted; OSError when the kiosk's runtime folder is not there (a desktop)."""
    write_request(request or eject.REQUEST, stick.name)


def write_request(request: Path, word: str) -> None:
    """A request to a root helper (eject, the phone page's network); OSError when it cannot be written.

    The request appears whole (written aside, then renamed), since its appearing
    starts the helper; and it is readable by the service's group, which is how
    the helper (root, but without the capability to override permissions) reads it.
    """
    aside = request.with_name(request.name + ".new")
    descriptor = os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC, REQUEST_MODE)
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        os.fchmod(descriptor, REQUEST_MODE)  # the service's UMask=0077 took the group's read away
        file.write(word + "\n")
    aside.replace(request)


def subfolders(folder: Path) -> list[Path]:
    """The folders a person may open from here, by name; hidden ones left out."""
    try:
        return sorted((p for p in folder.iterdir() if p.is_dir() and not p.name.startswith(".")),
                      key=lambda p: p.name.lower())
    except OSError:
        return []
