"""One TOML file with embedded defaults, so the app runs with no set-up at all.

The file lives in the user config folder (``spicy-companion/config.toml``) unless
``--config PATH`` names another. Every key is optional; an unknown section or key
is refused by name so a typo does not silently fall back to a default.

Each refusal is written as a ``Reason`` template with the key, the value and the
path as parameters: the command line prints the English sentence, and the
settings screen says it in the player's language.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from enum import StrEnum
from pathlib import Path
from typing import Any

import platformdirs

from companion.errors import CompanionError, Reason, brief, either
from companion.files import CONFIG, FileRefused, read_file
from companion.languages import CODES

APP_NAME = "spicy-companion"


class ConfigError(CompanionError, ValueError):
    """The config file cannot be used; the message says where and why."""


def default_config_path() -> Path:
    return Path(platformdirs.user_config_dir(APP_NAME)) / "config.toml"


def default_db_path() -> Path:
    return Path(platformdirs.user_data_dir(APP_NAME)) / "games.db"


def default_league_path() -> Path:
    return Path(platformdirs.user_state_dir(APP_NAME)) / "league"


def shown(value: Any) -> str:
    """A value as it would be written in the TOML file, for messages: at most a line's worth of it.

    >>> shown(True), shown((1, "a")), shown(Path("/x")), shown(float("nan")), shown(None), shown(Backend.GPIO)
    ('true', "[1, 'a']", "'/x'", 'nan', 'unset', "'gpio'")
    >>> shown(((((1,),),),)), len(shown("x" * 5_000_000))
    ('[[…]]', 61)
    """
    return brief(_written(value, 0))


def _written(value: Any, depth: int) -> str:
    if value is None:
        return "unset"
    if isinstance(value, bool):
        return str(value).lower()
    if depth == 2 and isinstance(value, tuple | list | dict):  # a setting is a list of values: not walked deeper
        return "…"
    if isinstance(value, tuple | list):
        return f"[{', '.join(_written(item, depth + 1) for item in value[:20])}]"
    if isinstance(value, dict):  # an inline table, as TOML writes one
        return f"{{{', '.join(f'{key} = {_written(item, depth + 1)}' for key, item in list(value.items())[:20])}}}"
    if isinstance(value, Path | str):  # a Backend word too, not its enum repr
        return repr(str(value)[:200])
    return repr(value)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_KINDS: dict[str, tuple[Callable[[Any], bool], Reason]] = {
    "bool": (lambda v: isinstance(v, bool), Reason("true or false")),
    "int": (_whole, Reason("a whole number")),
    "int | None": (lambda v: v is None or _whole(v), Reason("a whole number")),
    "float": (lambda v: _whole(v) or isinstance(v, float) and math.isfinite(v), Reason("a finite number")),
    "str": (lambda v: isinstance(v, str), Reason("a string in quotes")),
    "Backend": (lambda v: isinstance(v, str), Reason("a string in quotes")),  # which word: the section checks
    "Path": (lambda v: isinstance(v, Path) and str(v) != "." and "\0" not in str(v), Reason("a file path in quotes")),
    "tuple[int, ...]": (lambda v: isinstance(v, tuple) and all(map(_whole, v)), Reason("a list of whole numbers")),
    "tuple[str, ...]": (
        lambda v: isinstance(v, tuple) and all(isinstance(x, str) and x for x in v),
        Reason("a list of strings in quotes"),
    ),
}
"""Each field annotation used in a section, with how to check it and what to call it."""


def check_kinds(section: object, name: str) -> None:
    """Refuse a value of the wrong kind before any limit is checked, so limits can compare freely."""
    for f in fields(section):  # type: ignore[arg-type]
        accepts, expected = _KINDS[str(f.type)]
        value = getattr(section, f.name)
        if not accepts(value):
            raise ConfigError(
                "[{section}] {key} must be {expected}, not {value}",
                section=name, key=f.name, expected=expected, value=shown(value),
            )


BUSY_TIMEOUT_MAX = 10.0
"""Half the service's watchdog (systemd/spicy-companion.service, WatchdogSec=20)."""
TABLE_WAIT = 1.0
"""The longest a tap waits for the database: then the table is told it is busy and may tap again."""


@dataclass(frozen=True)
class StoreConfig:
    db: Path = field(default_factory=default_db_path)
    busy_timeout: float = 2.0
    """Seconds a command waits for another program's write before giving up with a clear error.

    At most ``BUSY_TIMEOUT_MAX``: the kiosk service's watchdog (20 s) restarts an app
    that waits longer. The table itself waits at most ``TABLE_WAIT`` on a tap.
    """

    def __post_init__(self) -> None:
        check_kinds(self, "store")
        if not 0 <= self.busy_timeout <= BUSY_TIMEOUT_MAX:
            raise ConfigError(
                "[store] busy_timeout must be a number of seconds from 0 to 10, not {value}",
                value=shown(self.busy_timeout),
            )


class Backend(StrEnum):
    """Which buttons are the buzzers; ``auto`` takes the USB box when plugged in, else GPIO."""

    AUTO = "auto"
    GPIO = "gpio"
    SERIAL = "serial"
    KEYBOARD = "keyboard"


def _check_early_ms(early_ms: float) -> None:
    """Up to 5 s: a press longer than that before the tap was not a slap at the card landing."""
    if not 0 <= early_ms <= 5000:
        raise ConfigError("[buzzers] early_ms must be between 0 and 5000, not {value}", value=shown(early_ms))


@dataclass(frozen=True)
class BuzzerConfig:
    """Challenge buzzers; pins are BCM numbers (hardware/README.md), seats count from 0."""

    backend: Backend = Backend.AUTO
    settle_ms: float = 30.0  # wait after the first edge for earlier edges reported late
    early_ms: float = 1500.0  # a press this long before the claim is tapped counts for the card
    bounce_ms: float = 10.0  # edges this soon after a press or release are contact bounce
    confirm_ms: float = 1.5  # a press counts only if the line is still down this long after
    # Free beside DSI and SPI screens, I2S and PWM audio (hardware/README.md has the table).
    button_pins: tuple[int, ...] = (4, 5, 6, 16, 20, 26)
    led_pins: tuple[int, ...] = ()  # e.g. [17, 27, 22, 23, 24, 25] with no SPI screen
    piezo_pin: int | None = None  # e.g. 14 with a piezo fitted
    serial_ports: tuple[str, ...] = ("/dev/spicy-buzzers", "/dev/ttyACM0")
    reconnect_ms: float = 500.0
    keys: tuple[str, ...] = ("1", "2", "3", "4", "5", "6")

    def __post_init__(self) -> None:
        check_kinds(self, "buzzers")
        if self.backend not in tuple(Backend):
            raise ConfigError(
                "[buzzers] backend must be auto, gpio, serial or keyboard, not {value}", value=shown(self.backend)
            )
        object.__setattr__(self, "backend", Backend(self.backend))
        if not 1 <= self.settle_ms <= 500:
            raise ConfigError("[buzzers] settle_ms must be between 1 and 500, not {value}", value=shown(self.settle_ms))
        _check_early_ms(self.early_ms)
        if not 0 <= self.bounce_ms <= 100:
            raise ConfigError("[buzzers] bounce_ms must be between 0 and 100, not {value}", value=shown(self.bounce_ms))
        if not 0 <= self.confirm_ms < min(self.settle_ms, 10):
            raise ConfigError(
                "[buzzers] confirm_ms must be at least 0 and below 10 and settle_ms, not {value}",
                value=shown(self.confirm_ms),
            )
        if not 10 <= self.reconnect_ms <= 60_000:
            raise ConfigError(
                "[buzzers] reconnect_ms must be between 10 and 60000, not {value}", value=shown(self.reconnect_ms)
            )
        if not 1 <= len(self.button_pins) <= 8:
            raise ConfigError(
                "[buzzers] button_pins must list one BCM pin per seat (1 to 8 seats), not {value}",
                value=shown(self.button_pins),
            )
        if self.led_pins and len(self.led_pins) != len(self.button_pins):
            raise ConfigError(
                "[buzzers] led_pins must list one pin per seat, like button_pins, or be [] for no LEDs, not {value}",
                value=shown(self.led_pins),
            )
        uses = [(pin, "button_pins") for pin in self.button_pins]
        uses += [(pin, "led_pins") for pin in self.led_pins]
        uses += [] if self.piezo_pin is None else [(self.piezo_pin, "piezo_pin")]
        first_use: dict[int, str] = {}
        for pin, key in uses:
            if not 2 <= pin <= 27:
                raise ConfigError(
                    "[buzzers] {key}: {pin} is not a usable BCM pin: use 2 to 27 (see hardware/README.md)",
                    key=key, pin=pin,
                )
            if pin in first_use:
                raise ConfigError(
                    "[buzzers] {key}: pin {pin} is used twice (in {other} too): give every wire its own pin",
                    key=key, pin=pin, other=first_use[pin],
                )
            first_use[pin] = key
        if self.backend == "serial" and not self.serial_ports:
            raise ConfigError(
                '[buzzers] serial_ports is empty, but backend = "serial" needs the buzzer box\'s port, '
                'e.g. ["/dev/spicy-buzzers"]'
            )
        if len(self.keys) < len(self.button_pins) or len(set(self.keys)) != len(self.keys):
            raise ConfigError(
                "[buzzers] keys must list a different key for every seat, not {value}", value=shown(self.keys)
            )


TOUCH_SOURCES = ("sdl", "hidinput")


@dataclass(frozen=True)
class DisplayConfig:
    """The window: Touch Display 1 is 800x480 landscape, Touch Display 2 is 720x1280 portrait."""

    width: int = 800
    height: int = 480
    fullscreen: bool = False
    rotation: int = 0  # 0 | 90 | 180 | 270: drawing and touches turn together
    show_cursor: bool = True
    touch: str = "sdl"  # sdl: the window's own touches | hidinput: Kivy reads /dev/input (multi-touch)

    def __post_init__(self) -> None:
        check_kinds(self, "display")
        if self.rotation not in (0, 90, 180, 270):
            raise ConfigError("[display] rotation must be 0, 90, 180 or 270, not {value}", value=shown(self.rotation))
        if self.touch not in TOUCH_SOURCES:
            raise ConfigError(
                "[display] touch must be {choices}, not {value}",
                choices=either([*TOUCH_SOURCES]), value=shown(self.touch),
            )
        for key in ("width", "height"):
            value = getattr(self, key)
            if not 320 <= value <= 7680:
                raise ConfigError(
                    "[display] {key} must be a whole number of pixels from 320 to 7680, not {value}",
                    key=key, value=shown(value),
                )


KEYBOARDS = ("auto", "screen", "physical")


SPEECH_LOUD = 100
"""The spoken calls' full volume, in percent of the sounds' own."""


@dataclass(frozen=True)
class UiConfig:
    """How the table looks and sounds; the settings screen can change these while playing."""

    language: str = "en"  # a code of companion/languages.py
    sounds: bool = True
    speech: bool = False  # spoken calls (companion/ui/speech.py): off until the table turns them on
    speech_volume: int = SPEECH_LOUD  # percent
    face_seats: bool = False  # turn each seat panel to face its edge, for a screen lying flat
    keyboard: str = "auto"  # auto | screen | physical: where names are typed (companion/ui/keyboard.py)
    phones: bool = False  # show the game on phones: a read-only page on the local network (companion/ui/phones.py)

    def __post_init__(self) -> None:
        check_kinds(self, "ui")
        if self.keyboard not in KEYBOARDS:
            raise ConfigError(
                "[ui] keyboard must be {choices}, not {value}", choices=either([*KEYBOARDS]), value=shown(self.keyboard)
            )
        if self.language not in CODES:
            raise ConfigError(
                "[ui] language must be one of {languages}, not {value}", languages=", ".join(CODES),
                value=shown(self.language),
            )
        if not 0 < self.speech_volume <= SPEECH_LOUD:
            raise ConfigError("[ui] speech_volume must be a percentage from 1 to 100, not {value}",
                              value=shown(self.speech_volume))


@dataclass(frozen=True)
class BgStatsConfig:
    """Each rules profile's BoardGameGeek id for "Log this play"; 0: none, and BG Stats matches the game by name.

    Spicy's is the number in its boardgamegeek.com address (README "Taking games home").
    """

    spicy: int = 299169
    sweet_spicy: int = 0
    five_spices: int = 0

    def __post_init__(self) -> None:
        check_kinds(self, "bgstats")
        for f in fields(self):
            value = getattr(self, f.name)
            if not 0 <= value <= 99_999_999:
                raise ConfigError(
                    "[bgstats] {key} must be a BoardGameGeek id (the number in the game's address) or 0, "
                    "not {value}", key=f.name, value=shown(value),
                )

    def bgg_id(self, profile: str) -> int:
        """The id for a profile id such as ``sweet-spicy``."""
        return int(getattr(self, profile.replace("-", "_"), 0))


TABLE_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,31}")
"""A table's id names its Syncthing folder and its folder on disk: short, and safe in both."""


LEAGUE_CODE = "spicy-league-1-"
"""How a league code starts (``companion.league.syncthing.league_code``)."""


@dataclass(frozen=True)
class LeagueConfig:
    """This table in a club's league (README "Club night"): its name, and where the league's files live.

    The id is made once and kept in the league folder unless set here (two Pis restored from one image
    would otherwise share one).
    """

    table_name: str = ""
    """How the other tables call this one, such as "Table 3"; empty: "Table" and the id's start."""
    table_id: str = ""
    folder: Path = field(default_factory=default_league_path)
    listen: str = "default"
    """Where Syncthing listens for the other tables, such as "tcp://0.0.0.0:22000"; default: port 22000."""
    local_discovery: bool = True
    """Syncthing announces this table on the club's network and hears the others (Join a league lists them), and
    the table says its name there (``companion.league.beacon``)."""
    beacon_port: int = 21031
    """The UDP port the tables say their names on (``companion.league.beacon``): the same at every table."""
    tables: tuple[str, ...] = ()
    """League codes (``spicy-companion league code``) of tables that Join a league lists besides those local
    discovery finds: a table on another subnet, where broadcasts do not reach."""

    def __post_init__(self) -> None:
        check_kinds(self, "league")
        if self.table_id and not TABLE_ID.fullmatch(self.table_id):
            raise ConfigError(
                "[league] table_id must be 1 to 32 small letters, digits and dashes, not {value}",
                value=shown(self.table_id),
            )
        if self.listen != "default" and not re.fullmatch(r"tcp://[0-9a-zA-Z.:\[\]-]+:\d{1,5}", self.listen):
            raise ConfigError("[league] listen must be default or an address such as tcp://0.0.0.0:22000, not {value}",
                              value=shown(self.listen))
        if len(self.table_name) > 40 or any(not c.isprintable() for c in self.table_name):
            raise ConfigError("[league] table_name must be one line of at most 40 characters, not {value}",
                              value=shown(self.table_name))
        if not 1024 <= self.beacon_port <= 65535:
            raise ConfigError("[league] beacon_port must be a port from 1024 to 65535, not {value}",
                              value=shown(self.beacon_port))
        for code in self.tables:
            if not code.startswith(LEAGUE_CODE) or len(code) > 4000:
                raise ConfigError("[league] tables must be league codes (spicy-league-1-...), not {value}",
                                  value=shown(code))


@dataclass(frozen=True)
class Config:
    store: StoreConfig = field(default_factory=StoreConfig)
    buzzers: BuzzerConfig = field(default_factory=BuzzerConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    ui: UiConfig = field(default_factory=UiConfig)
    bgstats: BgStatsConfig = field(default_factory=BgStatsConfig)
    league: LeagueConfig = field(default_factory=LeagueConfig)


_SECTIONS: dict[str, type] = {
    "store": StoreConfig,
    "buzzers": BuzzerConfig,
    "display": DisplayConfig,
    "ui": UiConfig,
    "bgstats": BgStatsConfig,
    "league": LeagueConfig,
}


def _section(cls: type, name: str, raw: Any) -> Any:
    if not isinstance(raw, dict):
        raise ConfigError("[{section}] must be a table of keys", section=name)
    known = {f.name: f for f in fields(cls)}
    values: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in known:
            raise ConfigError(
                "[{section}] has no key {key}; known keys: {known}",
                section=name, key=brief(repr(key)), known=tuple(known),
            )
        if known[key].type == "Path" and isinstance(value, str) and value:
            value = Path(value).expanduser()
        elif isinstance(value, list):
            value = tuple(value)
        values[key] = value
    return cls(**values)


def load_config(path: Path | None = None) -> Config:
    """Read the config file, or return the defaults when there is none.

    >>> load_config(Path("/nonexistent/config.toml")).buzzers.backend.value
    'auto'
    """
    path = path or default_config_path()
    try:
        text = read_file(path, CONFIG).decode("utf-8")
    except FileNotFoundError:
        return Config()
    except FileRefused as exc:
        raise ConfigError(exc.reason) from None
    except OSError as exc:
        raise ConfigError("cannot read {path}: {problem}", path=str(path), problem=str(exc.strerror)) from None
    except UnicodeDecodeError as exc:
        line = exc.object[: exc.start].count(b"\n") + 1
        raise ConfigError(
            "{path}: line {line} has the byte {byte}, which is not UTF-8: save the file as UTF-8",
            path=str(path), line=line, byte=f"{exc.object[exc.start]:#04x}",
        ) from None
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError("{path} is not valid TOML: {problem}", path=str(path), problem=str(exc)) from None
    except RecursionError:
        raise ConfigError("{path} nests lists or tables too deeply: a setting is a value or a list of values",
                          path=str(path)) from None
    built: dict[str, Any] = {}
    for name, value in raw.items():
        cls = _SECTIONS.get(name)
        if cls is None:
            raise ConfigError(
                "{path}: unknown section [{section}]; known: {known}",
                path=str(path), section=brief(name), known=tuple(_SECTIONS),
            )
        try:
            built[name] = _section(cls, name, value)
        except ConfigError as exc:
            raise ConfigError("{path}: {problem}", path=str(path), problem=exc.reason) from None
    return Config(**built)
