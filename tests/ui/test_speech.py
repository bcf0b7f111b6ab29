"""Spoken calls on the real app: espeak-ng (installed by scripts/test) makes each call as a WAV, Kivy's
audio plays it, in the table's language, and the UI thread never waits for it."""

from __future__ import annotations

import array
import os
import shutil
import subprocess
import time
import wave
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from kivy.base import EventLoop

from companion.config import UiConfig
from companion.languages import LANGUAGES
from companion.rules import SPICY, new_setup
from companion.ui import calls
from companion.ui.i18n import tr
from companion.ui.prefs import Prefs, default_prefs_path
from companion.ui.speech import SILENT
from companion.ui.widgets.claim_pad import NumberButton
from table_helpers import Table, within

ANA, BEN, CY = 0, 1, 2
NAMES = ["Ana", "Ben", "Cy"]
VOICES = {"en": "en", "fr": "fr", "de": "de", "nl": "nl", "ru": "ru"}
"""espeak-ng's voice for each language the table speaks today, written out here and not read from
companion/languages.py, so that a wrong voice there fails."""
SILENT_LANGUAGES = {"ja"}
"""Languages the table does not speak, on purpose: espeak-ng reads Japanese kanji as "Chinese letter"."""
ESPEAK = shutil.which("espeak-ng")
SLOW = 0.6
"""Seconds the slowed espeak-ng waits before it speaks: a frame that waited for it would hold that wait."""


def audio(path: Path) -> tuple[tuple[int, int, int], array.array[int]]:
    """A WAV's format (rate, channels, sample width) and its samples; fails on anything that is not one."""
    with wave.open(str(path)) as wav:
        form = wav.getframerate(), wav.getnchannels(), wav.getsampwidth()
        return form, array.array("h", wav.readframes(wav.getnframes()))


def spoken(voice: str, text: str, folder: Path) -> array.array[int]:
    """What espeak-ng says for ``text`` in ``voice``, run here by the test itself (at 22,050 Hz, mono)."""
    path = folder / "reference.wav"
    subprocess.run(["espeak-ng", "-v", voice, "-w", str(path), text], check=True)
    form, samples = audio(path)
    assert form == (22050, 1, 2)
    return samples


def speaking_table(ui, language: str = "en", profile=SPICY) -> Table:
    table = Table(ui, new_setup(profile, NAMES, first=ANA), settings=UiConfig(language=language, speech=True))
    table.app.speech.volume = 100
    return table


def all_made(ui, table: Table, seconds: float = 30.0) -> list[str]:
    """Frames until every call made ahead is made; the calls."""
    wanted = calls.ahead(NAMES, end_card=True)
    voice = table.app.speech.voice
    ui.until(lambda: all((voice, text) in table.app.speech.files for text in wanted), seconds)
    return wanted


@pytest.fixture
def slow_espeak(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """espeak-ng itself, first on PATH behind a wait of ``SLOW`` seconds; each wait's start and end (the
    clock's seconds) are a line of ``waits`` beside it."""
    assert ESPEAK is not None, "scripts/test installs espeak-ng"
    folder = tmp_path / "bin"
    folder.mkdir()
    wrapper = folder / "espeak-ng"
    wrapper.write_text(f"#!/bin/sh\nstart=$(date +%s.%N)\nsleep {SLOW}\n"
                       f"echo \"$start $(date +%s.%N)\" >> {folder / 'waits'}\nexec {ESPEAK} \"$@\"\n")
    wrapper.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    yield wrapper


def test_every_language_the_table_speaks_has_a_voice_espeak_ng_knows() -> None:
    assert ESPEAK is not None, "scripts/test installs espeak-ng"
    for row in LANGUAGES:
        if row.code in SILENT_LANGUAGES:
            assert row.voice == "", f"{row.code} is silent on purpose"
            continue
        listed = subprocess.run(["espeak-ng", f"--voices={row.voice}"], capture_output=True, text=True).stdout
        assert row.voice and len(listed.splitlines()) > 1, f"{row.code}: espeak-ng has no voice {row.voice!r}"
    assert {row.code: row.voice for row in LANGUAGES if row.code in VOICES} == VOICES


def test_a_japanese_table_with_speech_on_stays_silent_and_shows_every_call(ui) -> None:  # type: ignore
    """No voice: nothing is made or played, not even "Chinese letter", and the sheets still say the calls."""
    table = speaking_table(ui, "ja")
    speech = table.app.speech
    assert speech.enabled and not speech.speaking
    for number in (1, 2):
        table.declare("chili", number)
    table.buzz((CY, 0.0))
    ui.until(lambda: table.screen.sheet_name == "challenge")
    assert table.sheet().ids.title.text.startswith("Cyが")
    table.tap(table.sheet().ids.not_number)
    ui.step(3)
    assert speech.files == {} and speech.playing == ""


@pytest.mark.parametrize("language", sorted(VOICES))
def test_the_calls_made_ahead_are_wavs_in_the_voice_of_the_tables_language(ui, tmp_path, language) -> None:
    table = speaking_table(ui, language)
    wanted = all_made(ui, table)
    speech = table.app.speech
    assert speech.voice == VOICES[language]
    assert tr._("{name} challenges!").format(name="Ben") in wanted  # in the table's language
    for text in wanted:
        form, samples = audio(speech.files[(speech.voice, text)])
        seconds = len(samples) / (form[0] * form[1])
        assert form == (44100, 2, 2)  # the mixer's own: it loads without a conversion
        assert 0.3 < seconds < 1.0 + 0.12 * len(text), (text, seconds)
    sample = calls.challenge_call("Cy")
    said = audio(speech.files[(speech.voice, sample)])[1]
    assert said[0::4] == said[3::4] == spoken(VOICES[language], sample, tmp_path)  # each sample, 2 frames of 2
    if language != "en":
        assert said != spoken("en", sample, tmp_path)


def test_a_game_called_aloud_each_call_as_its_event_comes(ui) -> None:
    table = speaking_table(ui)
    view, screen, speech = table.view, table.screen, table.app.speech
    all_made(ui, table)
    for number in (1, 2, 3, 5):
        table.declare("chili", number)
    assert speech.playing == ""

    table.buzz((BEN, 0.0))
    ui.until(lambda: screen.sheet_name == "challenge")
    assert speech.playing == "Ben challenges!"  # made ahead: it started in the frame that showed the sheet
    ben = speech._playing
    table.tap(table.sheet().ids.not_number)
    assert speech.playing == "Not that number!" and ben is not None and ben[1].state == "stop"

    table.tap(within(table.sheet(), NumberButton, spice="chili", number=4))
    result = "Chili 4: the number was a lie. Ben wins 4 cards; Ana draws 2 and starts the next stack."
    assert calls.result_call(view.result) == result
    asked = time.monotonic()
    ui.until(lambda: speech.playing == result, 5)
    made_in = time.monotonic() - asked
    print(f"the result's call began {made_in * 1000:.0f} ms after the result")
    table.tap(table.sheet().ids.ok)

    table.declare("chili", 1)
    for number in (2, 3, 4, 5):
        table.declare("chili", number)
        table.pass_turn()
        table.pass_turn()
    table.declare("chili", 6)
    assert speech.playing == "Ben: last card!"
    table.pass_turn()
    view.set_draw_pile(6)
    assert view.end_level == "warning" and speech.playing == "World's End is near"
    view.set_draw_pile(2)
    assert view.end_level == "danger" and speech.playing == "World's End next!"
    view.undo()
    assert speech.playing == ""  # an undo stops the call in progress

    table.tap(screen.ids.draw_pile)
    table.tap(table.sheet().ids.end_card)
    assert view.ended and speech.playing == "The World's End card showed. Ben wins!"


def test_no_frame_waits_for_espeak_ng_and_a_late_sentence_gives_way_to_the_next_call(ui, slow_espeak,
                                                                                     monkeypatch) -> None:
    """espeak-ng slowed by ``SLOW`` seconds a sentence: had the UI thread run it, or waited for it, a frame
    would hold most of that wait. Which frames ran during which waits is compared, not how long a frame
    took: on a loaded machine any frame may take hundreds of milliseconds."""
    frames: list[tuple[float, float]] = []
    """When the UI thread ran a frame, or handled a touch (dispatched at once, between frames)."""

    def timed(work: Callable[..., object]) -> Callable[..., None]:
        def run(*args: object) -> None:
            start = time.time()
            work(*args)
            frames.append((start, time.time()))
        return run

    table = speaking_table(ui)
    view, screen, speech = table.view, table.screen, table.app.speech
    ui.step(5)  # the table's first frames, which make what it draws later
    monkeypatch.setattr(EventLoop, "idle", timed(EventLoop.idle))
    monkeypatch.setattr(EventLoop, "post_dispatch_input", timed(EventLoop.post_dispatch_input))
    assert speech.program == str(slow_espeak)
    for number in (1, 2, 3, 5):
        table.declare("chili", number)
    table.buzz((BEN, 0.0))
    ui.until(lambda: screen.sheet_name == "challenge")
    table.tap(table.sheet().ids.not_number)
    four = within(table.sheet(), NumberButton, spice="chili", number=4)
    table.tap(four)
    result = calls.result_call(view.result)
    table.tap(screen.ids.undo)  # before the result's sentence is made: when it is, it is not heard
    assert screen.sheet_name == "reveal"
    ui.until(lambda: (speech.voice, result) in speech.files, 10 + 30 * SLOW)  # behind one being made ahead
    ui.step(5)
    assert speech.playing == ""

    table.tap(four)  # the same result again: made, it is heard at once
    assert speech.playing == result

    waits = [tuple(map(float, line.split())) for line in (slow_espeak.parent / "waits").read_text().splitlines()]
    assert len(waits) >= 3, "calls were made while the frames were timed"
    held = max(min(end, wait_end) - max(start, wait_start) for start, end in frames for wait_start, wait_end in waits)
    print(f"{len(frames)} frames while espeak-ng waited {len(waits)} times: a frame held at most {held * 1000:.0f} ms"
          " of one wait")
    assert held < SLOW * 3 / 4, f"a frame held {held * 1000:.0f} ms of one of espeak-ng's {SLOW * 1000:.0f} ms waits"


def test_without_espeak_ng_the_table_says_once_that_it_is_silent(ui, tmp_path, monkeypatch) -> None:
    empty = tmp_path / "bin"
    empty.mkdir()
    with monkeypatch.context() as patch:
        patch.setenv("PATH", str(empty))
        table = speaking_table(ui)
    app, speech = table.app, table.app.speech
    assert app.notices.count(SILENT) == 1 and speech.program is None
    told: list[str] = []
    monkeypatch.setattr(app, "notify", lambda text, *args, **kwargs: told.append(text))
    for number in (1, 2, 3, 5):
        table.declare("chili", number)
    table.buzz((BEN, 0.0))
    ui.until(lambda: table.screen.sheet_name == "challenge")
    table.tap(table.sheet().ids.not_number)
    assert app.change_settings(speech=False) and app.change_settings(speech=True)
    assert speech.playing == "" and speech.files == {} and told == []


def test_speech_is_off_until_turned_on_and_its_volume_is_kept(ui) -> None:
    app = ui.start()
    assert not app.speech.enabled
    app.show("settings")
    ui.step(2)
    settings = app.screen("settings")
    assert [settings.ids[i].selected for i in ("speech_off", "speech_soft", "speech_medium", "speech_loud")] == [
        True, False, False, False]
    ui.tap(settings.ids.speech_soft)
    assert app.speech.enabled and app.speech.volume == 40 and settings.ids.speech_soft.selected
    ui.tap(settings.ids.speech_loud)
    assert app.speech.volume == 100 and not settings.ids.speech_soft.selected
    kept = Prefs(default_prefs_path(), UiConfig()).ui
    assert (kept.speech, kept.speech_volume) == (True, 100)
    ui.tap(settings.ids.speech_off)
    assert not app.speech.enabled and settings.ids.speech_off.selected


def test_the_next_game_and_another_language_let_the_old_sentences_go_and_a_few_results_are_kept(ui) -> None:
    table = speaking_table(ui)
    app, speech = table.app, table.app.speech
    first = all_made(ui, table)
    files = [speech.files[("en", text)] for text in first]
    assert app.change_settings(language="fr")
    french = calls.ahead(NAMES, end_card=True)
    assert speech.voice == "fr" and french != first
    ui.until(lambda: all(("fr", text) in speech.files for text in french), 30)
    assert not any(path.exists() for path in files) and set(speech.files) == {("fr", text) for text in french}

    said = [f"Résultat numéro {n}." for n in range(6)]
    for text in said:
        speech.say(text)
        ui.until(lambda text=text: speech.playing == text, 5)
    assert [key for key in speech.files if key[1] in said] == [("fr", text) for text in said[-3:]]

    app.start_game(new_setup(SPICY, ["Dee", "Eve"], first=0))
    ui.until(lambda: ("fr", calls.challenge_call("Eve")) in speech.files, 10)
    assert ("fr", calls.challenge_call("Ana")) not in speech.files


def test_a_tie_is_called_and_heard_as_both_seats_buzzes(ui) -> None:
    table = speaking_table(ui)
    all_made(ui, table)
    for number in (1, 2, 3, 5):
        table.declare("chili", number)
    table.buzz((BEN, 0.0), (CY, 0.0))
    ui.until(lambda: table.screen.sheet_name == "challenge")
    assert table.view.buzz.tie == (BEN, CY)
    assert table.sounds == ["buzz-1", "buzz-2"]  # each seat's colour's own buzz, together
    assert table.app.speech.playing == "A tie! Who challenges?"


@pytest.mark.parametrize("script", ["echo 'no voice here' >&2; exit 1", "echo 'not a WAV'"])
def test_an_espeak_ng_that_fails_or_says_garbage_costs_its_call_and_is_logged(ui, tmp_path, monkeypatch, caplog,
                                                                             script) -> None:
    folder = tmp_path / "bin"
    folder.mkdir()
    broken = folder / "espeak-ng"
    broken.write_text(f"#!/bin/sh\n{script}\n")
    broken.chmod(0o755)
    with monkeypatch.context() as patch:
        patch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
        table = speaking_table(ui)
    speech = table.app.speech
    assert speech.say("Ben challenges!")
    ui.until(lambda: speech._queue.empty() and "could not say 'Ben challenges!'" in caplog.text, 10)
    ui.step(3)
    assert speech.playing == "" and ("en", "Ben challenges!") not in speech.files
    assert table.app.notices.count(SILENT) == 0  # espeak-ng is there: not said to be missing
