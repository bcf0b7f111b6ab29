"""One saved game as a transcript, as JSON or as CSV: the same text for ``games export`` and a stick.

The JSON and the transcript name the game's ``uid``, the identity that a
restore and ``games import`` use so the game is never doubled; the JSON also
holds its set-up, so the record stands on its own.
"""

from __future__ import annotations

import csv
import io
import json
import re
from typing import Any

from companion.rules import format_action, write_transcript
from companion.store.records import SavedGame, setup_row

FORMATS = {"transcript": "txt", "json": "json", "csv": "csv"}
"""Each export format and the file extension it is written with."""
IDENTITY = re.compile(r"^# spicy-companion game (?P<uid>[0-9a-f-]{36}(?:-\d+)?) started (?P<started>\S+)$", re.M)
"""The comment a transcript export starts with: ``games import`` keeps the game's identity and start from it."""
GAME_KIND = "spicy-companion game"
"""The JSON export's ``kind``: how a league file is known to be ours."""
GAME_FORMAT = 1
"""The JSON export's ``format``: a reader refuses a newer one rather than guess at it."""


def transcript_text(saved: SavedGame, uid: str) -> str:
    """The table transcript, after a comment naming the game (docs/RULES.md section 5 reads ``#`` as a comment)."""
    header = f"# spicy-companion game {uid} started {saved.started_at}\n"
    return header + write_transcript(saved.setup, (entry.action for entry in saved.log))


def identity(transcript: str) -> tuple[str, str] | None:
    """The uid and start a transcript export names, if it names them."""
    found = IDENTITY.search(transcript)
    return (found["uid"], found["started"]) if found else None


def json_record(saved: SavedGame, uid: str) -> dict[str, Any]:
    setup = setup_row(saved.setup)
    return {
        "kind": GAME_KIND,
        "format": GAME_FORMAT,
        "id": saved.id,
        "uid": uid,
        "started_at": saved.started_at,
        "ended_at": saved.ended_at,
        "abandoned_at": saved.abandoned_at,
        "profile": setup["profile"],
        "variants": sorted(saved.setup.variants),
        "options": {"start_after_challenge": saved.setup.start_after_challenge},
        "end_card": saved.setup.end_card,
        "first": saved.setup.first,
        "seats": list(saved.setup.names),
        "note": saved.note,
        "actions": [{"seq": e.seq, "at": e.at, **e.action.to_dict(), **_buzz(saved, e.seq)} for e in saved.log],
        "state": saved.game().state.to_json(),
    }


def _buzz(saved: SavedGame, seq: int) -> dict[str, Any]:
    """A challenge decided by buzzer: how it was won (``BuzzTime``), under ``buzz``; nothing for the rest."""
    found = saved.buzz_times.get(seq)
    return {} if found is None else {"buzz": {"from_tap_ms": found.from_tap_ms, "margin_ms": found.margin_ms}}


def json_text(saved: SavedGame, uid: str) -> str:
    return json.dumps(json_record(saved, uid), ensure_ascii=False, indent=1) + "\n"


def csv_text(saved: SavedGame) -> str:
    """The action log, a row an action: what a spreadsheet opens; a challenge won by buzzer with its buzz times."""
    setup = saved.setup
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["seq", "at", "action", "seat", "line", "buzz_from_tap_ms", "buzz_margin_ms"])
    for e in saved.log:
        seat = getattr(e.action, "seat", None)
        buzz = saved.buzz_times.get(e.seq)
        times = (buzz.from_tap_ms, buzz.margin_ms) if buzz else (None, None)
        writer.writerow([e.seq, e.at, e.action.keyword, "" if seat is None else setup.names[seat],
                         format_action(setup, e.action), *("" if ms is None else ms for ms in times)])
    return out.getvalue()


def export_text(saved: SavedGame, uid: str, format: str) -> str:
    if format == "transcript":
        return transcript_text(saved, uid)
    if format == "json":
        return json_text(saved, uid)
    return csv_text(saved)
