"""The review's queries on a real SQLite file filled by ``simulate``, checked against the games replayed."""

from __future__ import annotations

from collections import Counter, defaultdict
from itertools import groupby
from dataclasses import replace
from datetime import datetime, UTC
from pathlib import Path

import pytest
from openskill.models import PlackettLuce
from sqlite_utils import Database
from store_helpers import KNOWN, undo_migrations_from

from companion.rules import Challenge, EventKind, Play, ProfileId, replay_transcript, write_transcript
from companion.store import Store, StoreError
from companion.store.db import Recorded
from companion.store.ratings import Rating, ratings, rebuilt
from companion.store.facts import seat_facts
from companion.store.review import (
    AwardKind,
    Filter,
    GameLine,
    RecordKind,
    Status,
    count_games,
    figures,
    games_page,
    head_to_head,
    head_to_heads,
    nemesis,
    periods,
    player_lines,
    records,
    results,
    rival,
    score_race,
    timeline,
    tonight,
)
from companion.store.simulate import simulate

GAMES = 60


@pytest.fixture(scope="module")
def path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Sixty random games an hour apart from late October, so they span two months; a few left unfinished."""
    path = tmp_path_factory.mktemp("review") / "games.db"
    with Store.open(path) as store:
        simulate(store, GAMES, 7, datetime(2026, 10, 30, 12, tzinfo=UTC))
        at = "2026-11-30T20:00:00.000+00:00"
        game = replay_transcript("rules spicy\nseats Ana Ben\nplay Ana chili 1\n")
        store.save([Recorded(game, at, [at])])
        store.save([Recorded(game, "2026-11-30T21:00:00.000+00:00", [at])])
        store.abandon(store.unfinished_game() or 0, "2026-11-30T22:00:00.000+00:00")  # the newest: given up
    return path


@pytest.fixture
def store(path: Path) -> Store:
    with Store.open(path) as store:
        yield store


def replayed(store: Store) -> dict[int, object]:
    return {line.id: store.load(line.id).game() for line in games_page(store, limit=10_000)}


def test_pages_read_in_turn_give_every_game_newest_first_and_nothing_twice(store: Store) -> None:
    pages = [games_page(store, offset=offset, limit=7) for offset in range(0, GAMES + 7, 7)]
    ids = [line.id for page in pages for line in page]
    assert len(ids) == count_games(store) == GAMES + 2  # and the two games of 30 November
    starts = [line.started_at for page in pages for line in page]
    assert starts == sorted(starts, reverse=True) and len(set(ids)) == len(ids)


def test_a_line_holds_the_scores_winners_length_of_its_game(store: Store) -> None:
    for line in games_page(store, limit=10_000):
        saved = store.load(line.id)
        state = saved.game().state
        assert line.names == state.setup.names and line.profile == state.profile.id
        assert line.actions == len(saved.log)
        if state.ended:
            assert line.winners == tuple(state.name(i) for i in state.winners)
            assert line.scores == tuple(state.score(i) for i in range(len(state.seats)))
            assert line.minutes == round((datetime.fromisoformat(saved.ended_at)
                                          - datetime.fromisoformat(saved.started_at)).total_seconds() / 60)
        else:
            assert (line.scores, line.minutes) == ((), None)


@pytest.mark.parametrize("chosen", [
    Filter(player="Ana"), Filter(profile=ProfileId.FIVE_SPICES), Filter(period="2026-11"), Filter(period="2026"),
    Filter(period="2026-10"), Filter(status=Status.UNFINISHED), Filter(status=Status.FINISHED),
    Filter(status=Status.ABANDONED),
    Filter(player="Ben", profile=ProfileId.SPICY, status=Status.FINISHED),
], ids=repr)
def test_each_filter_keeps_exactly_the_games_it_names(store: Store, chosen: Filter) -> None:
    every = games_page(store, limit=10_000)

    def kept(line: object) -> bool:
        return ((chosen.player is None or chosen.player in line.names)
                and (chosen.profile is None or line.profile == chosen.profile)
                and (chosen.period is None or line.started_at.startswith(chosen.period))
                and (chosen.status is None or status(line) is chosen.status))

    def status(line: GameLine) -> Status:
        if line.abandoned_at:
            return Status.ABANDONED
        return Status.UNFINISHED if line.ended_at is None else Status.FINISHED

    wanted = [line.id for line in every if kept(line)]
    assert wanted, "the simulated games should hold some of each"
    assert [line.id for line in games_page(store, chosen, limit=10_000)] == wanted
    assert count_games(store, chosen) == len(wanted)


def test_december_of_one_year_ends_before_january_of_the_next(tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.db") as store:
        simulate(store, 3, 1, datetime(2026, 12, 31, 22, tzinfo=UTC))
        assert [count_games(store, Filter(period=p)) for p in ("2026-12", "2027-01", "2026", "2027")] == [2, 1, 2, 1]
        assert periods(store) == ["2027-01", "2026-12"]


def test_the_timeline_is_what_games_show_prints_and_the_score_race_ends_on_the_final_scores(store: Store) -> None:
    for line in games_page(store, Filter(status=Status.FINISHED), limit=10):
        saved = store.load(line.id)
        game = saved.game()
        moments = timeline(saved, game)
        assert moments[-1].event.kind == EventKind.END
        kinds = Counter(m.event.kind for m in moments)
        assert kinds[EventKind.CHALLENGE] == sum(isinstance(s.move, Challenge) for s in game.steps())
        race = score_race(game)
        if not game.setup.profile.numbered:
            assert race == []
            continue
        assert len(race) == len(game.steps()) and len(set(race[0])) == 1  # every hand as dealt
        assert race[-1] == line.scores


def by_player_and_profile(store: Store) -> dict[tuple[str, str], list[tuple[object, int]]]:
    seats = defaultdict(list)
    for game in replayed(store).values():
        if game.state.ended:
            for i, name in enumerate(game.setup.names):
                seats[(name, game.setup.profile.id)].append((game, i))
    return seats


def test_figures_per_player_and_profile_equal_the_replayed_games(store: Store) -> None:
    expected = {}
    for (name, profile), seats in by_player_and_profile(store).items():
        scores = [game.state.score(i) for game, i in seats]
        made = Counter()
        declared = Counter()
        for game, i in seats:
            for step in game.steps():
                if isinstance(step.move, Challenge) and step.move.seat == i:
                    made[step.move.attribute] += 1
                if isinstance(step.move, Play) and step.move.seat == i:
                    declared[step.move.spice] += 1
        wins = sum(i in game.state.winners for game, i in seats)
        numbered = scores[0] is not None
        expected[(name, profile)] = (
            len(seats), wins, sum(scores) / len(scores) if numbered else None,
            max(scores) if numbered else None, sum(game.state.seats[i].trophies for game, i in seats),
            made["spice"], made["number"],
            min(declared, key=lambda spice: (-declared[spice], spice)) if declared else None,
        )
    found = {(f.name, f.profile): (f.games, f.wins, f.average_score, f.best_score, f.trophies, f.spice_challenges,
                                   f.number_challenges, f.favourite_spice) for f in figures(store)}
    assert found == expected
    assert {f.profile for f in figures(store, profile=ProfileId.FIVE_SPICES)} == {"five-spices"}
    assert all(f.average_score is None for f in figures(store, profile=ProfileId.FIVE_SPICES))


def test_figures_add_up_to_the_stats_table(store: Store) -> None:
    totals = defaultdict(Counter)
    for f in figures(store):
        totals[f.name].update(games=f.games, wins=f.wins, made=f.challenges_made, won=f.challenges_won,
                              caught=f.caught_bluffing, survived=f.survived_challenges)
        assert f.challenges_won == f.spice_challenges_won + f.number_challenges_won or f.profile == "five-spices"
    for p in store.stats():
        assert totals[p.name] == Counter(games=p.games, wins=p.wins, made=p.challenges_made, won=p.challenges_won,
                                         caught=p.caught_bluffing, survived=p.survived_challenges)


def test_results_head_to_head_rival_and_nemesis_follow_the_winners(store: Store) -> None:
    games = [game for game in replayed(store).values() if game.state.ended]
    beat = Counter()
    for game in games:
        won = {game.state.name(i) for i in game.state.winners}
        for a in won:
            for b in set(game.setup.names) - won:
                beat[(a, b)] += 1
    players = {name for game in games for name in game.setup.names}
    for name in players:
        played = [g for g in games if name in g.setup.names][::-1]  # oldest first
        for profile in {str(g.setup.profile.id) for g in played}:
            theirs = [name in {g.state.name(i) for i in g.state.winners} for g in played
                      if str(g.setup.profile.id) == profile]
            assert [r.won for r in results(store, name, profile)] == theirs
            assert [r.won for r in results(store, name, profile, last=3)] == theirs[-3:]  # the newest three
        beaten = {b: n for (a, b), n in beat.items() if a == name}
        beaten_by = {a: n for (a, b), n in beat.items() if b == name}
        found = rival(store, name)
        assert (found.name, found.times) == min(beaten.items(), key=lambda kv: (-kv[1], kv[0])) if beaten else not found
        found = nemesis(store, name)
        assert ((found.name, found.times) == min(beaten_by.items(), key=lambda kv: (-kv[1], kv[0]))
                if beaten_by else not found)
        for h in head_to_heads(store, name):
            together = sum(name in g.setup.names and h.other in g.setup.names for g in games)
            assert (h.games, h.wins, h.losses) == (together, beat[(name, h.other)], beat[(h.other, name)])
    assert head_to_head(store, "Ana", "Nobody").games == 0


def test_records_are_the_best_of_every_replayed_game(store: Store) -> None:
    best = Counter()
    for game in replayed(store).values():
        if not game.state.ended:
            continue
        for i in range(len(game.setup.names)):
            best["score"] = max(best["score"], game.state.score(i) or 0)
        for step in game.steps():
            for event in step.state.events:
                if event.kind in (EventKind.STACK_WON, EventKind.RAID):
                    best["stack"] = max(best["stack"], event.count)
    found = {r.kind: r.value for r in records(store)}
    assert found[RecordKind.HIGHEST_SCORE] == best["score"]
    assert found[RecordKind.BIGGEST_STACK] == best["stack"]
    longest = max(line.minutes for line in games_page(store, Filter(status=Status.FINISHED), limit=10_000))
    assert found[RecordKind.LONGEST_GAME] == longest


def test_games_that_ended_before_the_review_facts_get_them_from_their_logs(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        game = replay_transcript(KNOWN)
        store.save([Recorded(game, "2025-01-01T00:00:00.000+00:00", ["2025-01-01T00:10:00.000+00:00"] * len(game.log))])
        fresh = figures(store)
    with Database(path) as db:
        undo_migrations_from(db.conn, "m010_review")
    with Store.open(path) as store:
        assert figures(store) == fresh
    ana = {f.name: f for f in fresh}
    assert (ana["Cy"].spice_challenges, ana["Cy"].spice_challenges_won, ana["Ana"].number_challenges) == (1, 1, 1)
    assert ana["Ben"].favourite_spice == "chili"


# --- players: add, rename, merge, retire ------------------------------------------------


def exported(store: Store, game_id: int) -> str:
    saved = store.load(game_id)
    return write_transcript(saved.setup, (entry.action for entry in saved.log))


def test_a_rename_carries_every_game_figure_and_export_to_the_new_name(tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.db") as store:
        simulate(store, 20, 2, datetime(2026, 1, 1, tzinfo=UTC))
        before = {f.profile: f for f in figures(store, player="Ana")}
        ana_games = [line.id for line in games_page(store, Filter(player="Ana"), limit=100)]
        texts = {game_id: exported(store, game_id) for game_id in ana_games}
        rivals = rival(store, "Ana"), nemesis(store, "Ana")
        store.rename_player("Ana", "Anaïs")
        assert "Ana" not in store.players() and "Anaïs" in store.players()
        assert {f.profile: f for f in figures(store, player="Anaïs")} == {
            profile: replace(f, name="Anaïs") for profile, f in before.items()}
        assert [line.id for line in games_page(store, Filter(player="Anaïs"), limit=100)] == ana_games
        for game_id in ana_games:
            line = next(line for line in games_page(store, limit=100) if line.id == game_id)
            assert "Anaïs" in line.names and "Ana" not in line.names
            text = exported(store, game_id)
            assert "Anaïs" in text.split() and "Ana" not in text.split()
            assert [token if token != "Anaïs" else "Ana" for token in text.split()] == texts[game_id].split()
            again = replay_transcript(text).state
            assert [s.won for s in again.seats] == [s.won for s in replay_transcript(texts[game_id]).state.seats]
        assert (rival(store, "Anaïs"), nemesis(store, "Anaïs")) == rivals
        with pytest.raises(StoreError, match="already a player named Ben: merge the two instead"):
            store.rename_player("Anaïs", "Ben")


def test_a_merge_gives_one_player_both_histories_and_refuses_two_seats_at_one_game(tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.db") as store:
        at = "2026-02-01T20:00:00.000+00:00"
        first = replay_transcript(KNOWN)
        other = replay_transcript(KNOWN.replace("Ana", "Annie"))
        store.save([Recorded(first, at, [at] * len(first.log)), Recorded(other, at, [at] * len(other.log))])
        with pytest.raises(StoreError, match="Ben and Cy both sat at game #1"):
            store.merge_players("Ben", "Cy")
        store.merge_players("Annie", "Ana")
        assert "Annie" not in store.players()
        (ana,) = figures(store, player="Ana")
        assert (ana.games, ana.challenges_made, ana.number_challenges) == (2, 2, 2)
        assert [line.names for line in games_page(store)] == [("Ana", "Ben", "Cy")] * 2
        assert exported(store, 2) == exported(store, 1)
        assert head_to_head(store, "Ana", "Cy").games == 2
        ana_stats = next(p for p in store.stats() if p.name == "Ana")  # the kept totals follow the merge
        assert (ana_stats.games, ana_stats.challenges_made) == (2, 2)
        assert store.recent_players()[-1] != "Annie" and "Annie" not in store.recent_players()


def test_a_retired_player_keeps_their_games_and_can_come_back(tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.db") as store:
        game = replay_transcript(KNOWN)
        store.save([Recorded(game, "2026", ["2026"] * len(game.log))])
        store.add_player("Dee")
        store.retire_player("Cy")
        assert [p.name for p in player_lines(store)] == ["Ana", "Ben", "Dee"]
        assert [(p.name, p.games, p.wins) for p in player_lines(store, retired=True)] == [("Cy", 1, 1)]
        assert figures(store, player="Cy")[0].wins == 1
        assert "Cy" not in store.recent_players()  # set-up's regulars
        assert "Cy" in store.recent_players(retired=True)  # the saved games' filter still finds Cy's games
        store.retire_player("Cy", retired=False)
        assert "Cy" in [p.name for p in player_lines(store)] and "Cy" in store.recent_players()
        with pytest.raises(StoreError, match="there is no player named Zed"):
            store.retire_player("Zed")


# --- ratings -------------------------------------------------------------------------


def test_ratings_rank_the_winner_up_shrink_with_games_and_are_rebuilt_alike(store: Store) -> None:
    found = ratings(store)
    assert found == ratings(store) == rebuilt(store)  # kept, and what the games say
    played = Counter(name for game in replayed(store).values() if game.state.ended for name in game.setup.names)
    assert {r.name: r.games for r in found} == played
    assert [r.ordinal for r in found] == sorted((r.ordinal for r in found), reverse=True)
    assert all(r.sigma < 25 / 3 for r in found)  # every finished game made them surer


def test_a_two_player_game_moves_the_winner_up_and_a_rename_keeps_the_rating(tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.db") as store:
        game = replay_transcript(KNOWN)  # Cy wins; Ben (-5) finishes ahead of Ana (-6)
        store.save([Recorded(game, "2026", ["2026"] * len(game.log))])
        cy, ben, ana = ratings(store)
        assert (cy.name, ben.name, ana.name) == ("Cy", "Ben", "Ana")
        assert cy.mu > 25 > ana.mu and ben.mu > ana.mu
        store.rename_player("Cy", "Cyril")
        assert [(r.mu, r.sigma) for r in ratings(store)] == [(cy.mu, cy.sigma), (ben.mu, ben.sigma),
                                                               (ana.mu, ana.sigma)]


def ratings_as_first_written(store: Store) -> list[Rating]:
    """The ratings as first computed: a fresh rating object per seat, names joined on every row, all rows read
    at once. The truth the faster rebuild must equal to the last bit."""
    rows = store.query(
        "SELECT scores.game_id, players.name, scores.winner, coalesce(scores.score, 0)"
        " FROM scores JOIN games ON games.id = scores.game_id JOIN players ON players.id = scores.player_id"
        " ORDER BY games.started_at, games.id, scores.seat"
    )
    model = PlackettLuce()
    current: dict[str, tuple[float, float]] = {}
    played: dict[str, int] = {}
    for _game, group in groupby(rows, key=lambda row: row[0]):
        seats = [(name, bool(winner), score) for _id, name, winner, score in group]
        teams = [[model.rating(*current.get(name, (model.mu, model.sigma)), name=name)] for name, _w, _s in seats]
        ranks = [1 if won else 2 + sum(other > score for _n, w, other in seats if not w) for _n, won, score in seats]
        for name, [rated] in zip((name for name, _w, _s in seats), model.rate(teams, ranks=ranks), strict=True):
            current[name] = (rated.mu, rated.sigma)
            played[name] = played.get(name, 0) + 1
    found = [Rating(name, mu, sigma, played[name]) for name, (mu, sigma) in current.items()]
    return sorted(found, key=lambda r: (-r.ordinal, r.name))


def test_the_rebuild_equals_the_ratings_as_first_computed_over_hundreds_of_games(tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.db") as store:
        simulate(store, 300, 12, datetime(2025, 1, 1, tzinfo=UTC))  # every rules profile, some unfinished
        game = replay_transcript(KNOWN)
        store.save([Recorded(game, "2024-06-01T20:00:00.000+00:00", ["2024-06-01T20:00:00.000+00:00"]
                             * len(game.log))])  # saved last, played first: the order is by time, not by id
        store.rename_player("Ana", "Anna")
        assert ratings(store) == rebuilt(store) == ratings_as_first_written(store)
        assert len(ratings(store)) > 5


# --- tonight -------------------------------------------------------------------------


def test_tonight_is_the_newest_evening_with_its_leaderboard_and_awards(tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.db") as store:
        simulate(store, 6, 8, datetime(2026, 3, 1, 18, tzinfo=UTC))  # last night, an hour apart
        ids = simulate(store, 5, 9, datetime(2026, 3, 2, 19, tzinfo=UTC))  # tonight, a day later
        evening = tonight(store)
        assert evening is not None and sorted(evening.games) == ids
        games = [store.load(game_id).game() for game_id in ids]
    totals: dict[str, Counter] = defaultdict(Counter)
    for game in games:
        state = game.state
        facts = seat_facts(game)
        for i, name in enumerate(game.setup.names):
            totals[name].update(games=1, wins=int(i in state.winners), points=state.score(i) or 0,
                                trophies=state.seats[i].trophies, won=facts[i].challenge.challenges_won,
                                caught=facts[i].challenge.caught_bluffing,
                                cards=sum(facts[i].review.declared.values()))
    assert {s.name: (s.games, s.wins, s.points, s.trophies, s.challenges_won, s.caught_bluffing, s.cards_played)
            for s in evening.standings} == {
        name: tuple(t[k] for k in ("games", "wins", "points", "trophies", "won", "caught", "cards"))
        for name, t in totals.items()}
    assert [(s.wins, s.points) for s in evening.standings] == sorted(
        ((s.wins, s.points) for s in evening.standings), reverse=True)
    given = {a.kind: a.name for a in evening.awards}
    bluffers = {n: t["caught"] / t["cards"] for n, t in totals.items() if t["cards"]}
    assert bluffers[given[AwardKind.BEST_BLUFFER]] == min(bluffers.values())
    assert totals[given[AwardKind.SHARPEST_CHALLENGER]]["won"] == max(t["won"] for t in totals.values())
    assert totals[given[AwardKind.MOST_TROPHIES]]["trophies"] == max(t["trophies"] for t in totals.values())


def test_no_game_no_evening(tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.db") as store:
        assert tonight(store) is None
