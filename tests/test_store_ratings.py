"""The kept ratings on a real SQLite file: after every way the past can change, what a full rebuild says."""

from __future__ import annotations

import itertools
import random
import sqlite3
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from sqlite_utils import Database
from store_helpers import KNOWN, undo_migrations_from

from companion.cli import main
from companion.random_play import random_game, random_setup
from companion.rules import Game, Undo, replay_transcript, write_transcript
from companion.table.session import Session
from companion.store import Recorded, Store
from companion.store.backup import backup, plan_restore, restore
from companion.store import ratings as ratings_module
from companion.store.ratings import Rating, ratings, rebuilt
from companion.store.simulate import recorded_games, simulate

START = datetime(2024, 1, 1, tzinfo=UTC)
BASE = 40
"""Games simulated an hour apart from ``START`` before each test's own."""
EARLIER = "2023-06-01T20:00:00.000+00:00"
"""Before every simulated game: a game started then is older than every rating kept."""
MIDDLE = "2024-01-01T12:30:00.000+00:00"
LATER = "2030-01-01T20:00:00.000+00:00"


def at(when: str) -> Callable[[], str]:
    return lambda: when


def known(names: dict[str, str] | None = None) -> str:
    """The known game (Cy wins, then Ben, then Ana), its seats renamed."""
    text = KNOWN
    for old, new in (names or {}).items():
        text = text.replace(old, new)
    return text


def recorded(text: str, started_at: str) -> Recorded:
    game = replay_transcript(text)
    return Recorded(game, started_at, [started_at] * len(game.log))


def kept_through(store: Store) -> list[tuple[str, int]]:
    """The last game the kept ratings include, as the file says; empty when none are kept."""
    return [tuple(row) for row in store.query("SELECT through_started_at, through_id FROM rating_state")]


def skills(found: list[Rating]) -> dict[str, tuple[float, float, int]]:
    return {r.name: (r.mu, r.sigma, r.games) for r in found}


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """Forty simulated games, and Dot's only game (with Ben and Eve) in their midst: Dot never met Ana."""
    path = tmp_path_factory.mktemp("ratings") / "games.db"
    with Store.open(path) as store:
        simulate(store, BASE, seed=3, start=START)
        store.save([recorded(known({"Ana": "Dot", "Cy": "Eve"}), MIDDLE)])
    return path.read_bytes()  # closed: the whole database, its WAL checkpointed into it


@pytest.fixture
def store(tmp_path: Path, games: bytes) -> Iterator[Store]:
    """A copy of ``games`` of the test's own, no rating kept yet."""
    path = tmp_path / "games.db"
    path.write_bytes(games)
    with Store.open(path) as opened:
        yield opened


# --- each change of the past -----------------------------------------------------------------------------


def a_new_game(store: Store, _folder: Path) -> None:
    """Played at the table, after every other."""
    game = replay_transcript(KNOWN)
    session = Session.new(store, game.setup, clock=at(LATER))
    for action in game.log:
        session.apply(action)


def an_older_game(store: Store, _folder: Path) -> None:
    store.save([recorded(known(), EARLIER)])


def an_older_game_left_unfinished(store: Store, _folder: Path) -> None:
    """Started before the ratings' last game and left unfinished: a restore brought it from another table."""
    whole = replay_transcript(KNOWN)
    store.save([Recorded(Game.replay(whole.setup, list(whole.log)[:3]), EARLIER, [EARLIER] * 3, arrived_at=EARLIER)])


def the_older_game_finished(store: Store, _folder: Path) -> None:
    (game_id,) = store.query("SELECT id FROM games WHERE started_at = ?", [EARLIER])[0]
    session = Session.resume(store, game_id, clock=at(LATER))
    assert session is not None
    for action in list(replay_transcript(KNOWN).log)[3:]:
        session.apply(action)
    assert session.state.ended


def a_rename(store: Store, _folder: Path) -> None:
    """Ana is Anna now, and a newcomer takes the name Ana: the two must not share a rating."""
    store.rename_player("Ana", "Anna")
    a_newcomer = known({"Ana": "Zed", "Ben": "Ana"})
    store.save([recorded(a_newcomer, LATER)])


def a_merge(store: Store, _folder: Path) -> None:
    store.merge_players("Dot", "Ana")


def the_merge_undone(store: Store, _folder: Path) -> None:
    assert store.undo_merge("Ana") == "Dot"


def a_retirement(store: Store, _folder: Path) -> None:
    store.retire_player("Ben")


def an_import(store: Store, folder: Path) -> None:
    """``games import`` of a transcript exported elsewhere, which names its (older) start."""
    path = folder / "game.txt"
    path.write_text(f"# spicy-companion game {uuid.uuid4()} started {EARLIER}\n" + known({"Ana": "Dot"}))
    assert main(["games", "import", str(path), "--db", str(store.path)]) == 0


def a_restore(store: Store, folder: Path) -> None:
    """Another table's games, some before ours and some among them, under the same names."""
    with Store.open(folder / "other.db") as other:
        other.save(recorded_games(6, 9, datetime(2023, 12, 31, 20, tzinfo=UTC)))
        (folder / "stick").mkdir()
        copy = backup(other, folder / "stick")
    assert restore(store, plan_restore(store, copy))


def an_end_undone(store: Store, _folder: Path) -> None:
    (game_id,) = store.query("SELECT id FROM games WHERE ended_at IS NOT NULL ORDER BY started_at DESC LIMIT 1")[0]
    session = Session.resume(store, game_id)
    assert session is not None
    session.apply(Undo())


def by_hand(sql: str) -> Callable[[Store, Path], None]:
    """An edit made by another program (sqlite3, Datasette), foreign keys off as sqlite3 leaves them."""

    def edit(store: Store, _folder: Path) -> None:
        with sqlite3.connect(store.path) as conn:
            assert conn.execute(sql).rowcount > 0
        conn.close()

    return edit


def a_game_set_aside_by_hand(store: Store, _folder: Path) -> None:
    """Its row moved to a table of its own, foreign keys off: its seats and scores are left behind."""
    with sqlite3.connect(store.path) as conn:
        conn.executescript("CREATE TABLE aside AS SELECT * FROM games WHERE id = 7; DELETE FROM games WHERE id = 7;")
    conn.close()


@dataclass(frozen=True)
class Change:
    apply: Callable[[Store, Path], None]
    past: bool
    """Whether it changes what the kept ratings come from, so they are worked out again."""
    before: Callable[[Store, Path], None] | None = None
    """What comes first, before the ratings are kept."""


CHANGES = {
    "a new game": Change(a_new_game, past=False),
    "an older game": Change(an_older_game, past=True),
    "an older game finished after newer ones": Change(the_older_game_finished, True, an_older_game_left_unfinished),
    "a rename": Change(a_rename, past=False),
    "a merge": Change(a_merge, past=True),
    "a merge undone": Change(the_merge_undone, past=True, before=a_merge),
    "a retirement": Change(a_retirement, past=False),
    "an import": Change(an_import, past=True),
    "a restore": Change(a_restore, past=True),
    "an end undone": Change(an_end_undone, past=True),
    "a score edited by hand": Change(by_hand("UPDATE scores SET winner = 1 - winner WHERE game_id = 5"), True),
    "a game deleted by hand": Change(by_hand("DELETE FROM games WHERE id = 7"), past=True),
    "a game moved by hand": Change(by_hand(f"UPDATE games SET started_at = '{EARLIER}' WHERE id = 30"), True),
    "a game put back by hand": Change(by_hand("INSERT INTO games SELECT * FROM aside"), True,
                                      before=a_game_set_aside_by_hand),
}


@pytest.mark.parametrize("name", CHANGES)
def test_the_kept_ratings_equal_a_full_rebuild_after(store: Store, tmp_path: Path, name: str) -> None:
    change = CHANGES[name]
    if change.before:
        change.before(store, tmp_path)
    before = ratings(store)  # kept from here on
    assert before == rebuilt(store) and kept_through(store)
    change.apply(store, tmp_path)
    assert bool(kept_through(store)) != change.past  # forgotten only when the past changed
    after = ratings(store)
    assert after == rebuilt(store)
    assert ratings(store) == after  # and kept so
    if change.past:  # so kept ratings that missed the change would be caught
        assert skills(after) != skills(before)


def test_ratings_are_kept_by_player_so_a_rename_moves_nothing(store: Store) -> None:
    before = skills(ratings(store))
    store.rename_player("Ana", "Anna")
    after = skills(ratings(store))
    assert after == {"Anna" if name == "Ana" else name: skill for name, skill in before.items()}


Rated = Callable[[Callable[[], object]], int]


@pytest.fixture
def rated(monkeypatch: pytest.MonkeyPatch) -> Rated:
    """How many games ``work`` rates: a count of the real rating steps it takes, each still taken."""

    def count(work: Callable[[], object]) -> int:
        games = [0]

        def rate(*args: object) -> None:
            games[0] += 1
            rate_one(*args)

        with monkeypatch.context() as patched:
            patched.setattr(ratings_module, "_rate", rate)
            work()
        return games[0]

    rate_one = ratings_module._rate
    return count


def test_only_the_games_after_the_kept_ones_are_rated(store: Store, rated: Rated) -> None:
    finished = store.query("SELECT count(*) FROM games WHERE ended_at IS NOT NULL")[0][0]
    assert rated(lambda: ratings(store)) == finished  # the first open rates every game, and keeps them
    assert rated(lambda: ratings(store)) == 0
    a_new_game(store, Path())
    simulate(store, 3, seed=4, start=START + timedelta(days=30))
    assert rated(lambda: ratings(store)) == 4
    assert kept_through(store) == store.query("SELECT started_at, id FROM games ORDER BY started_at DESC LIMIT 1")
    assert rated(lambda: ratings(store)) == 0


def test_a_database_from_before_the_kept_ratings_gets_them_at_the_first_open(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        simulate(store, 12, seed=2, start=START)
        expected = rebuilt(store)
    with Database(path) as db:
        undo_migrations_from(db.conn, "m016_kept_ratings")
        assert "rating_state" not in db.table_names()
    with Store.open(path) as store:
        assert not kept_through(store)
        assert ratings(store) == expected and kept_through(store)


# --- damage, crashes, locks --------------------------------------------------------------------------


@pytest.mark.parametrize("damage", [
    "UPDATE player_ratings SET mu = mu + 1 WHERE player_id = 2",  # plausible, and wrong
    "UPDATE player_ratings SET sigma = 'unsure' WHERE player_id = 2",
    "UPDATE player_ratings SET games = games + 1",
    "DELETE FROM player_ratings WHERE player_id = 3",  # a player lost
    "INSERT INTO player_ratings VALUES (999, 40.0, 1.0, 3)",  # a stranger
    "UPDATE rating_state SET through_id = through_id - 3",  # would fold three games twice
    "UPDATE rating_state SET checksum = 'x'",
    "INSERT INTO rating_state SELECT * FROM rating_state",  # two last games
    "DELETE FROM rating_state",  # ratings without their last game
])
def test_a_kept_rating_edited_or_damaged_is_worked_out_again(store: Store, rated: Rated, damage: str) -> None:
    ratings(store)
    by_hand(damage)(store, Path())
    assert ratings(store) == rebuilt(store)
    assert len(kept_through(store)) == 1 and rated(lambda: ratings(store)) == 0  # kept whole again


CRASH_CHILD = """
import os, signal, sys
from pathlib import Path
from companion.store import Store
from companion.store.ratings import ratings

store = Store.open(Path(sys.argv[1]))
conn, after = store.db.conn, int(sys.argv[2])
start = conn.total_changes

def crash():
    if conn.in_transaction and conn.total_changes - start >= after:
        os.kill(os.getpid(), signal.SIGKILL)  # the power cut: mid-way through keeping the ratings
    return 0

conn.set_progress_handler(crash, 1)
ratings(store)
"""


@pytest.mark.parametrize("after", [1, 15, 29])  # of 30: the old rows deleted, then the new written
def test_a_crash_while_the_ratings_are_kept_leaves_them_as_they_were(store: Store, rated: Rated, after: int) -> None:
    """The app is killed after ``after`` rows of the new kept ratings are written, before they are committed."""
    ratings(store)
    kept = kept_through(store)
    simulate(store, 5, seed=4, start=START + timedelta(days=30))
    child = subprocess.run([sys.executable, "-c", CRASH_CHILD, str(store.path), str(after)], timeout=60)
    assert child.returncode == -9  # killed, never committed
    with Store.open(store.path) as again:
        assert kept_through(again) == kept  # as they were: the old games' ratings, and their checksum
        assert rated(lambda: ratings(again)) == 5  # still good: only the new games are rated
        assert ratings(again) == rebuilt(again)


def test_a_locked_database_gives_the_ratings_without_keeping_them(store: Store) -> None:
    ratings(store)
    kept = kept_through(store)
    a_new_game(store, Path())
    other = sqlite3.connect(store.path)
    other.execute("BEGIN IMMEDIATE")  # another program writing: the write lock is theirs
    try:
        assert ratings(store) == rebuilt(store)
    finally:
        other.rollback()
        other.close()
    assert kept_through(store) == kept  # not kept, nothing raised
    assert ratings(store) == rebuilt(store) and kept_through(store) != kept  # kept once the lock is free


def test_a_game_saved_by_another_program_while_the_list_reads_is_not_lost(store: Store) -> None:
    """While the ratings are read, another program saves a game between the kept ones' last and the newest:
    the ratings worked out from before that save must not be kept as if they included it."""
    ratings(store)
    simulate(store, 3, seed=5, start=START + timedelta(days=30))
    conn = store.db.conn
    saved: list[int] = []

    def another_program_saves() -> int:
        if conn.in_transaction and not saved:
            with Store.open(store.path) as other:
                saved.extend(other.save([recorded(known(), "2024-01-20T20:00:00.000+00:00")]))
        return 0

    conn.set_progress_handler(another_program_saves, 50)
    try:
        ratings(store)
    finally:
        conn.set_progress_handler(None, 50)
    assert saved
    assert ratings(store) == rebuilt(store)


def test_a_file_that_cannot_be_written_gives_the_ratings_without_keeping_them(tmp_path: Path) -> None:
    """A newer version's file is read, never written: its ratings are worked out at each open."""
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        simulate(store, 12, seed=2, start=START)
        ratings(store)
        simulate(store, 3, seed=6, start=START + timedelta(days=30))
        kept, expected = kept_through(store), rebuilt(store)
        store.db.execute("PRAGMA user_version = 99")
    with Store.open(path) as store:
        assert store.cannot_save
        assert ratings(store) == expected
        assert kept_through(store) == kept


# --- random sequences of changes ------------------------------------------------------------------------

OLDEST = datetime(2023, 6, 1, tzinfo=UTC)


def stamp(moment: datetime) -> str:
    return moment.isoformat(timespec="milliseconds")


def newest(store: Store) -> datetime:
    return datetime.fromisoformat(store.query("SELECT max(started_at) FROM games")[0][0])


def sometime(store: Store, rng: random.Random) -> str:
    """Any moment from before every game to an hour after the newest."""
    span = (newest(store) - OLDEST).total_seconds() + 3600
    return stamp(OLDEST + timedelta(seconds=rng.uniform(0, span)))


def random_recorded(store: Store, rng: random.Random, started_at: str) -> Recorded:
    """A random game among the players here and two newcomers."""
    names = tuple(store.players()) + (f"New{rng.randrange(100)}", f"Other{rng.randrange(100)}")
    game = random_game(rng, random_setup(rng, tuple(dict.fromkeys(names))))
    return Recorded(game, started_at, [started_at] * len(game.log))


def step_new_game(store: Store, rng: random.Random, _folder: Path) -> None:
    store.save([random_recorded(store, rng, stamp(newest(store) + timedelta(hours=1)))])


def step_older_game(store: Store, rng: random.Random, _folder: Path) -> None:
    store.save([random_recorded(store, rng, sometime(store, rng))])


def step_rename(store: Store, rng: random.Random, _folder: Path) -> None:
    """A new name no player has yet: two steps may draw the same seed, and so the same name."""
    players = store.players()
    taken = set(players)
    name = next(f"Renamed{n}" for n in itertools.count(rng.randrange(1000)) if f"Renamed{n}" not in taken)
    store.rename_player(rng.choice(players), name)


def step_merge(store: Store, rng: random.Random, _folder: Path) -> None:
    apart = store.query(
        "SELECT one.name, two.name FROM players AS one, players AS two WHERE one.id != two.id AND NOT EXISTS"
        " (SELECT 1 FROM game_seats AS a JOIN game_seats AS b ON b.game_id = a.game_id"
        " WHERE a.player_id = one.id AND b.player_id = two.id) ORDER BY 1, 2")
    if apart:
        store.merge_players(*rng.choice(apart))


def step_undo_merge(store: Store, _rng: random.Random, _folder: Path) -> None:
    for name in store.players():
        if store.merge_to_undo(name):
            store.undo_merge(name)


def step_retire(store: Store, rng: random.Random, _folder: Path) -> None:
    name = rng.choice(store.players())
    store.retire_player(name, retired=name not in store.recent_players(retired=False))


def step_import(store: Store, rng: random.Random, folder: Path) -> None:
    game = random_recorded(store, rng, sometime(store, rng))
    path = folder / "import.txt"
    path.write_text(f"# spicy-companion game {uuid.UUID(int=rng.getrandbits(128))} started {game.started_at}\n"
                    + write_transcript(game.game.setup, game.game.log))
    assert main(["games", "import", str(path), "--db", str(store.path)]) == 0


def step_restore(store: Store, rng: random.Random, folder: Path) -> None:
    """Another table's games at any time, under names of ours and of its own."""
    with Store.open(folder / "other.db") as other:
        other.save([random_recorded(store, rng, sometime(store, rng)) for _ in range(3)])
        stick = folder / "stick"
        stick.mkdir(exist_ok=True)
        copy = backup(other, stick)
    restore(store, plan_restore(store, copy))


def step_end_undone(store: Store, rng: random.Random, _folder: Path) -> None:
    ended = store.query("SELECT id FROM games WHERE ended_at IS NOT NULL ORDER BY id")
    session = Session.resume(store, rng.choice(ended)[0])
    assert session is not None
    session.apply(Undo())


def step_edit_by_hand(store: Store, rng: random.Random, _folder: Path) -> None:
    (game_id, seat) = rng.choice(store.query("SELECT game_id, seat FROM scores ORDER BY 1, 2"))
    by_hand(f"UPDATE scores SET winner = 1 - winner, score = score + 3 WHERE game_id = {game_id} AND seat = {seat}")(
        store, Path())


STEPS = {
    "new game": step_new_game, "older game": step_older_game, "rename": step_rename, "merge": step_merge,
    "merge undone": step_undo_merge, "retire": step_retire, "import": step_import, "restore": step_restore,
    "end undone": step_end_undone, "edit by hand": step_edit_by_hand,
}


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(st.tuples(st.sampled_from(sorted(STEPS)), st.integers(0, 2**32)), min_size=1, max_size=8))
@example(steps=[("rename", 1), ("merge", 1), ("rename", 1)])  # one seed twice, one new name twice
@example(steps=[("merge", 2), ("restore", 0), ("merge undone", 0)])  # the restore takes the merged one's id
def test_the_kept_ratings_equal_a_full_rebuild_after_every_step_of_any_sequence(
        tmp_path_factory: pytest.TempPathFactory, steps: list[tuple[str, int]]) -> None:
    folder = tmp_path_factory.mktemp("steps")
    with Store.open(folder / "games.db") as store:
        simulate(store, 8, seed=1, start=START)
        for name, seed in steps:
            ratings(store)  # kept before each step
            STEPS[name](store, random.Random(seed), folder)
            assert ratings(store) == rebuilt(store), name
