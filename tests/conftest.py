"""Every test runs with its own empty config and data folders, and its own empty place for sticks.

The defaults (platformdirs) follow XDG_CONFIG_HOME and XDG_DATA_HOME on Linux,
so no test reads a developer's config file or writes into their saved games;
the sticks mounted on the machine running the suite (``/media/spicy-companion``)
and its eject request are never seen or written either, nor its network: the
phone page is served on loopback, on a port the system picks, and its request
and drop-in are the test's own.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.pi import eject, takehome
from companion.phones import address, switch
from companion.pi.display import CLOCK

# Kivy reads these once, at its first import: no command-line parsing, no
# config or logs in the developer's ~/.kivy, its own defaults, and the app's
# clock (whichever test module imports Kivy first).
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_USE_DEFAULTCONFIG", "1")
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))
os.environ["KIVY_CLOCK"] = CLOCK


@pytest.fixture(autouse=True)
def own_user_folders(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / "state"))
    monkeypatch.setattr(eject, "MEDIA", home / "media")
    monkeypatch.setattr(eject, "REQUEST", home / "run" / "eject")
    monkeypatch.setattr(takehome, "BY_LABEL", home / "by-label")
    monkeypatch.setattr(switch, "REQUEST", home / "run" / "phones")
    monkeypatch.setattr(switch, "DROP_IN", home / "systemd" / "spicy-companion.service.d" / "phones.conf")
    monkeypatch.setattr(address, "lan_address", lambda: "127.0.0.1")
    monkeypatch.setattr(address, "PORT", 0)
    return home


@pytest.fixture
def french() -> Iterator[None]:
    """The screens' language is French for the test, English again after it."""
    from companion.ui.i18n import tr  # Kivy loads only for the tests that ask

    tr.switch("fr")
    yield
    tr.switch("en")
