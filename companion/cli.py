"""The ``spicy-companion`` command: one entry point, a sub-command per job.

Each area registers its own sub-commands (``add_commands(subparsers)``) so this
file stays a table of contents. Errors a user can fix are printed as one line on
stderr with exit status 2, never as a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from companion import __version__
from companion.config import ConfigError
from companion.rules import cli as rules_cli

Registrar = Callable[["argparse._SubParsersAction[argparse.ArgumentParser]"], None]

REGISTRARS: list[Registrar] = [
    rules_cli.add_commands,
]


class UsageError(Exception):
    """A mistake the user can fix; the message says how."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="spicy-companion",
        description="Spicy Companion: counts, rules, buzzers and saved games for Spicy.",
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
    if not getattr(args, "handler", None):
        parser.print_help()
        return 0
    try:
        return int(args.handler(args) or 0)
    except (UsageError, ConfigError) as exc:
        print(f"spicy-companion: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
