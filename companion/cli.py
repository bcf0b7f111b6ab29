"""The ``spicy-companion`` command: one entry point, a sub-command per job.

Each area registers its own sub-commands (``add_commands(subparsers)``) so this
file stays a table of contents. Errors a user can fix are printed as one line on
stderr with exit status 2, never as a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from companion import __version__
from companion.buzzers import cli as buzzers_cli
from companion.config import ConfigError, load_config
from companion.report import describe_state
from companion.rules import TranscriptError, replay_transcript
from companion.store import cli as store_cli

Registrar = Callable[["argparse._SubParsersAction[argparse.ArgumentParser]"], None]


class UsageError(Exception):
    """A mistake the user can fix; the message says how."""


def add_replay(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    replay = subparsers.add_parser(
        "replay",
        help="replay a table transcript and print the state after its last line",
        description="Replay a table transcript (RULES.md section 5). On the first refused line, "
        "print 'line N: reason' and exit 2.",
    )
    replay.add_argument("file", help="the transcript; - reads standard input")
    replay.add_argument("--json", action="store_true", help="print the state as one JSON object")
    replay.set_defaults(handler=run_replay)


def run_replay(args: argparse.Namespace) -> int:
    text = sys.stdin.read() if args.file == "-" else read_text(Path(args.file))
    try:
        state = replay_transcript(text).state
    except TranscriptError as exc:
        print(exc, file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(state.to_json(), ensure_ascii=False))
    else:
        print(describe_state(state))
    return 0


def read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UsageError(f"no file {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read {path}: {exc}") from None


def open_app(args: argparse.Namespace) -> int:
    """No command: the touchscreen table, the main job."""
    from companion import ui  # Kivy only loads when the app is wanted

    return ui.run(load_config(args.config))


REGISTRARS: list[Registrar] = [
    add_replay,
    buzzers_cli.add_commands,
    store_cli.add_commands,
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="spicy-companion",
        description="Spicy Companion: counts, rules, buzzers and saved games for Spicy. "
        "With no command it opens the touchscreen table.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("--config", type=Path, help="config file (default: the user config folder)")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for register in REGISTRARS:
        register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if not getattr(args, "handler", None):
            return open_app(args)
        return int(args.handler(args) or 0)
    except (UsageError, ConfigError) as exc:
        print(f"spicy-companion: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
