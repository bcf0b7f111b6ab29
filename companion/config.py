"""One TOML file with embedded defaults, so the app runs with no set-up at all.

The file lives in the user config folder (``spicy-companion/config.toml``) unless
``--config PATH`` names another. Every key is optional; an unknown section or key
is refused by name so a typo does not silently fall back to a default.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from enum import StrEnum
from pathlib import Path
from typing import Any

import platformdirs

from companion.errors import CompanionError

APP_NAME = "spicy-companion"


class ConfigError(CompanionError, ValueError):
    """The config file cannot be used; the message says where and why."""


def default_config_path() -> Path:
    return Path(platformdirs.user_config_dir(APP_NAME)) / "config.toml"


def default_db_path() -> Path:
    return Path(platformdirs.user_data_dir(APP_NAME)) / "games.db"


def shown(value: Any) -> str:
    """A value as it would be written in the TOML file, for messages.

    >>> shown(True), shown((1, "a")), shown(Path("/x")), shown(float("nan")), shown(None), shown(Backend.GPIO)
    ('true', "[1, 'a']", "'/x'", 'nan', 'unset', "'gpio'")
    """
    if value is None:
        return "unset"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, tuple | list):
        return f"[{', '.join(map(shown, value))}]"
    if isinstance(value, Path | str):  # a Backend word too, not its enum repr
        return repr(str(value))
    return repr(value)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_KINDS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "bool": (lambda v: isinstance(v, bool), "true or false"),
    "int": (_whole, "a whole number"),
    "int | None": (lambda v: v is None or _whole(v), "a whole number"),
    "float": (lambda v: _whole(v) or isinstance(v, float) and math.isfinite(v), "a finite number"),
    "str": (lambda v: isinstance(v, str), "a string in quotes"),
    "Backend": (lambda v: isinstance(v, str), "a string in quotes"),  # which word: the section checks
    "Path": (lambda v: isinstance(v, Path) and str(v) != ".", "a file path in quotes"),
    "tuple[int, ...]": (lambda v: isinstance(v, tuple) and all(map(_whole, v)), "a list of whole numbers"),
    "tuple[str, ...]": (
        lambda v: isinstance(v, tuple) and all(isinstance(x, str) and x for x in v),
        "a list of strings in quotes",
    ),
}
"""Each field annotation used in a section, with how to check it and what to call it."""


def check_kinds(section: object, name: str) -> None:
    """Refuse a value of the wrong kind before any limit is checked, so limits can compare freely."""
    for f in fields(section):  # type: ignore[arg-type]
        accepts, expected = _KINDS[str(f.type)]
        value = getattr(section, f.name)
        if not accepts(value):
            raise ConfigError(f"[{name}] {f.name} must be {expected}, not {shown(value)}")


@dataclass(frozen=True)
class StoreConfig:
    db: Path = field(default_factory=default_db_path)
    busy_timeout: float = 2.0
    """Seconds to wait for another program's write before giving up with a clear error."""

    def __post_init__(self) -> None:
        check_kinds(self, "store")
        if not 0 <= self.busy_timeout <= 600:
            raise ConfigError(
                f"[store] busy_timeout must be a number of seconds from 0 to 600, not {shown(self.busy_timeout)}"
            )


class Backend(StrEnum):
    """Which buttons are the buzzers; ``auto`` takes the USB box when plugged in, else GPIO."""

    AUTO = "auto"
    GPIO = "gpio"
    SERIAL = "serial"
    KEYBOARD = "keyboard"


@dataclass(frozen=True)
class BuzzerConfig:
    """Challenge buzzers; pins are BCM numbers (hardware/README.md), seats count from 0."""

    backend: Backend = Backend.AUTO
    settle_ms: float = 30.0  # wait after the first edge for earlier edges reported late
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
        def fail(message: str) -> None:
            raise ConfigError(f"[buzzers] {message}")

        check_kinds(self, "buzzers")
        if self.backend not in tuple(Backend):
            fail(f"backend must be auto, gpio, serial or keyboard, not {self.backend!r}")
        object.__setattr__(self, "backend", Backend(self.backend))
        if not 1 <= self.settle_ms <= 500:
            fail(f"settle_ms must be between 1 and 500, not {shown(self.settle_ms)}")
        if not 0 <= self.bounce_ms <= 100:
            fail(f"bounce_ms must be between 0 and 100, not {shown(self.bounce_ms)}")
        if not 0 <= self.confirm_ms < min(self.settle_ms, 10):
            fail(f"confirm_ms must be at least 0 and below 10 and settle_ms, not {shown(self.confirm_ms)}")
        if not 10 <= self.reconnect_ms <= 60_000:
            fail(f"reconnect_ms must be between 10 and 60000, not {shown(self.reconnect_ms)}")
        if not 1 <= len(self.button_pins) <= 8:
            fail(f"button_pins must list one BCM pin per seat (1 to 8 seats), not {shown(self.button_pins)}")
        if self.led_pins and len(self.led_pins) != len(self.button_pins):
            fail(
                f"led_pins must list one pin per seat, like button_pins, or be [] for no LEDs, "
                f"not {shown(self.led_pins)}"
            )
        uses = [(pin, "button_pins") for pin in self.button_pins]
        uses += [(pin, "led_pins") for pin in self.led_pins]
        uses += [] if self.piezo_pin is None else [(self.piezo_pin, "piezo_pin")]
        first_use: dict[int, str] = {}
        for pin, key in uses:
            if not 2 <= pin <= 27:
                fail(f"{key}: {pin} is not a usable BCM pin: use 2 to 27 (see hardware/README.md)")
            if pin in first_use:
                fail(f"{key}: pin {pin} is used twice (in {first_use[pin]} too): give every wire its own pin")
            first_use[pin] = key
        if self.backend == "serial" and not self.serial_ports:
            fail('serial_ports is empty, but backend = "serial" needs the buzzer box\'s port, e.g. ["/dev/spicy-buzzers"]')
        if len(self.keys) < len(self.button_pins) or len(set(self.keys)) != len(self.keys):
            fail(f"keys must list a different key for every seat, not {shown(self.keys)}")


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
            raise ConfigError(f"[display] rotation must be 0, 90, 180 or 270, not {self.rotation!r}")
        if self.touch not in TOUCH_SOURCES:
            raise ConfigError(f"[display] touch must be {' or '.join(TOUCH_SOURCES)}, not {self.touch!r}")
        for key in ("width", "height"):
            value = getattr(self, key)
            if not 320 <= value <= 7680:
                raise ConfigError(f"[display] {key} must be a whole number of pixels from 320 to 7680, not {value!r}")


LANGUAGES = ("en", "fr")


@dataclass(frozen=True)
class UiConfig:
    """How the table looks and sounds; the settings screen can change these while playing."""

    language: str = "en"  # en | fr
    sounds: bool = True
    face_seats: bool = False  # turn each seat panel to face its edge, for a screen lying flat

    def __post_init__(self) -> None:
        check_kinds(self, "ui")
        if self.language not in LANGUAGES:
            raise ConfigError(f"[ui] language must be one of {', '.join(LANGUAGES)}, not {self.language!r}")


@dataclass(frozen=True)
class Config:
    store: StoreConfig = field(default_factory=StoreConfig)
    buzzers: BuzzerConfig = field(default_factory=BuzzerConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    ui: UiConfig = field(default_factory=UiConfig)


_SECTIONS: dict[str, type] = {
    "store": StoreConfig,
    "buzzers": BuzzerConfig,
    "display": DisplayConfig,
    "ui": UiConfig,
}


def _section(cls: type, name: str, raw: Any) -> Any:
    if not isinstance(raw, dict):
        raise ConfigError(f"[{name}] must be a table of keys")
    known = {f.name: f for f in fields(cls)}
    values: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in known:
            raise ConfigError(f"[{name}] has no key {key!r}; known keys: {', '.join(known)}")
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
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Config()
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        line = exc.object[: exc.start].count(b"\n") + 1
        raise ConfigError(
            f"{path}: line {line} has the byte {exc.object[exc.start]:#04x}, which is not UTF-8: "
            "save the file as UTF-8"
        ) from None
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path} is not valid TOML: {exc}") from None
    built: dict[str, Any] = {}
    for name, value in raw.items():
        cls = _SECTIONS.get(name)
        if cls is None:
            raise ConfigError(f"{path}: unknown section [{name}]; known: {', '.join(_SECTIONS)}")
        try:
            built[name] = _section(cls, name, value)
        except ConfigError as exc:
            raise ConfigError(f"{path}: {exc}") from None
    return Config(**built)
