"""Eject on screen, the privileged half: unmount the USB stick the kiosk asked for.

The kiosk runs without capabilities and cannot unmount; it writes the stick's
folder name into ``REQUEST``, and systemd (``spicy-companion-eject.path``) runs
this as root. Only a plain name is taken from the request (a regular file,
opened without following a link, read no further than a name), and only a
mount point directly under ``MEDIA`` is unmounted, with ``systemd-mount --umount``.
"""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
from pathlib import Path

MEDIA = Path("/media/spicy-companion")
REQUEST = Path("/run/spicy-companion/eject")
LONGEST = 64
NAME = re.compile(rf"[A-Za-z0-9_][A-Za-z0-9_.-]{{0,{LONGEST - 1}}}")


def requested_stick(request: Path = REQUEST, media: Path = MEDIA) -> Path | None:
    """The stick folder named in the request (which is used up), if it is a plain name and a mount point."""
    name = read_request(request)
    try:
        request.unlink()
    except OSError:
        pass
    if name is None or not NAME.fullmatch(name):
        return None
    folder = media / name
    return folder if os.path.ismount(folder) else None


def read_request(request: Path) -> str | None:
    """What the request holds, if it is a regular file no longer than a name and its newline.

    The kiosk's side may put anything at that name, and this runs as root: a
    link is never followed, a FIFO or a device is never waited on or read
    (a oneshot service would hang on it), and no more than a name is read.
    """
    try:
        descriptor = os.open(request, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            return None
        text = os.read(descriptor, LONGEST + 2)
    except OSError:
        return None
    finally:
        os.close(descriptor)
    return text.decode("utf-8", errors="replace").strip() if len(text) <= LONGEST + 1 else None


def main() -> int:
    folder = requested_stick()
    if folder is None:
        return 0
    os.sync()
    return subprocess.run(["/usr/bin/systemd-mount", "--umount", str(folder)]).returncode


if __name__ == "__main__":
    sys.exit(main())
