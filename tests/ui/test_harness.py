"""The driver itself: a tap lands on the widget under it at every rotation, and nowhere else."""

from __future__ import annotations

from pathlib import Path

import pytest
from kivy.core.window import Window

from companion.ui.screens.home import HomeScreen
from companion.ui.widgets import PrimaryButton


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_a_tap_lands_on_its_button_at_every_rotation(ui, rotation: int) -> None:
    ui.start(size=(800, 480), rotation=rotation)
    taps: list[str] = []
    left = PrimaryButton(text="left", size_hint=(None, None), size=(120, 60), pos=(20, 20))
    right = PrimaryButton(text="right", size_hint=(None, None), size=(120, 60))
    right.right, right.top = Window.width - 20, Window.height - 20
    for button in (left, right):
        button.bind(on_release=lambda b: taps.append(b.text))
        Window.add_widget(button)
    try:
        ui.tap(right)
        ui.tap(left)
        ui.tap_at(Window.width / 2, 10)  # empty felt
        assert taps == ["right", "left"]
    finally:
        for button in (left, right):
            Window.remove_widget(button)


def test_the_app_opens_on_home_and_a_screenshot_shows_it(ui, tmp_path: Path) -> None:
    app = ui.start(size=(1280, 720))
    assert app.root.current == "home" and isinstance(app.root.current_screen, HomeScreen)
    shot = ui.screenshot(tmp_path / "home.png")
    from kivy.core.image import Image as CoreImage

    image = CoreImage(str(shot))
    assert image.size == (1280, 720)
