"""Properties of the scoring engine that hold for any rule set and any round."""

import dataclasses
import math

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.names import clean_name, name_problem
from scorekeeper.scoring import (
    OTHER_WENT_OUT,
    RANKS,
    RULESETS,
    WENT_OUT,
    RuleSet,
    TeamRound,
    by_outcome,
    can_make_points,
    has_melded,
    score_team_round,
    standings,
)

EXTRA_KINDS = ("sevens", "wild", "aces")
small = st.integers(0, 20)
value = st.integers(-1000, 3000)


@st.composite
def rule_sets(draw):
    kinds = ["clean", "dirty"] + draw(st.lists(st.sampled_from(EXTRA_KINDS), unique=True))
    counts = st.fixed_dictionaries({}, optional={k: st.integers(0, 6) for k in kinds})
    return RuleSet(
        # any name the app takes: no control characters, something visible
        name=draw(
            st.text(st.characters(blacklist_categories=("Cc", "Cs")), min_size=1, max_size=30).filter(
                lambda text: not name_problem(clean_name(text), 80)
            )
        ),
        card_values=draw(st.fixed_dictionaries({r: st.integers(0, 100) for r in RANKS})),
        black_three=draw(value),
        red_three=draw(value),
        red_three_melded=draw(value),
        books={k: draw(st.integers(0, 3000)) for k in kinds},
        going_out=draw(value | st.lists(value, min_size=1, max_size=8)),
        cut_22=draw(value),
        penalty=draw(value),
        meld_minimum=draw(
            st.none()
            | st.builds(lambda v: {"by_round": v}, st.lists(st.integers(0, 500), min_size=1, max_size=8))
            | st.builds(
                lambda t, m: {"by_score": [[x, y] for x, y in zip(sorted(t), m)]},
                st.sets(st.integers(-5000, 20000), min_size=1, max_size=5),
                st.lists(st.integers(0, 500), min_size=5, max_size=5),
            )
        ),
        books_to_go_out=draw(st.none() | counts | st.lists(counts, min_size=1, max_size=6)),
        end=draw(
            st.none()
            | st.builds(lambda n: {"rounds": n}, st.integers(1, 20))
            | st.builds(lambda n: {"score": n}, st.integers(1, 100000))
        ),
    )


any_rules = st.sampled_from(list(RULESETS.values())) | rule_sets()


def team_rounds(rules, went_out=None):
    went_out = st.booleans() if went_out is None else went_out
    return st.builds(
        TeamRound,
        books=st.fixed_dictionaries(dict.fromkeys(rules.books, small)),
        melded_points=st.integers(0, 5000),
        unplayed_points=st.integers(0, 2000),
        red_threes=small,
        black_threes=small,
        red_threes_melded=small,
        went_out=went_out,
        cuts=st.integers(0, 4),
        penalties=small,
    )


@st.composite
def games(draw):
    rules = draw(any_rules)
    teams = draw(st.integers(1, 4))
    rounds = draw(st.lists(st.lists(team_rounds(rules), min_size=teams, max_size=teams), max_size=6))
    return rules, teams, rounds


@given(games())
def test_a_total_is_the_sum_of_its_round_scores(game):
    rules, teams, rounds = game
    result = standings(rules, rounds, teams=teams)
    for team in range(teams):
        assert result.totals[team] == sum(s[team].total for s in result.round_scores)
    for scores in result.round_scores:
        for score in scores:
            assert score.total == sum(points for _, _, points in score.breakdown)
    assert result.next_round == len(rounds) + 1
    assert len(result.next_meld_minimums) == teams
    assert result.winners == (
        []
        if not result.finished or not rounds
        else [t for t in range(teams) if result.totals[t] == max(result.totals)]
    )


@given(st.data())
def test_one_more_book_adds_exactly_that_kind_of_book(data):
    rules = data.draw(any_rules)
    entry = data.draw(team_rounds(rules))
    kind = data.draw(st.sampled_from(list(rules.books)))
    round_number = data.draw(st.integers(1, 30))
    more = dataclasses.replace(entry, books={**entry.books, kind: entry.books[kind] + 1})
    assert (
        score_team_round(rules, more, round_number).total - score_team_round(rules, entry, round_number).total
    ) == rules.books[kind]


@given(st.data())
def test_one_more_red_three_caught_changes_the_round_by_red_three(data):
    rules = data.draw(any_rules)
    entry = data.draw(team_rounds(rules))
    round_number = data.draw(st.integers(1, 30))
    more = dataclasses.replace(entry, red_threes=entry.red_threes + 1)
    # alone, a team that did not go out is scored as if another team did
    case = WENT_OUT if entry.went_out else OTHER_WENT_OUT
    assert (
        score_team_round(rules, more, round_number).total - score_team_round(rules, entry, round_number).total
    ) == by_outcome(rules.red_three, case, has_melded(entry))


@given(any_rules)
def test_a_rule_set_survives_its_own_file(rules):
    assert RuleSet.from_dict(rules.to_dict()) == rules
    assert RuleSet.from_json(rules.to_json()) == rules


# A malformed value for each field, and the field the refusal must name.
BAD_VALUES = st.sampled_from(
    [
        ("name", 7),
        ("name", ""),
        ("card_values", {"joker": 50}),
        ("card_values", None),
        ("black_three", "−5"),
        ("red_three", 1.5),
        ("red_three_melded", None),
        ("books", {"dirty": 300}),
        ("books", []),
        ("going_out", [None]),
        ("going_out", "100"),
        ("cut_22", False),
        ("penalty", [100]),
        ("meld_minimum", {"by_round": "50"}),
        ("meld_minimum", {"by_score": [[100, 50], [50, 90]]}),
        ("books_to_go_out", {"clean": "5"}),
        ("books_to_go_out", 5),
        ("end", {"rounds": -1}),
        ("end", {"score": 10000, "rounds": 4}),
    ]
)


@given(any_rules, BAD_VALUES)
def test_a_malformed_file_is_refused_naming_the_field(rules, bad):
    field, wrong = bad
    data = {**rules.to_dict(), field: wrong}
    try:
        RuleSet.from_dict(data)
    except ValueError as refused:
        assert str(refused).startswith(field), str(refused)
    else:
        raise AssertionError(f"{field}={wrong!r} was accepted")


def _brute_force(values, limit):
    coins = [v for v in set(values) if v > 0]
    makeable = [True] + [False] * limit
    for total in range(1, limit + 1):
        makeable[total] = any(c <= total and makeable[total - c] for c in coins)
    return makeable


@settings(max_examples=60)
@given(st.lists(st.integers(0, 60), min_size=len(RANKS), max_size=len(RANKS)))
def test_which_points_cards_can_make_agrees_with_brute_force(values):
    rules = dataclasses.replace(RULESETS["roth"], card_values=dict(zip(RANKS, values)))
    makeable = _brute_force(values, 400)
    assert [can_make_points(rules, n) for n in range(401)] == makeable
    assert not can_make_points(rules, -5)
    g = math.gcd(*values)
    if g:
        assert can_make_points(rules, 10**6 * g) == (max(values) > 0)
