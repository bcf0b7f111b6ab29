"""A settings file that cannot be read does not stop the app: it starts, says so, and keeps the file aside."""

from __future__ import annotations

from pathlib import Path

from companion.ui.prefs import default_prefs_path


def test_a_deeply_nested_settings_file_opens_home_with_a_notice(ui) -> None:
    path: Path = default_prefs_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("[" * 1000 + "]" * 1000)  # a RecursionError at every start, once
    app = ui.start()
    assert app.root.current == "home"
    assert "the saved settings could not be read (it is nested too deeply)" in app.toast.text
    assert path.with_name("ui.json.damaged").exists()
    ui.stop()
    app = ui.start()
    assert app.toast.parent is None  # said once; the next start is a quiet one
