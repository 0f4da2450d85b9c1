"""Properties of the scoring engine that hold for any rule set and any round."""

import dataclasses
import math

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.names import clean_name, name_problem
from scorekeeper.scoring import (
    BOOK_SIZE,
    OTHER_WENT_OUT,
    OUTCOME_VALUES,
    RANKS,
    RULESETS,
    WENT_OUT,
    RuleSet,
    TeamRound,
    by_outcome,
    can_make_points,
    check_round,
    deck,
    has_melded,
    outcome,
    running_totals,
    score_round,
    score_team_round,
    standings,
)

from ..helpers import examples

EXTRA_KINDS = ("sevens", "wild", "aces")
small = st.integers(0, 20)
value = st.integers(-1000, 3000)


def by_outcome_values(values):
    """A plain value, or one by who went out (sometimes with a value for a team with no meld)."""
    cases = st.fixed_dictionaries(
        {"went_out": values, "other_went_out": values, "nobody_out": values}, optional={"not_melded": values}
    )
    return values | cases


decks = (
    st.integers(1, 8)
    | st.builds(lambda a, b: {"per_player": a, "extra": b}, st.integers(1, 2), st.integers(0, 2))
    | st.builds(
        lambda p, d: [[x, y] for x, y in zip(sorted(p), d)],
        st.sets(st.integers(1, 24), min_size=1, max_size=3),
        st.lists(st.integers(1, 9), min_size=3, max_size=3),
    )
)


@st.composite
def rule_sets(draw):
    kinds = ["clean", "dirty"] + draw(st.lists(st.sampled_from(EXTRA_KINDS), unique=True))
    counts = st.fixed_dictionaries({}, optional={k: st.integers(0, 6) for k in [*kinds, "any"]})
    later = draw(
        st.fixed_dictionaries(
            {},
            optional={
                "red_three_book": by_outcome_values(value),
                "black_three_book": by_outcome_values(value),
                "red_threes_all": st.none()
                | st.builds(
                    lambda c, b: {"count": c, "bonus": b}, st.integers(1, 12), by_outcome_values(value)
                ),
                "black_three_out": value,
                "going_out_concealed": value,
                "first_meld_books": st.none() | counts | st.lists(counts, min_size=1, max_size=6),
                "deal": st.none()
                | st.builds(
                    lambda d, h, f, j: {"decks": d, "hand": h, "foot": f, "jokers": j},
                    st.none() | decks,
                    st.integers(1, 15),
                    st.integers(0, 15),
                    st.integers(0, 4),
                ),
            },
        )
    )
    return RuleSet(
        **later,
        # any name the app takes: no control characters, something visible
        name=draw(
            st.text(st.characters(blacklist_categories=("Cc", "Cs")), min_size=1, max_size=30).filter(
                lambda text: not name_problem(clean_name(text), 80)
            )
        ),
        card_values=draw(st.fixed_dictionaries({r: st.integers(0, 100) for r in RANKS})),
        black_three=draw(by_outcome_values(value)),
        red_three=draw(by_outcome_values(value)),
        red_three_melded=draw(by_outcome_values(value)),
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
        red_three_books=st.integers(0, 2),
        black_three_books=st.integers(0, 2),
        black_threes_out=small,
        went_out=went_out,
        went_out_concealed=st.booleans(),
        cuts=st.integers(0, 4),
        penalties=small,
        first_meld_books=st.booleans(),
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
    # the running totals of stored round scores (how the records are rebuilt) are the game's
    round_totals = [[s.total for s in scores] for scores in result.round_scores]
    assert running_totals(round_totals) == result.running_totals
    assert result.winners == (
        []
        if not result.finished or not rounds
        else [t for t in range(teams) if result.totals[t] == max(result.totals)]
    )


@given(games(), st.booleans())
def test_standings_from_known_earlier_rounds_are_the_standings(game, ended):
    """A save scores only its new round (``known``: the game's standings before it)."""
    rules, teams, rounds = game
    whole = standings(rules, rounds, teams=teams, ended=ended)
    for played in range(len(rounds) + 1):
        earlier = standings(rules, rounds[:played], teams=teams, ended=not ended)
        assert standings(rules, rounds, teams=teams, ended=ended, known=earlier) == whole


@given(st.data())
def test_one_more_book_adds_exactly_that_kind_of_book(data):
    rules = data.draw(any_rules)
    # a team that has melded: for one that melded nothing, a book is its first meld, which
    # changes its 3s when they are worth something else to a team with no meld (Canasta)
    entry = data.draw(team_rounds(rules).filter(lambda e: has_melded(e, rules)))
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
    ) == by_outcome(rules.red_three, case, has_melded(entry, rules))


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


@settings(max_examples=examples(60))
@given(st.lists(st.integers(0, 60), min_size=len(RANKS), max_size=len(RANKS)))
def test_which_points_cards_can_make_agrees_with_brute_force(values):
    rules = dataclasses.replace(RULESETS["roth"], card_values=dict(zip(RANKS, values)))
    makeable = _brute_force(values, 400)
    assert [can_make_points(rules, n) for n in range(401)] == makeable
    assert not can_make_points(rules, -5)
    g = math.gcd(*values)
    if g:
        assert can_make_points(rules, 10**6 * g) == (max(values) > 0)


# --- every house's options: left off, they change nothing -----------------------------------------

# (option, its value when off, the entry it prices and a value for it)
OPTIONS_OFF = [
    ("red_three_book", 0, "red_three_books", 2),
    ("black_three_book", 0, "black_three_books", 1),
    ("black_three_out", 0, "black_threes_out", 4),
    ("going_out_concealed", 0, "went_out_concealed", True),
]


@given(st.data(), st.sampled_from(OPTIONS_OFF))
def test_an_option_left_off_changes_no_score_whatever_is_entered_for_it(data, option):
    name, off, entry_name, entered = option
    rules = dataclasses.replace(data.draw(any_rules), **{name: off})
    teams = data.draw(st.integers(2, 4))
    entries = data.draw(st.lists(team_rounds(rules), min_size=teams, max_size=teams))
    number = data.draw(st.integers(1, 20))
    typed = [dataclasses.replace(entries[0], **{entry_name: entered}), *entries[1:]]
    assert [s.total for s in score_round(rules, typed, number)] == [
        s.total for s in score_round(rules, entries, number)
    ]


@given(st.data())
def test_all_the_red_threes_left_off_adds_no_line(data):
    rules = dataclasses.replace(data.draw(any_rules), red_threes_all=None)
    entry = data.draw(team_rounds(rules))
    labels = [line.label for line in score_team_round(rules, entry, 1).breakdown]
    assert not any(label.startswith("All ") for label in labels)


@given(st.data())
def test_a_value_by_outcome_scores_each_team_as_its_case_would_plainly(data):
    """A by-outcome rule set scores a team exactly as the plain rule set with that team's
    case (went out / another went out / nobody; no meld) put in: one value per team."""
    rules = data.draw(any_rules)
    teams = data.draw(st.integers(2, 4))
    out = data.draw(st.none() | st.integers(0, teams - 1))
    entries = [data.draw(team_rounds(rules, went_out=st.just(i == out))) for i in range(teams)]
    number = data.draw(st.integers(1, 20))
    for entry, score in zip(entries, score_round(rules, entries, number)):
        case = outcome(entry, out is not None)
        melded = has_melded(entry, rules)
        plain = dataclasses.replace(
            rules,
            **{name: by_outcome(getattr(rules, name), case, melded) for name in OUTCOME_VALUES},
            red_threes_all=rules.red_threes_all
            and {**rules.red_threes_all, "bonus": by_outcome(rules.red_threes_all["bonus"], case, melded)},
        )
        assert score.total == score_team_round(plain, entry, number, someone_out=out is not None).total


@given(st.data())
def test_no_first_meld_books_asks_nothing_whatever_is_ticked(data):
    rules = dataclasses.replace(data.draw(any_rules), first_meld_books=None)
    entries = data.draw(st.lists(team_rounds(rules, went_out=st.just(False)), min_size=2, max_size=4))
    ticked = [dataclasses.replace(e, first_meld_books=not e.first_meld_books) for e in entries]
    assert check_round(rules, entries, 1) == check_round(rules, ticked, 1)
    assert not any(p.field == "first_meld_books" for p in check_round(rules, entries, 1))


@given(st.data())
def test_no_deal_means_no_warning_about_the_deck(data):
    rules = dataclasses.replace(data.draw(any_rules), deal=None)
    entries = data.draw(st.lists(team_rounds(rules, went_out=st.just(False)), min_size=2, max_size=4))
    players = data.draw(st.integers(2, 24))
    assert check_round(rules, entries, 1, players=players) == check_round(rules, entries, 1)


@st.composite
def dealt_rounds(draw):
    """A round as the cards could really fall: every card of the deck given to at most one
    team's melds or hands (the rest in the stock and discards), books made of melded cards."""
    rules = draw(st.sampled_from([r for r in RULESETS.values() if r.deal and r.deal["decks"] is not None]))
    teams = draw(st.integers(2, 6))
    players = teams * draw(st.integers(1, 4))
    cards = deck(rules, players)
    melded, left, books = [0] * teams, [0] * teams, [0] * teams
    for rank in RANKS:
        remaining = cards.cards_of(rank)
        for team in range(teams):
            for pile in (melded, left):
                taken = draw(st.integers(0, remaining))
                remaining -= taken
                pile[team] += taken * rules.card_values[rank]
                if pile is melded:
                    books[team] += taken
    red, black = cards.red_threes, cards.black_threes
    entries = []
    for team in range(teams):
        red_caught, red_down = draw(st.integers(0, red)), 0
        red -= red_caught
        red_down = draw(st.integers(0, red))
        red -= red_down
        black_caught = draw(st.integers(0, black))
        black -= black_caught
        made = draw(st.integers(0, books[team] // BOOK_SIZE))  # books hold melded cards
        entries.append(
            TeamRound(
                books={"clean": made},  # the deck's checks count books, whatever their kind
                melded_points=melded[team],
                unplayed_points=left[team],
                red_threes=red_caught,
                red_threes_melded=red_down,
                black_threes=black_caught,
            )
        )
    return rules, players, entries


@settings(max_examples=examples(60))
@given(dealt_rounds())
def test_a_round_the_deck_can_deal_never_warns_about_the_deck(dealt):
    rules, players, entries = dealt
    cards = deck(rules, players)
    about_the_deck = [
        p
        for p in check_round(rules, entries, 1, players=players)
        if "deck" in p.message or "decks" in p.message
    ]
    assert about_the_deck == [], (cards, about_the_deck)
