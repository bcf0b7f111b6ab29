"""``spicy-companion`` with no command opens the app; ``--help`` still lists every command."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.languages import CODES
from companion.cli import main


def test_help_lists_the_commands_and_says_no_command_opens_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    assert exit_.value.code == 0
    out = " ".join(capsys.readouterr().out.split())
    for command in ("replay", "games", "stats", "simulate", "buzzers"):
        assert command in out
    assert "With no command it opens the touchscreen table" in out


def test_a_bad_config_is_one_line_before_any_window_opens(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[ui]\nlanguage = "tlh"\n')
    assert main(["--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"language must be one of {', '.join(CODES)}, not 'tlh'" in err
