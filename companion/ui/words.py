"""The table in words: spice names, claims, cards, short names, hints, result sentences and press notices.

One module, so a sentence is worded once and kv rules import it from here
(``#:import spice_name companion.ui.words.spice_name``). Each function takes
the table model's facts (``companion.table.model``) and says them in the chosen
language; nothing here works out a rule.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import NamedTuple

from companion.buzzers import format_delay
from companion.buzzers.arbiter import EARLY, OWN_CARD, STUCK
from companion.rules import Card, EndReason, Situation
from companion.table.session import minutes_played
from companion.table.link import Press
from companion.table.model import Hint, Outcome
from companion.ui.bidi import Named, Whole, named
from companion.ui.i18n import tr


def spice_name(spice: str, _: Callable[[str], str] = tr._) -> str:
    """A spice as the table says it, in the chosen language.

    A kv rule passes ``tr._`` so that it reads it, and a language switch runs the rule again.
    """
    names = {
        "chili": tr._("Chili"),
        "wasabi": tr._("Wasabi"),
        "pepper": tr._("Pepper"),
        "lemon": tr._("Lemon"),
        "salt": tr._("Salt"),
        "sugar": tr._("Sugar"),
        "garlic": tr._("Garlic"),
        "cinnamon": tr._("Cinnamon"),
    }
    return names.get(spice, spice)


def claim_words(spice: str, number: int | None) -> str:
    return spice_name(spice) if number is None else f"{spice_name(spice)} {number}"


def card_words(card: Card) -> str:
    if card.wild == "wild-spice":
        return tr._("Wild spice")
    if card.wild == "wild-number":
        return tr._("Wild number")
    assert card.spice is not None
    return claim_words(card.spice, card.number)


class Sentence(NamedTuple):
    """A sentence with names in it, kept as a template so its names can give way to fit a box
    (``companion.ui.widgets.fit.fit_names``) while its words stay whole."""

    template: str
    names: Mapping[str, str]

    @property
    def text(self) -> str:
        """The sentence with every name whole, knowing where they are (``bidi.Named``)."""
        return named(self.template, self.names) if self.names else self.template


def sentence(template: str, names: Mapping[str, str], **words: object) -> Sentence:
    """``template`` with its other words filled in and its names left as fields; a word that knows the names in
    it (a ``bidi.Named``: a hint that names a seat) leaves them as fields too.

    >>> sentence("{winner} wins {n} cards", {"winner": "Ana"}, n=4)
    Sentence(template='{winner} wins 4 cards', names={'winner': 'Ana'})
    >>> sentence("{name} to play: {hint}", {"name": "Ana"}, hint=named("challenge {name}", {"name": "Ben 2"}))
    Sentence(template='{name} to play: challenge {hint_0}', names={'name': 'Ana', 'hint_0': 'Ben 2'})
    """
    names = dict(names)
    for field, word in words.items():
        if isinstance(word, Named) and word.names:
            words[field] = _fields(word, field, names)
    if not names:
        return Sentence(template.format(**words), {})  # final: braces in its words stay as they are
    return Sentence(template.format(**words, **{field: "{" + field + "}" for field in names}), names)


def _fields(word: Named, field: str, names: dict[str, str], whole: bool = False) -> str:
    """``word`` as a part of a template, each of its names a field of its own (``field_0``...) added to ``names``;
    ``whole``: kept whole when the sentence's other names are cut to fit (``Whole``)."""
    parts, at = [], 0
    for index, (start, end) in enumerate(word.names):
        names[f"{field}_{index}"] = Whole(word[start:end]) if whole else word[start:end]
        parts += [literal(word[at:start]), "{" + f"{field}_{index}" + "}"]
        at = end
    return "".join([*parts, literal(word[at:])])


def literal(text: str) -> str:
    """``text`` as a template's fixed words: its braces are not fields."""
    return text.replace("{", "{{").replace("}", "}}")


def joined(words: Sequence[str], separator: str, last: Sentence) -> Sentence:
    """Fixed words, then a sentence, one after another: one sentence whose names are ``last``'s, and those the
    words know (a ``bidi.Named``'s), kept whole.

    >>> joined(["20:00", "Spicy {x}"], " · ", Sentence("{w} won", {"w": "Ana"}))
    Sentence(template='20:00 · Spicy {{x}} · {w} won', names={'w': 'Ana'})
    >>> joined([named("{t}", {"t": "Table 3"})], " · ", Sentence("{w}", {"w": "Ana"}))
    Sentence(template='{word0_0} · {w}', names={'w': 'Ana', 'word0_0': 'Table 3'})
    """
    names = dict(last.names)
    parts = [_fields(word, f"word{index}", names, whole=True) if isinstance(word, Named) and word.names
             else literal(word) for index, word in enumerate(words)]
    if not names:
        return Sentence(separator.join([*words, last.template]), {})
    return Sentence(separator.join([*parts, last.template]), names)


def listing(items: Sequence[tuple[str, str]], separator: str) -> Sentence:
    """Names, each followed by its words ("Ana +12", "Ben −3"), in a row: a sentence whose names give way.

    >>> listing([("Ana", " +12"), ("Ben", "")], ", ")
    Sentence(template='{name0} +12, {name1}', names={'name0': 'Ana', 'name1': 'Ben'})
    """
    names = {f"name{i}": name for i, (name, _words) in enumerate(items)}
    return Sentence(separator.join("{" + field + "}" + literal(words) for field, (_n, words) in zip(names, items,
                                                                                                     strict=True)),
                    names)


def choose_spice_words(name: str) -> str:
    """A number tapped on a new stack before any spice: the seat names the spice first (a toast wraps,
    so the name stays whole)."""
    return named(tr._("{name}: choose a spice first, then its number"), {"name": name})


def length_words(length: timedelta) -> str:
    """How long a game lasted, as the end screen says it: to the minute, hours past the hour.

    >>> length_words(timedelta(minutes=42, seconds=20)), length_words(timedelta(hours=1, minutes=5))
    ('Played for 42 min', 'Played for 1 h 05')
    """
    minutes = minutes_played(length)
    if minutes < 60:
        return tr.ngettext("Played for {minutes} min", "Played for {minutes} min", minutes).format(minutes=minutes)
    return tr._("Played for {hours} h {minutes}").format(hours=minutes // 60, minutes=f"{minutes % 60:02d}")


def pile_words(level: str, end_card: bool, _: Callable[[str], str] = tr._) -> str:
    """The line under the draw pile's count: how near the World's End card is, or that the pile is reshuffled
    (a kv rule passes ``tr._``, as for ``spice_name``)."""
    if not end_card:
        return tr._("then the pile is reshuffled")
    return {"danger": tr._("World's End next!"), "warning": tr._("World's End is near")}.get(
        level, tr._("before World's End"))


def end_reason_text(reason: str | None) -> str:
    """Why the game ended, the same on the end screen and in the saved games ("" while it goes on)."""
    words: dict[str, str] = {
        EndReason.SECOND_TROPHY: tr._("A second trophy wins outright."),
        EndReason.ALL_TROPHIES: tr._("The last trophy was taken."),
        EndReason.END_CARD: tr._("The World's End card showed."),
        EndReason.EMPTY_HAND: tr._("An empty hand wins."),
    }
    return words.get(reason or "", "")


def winner_words(names: Sequence[str]) -> Sentence:
    """Who won, as the end screen's title says it (and the table aloud)."""
    if len(names) == 1:
        return sentence(tr._("{name} wins!"), {"name": names[0]})
    fields = {f"name{i}": name for i, name in enumerate(names)}
    together = tr._(" and ").join("{" + field + "}" for field in fields)
    return Sentence(tr._("{names} share the win!").format(names=together), fields)


def numbers_words(numbers: Sequence[int]) -> str:
    """Numbers as the hint reads them: "1, 2 or 3", "7 to 10", "1, 2, 3, 9 or 10"."""
    listed = [str(n) for n in numbers]
    if len(listed) > 3 and list(numbers) == list(range(numbers[0], numbers[-1] + 1)):
        return tr._("{low} to {high}").format(low=listed[0], high=listed[-1])
    if len(listed) == 1:
        return listed[0]
    return tr._("{items} or {last}").format(items=tr._(", ").join(listed[:-1]), last=listed[-1])  # 1、2か3, ۱، ۲ یا ۳


def hint_words(hint: Hint, names: Sequence[str]) -> str:
    """What the seat to play may do, in words."""
    if hint.seat is None:
        return ""
    if not hint.numbered:
        if hint.may_challenge is not None:
            return named(tr._("Play a card, draw, or challenge {name}"), {"name": names[hint.may_challenge]})
        return tr._("Play a card naming a spice, or draw")
    if not hint.claims:  # an empty hand can only pass; while a challenge waits, nothing is played
        return tr._("No card to play: pass") if hint.may_pass else tr._("once the challenge is decided")
    if hint.any_claim:
        return tr._("1, 2 or 3 of any spice, or pass") if hint.may_pass else tr._("1, 2 or 3 of any spice")
    claims = claims_words(hint.claims)
    return tr._("{claims}, or pass").format(claims=claims) if hint.may_pass else claims


def claims_words(claims: Sequence[tuple[str, Sequence[int]]]) -> str:
    """The claims a seat may say, spice by spice: "Chili 8, 9 or 10 or Pepper 1, 2 or 3"."""
    words = [
        tr._("{spice} {numbers}").format(spice=spice_name(spice), numbers=numbers_words(numbers))
        for spice, numbers in claims
    ]
    return tr._(" or ").join(words)


def situation_words(now: Situation, names: Sequence[str]) -> list[Sentence]:
    """The situation at the table as "How to play" opens on it: what is on the stack and what may be said,
    then who may still challenge the card on top. Its facts are the rules' (``companion.rules.situation``)."""
    if now.seat is None:
        return [Sentence(tr._("The game is over."), {})]
    if now.challenge_waiting:
        return [Sentence(tr._("A challenge is waiting: turn the card over, or tell who was right."), {})]
    lines = [Sentence(_stack_words(now), {})]
    if now.challenged is not None:
        seat = names[now.challenged]
        if now.numbered:
            lines.append(sentence(tr._("Until {next} plays or passes, any other seat may challenge {name}'s card."),
                                  {"name": seat, "next": names[now.seat]}))
        else:
            lines.append(sentence(tr._("Only {next} may challenge {name}'s card, as its turn."),
                                  {"name": seat, "next": names[now.seat]}))
    return lines


def _stack_words(now: Situation) -> str:
    """What lies on the stack, then what the seat to play may do on it."""
    claim = now.claim
    if not now.numbered:
        where = (tr._("{claim} on the pile").format(claim=spice_name(claim.spice)) if claim is not None
                 else tr._("A face-up card starts the pile"))
        return tr._("{where}: name any spice, or draw 1").format(where=where)
    where = (tr._("{claim} on the stack").format(claim=claim_words(claim.spice, claim.number)) if claim is not None
             else tr._("A new stack"))
    if not now.claims:
        return tr._("{where}: no card in hand, so pass").format(where=where)
    claims = tr._("1, 2 or 3 of any spice") if now.any_claim else claims_words(now.claims)
    if now.may_pass:
        return tr._("{where}: say {claims}, or pass").format(where=where, claims=claims)
    return tr._("{where}: say {claims}").format(where=where, claims=claims)


@dataclass(frozen=True)
class Result:
    """A decided challenge in words and counts, for the result sheet."""

    title: str
    detail: Sentence
    spice: str
    number: int | None
    card: Card | None
    winner: int
    loser: int
    starter: int | None
    hand_gain: tuple[int, ...]
    won_gain: tuple[int, ...]


def result_words(outcome: Outcome, names: Sequence[str]) -> Result:
    return Result(
        result_title(outcome), result_detail(outcome, names), outcome.spice, outcome.number, outcome.card,
        outcome.winner, outcome.loser, outcome.starter, outcome.hand_gain, outcome.won_gain,
    )


def result_title(outcome: Outcome) -> str:
    """What the card turned out to be, or who was right."""
    right, card = outcome.challenger_right, outcome.card
    if outcome.universal:
        return tr._("A universal card: it always survives.")
    if card is None:
        words = tr._("the challenger was right.") if right else tr._("the challenger was wrong.")
        return verdict(claim_words(outcome.spice, outcome.number), words)
    if outcome.attribute == "spice":
        words = tr._("the spice was a lie.") if right else tr._("the spice was true.")
    elif outcome.attribute == "number":
        words = tr._("the number was a lie.") if right else tr._("the number was true.")
    else:
        words = tr._("the claim was a lie.") if right else tr._("the claim was true.")
    return verdict(card_words(card), words)


def verdict(claim: str, words: str) -> str:
    """The card or the claim, then what it turned out to be; the catalogue holds the colon and its spacing
    (French puts a narrow no-break space before it)."""
    return tr._("{claim}: {verdict}").format(claim=claim, verdict=words)


def result_detail(outcome: Outcome, names: Sequence[str]) -> Sentence:
    """Who wins what, who draws, who starts next."""
    said = {"winner": names[outcome.winner], "loser": names[outcome.loser]}
    starter, ended = outcome.starter, outcome.ended
    parts: list[Sentence] = []
    if outcome.numbered:
        won = outcome.won_gain[outcome.winner]
        wins = sentence(tr.ngettext("{winner} wins {n} card", "{winner} wins {n} cards", won), said, n=won)
        draws = sentence(tr._("{loser} draws {n}"), said, n=outcome.drawn)
        if starter == outcome.winner and not ended:
            wins = sentence(tr._("{winner} wins {n} cards and starts the next stack"), said, n=won)
        elif starter == outcome.loser and not ended:
            draws = sentence(tr._("{loser} draws {n} and starts the next stack"), said, n=outcome.drawn)
        parts.append(wins)
        if outcome.trophy:  # a last card survived: its player's trophy
            parts.append(sentence(tr._("{winner} takes a trophy"), said))
        parts.append(draws)
    else:
        drawn = outcome.hand_gain[outcome.loser] - 1
        parts.append(sentence(tr._("{loser} takes the card into hand and draws {n}"), said, n=drawn))
        if starter is not None and not ended:
            parts.append(sentence(tr._("{name} plays next"), {"name": names[starter]}))
    text = tr._("{clauses}.").format(clauses=tr._("; ").join(part.template for part in parts))
    if ended:
        text += " " + tr._("The game is over.")
    return Sentence(text, {field: name for part in parts for field, name in part.names.items()})


def delay(ms: float) -> str:
    """A buzz time as the table's language writes it: "+37 ms", "+37 мс"."""
    return format_delay(ms, unit=tr._("ms"))


def press_words(press: Press, names: Sequence[str]) -> str:
    """Why a buzzer press did not take the challenge, when the arbiter's reason says it all; else ""
    (the table then says who holds the challenge, or why the rules refuse one)."""
    said = {"name": names[press.seat]}
    if press.ahead_ms is not None:
        ahead = delay(press.ahead_ms).removeprefix("+")
        if press.winner is None:
            return named(tr._("Contested: {name} pressed {ahead} earlier, but the press came after the decision"),
                         said, ahead=ahead)
        return named(tr._("Contested: {name} pressed {ahead} before {winner}, but the press came after the decision; "
                          "{winner} challenges"), {**said, "winner": names[press.winner]}, ahead=ahead)
    if press.reason == OWN_CARD:
        return named(tr._("{name} played this card and cannot challenge it"), said)
    if press.reason == EARLY:
        return named(tr._("{name} pressed before the card was played: press again"), said)
    if press.reason == STUCK:
        return named(tr._("{name}'s buzzer is held down: let go and press again"), said)
    return ""


def too_late_words(name: str, challenger: str | None) -> str:
    if challenger is None:
        return named(tr._("{name} buzzed too late"), {"name": name})
    return named(tr._("{name} buzzed too late: {challenger} challenges"), {"name": name, "challenger": challenger})


def held_words(name: str) -> str:
    return named(tr._("{name}'s buzzer was held down: let go of it"), {"name": name})
