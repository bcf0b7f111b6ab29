"""Eject on screen, the privileged half: unmount the USB stick the kiosk asked for.

The kiosk runs without capabilities and cannot unmount; it writes the stick's
folder name into ``REQUEST``, and systemd (``spicy-companion-eject.path``) runs
this as root. Only a plain name is taken from the request, and only a mount
point directly under ``MEDIA`` is unmounted, with ``systemd-mount --umount``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

MEDIA = Path("/media/spicy-companion")
REQUEST = Path("/run/spicy-companion/eject")
NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}")


def requested_stick(request: Path = REQUEST, media: Path = MEDIA) -> Path | None:
    """The stick folder named in the request (which is used up), if it is a plain name and a mount point."""
    try:
        name = request.read_text(encoding="utf-8", errors="replace")[:64].strip()
        request.unlink()
    except OSError:
        return None
    folder = media / name
    return folder if NAME.fullmatch(name) and os.path.ismount(folder) else None


def main() -> int:
    folder = requested_stick()
    if folder is None:
        return 0
    os.sync()
    return subprocess.run(["/usr/bin/systemd-mount", "--umount", str(folder)]).returncode


if __name__ == "__main__":
    sys.exit(main())
