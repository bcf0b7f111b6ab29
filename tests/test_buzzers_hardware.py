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


def test_wiring_table_matches_the_config_defaults() -> None:
    rows = wiring_rows()
    config = BuzzerConfig()
    assert [int(row[0]) for row in rows] == list(range(1, len(config.button_pins) + 1))
    assert tuple(int(row[1]) for row in rows) == config.button_pins
    assert tuple(int(row[3]) for row in rows) == config.led_pins


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
    assert messages[0] == (protocol.HELLO, protocol.VERSION, 6)
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
