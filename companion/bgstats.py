""""Log this play": a saved game as BG Stats' play-push link, short enough for a QR code read off the screen.

BG Stats documents the link (bgstatsapp.com, "Push plays to BG Stats from other
apps or websites"): ``https://app.bgstatsapp.com/createPlay.html?data=`` and the
play as URL-encoded JSON, with ``game`` (``name``, ``bggId``, ``highestWins``,
``noPoints``, ``sourceGameId``), ``playDate`` (``YYYY-MM-DD HH:MM:SS``),
``durationMin``, ``comments``, ``players`` (``name``, ``score``, ``winner``,
``startPlayer``, ``rank``) and the source's ``sourceName`` and ``sourcePlayId``.
The phone opens it in BG Stats, which matches the game and the players and saves
the play (and posts it on to BoardGameGeek when the user has linked the two):
no password ever sits on the Pi.

A QR code bigger than a version-20 symbol (97 modules) gets modules too small
to read from arm's length off a 7" screen, so optional fields are dropped,
in ``DROPPED`` order, until the link fits.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from typing import Any
from urllib.parse import quote

import segno

from companion.errors import Reason
from companion.table.session import elapsed, minutes_played
from companion.store.records import SavedGame

LINK = "https://app.bgstatsapp.com/createPlay.html?data="
SOURCE = "Spicy Companion"
MAX_VERSION = 20
"""97 modules (105 with the quiet zone): on an 800x480 7" screen (0.19 mm a pixel) the code gets 4 pixels a
module, 0.76 mm, and is 80 mm across: what a phone camera reads from 60 to 80 cm."""
URL_SAFE = ":,!'()*"
"""Left as they are in the query: allowed there unencoded (RFC 3986), and each would take three characters."""

Play = dict[str, Any]


def play_record(saved: SavedGame, uid: str, bgg_id: int) -> Play:
    """Everything BG Stats takes about the play, before any shortening."""
    state = saved.game().state
    numbered = all(state.score(i) is not None for i in range(len(state.seats)))
    game: Play = {"name": state.profile.title, "sourceGameId": state.profile.id, "highestWins": True,
                  "noPoints": not numbered}
    if bgg_id:
        game["bggId"] = bgg_id
    players = []
    for i, seat in enumerate(state.seats):
        player: Play = {"name": seat.name, "winner": i in state.winners, "startPlayer": i == saved.setup.first}
        if numbered:
            player["score"] = state.score(i)
        players.append(player)
    if numbered:
        _rank(players)
    play: Play = {"sourceName": SOURCE, "sourcePlayId": uid, "game": game,
                  "playDate": _local(saved.started_at), "players": players}
    if saved.ended_at:
        play["durationMin"] = minutes_played(elapsed(saved.started_at, saved.ended_at))
    if saved.setup.variants:
        play["comments"] = "Variants: " + ", ".join(sorted(saved.setup.variants))
    return play


def _rank(players: list[Play]) -> None:
    """Winners first, then by score; equal scores share a place."""
    order = sorted(players, key=lambda p: (not p["winner"], -p["score"]))
    for place, player in enumerate(order, start=1):
        before = order[place - 2]
        same = place > 1 and (before["winner"], before["score"]) == (player["winner"], player["score"])
        player["rank"] = before["rank"] if same else place


def _local(stamp: str) -> str:
    return datetime.fromisoformat(stamp).astimezone().strftime("%Y-%m-%d %H:%M:%S")


def _drop_comments(play: Play) -> None:
    play.pop("comments", None)


def _drop_ranks(play: Play) -> None:
    for player in play["players"]:
        player.pop("rank", None)


def _drop_false_flags(play: Play) -> None:
    """``winner: false`` and ``startPlayer: false`` are what BG Stats assumes when they are missing."""
    for player in play["players"]:
        for key in ("winner", "startPlayer"):
            if player.get(key) is False:
                del player[key]


def _drop_game_details(play: Play) -> None:
    for key in ("sourceGameId", "highestWins"):
        play["game"].pop(key, None)
    if play["game"].get("noPoints") is False:
        del play["game"]["noPoints"]


def _drop_source(play: Play) -> None:
    for key in ("sourceName", "sourcePlayId"):
        play.pop(key, None)


DROPPED: list[tuple[Reason, Callable[[Play], None]]] = [
    (Reason("the comments (the variant cards)"), _drop_comments),
    (Reason("each player's rank"), _drop_ranks),
    (Reason("winner and start player where false"), _drop_false_flags),
    (Reason("the game's own id and scoring flags"), _drop_game_details),
    (Reason("the app's name and the play's id"), _drop_source),
]
"""What goes, in this order, while the link is too long; game, date, length, names, scores and winners stay."""


def link(play: Play) -> str:
    return LINK + quote(json.dumps(play, ensure_ascii=False, separators=(",", ":")), safe=URL_SAFE)


def qr_version(text: str) -> int:
    return int(segno.make(text, error="l", boost_error=False, micro=False).version)


def fitted_link(play: Play) -> tuple[str, list[Reason]]:
    """The link, shortened while it would need a QR code bigger than ``MAX_VERSION``; and what was dropped."""
    play = json.loads(json.dumps(play))
    dropped: list[Reason] = []
    url = link(play)
    for what, drop in DROPPED:
        if qr_version(url) <= MAX_VERSION:
            break
        drop(play)
        dropped.append(what)
        url = link(play)
    return url, dropped


def qr_matrix(text: str) -> tuple[tuple[bool, ...], ...]:
    """The QR code's modules, dark as True, with its 4-module quiet zone: the screen draws these."""
    code = segno.make(text, error="l", boost_error=False, micro=False)
    return tuple(tuple(bool(m) for m in row) for row in code.matrix_iter(border=4))
