"""What the phone page shows: the table model and the game in words, as one JSON-ready snapshot.

Every fact comes from the model (``companion.table.model``: the counts, the
seat to play, the World's End level, the challenges decided), every word from
``companion.ui.words`` in the table's language; the page only draws them. It
reads nothing but frozen values, so the phone server's thread makes it.
"""

from __future__ import annotations

from typing import Any

from companion.languages import language
from companion.rules import Game
from companion.table.model import TableModel, challenges
from companion.ui.i18n import tr
from companion.ui.words import claim_words, end_reason_text, hint_words, pile_words, result_words


def phone_snapshot(model: TableModel, game: Game, names: tuple[str, ...], colours: tuple[str, ...]) -> dict[str, Any]:
    """What the phone page shows, in the table's language: made from frozen values, on any thread."""
    row = language(tr.language)
    return {
        "lang": row.code,
        "dir": row.direction,
        "title": model.title,
        "words": {
            "name": tr._("Player"), "hand": tr._("Hand"), "won": tr._("Won"), "trophies": tr._("Trophies"),
            "score": tr._("Score"), "stack": tr._("Stack"), "draw_pile": tr._("Draw pile"),
            "challenges": tr._("Challenges"), "no_challenge": tr._("No challenge yet"),
            "reconnecting": tr._("Reconnecting to the table…"),
        },
        "turn": tr._("{name} to play").format(name=names[model.turn]) if model.turn >= 0 else "",
        "hint": hint_words(model.hint, names),
        "stack": {"count": model.stack,
                  "claim": claim_words(model.claim_spice, model.claim_number or None) if model.claim_spice else ""},
        "draw_pile": {"count": model.draw_pile, "level": model.end_level if model.has_end_card else "calm",
                      "warning": pile_words(model.end_level, model.has_end_card)},
        "seats": [
            {"name": name, "colour": colour, "hand": seat.hand + seat.universals, "won": seat.won + seat.won_universals,
             "trophies": seat.trophies, "score": "" if seat.score is None else str(seat.score),
             "to_play": seat.to_play, "winner": seat.winner}
            for name, colour, seat in zip(names, colours, model.seat_models, strict=True)
        ],
        "end": end_reason_text(model.end_reason) if model.ended else "",
        "challenges": [{"title": said.title, "detail": said.detail.text}
                       for said in (result_words(decided, names) for decided in challenges(game))],
    }
