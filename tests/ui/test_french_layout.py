"""French on screen: no caption cut, no line of a toast starting with a sign that belongs to the line before."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from kivy.uix.label import Label

from companion.config import BuzzerConfig, UiConfig
from companion.ui.i18n import tr
from companion.ui.widgets.forms import Caption
from layouts import STANDING, sizes

@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    yield
    tr.switch("en")


def lines(label: Label) -> list[str]:
    label.texture_update()
    return ["".join(word.text for word in line.words) for line in label._label._cached_lines]


@pytest.mark.parametrize("size", sizes(STANDING))
def test_the_seats_caption_is_whole_in_french(ui, size: tuple[int, int]) -> None:
    app = ui.start(size=size, config=ui.config(ui=UiConfig(language="fr")))
    setup = app.screen("setup")
    app.show("setup")
    ui.step(2)
    setup.go("seats")
    ui.step(3)
    for caption in ui.find_all(Caption):
        label = caption.ids.caption
        assert "..." not in "".join(lines(label)), label.text  # what Kivy puts where it cuts
        assert label.texture_size[1] <= caption.height


@pytest.mark.parametrize("size", sizes(STANDING))
def test_no_line_of_a_french_toast_starts_with_punctuation(ui, tmp_path, size: tuple[int, int]) -> None:
    buzzers = BuzzerConfig(backend="auto", serial_ports=(str(tmp_path / "no-such-port"),))
    app = ui.start(size=size, config=ui.config(ui=UiConfig(language="fr"), buzzers=buzzers))
    message = app.toast.ids.message
    assert "les touches 1 2 3 4 5 6" in message.text
    shown = lines(message)
    assert len(shown) > 1
    assert not [line for line in shown if line.lstrip()[:1] in (";", ":", "!", "?", "»")], shown
