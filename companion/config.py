"""One TOML file with embedded defaults, so the app runs with no set-up at all.

The file lives in the user config folder (``spicy-companion/config.toml``) unless
``--config PATH`` names another. Every key is optional; an unknown section or key
is refused by name so a typo does not silently fall back to a default.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import platformdirs

APP_NAME = "spicy-companion"


class ConfigError(ValueError):
    """The config file cannot be used; the message says where and why."""


def default_config_path() -> Path:
    return Path(platformdirs.user_config_dir(APP_NAME)) / "config.toml"


def default_db_path() -> Path:
    return Path(platformdirs.user_data_dir(APP_NAME)) / "games.db"


@dataclass(frozen=True)
class StoreConfig:
    db: Path = field(default_factory=default_db_path)


@dataclass(frozen=True)
class BuzzerConfig:
    backend: str = "auto"  # auto | gpio | serial | keyboard
    settle_ms: float = 30.0


@dataclass(frozen=True)
class Config:
    store: StoreConfig = field(default_factory=StoreConfig)
    buzzers: BuzzerConfig = field(default_factory=BuzzerConfig)


_SECTIONS: dict[str, type] = {"store": StoreConfig, "buzzers": BuzzerConfig}


def _section(cls: type, name: str, raw: Any) -> Any:
    if not isinstance(raw, dict):
        raise ConfigError(f"[{name}] must be a table of keys")
    known = {f.name: f for f in fields(cls)}
    values: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in known:
            raise ConfigError(f"[{name}] has no key {key!r}; known keys: {', '.join(known)}")
        default = getattr(cls(), key)
        if isinstance(default, Path):
            value = Path(str(value)).expanduser()
        elif isinstance(default, tuple) and isinstance(value, list):
            value = tuple(value)
        elif isinstance(default, float) and isinstance(value, int):
            value = float(value)
        elif default is not None and not isinstance(value, type(default)):
            raise ConfigError(
                f"[{name}] {key} must be {type(default).__name__}, not {type(value).__name__}"
            )
        values[key] = value
    return cls(**values)


def load_config(path: Path | None = None) -> Config:
    """Read the config file, or return the defaults when there is none.

    >>> load_config(Path("/nonexistent/config.toml")).buzzers.backend
    'auto'
    """
    path = path or default_config_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Config()
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror}") from None
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
