"""The phone page's network, the privileged half: put the kiosk's network drop-in in place, or take it away.

The kiosk has ``PrivateNetwork=yes`` and cannot write a unit; the setting writes
``on`` or ``off`` into ``REQUEST`` and systemd (``spicy-companion-phones.path``)
runs this as root. The request names nothing else: no path, no address, no unit.
The drop-in is this package's own ``network.conf``, and the kiosk is restarted
only when it changed (the network namespace is made when the service starts);
the table reopens its game as after a power cut.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from companion.pi.eject import read_request
from companion.files import write_whole

REQUEST = Path("/run/spicy-companion/phones")
DROP_IN = Path("/etc/systemd/system/spicy-companion.service.d/phones.conf")
NETWORK = Path(__file__).parent / "network.conf"
SERVICE = "spicy-companion.service"


def requested(request: Path = REQUEST) -> bool | None:
    """True for ``on``, False for ``off``, None for anything else; the request is used up either way."""
    word = read_request(request)
    try:
        request.unlink()
    except OSError:
        pass
    return {"on": True, "off": False}.get(word or "")


def put(on: bool, drop_in: Path = DROP_IN) -> bool:
    """The drop-in as asked; True when that changed it."""
    if not on:
        if not drop_in.exists():
            return False
        drop_in.unlink()
        return True
    wanted = NETWORK.read_bytes()
    if drop_in.is_file() and not drop_in.is_symlink() and drop_in.read_bytes() == wanted:
        return False
    drop_in.parent.mkdir(mode=0o755, exist_ok=True)
    write_whole(drop_in, wanted, 0o644)
    return True


def main() -> int:
    on = requested()
    if on is None or not put(on):
        return 0
    reload = subprocess.run(["/usr/bin/systemctl", "daemon-reload"]).returncode
    return reload or subprocess.run(["/usr/bin/systemctl", "restart", "--no-block", SERVICE]).returncode


if __name__ == "__main__":
    sys.exit(main())
