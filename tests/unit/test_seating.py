"""Seating an evening (``scorekeeper.services.seating``): the tables for a head count, fair
proposals, partners rotated, locked pairs, kept tables, a progressive evening."""

import itertools
import random
import statistics

import pytest
from openskill.models import PlackettLuce

from scorekeeper.services import seating
from scorekeeper.services.seating import SeatingError

pytestmark = pytest.mark.timeout(60)

MODEL = PlackettLuce()


def skill_chances(skills):
    """Each team's chance, from openskill ratings of the players' skills (mu), as the app's."""
    ratings = {p: MODEL.rating(mu=mu, sigma=2.0) for p, mu in skills.items()}

    def chances(teams):
        return MODEL.predict_win([[ratings[p] for p in team] for team in teams])

    return chances


def seated(proposal):
    return sorted(p for table in proposal.tables for team in table for p in team)


@pytest.mark.parametrize("people", range(2, 25))
def test_every_head_count_from_2_to_24_gets_tables_that_seat_everyone(people):
    layout = seating.plan(people)
    assert sum(sum(table) for table in layout) == people
    assert 1 <= len(layout) <= seating.MAX_TABLES
    assert all(len(table) >= 2 for table in layout)
    if people % 4 == 0:
        assert layout == [[2, 2]] * (people // 4)


def test_the_written_rule_for_odd_head_counts():
    assert seating.plan(3) == [[1, 1, 1]]
    assert seating.plan(5) == [[1, 1, 1], [1, 1]]
    assert seating.plan(6) == [[2, 2, 2]]
    assert seating.plan(7) == [[2, 2], [1, 1, 1]]
    assert seating.plan(9) == [[2, 2, 2], [1, 1, 1]]
    assert seating.plan(10) == [[2, 2, 2], [2, 2]]


def test_a_chosen_number_of_tables_and_team_size():
    assert seating.plan(12, 2, tables=2) == [[2, 2, 2], [2, 2, 2]]
    assert seating.plan(12, 3, tables=2) == [[3, 3], [3, 3]]
    with pytest.raises(SeatingError, match="at least 2"):
        seating.plan(1)
    with pytest.raises(SeatingError, match="do not make teams of 2"):
        seating.plan(7, 2, tables=2)
    with pytest.raises(SeatingError, match="too few for 3 tables"):
        seating.plan(8, 2, tables=3)
    with pytest.raises(SeatingError, match="at most 24"):
        seating.plan(25)


def test_a_proposal_seats_everyone_once_in_the_layout_and_the_same_seed_gives_the_same():
    rng = random.Random(1)
    skills = {p: rng.uniform(15, 35) for p in range(1, 13)}
    layout = seating.plan(12)
    one = seating.arrange(list(skills), layout, skill_chances(skills), seed=3)
    assert seated(one) == list(range(1, 13))
    assert [[len(team) for team in table] for table in one.tables] == layout
    assert seating.arrange(list(skills), layout, skill_chances(skills), seed=3) == one
    assert all(abs(sum(c) - 1) < 1e-9 for c in one.chances)


def spread_of(tables, chances):
    return sum(max(c) - min(c) for c in (chances(t) for t in tables))


def random_split(players, layout, rng):
    players = list(players)
    rng.shuffle(players)
    tables, it = [], iter(players)
    for sizes in layout:
        tables.append([[next(it) for _ in range(size)] for size in sizes])
    return tables


@pytest.mark.parametrize("seed", range(5))
def test_a_proposal_is_closer_to_even_than_the_median_random_split(seed):
    rng = random.Random(seed)
    skills = {p: rng.gauss(25, 6) for p in range(1, 13)}
    chances = skill_chances(skills)
    layout = seating.plan(12)
    proposal = seating.arrange(list(skills), layout, chances, seed=seed)
    randoms = [spread_of(random_split(skills, layout, rng), chances) for _ in range(100)]
    assert proposal.spread < statistics.median(randoms)
    assert proposal.spread <= min(randoms) + 1e-9  # and as even as the best of a hundred


def test_the_second_game_repeats_no_partner_of_the_first_where_the_numbers_allow():
    rng = random.Random(7)
    skills = {p: rng.gauss(25, 6) for p in range(1, 13)}
    chances = skill_chances(skills)
    first = seating.arrange(list(skills), seating.plan(12), chances)
    partners = {pair for table in first.tables for team in table for pair in seating.pairs_of(team)}
    second = seating.arrange(list(skills), seating.plan(12), chances, avoid=partners, seed=1)
    assert second.repeats == 0
    assert (
        not {pair for table in second.tables for team in table for pair in seating.pairs_of(team)} & partners
    )


def test_locked_pairs_play_together_and_kept_tables_stay():
    skills = {p: 20 + p for p in range(1, 13)}
    chances = skill_chances(skills)
    first = seating.arrange(list(skills), seating.plan(12), chances, together=[(1, 12), (2, 3)])
    teams = [set(team) for table in first.tables for team in table]
    assert {1, 12} in teams and {2, 3} in teams
    kept = {1: first.tables[1]}
    again = seating.arrange(list(skills), seating.plan(12), chances, kept=kept, seed=5)
    assert again.tables[1] == first.tables[1] and seated(again) == list(range(1, 13))
    with pytest.raises(SeatingError, match="one partner only"):
        seating.arrange(list(skills), seating.plan(12), chances, together=[(1, 2), (2, 3)])
    with pytest.raises(SeatingError, match="teams of two or more"):
        seating.arrange([1, 2, 3], seating.plan(3), skill_chances({1: 1, 2: 2, 3: 3}), together=[(1, 2)])


def test_a_swap_puts_two_players_in_each_others_seats():
    tables = (((1, 2), (3, 4)), ((5, 6), (7, 8)))
    assert seating.swap(tables, 2, 7) == (((1, 7), (3, 4)), ((5, 6), (2, 8)))


def test_progressive_winners_move_up_losers_stay_everyone_splits():
    skills = dict.fromkeys(range(1, 13), 25)
    chances = skill_chances(skills)
    tables = (((1, 2), (3, 4)), ((5, 6), (7, 8)), ((9, 10), (11, 12)))
    new, moves = seating.progress(tables, [0, 1, 0], chances)
    # head table: its winners 1, 2 stay, table 2's winners 7, 8 come up; its losers go to the foot
    assert sorted(p for team in new[0] for p in team) == [1, 2, 7, 8]
    assert sorted(p for team in new[1] for p in team) == [5, 6, 9, 10]
    assert sorted(p for team in new[2] for p in team) == [3, 4, 11, 12]
    assert moves[7] == (1, 0) and moves[1] == (0, 0) and moves[3] == (0, 2) and moves[5] == (1, 1)
    # nobody keeps a partner
    old = {pair for table in tables for team in table for pair in seating.pairs_of(team)}
    assert not {pair for table in new for team in table for pair in seating.pairs_of(team)} & old


def test_progressive_at_tables_of_any_size_keeps_each_table_whole():
    """Ten people (a table of six and one of four), a table of individuals, and a table
    that ended without a result: everyone seated once, each table its own size."""
    chances = skill_chances(dict.fromkeys(range(1, 11), 25))
    six_four = (((1, 2), (3, 4), (5, 6)), ((7, 8), (9, 10)))
    new, moves = seating.progress(six_four, [1, 0], chances)
    assert [sorted(len(team) for team in t) for t in new] == [[2, 2, 2], [2, 2]]
    head = {p for team in new[0] for p in team}
    assert {3, 4, 7, 8} <= head  # the head's winners stay, table 2's winners come up
    assert sorted(moves) == list(range(1, 11)) and moves[7] == (1, 0) and moves[3] == (0, 0)
    old = {pair for table in six_four for team in table for pair in seating.pairs_of(team)}
    assert not {pair for table in new for team in table for pair in seating.pairs_of(team)} & old
    alone = (((1,), (2,), (3,)),)  # one table of three, each for themselves: all stay
    assert sorted(p for team in seating.progress(alone, [0], chances)[0][0] for p in team) == [1, 2, 3]
    # the head table ended without a result: its players keep their table
    fours = (((1, 2), (3, 4)), ((5, 6), (7, 8)))
    new, moves = seating.progress(fours, [None, 1], chances)
    assert sorted(p for team in new[0] for p in team) == [1, 2, 3, 4]
    assert all(moves[p] == (0, 0) for p in (1, 2, 3, 4)) and all(moves[p] == (1, 1) for p in (5, 6, 7, 8))


def test_another_seed_finds_other_partners():  # the search swaps single players freely
    skills = {p: 25 + (p % 3) for p in range(1, 9)}
    layout = seating.plan(8)
    seen = set()
    for seed in range(30):
        proposal = seating.arrange(list(skills), layout, skill_chances(skills), seed=seed)
        seen |= {pair for table in proposal.tables for team in table for pair in seating.pairs_of(team)}
    assert len(seen) > len(list(itertools.combinations(range(1, 9), 2))) / 3
