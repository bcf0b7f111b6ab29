"""The ``spicy-companion`` command: one entry point, a sub-command per job.

Each area registers its own sub-commands (``add_commands(subparsers)``) so this
file stays a table of contents. Every error a user can fix is a ``CompanionError``,
caught here once: one line ``spicy-companion: <message>`` on stderr, exit status 2,
never a traceback. A new command raises and gets this for free.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn, TypeAlias, cast

from companion import __version__, doctor, install
from companion.buzzers import cli as buzzers_cli
from companion.config import load_config
from companion.errors import CompanionError
from companion.report import describe_state, read_input
from companion.rules import replay_transcript
from companion.store import cli as store_cli

Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
Registrar = Callable[[Subparsers], None]


class Parser(argparse.ArgumentParser):
    """Argument mistakes in one line, like every other refusal; ``--help`` still gives the usage."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def add_replay(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    replay = subparsers.add_parser(
        "replay",
        help="replay a table transcript and print the state after its last line",
        description="Replay a table transcript (docs/RULES.md section 5). On the first refused line, "
        "print 'line N: reason' and exit 2.",
    )
    replay.add_argument("file", help="the transcript; - reads standard input")
    replay.add_argument("--json", action="store_true", help="print the state as one JSON object")
    replay.set_defaults(handler=run_replay)


def run_replay(args: argparse.Namespace) -> int:
    state = replay_transcript(read_input(args.file)).state
    if args.json:
        print(json.dumps(state.to_json(), ensure_ascii=False))
    else:
        print(describe_state(state))
    return 0


def open_app(args: argparse.Namespace) -> int:
    """No command: the touchscreen table, the main job."""
    from companion import ui  # Kivy only loads when the app is wanted

    return ui.run(load_config(args.config), args.config)


REGISTRARS: list[Registrar] = [
    add_replay,
    buzzers_cli.add_commands,
    store_cli.add_commands,
    install.add_commands,
    doctor.add_commands,
]


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="spicy-companion",
        description="Spicy Companion: counts, rules, buzzers and saved games for Spicy. "
        "With no command it opens the touchscreen table.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("--config", type=Path, help="config file (default: the user config folder)")
    subparsers = cast(Subparsers, parser.add_subparsers(dest="command", metavar="COMMAND"))
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
    except CompanionError as exc:
        print(f"spicy-companion: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return _reader_left()


def _reader_left() -> int:
    """The reader closed the pipe (``| head``): stop quietly, as a Unix tool killed by SIGPIPE would.

    Standard output points at /dev/null afterwards, so the interpreter's final
    flush does not complain about the pipe a second time.
    """
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return 128 + signal.SIGPIPE


if __name__ == "__main__":
    sys.exit(main())
