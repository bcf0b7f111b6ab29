"""The config file: every key checked at start, refused with its key, its value and what it expects."""

import json
import math
import re
from dataclasses import fields
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.languages import CODES
from companion.cli import main
from companion.config import Config, ConfigError, load_config
from companion.ui.i18n import say
from test_reasons import FRENCH, reason_parts

EXAMPLE = Path(__file__).parent.parent / "companion" / "config.example.toml"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_display_and_ui_sections_are_read(tmp_path: Path) -> None:
    config = load_config(
        write(tmp_path, "[display]\nwidth = 720\nheight = 1280\nrotation = 90\n[ui]\nlanguage = 'fr'\nsounds = false\n")
    )
    assert (config.display.width, config.display.height, config.display.rotation) == (720, 1280, 90)
    assert config.ui.language == "fr" and config.ui.sounds is False and config.ui.face_seats is False


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[display]\nrotation = 45\n", "[display] rotation must be 0, 90, 180 or 270, not 45"),
        ("[display]\nrotation = 90.0\n", "[display] rotation must be a whole number, not 90.0"),
        ("[display]\nwidth = 10\n", "[display] width must be a whole number of pixels from 320 to 7680, not 10"),
        ("[display]\nfullscreen = 1\n", "[display] fullscreen must be true or false, not 1"),
        ("[display]\ntouch = 'both'\n", "[display] touch must be sdl or hidinput, not 'both'"),
        ("[ui]\nlanguage = 'tlh'\n", f"[ui] language must be one of {', '.join(CODES)}, not 'tlh'"),
        ("[ui]\nsounds = 'yes'\n", "[ui] sounds must be true or false, not 'yes'"),
        # Accepted before: a file named "5" was created, and a timeout that silently meant "fail at once".
        ("[store]\ndb = 5\n", "[store] db must be a file path in quotes, not 5"),
        ("[store]\ndb = true\n", "[store] db must be a file path in quotes, not true"),
        ("[store]\ndb = ['a']\n", "[store] db must be a file path in quotes, not ['a']"),
        ("[store]\ndb = ''\n", "[store] db must be a file path in quotes, not ''"),
        ("[store]\nbusy_timeout = -5\n", "[store] busy_timeout must be a number of seconds from 0 to 10, not -5"),
        ("[store]\nbusy_timeout = 600\n", "[store] busy_timeout must be a number of seconds from 0 to 10, not 600"),
        ("[store]\nbusy_timeout = nan\n", "[store] busy_timeout must be a finite number, not nan"),
        ("[store]\nbusy_timeout = inf\n", "[store] busy_timeout must be a finite number, not inf"),
        ("[buzzers]\nserial_ports = [1]\n", "[buzzers] serial_ports must be a list of strings in quotes, not [1]"),
        ("[buzzers]\nreconnect_ms = 0\n", "[buzzers] reconnect_ms must be between 10 and 60000, not 0"),
        ("[buzzers]\nearly_ms = 6000\n", "[buzzers] early_ms must be between 0 and 5000, not 6000"),
        ("[buzzers]\nkeys = ['1', '1', '2', '3', '4', '5']\n", "[buzzers] keys must list a different key"),
        # The four the issue names, each with its own message.
        ("[buzzers]\nseats = 6\n", "[buzzers] has no key 'seats'; known keys: backend, "),
        ("[buzzers]\nbutton_pins = [5, 6, 40]\nled_pins = []\n", "[buzzers] button_pins: 40 is not a usable BCM pin"),
        ("[buzzers]\nled_pins = [17, 27, 22, 23, 24, 5]\n", "[buzzers] led_pins: pin 5 is used twice (in button_pins too)"),
        ("[buzzers]\nbackend = 'serial'\nserial_ports = []\n", "[buzzers] serial_ports is empty, but backend = \"serial\""),
        ("[league]\nbeacon_port = 53\n", "[league] beacon_port must be a port from 1024 to 65535, not 53"),
        ("[league]\nbeacon_port = '21031'\n", "[league] beacon_port must be a whole number, not '21031'"),
    ],
)
def test_bad_settings_are_refused_by_key_value_and_expectation(tmp_path: Path, text: str, words: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(words)):
        load_config(write(tmp_path, text))


def test_a_byte_that_is_not_utf8_is_one_line_naming_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(b"[ui]\n# caf\xe9\nlanguage = 'fr'\n")
    assert main(["--config", str(path), "games"]) == 2
    err = capsys.readouterr().err
    assert err == f"spicy-companion: {path}: line 2 has the byte 0xe9, which is not UTF-8: save the file as UTF-8\n"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[ui]\nsounds = 'yes'\n", "[ui] sounds must be true or false, not 'yes'"),
        ("[display]\ntouch = 'both'\n", "[display] touch must be sdl or hidinput, not 'both'"),
        ("[buzzers]\nled_pins = [17, 27, 22, 23, 24, 5]\n",
         "[buzzers] led_pins: pin 5 is used twice (in button_pins too): give every wire its own pin"),
        ("[buzzers]\nseats = 6\n", "[buzzers] has no key 'seats'; known keys: backend, settle_ms, early_ms, bounce_ms, "
         "confirm_ms, button_pins, led_pins, piezo_pin, serial_ports, reconnect_ms, keys"),
    ],
)
def test_the_command_line_prints_the_english_sentence_whatever_the_screens_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], french: None, text: str, words: str
) -> None:
    path = write(tmp_path, text)
    assert main(["--config", str(path), "games"]) == 2
    assert capsys.readouterr().err == f"spicy-companion: {path}: {words}\n"


def test_a_file_that_is_not_toml_or_names_an_unknown_section_is_said_in_french(tmp_path: Path, french: None) -> None:
    with pytest.raises(ConfigError) as refused:
        load_config(write(tmp_path, "[ui]\nlanguage = 'fr'\n[sound]\nvolume = 3\n"))
    assert say(refused.value.reason) == (
        f"{tmp_path}/config.toml\u202f: section [sound] inconnue\u202f; sections connues\u202f: store, buzzers, display, ui, bgstats, league"
    )
    with pytest.raises(ConfigError) as refused:
        load_config(write(tmp_path, "[ui\n"))
    assert say(refused.value.reason).startswith(f"{tmp_path}/config.toml n’est pas du TOML valide\u202f: Expected ']'")


def test_a_refused_database_path_creates_no_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    config = write(tmp_path, "[store]\ndb = 5\n")
    assert main(["--config", str(config), "games"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config.toml"]


def uncommented_example() -> str:
    """The example with every commented-out setting switched on."""
    return re.sub(r"^# ?(\w+ = )", r"\1", EXAMPLE.read_text(encoding="utf-8"), flags=re.MULTILINE)


def test_the_example_names_every_key_of_every_section(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, uncommented_example()))
    text = uncommented_example()
    for section in fields(Config):
        assert f"[{section.name}]" in text
        for key in fields(getattr(config, section.name)):
            assert re.search(rf"^{key.name} = ", text, re.MULTILINE), f"{section.name}.{key.name} is not in the example"


def test_the_example_as_shipped_is_the_kiosk(tmp_path: Path) -> None:
    """What the installer writes: full screen, no cursor, the games in the service's state folder."""
    shipped, defaults = load_config(EXAMPLE), load_config(tmp_path / "none.toml")
    assert shipped.buzzers == defaults.buzzers and shipped.ui == defaults.ui
    assert (shipped.display.fullscreen, shipped.display.show_cursor) == (True, False)
    assert shipped.store.db == Path("/var/lib/spicy-companion/games.db")


def toml_value(value: object) -> str:
    """A Python value written as TOML (floats include nan and inf; strings as JSON, which TOML reads)."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, list):
        return "[" + ", ".join(map(toml_value, value)) + "]"
    return json.dumps(value, ensure_ascii=False)


def every_key() -> list[tuple[str, str]]:
    return [(section.name, key.name) for section in fields(Config) for key in fields(getattr(Config(), section.name))]


scalars = st.one_of(
    st.booleans(),
    st.integers(-(2**63), 2**63 - 1),
    st.floats(),
    st.text(st.characters(exclude_categories=["Cs", "Cc"]), max_size=12),
)
values = st.one_of(scalars, st.lists(scalars, max_size=9), st.lists(st.integers(-5, 40), max_size=9))


@settings(max_examples=300, deadline=None)
@given(key=st.sampled_from(every_key()), value=values)
def test_property_any_value_for_any_key_loads_or_is_one_line_naming_the_key(
    tmp_path_factory: pytest.TempPathFactory, key: tuple[str, str], value: object
) -> None:
    path = tmp_path_factory.mktemp("config") / "config.toml"
    path.write_text(f"[{key[0]}]\n{key[1]} = {toml_value(value)}\n", encoding="utf-8")
    try:
        config = load_config(path)
    except ConfigError as exc:
        message = str(exc)
        assert "\n" not in message and f"[{key[0]}]" in message
        assert key[1] in message or "pin" in message, message
        assert say(exc.reason) == message  # English on screen: the command line's sentence
        assert [part for part in reason_parts(exc.reason) if FRENCH.gettext(part) is part] == [], message
    else:
        assert getattr(config, key[0]) is not None
