"""`spicy-companion replay`, run as the installed console script."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from cli_helpers import COMMAND

WORKED_EXAMPLE = """\
rules spicy
seats Ana Ben Cy
end-card 27          # deck = 100 - 18 - 27 = 55
play Ana chili 2     # Ana 5, stack 1
play Ben chili 6     # Ben 5, stack 2
challenge Cy spice
reveal pepper 6      # not chili: Cy wins 2 cards, Ben draws 2
"""


def replay(tmp_path: Path, text: str, *flags: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "game.txt"
    path.write_text(text, encoding="utf-8")
    return subprocess.run([COMMAND, "replay", str(path), *flags], capture_output=True, text=True, timeout=60)


def test_replay_worked_example_json(tmp_path: Path) -> None:
    done = replay(tmp_path, WORKED_EXAMPLE, "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["profile"] == "spicy" and data["ended"] is False and data["end_reason"] is None
    assert (data["turn"], data["stack"], data["claim"], data["deck"], data["trophies_left"]) == ("Ben", 0, None, 53, 3)
    assert [(s["name"], s["hand"], s["won"], s["trophies"], s["score"]) for s in data["seats"]] == [
        ("Ana", 5, 0, 0, -5), ("Ben", 7, 0, 0, -7), ("Cy", 6, 2, 0, -4),
    ]
    assert data["winners"] == []


def test_replay_worked_example_readable_table(tmp_path: Path) -> None:
    done = replay(tmp_path, WORKED_EXAMPLE)
    assert done.returncode == 0
    rows = {line.split()[0]: line.split()[1:] for line in done.stdout.splitlines()[1:4]}
    assert rows == {"Ana": ["5", "0", "0", "-5"], "Ben": ["7", "0", "0", "-7"], "Cy": ["6", "2", "0", "-4"]}
    assert "draw pile 53" in done.stdout and "to play: Ben" in done.stdout


def test_replay_reads_standard_input() -> None:
    done = subprocess.run([COMMAND, "replay", "-", "--json"], input=WORKED_EXAMPLE, capture_output=True, text=True,
                          timeout=60)
    assert json.loads(done.stdout)["deck"] == 53


def test_replay_claim_and_end_in_json(tmp_path: Path) -> None:
    done = replay(tmp_path, "rules spicy\nseats Ana Ben\nplay Ana pepper 3\nplay Ben pepper 5\n", "--json")
    assert json.loads(done.stdout)["claim"] == {"spice": "pepper", "number": 5}
    ended = json.loads(replay(tmp_path, "rules spicy\nseats Ana Ben\npass Ana\nend-card-drawn\n", "--json").stdout)
    assert (ended["ended"], ended["end_reason"], ended["winners"], ended["turn"], ended["deck"]) == (
        True, "end-card", ["Ben"], None, 0
    )


BASE = "rules spicy\nseats Ana Ben Cy\n"


@pytest.mark.parametrize(
    ("body", "line", "reason"),
    [
        ("play Ana chili 2\nbluff Ben\n", 4, "unknown keyword 'bluff'"),
        ("pass Dee\n", 3, "no seat is named Dee"),
        ("play Ben chili 2\n", 3, "it is Ana's turn, not Ben's"),
        ("play Ana chili 2\nplay Ben wasabi 3\n", 4, "Ben must declare chili 3 to 10: the stack is chili and stands at 2"),
        ("play Ana chili 2\nchallenge Ana spice\n", 4, "Ana cannot challenge their own card"),
        ("play Ana chili 2\npass Ben\nchallenge Cy number\n", 5, "no card to challenge"),
        ("play Ana chili 2\nchallenge Cy\n", 4, "must name spice or number"),
        ("end-card-drawn\npass Ana\n", 4, "the game is over"),
    ],
)
def test_replay_bad_transcript_exits_2_with_line_and_reason(tmp_path: Path, body: str, line: int, reason: str) -> None:
    done = replay(tmp_path, BASE + body, "--json")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith(f"spicy-companion: line {line}: ")
    assert reason in done.stderr
    assert "Traceback" not in done.stderr


def test_replay_missing_file_is_a_clear_message(tmp_path: Path) -> None:
    done = subprocess.run([COMMAND, "replay", str(tmp_path / "nope.txt")], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "no file" in done.stderr and "Traceback" not in done.stderr

