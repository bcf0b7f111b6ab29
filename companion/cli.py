"""The ``spicy-companion`` command: one entry point, a sub-command per job.

Each area registers its own sub-commands (``add_commands(subparsers)``) so this
file stays a table of contents. A command's module is imported only when the
full parser is built (a command or ``--help`` on the line): with no command the
app starts without paying for the store's, the buzzers' or the doctor's imports
(docs/PERFORMANCE.md). Every error a user can fix is a ``CompanionError``,
caught here once: one line ``spicy-companion: <message>`` on stderr, exit status 2,
never a traceback. A new command raises and gets this for free.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn, TypeAlias, cast

from companion import __version__
from companion.config import load_config
from companion.errors import CompanionError

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
    import json

    from companion.report import describe_state, read_input
    from companion.rules import replay_transcript

    state = replay_transcript(read_input(args.file)).state
    if args.json:
        print(json.dumps(state.to_json(), ensure_ascii=False))
    else:
        print(describe_state(state))
    return 0


def open_app(args: argparse.Namespace) -> int:
    """No command: the touchscreen table, the main job."""
    gc.disable()  # until the first frame is on screen (companion.ui.collect_after_drawn)
    try:
        from companion import ui  # Kivy only loads when the app is wanted

        return ui.run(load_config(args.config), args.config)
    finally:
        gc.enable()  # a window that never drew, or a config refused: the collector is back all the same


def commands_of(module: str) -> Registrar:
    """The ``add_commands`` of ``module``, imported when the parser is built, not when this file is."""

    def register(subparsers: Subparsers) -> None:
        importlib.import_module(module).add_commands(subparsers)

    return register


REGISTRARS: list[Registrar] = [
    add_replay,
    commands_of("companion.buzzers.cli"),
    commands_of("companion.store.cli"),
    commands_of("companion.store.backup_cli"),
    commands_of("companion.league.cli"),
    commands_of("companion.pi.install"),
    commands_of("companion.pi.doctor"),
]


def top_parser(add_help: bool = True) -> Parser:
    """The options that come before any command."""
    parser = Parser(
        prog="spicy-companion",
        description="Spicy Companion: counts, rules, buzzers and saved games for Spicy. "
        "With no command it opens the touchscreen table.",
        add_help=add_help,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("--config", type=Path, help="config file (default: the user config folder)")
    return parser


def app_arguments(argv: Sequence[str] | None) -> argparse.Namespace | None:
    """The line when it only opens the app (no command, no ``--help``), read without any command's module."""
    args, rest = top_parser(add_help=False).parse_known_args(argv)
    return None if rest else args


def build_parser() -> argparse.ArgumentParser:
    parser = top_parser()
    subparsers = cast(Subparsers, parser.add_subparsers(dest="command", metavar="COMMAND"))
    for register in REGISTRARS:
        register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = app_arguments(argv) or build_parser().parse_args(argv)
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
