"""The hardware folder tells the same story as the code: pins, protocol, udev name."""

from __future__ import annotations

import re
from pathlib import Path

from companion.buzzers import protocol
from companion.config import BuzzerConfig

ROOT = Path(__file__).resolve().parent.parent
HARDWARE = ROOT / "hardware"


def wiring_rows() -> list[list[str]]:
    text = (HARDWARE / "README.md").read_text(encoding="utf-8")
    return [
        [cell.strip() for cell in line.strip("|").split("|")]
        for line in text.splitlines()
        if re.match(r"\| \d \|", line)
    ]


SUGGESTED_LEDS = (17, 27, 22, 23, 24, 25)


def add_on_pins() -> dict[str, set[int]]:
    text = (HARDWARE / "README.md").read_text(encoding="utf-8")
    table = text.split("| add-on | BCM pins it takes |")[1].split("\n\n")[0]
    rows = [line.strip("|").split("|") for line in table.splitlines()[2:]]
    return {name.strip(): pin_numbers(pins) for name, pins in rows}


def pin_numbers(text: str) -> set[int]:
    """BCM numbers in a table cell: "7–11" is a range; "I²C", "3.5"" and "Pi 5" are not pins."""
    text = re.sub(r'I²[CS]|SPI0|\d+(\.\d+)?"|DAC\+|Display 2|A/B|MAX98357A|SRV05-4', "", text)
    pins: set[int] = set()
    for first, last in re.findall(r"\b(\d+)(?:–(\d+))?\b", text):
        pins.update(range(int(first), int(last or first) + 1))
    return pins


def test_wiring_table_matches_the_config_defaults() -> None:
    rows = wiring_rows()
    config = BuzzerConfig()
    assert [int(row[0]) for row in rows] == list(range(1, len(config.button_pins) + 1))
    assert tuple(int(row[1]) for row in rows) == config.button_pins
    assert tuple(int(row[3]) for row in rows) == SUGGESTED_LEDS
    assert config.led_pins == ()
    assert f"led_pins = {list(SUGGESTED_LEDS)}" in (HARDWARE / "README.md").read_text(encoding="utf-8")


def test_default_button_pins_are_free_beside_every_add_on_in_the_table() -> None:
    taken = add_on_pins()
    assert taken["SPI 3.5\" screens (Waveshare 3.5\" A/B, \"MHS35\", LCD-show)"] == {7, 8, 9, 10, 11, 17, 24, 25}
    assert taken["PWM audio (dtoverlay=audremap)"] == {12, 13}
    assert {18, 19, 21} <= taken["I²S amplifiers (MAX98357A, HiFiBerry MiniAmp, DAC HATs)"]
    assert set(BuzzerConfig().button_pins) & taken.pop("I²S microphones and ADC HATs") == {20}
    for add_on, pins in taken.items():
        assert not set(BuzzerConfig().button_pins) & pins, add_on


def test_wiring_table_matches_the_firmware_pins() -> None:
    firmware = (HARDWARE / "firmware" / "main.py").read_text(encoding="utf-8")
    rows = wiring_rows()
    buttons = tuple(int(row[5].removeprefix("GP")) for row in rows)
    leds = tuple(int(row[6].removeprefix("GP")) for row in rows)
    assert f"BUTTON_PINS = {buttons}" in firmware
    assert f"LED_PINS = {leds}" in firmware


def test_diagram_shows_every_default_pin() -> None:
    svg = (HARDWARE / "wiring.svg").read_text(encoding="utf-8")
    for row in wiring_rows():
        assert f">GPIO{row[1]} (pin {row[2]})<" in svg
        assert f">GPIO{row[3]} (pin {row[4]})<" in svg


def test_protocol_example_decodes_and_unwraps_as_the_text_says() -> None:
    text = (HARDWARE / "PROTOCOL.md").read_text(encoding="utf-8")
    example = text.split("```")[1].strip().splitlines()
    messages = [protocol.decode(line.encode()) for line in example]
    assert messages[0] == (protocol.HELLO, protocol.VERSION, 6, 0, 4294890000)
    clock = protocol.Unwrapper()
    presses = {m[1]: clock.unwrap(m[2]) for m in messages if m[0] == protocol.PRESS}
    assert presses[0] - presses[2] == 37_000
    assert presses[5] - presses[2] == 92_296
    assert "92.296 ms" in text


def test_udev_rule_gives_the_first_port_the_app_tries() -> None:
    rule = (ROOT / "systemd" / "99-spicy-buzzers.rules").read_text(encoding="utf-8")
    link = BuzzerConfig().serial_ports[0]
    assert link == "/dev/spicy-buzzers"
    assert 'SYMLINK+="spicy-buzzers"' in rule
    assert 'ATTRS{idVendor}=="2e8a"' in rule  # the Pico
