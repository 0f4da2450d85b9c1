"""The scoring engine, worked by hand from each preset's written rules."""

import dataclasses
import json
import pickle

import pytest

from scorekeeper.scoring import (
    RULESETS,
    Line,
    RuleSet,
    TeamRound,
    can_make_points,
    card_points,
    check_round,
    meld_minimum,
    score_team_round,
    standings,
    value_tiers,
)

# The house-rules file exactly as the issue gives it.
ROTH_EXAMPLE = {
    "name": "Roth family",
    "card_values": {
        "joker": 50,
        "2": 20,
        "A": 20,
        "K": 10,
        "Q": 10,
        "J": 10,
        "10": 10,
        "9": 5,
        "8": 5,
        "7": 5,
        "6": 5,
        "5": 5,
        "4": 5,
    },
    "black_three": 0,
    "red_three": -500,
    "red_three_melded": 0,
    "books": {"clean": 500, "dirty": 300},
    "going_out": 100,
    "cut_22": 100,
    "penalty": -100,
    "meld_minimum": {"by_score": [[0, 50], [2500, 90], [5000, 120], [7500, 150]]},
    "books_to_go_out": {"clean": 5, "dirty": 4},
    "end": {"score": 10000},
}


def TR(clean=0, dirty=0, **fields):
    return TeamRound(books={"clean": clean, "dirty": dirty}, **fields)


# Each game: rounds of (team A, expected A, team B, expected B), then the totals,
# whether it is finished and the winners. Every expected score is worked by hand
# in its comment from the preset's written rules.
GAMES = {
    "friends-family": dict(
        rounds=[
            # A: 4×500 + 5×300 + 1450 + out 100 = 5050
            # B: 2×500 + 300 + 620 − 185 − 1 red×500 − 2 black×5 = 1225
            (
                TR(4, 5, melded_points=1450, went_out=True),
                5050,
                TR(2, 1, melded_points=620, unplayed_points=185, red_threes=1, black_threes=2),
                1225,
            ),
            # A: 500 + 2×300 + 540 − 95 − 5 = 1540;  B: 2000 + 1500 + 1600 + 100 = 5200
            (
                TR(1, 2, melded_points=540, unplayed_points=95, black_threes=1),
                1540,
                TR(4, 5, melded_points=1600, went_out=True),
                5200,
            ),
            # A melded nothing: −310 − 2×500 − 5 = −1315;  B: 2000 + 1500 + 1385 + 100 = 4985
            (
                TR(unplayed_points=310, red_threes=2, black_threes=1),
                -1315,
                TR(4, 5, melded_points=1385, went_out=True),
                4985,
            ),
            # A: 2000 + 6×300 + 1720 + 100 = 5620
            # B: 3×500 + 2×300 + 905 − 40 − 10; a 22-card cut is worth nothing here = 2955
            (
                TR(4, 6, melded_points=1720, went_out=True),
                5620,
                TR(3, 2, melded_points=905, unplayed_points=40, black_threes=2, cuts=1),
                2955,
            ),
        ],
        totals=[10895, 14365],
        finished=True,
        winners=[1],
        minimums=[50, 90, 120, 150],
        next_minimum=150,
    ),
    "partnership": dict(
        # every first meld held a clean and a dirty book, as these rules ask (first_meld_books)
        rounds=[
            # A: 3×500 + 4×300 + 1210 + out 100 + one 22-card cut 100 = 4110
            # B: 500 + 600 + 480 − 140 − 2 red×100 − 3 black×5 = 1225
            (
                TR(3, 4, melded_points=1210, went_out=True, cuts=1, first_meld_books=True),
                4110,
                TR(
                    1,
                    2,
                    melded_points=480,
                    unplayed_points=140,
                    red_threes=2,
                    black_threes=3,
                    first_meld_books=True,
                ),
                1225,
            ),
            # A: 1000 + 300 + 455 − 75 − 100 = 1580;  B: 1500 + 1500 + 1340 + 100 + 2 cuts×100 = 4640
            (
                TR(2, 1, melded_points=455, unplayed_points=75, red_threes=1, first_meld_books=True),
                1580,
                TR(3, 5, melded_points=1340, went_out=True, cuts=2, first_meld_books=True),
                4640,
            ),
            # A: 2000 + 1200 + 1500 + 100 = 4800;  B: 500 + 300 + 150 − 260 − 100 − 5 = 585
            (
                TR(4, 4, melded_points=1500, went_out=True, first_meld_books=True),
                4800,
                TR(
                    1,
                    1,
                    melded_points=150,
                    unplayed_points=260,
                    red_threes=1,
                    black_threes=1,
                    first_meld_books=True,
                ),
                585,
            ),
        ],
        totals=[10490, 6450],
        finished=False,
        winners=[],
        minimums=[None] * 3,
        next_minimum=None,
    ),
    "tablet": dict(
        rounds=[
            # A: 1000 + 600 + 890 + out 200 = 2690;  B: 500 + 260 − 120 − 100 − 10 = 530
            (
                TR(2, 2, melded_points=890, went_out=True),
                2690,
                TR(1, 0, melded_points=260, unplayed_points=120, red_threes=1, black_threes=2),
                530,
            ),
            # A: 500 + 300 + 400 − 65 = 1135;  B: 1000 + 900 + 1100 + 200 = 3200
            (
                TR(1, 1, melded_points=400, unplayed_points=65),
                1135,
                TR(2, 3, melded_points=1100, went_out=True),
                3200,
            ),
            # the stock ran out, nobody went out
            # A: 500 + 600 + 610 − 30 = 1680;  B: 1000 + 300 + 720 − 15 − 5 = 2000
            (
                TR(1, 2, melded_points=610, unplayed_points=30),
                1680,
                TR(2, 1, melded_points=720, unplayed_points=15, black_threes=1),
                2000,
            ),
            # A: 1500 + 600 + 1085 + 200 = 3385;  B: 300 + 205 − 250 − 200 = 55
            (
                TR(3, 2, melded_points=1085, went_out=True),
                3385,
                TR(0, 1, melded_points=205, unplayed_points=250, red_threes=2),
                55,
            ),
            # A: 80 − 135 = −55 → 8835;  B: 1000 + 600 + 1250 + 200 = 3050 → 8835: a tie
            (
                TR(melded_points=80, unplayed_points=135),
                -55,
                TR(2, 2, melded_points=1250, went_out=True),
                3050,
            ),
        ],
        totals=[8835, 8835],
        finished=True,
        winners=[0, 1],
        minimums=[50, 75, 100, 125, 150],
        next_minimum=150,
    ),
    "roth": dict(
        rounds=[
            # A: 5×500 + 4×300 + 1800 + out 100 + cut 100 = 5700
            # B: 1000 + 300 + 605 − 210 − 1 red×500 − 2 black×0 − 1 penalty×100 = 1095
            (
                TR(5, 4, melded_points=1800, went_out=True, cuts=1),
                5700,
                TR(2, 1, melded_points=605, unplayed_points=210, red_threes=1, black_threes=2, penalties=1),
                1095,
            ),
            # A: 1500 + 600 + 960 − 45 − 0 = 3015 → 8715;  B: 2500 + 1200 + 1725 + 100 + 200 = 5725 → 6820
            (
                TR(3, 2, melded_points=960, unplayed_points=45, black_threes=1),
                3015,
                TR(5, 4, melded_points=1725, went_out=True, cuts=2),
                5725,
            ),
            # A: 2500 + 1500 + 1950 + 100 = 6050 → 14765, past 10,000: the game ends
            # B: 500 + 600 + 415 − 385 − 1000 − 200 = −70 → 6750
            (
                TR(5, 5, melded_points=1950, went_out=True),
                6050,
                TR(1, 2, melded_points=415, unplayed_points=385, red_threes=2, penalties=2),
                -70,
            ),
        ],
        totals=[14765, 6750],
        finished=True,
        winners=[0],
        # by score: both start at 50; then A 5700 → 120, B 1095 → 50; then A 8715 → 150, B 6820 → 120
        minimums=[[50, 50], [120, 50], [150, 120]],
        next_minimum=[150, 120],
    ),
    "forfeit": dict(
        rounds=[
            # A: 1000 + 600 + 760 + out 1000 = 3360;  B: 500 + 300 + 390 − 95 − 100 − 5 = 990
            (
                TR(2, 2, melded_points=760, went_out=True),
                3360,
                TR(1, 1, melded_points=390, unplayed_points=95, red_threes=1, black_threes=1),
                990,
            ),
            # A: 500 + 240 − 180 − 100 = 460;  B: 1000 + 900 + 990 + 1000 = 3890
            (
                TR(1, 0, melded_points=240, unplayed_points=180, red_threes=1),
                460,
                TR(2, 3, melded_points=990, went_out=True),
                3890,
            ),
            # A: 1000 + 600 + 815 + 1000 = 3415;  B: 500 + 600 + 555 − 60 − 10 = 1585
            (
                TR(2, 2, melded_points=815, went_out=True),
                3415,
                TR(1, 2, melded_points=555, unplayed_points=60, black_threes=2),
                1585,
            ),
            # A: 90 − 310 − 200 − 5 = −425;  B: 1500 + 600 + 1105 + 1000 = 4205
            (
                TR(melded_points=90, unplayed_points=310, red_threes=2, black_threes=1),
                -425,
                TR(3, 2, melded_points=1105, went_out=True),
                4205,
            ),
            # A: 1000 + 900 + 1020 + 1000 = 3920;  B: 500 + 300 + 350 − 20 = 1130
            (
                TR(2, 3, melded_points=1020, went_out=True),
                3920,
                TR(1, 1, melded_points=350, unplayed_points=20),
                1130,
            ),
        ],
        totals=[10730, 11800],
        finished=True,
        winners=[1],
        minimums=[60, 90, 120, 150, 180],
        next_minimum=180,
    ),
}


@pytest.mark.parametrize("key", GAMES)
def test_preset_game_worked_by_hand(key):
    rules, game = RULESETS[key], GAMES[key]
    rounds = [[a, b] for a, _, b, _ in game["rounds"]]
    result = standings(rules, rounds)
    assert [[a, b] for _, a, _, b in game["rounds"]] == [
        [score.total for score in scores] for scores in result.round_scores
    ]
    assert result.totals == game["totals"]
    assert result.running_totals[-1] == game["totals"]
    assert result.finished is game["finished"]
    assert result.winners == game["winners"]
    assert result.next_round == len(rounds) + 1
    expected = [m if isinstance(m, list) else [m, m] for m in game["minimums"]]
    assert result.meld_minimums == expected
    next_minimum = game["next_minimum"]
    assert result.next_meld_minimums == (
        next_minimum if isinstance(next_minimum, list) else [next_minimum] * 2
    )
    for number, (a, score_a, b, score_b) in enumerate(game["rounds"], start=1):
        assert score_team_round(rules, a, number).total == score_a
        assert score_team_round(rules, b, number).total == score_b
        assert check_round(rules, [a, b], number) == [], f"round {number}"


def test_a_round_breakdown_line_by_line():
    # Roth, round 1, team B of the game above.
    score = score_team_round(
        RULESETS["roth"],
        TR(2, 1, melded_points=605, unplayed_points=210, red_threes=1, black_threes=2, penalties=1),
        1,
    )
    assert score.breakdown == (
        Line("Clean (red) books", 2, 1000),
        Line("Dirty (black) books", 1, 300),
        Line("Melded", None, 605),
        Line("Left in hand and foot", None, -210),
        Line("Red 3s caught", 1, -500),
        Line("Black 3s caught", 2, 0),  # worth nothing under Roth, shown because entered
        Line("Went out", 0, 0),
        Line("22-card cuts", 0, 0),
        Line("Penalties", 1, -100),
    )
    assert score.total == 1095 == sum(points for _, _, points in score.breakdown)


def test_lines_the_rules_do_not_use_are_left_out():
    score = score_team_round(RULESETS["tablet"], TR(1, 0, melded_points=100), 1)
    labels = [line.label for line in score.breakdown]
    assert labels == [
        "Clean (red) books",
        "Dirty (black) books",
        "Melded",
        "Left in hand and foot",
        "Red 3s caught",
        "Black 3s caught",
        "Went out",
    ]


def test_a_round_score_is_its_breakdown_and_total():
    score = score_team_round(RULESETS["roth"], TR(1, 0, melded_points=40), 1)
    assert score.total == 540 == sum(line.points for line in score.breakdown)
    assert pickle.loads(pickle.dumps(score)) == score
    with pytest.raises(dataclasses.FrozenInstanceError):
        score.breakdown = ()


def test_house_variants_extra_books_red_threes_laid_down_progressive_going_out():
    rules = dataclasses.replace(
        RULESETS["friends-family"],
        name="Progressive with 7s",
        books={"clean": 500, "dirty": 300, "sevens": 1500, "wild": 2500},
        red_three_melded=100,
        going_out=[100, 200, 300],
        books_to_go_out=[{"clean": 1, "dirty": 1}, {"clean": 2, "dirty": 2, "sevens": 1}],
    )
    entry = TeamRound(
        books={"clean": 2, "dirty": 2, "sevens": 1, "wild": 1},
        melded_points=900,
        red_threes_melded=2,
        went_out=True,
    )
    # 1000 + 600 + 1500 + 2500 + 900 + 2 red 3s laid down×100 + going out by round
    assert score_team_round(rules, entry, 1).total == 6700 + 100
    assert score_team_round(rules, entry, 2).total == 6700 + 200
    assert score_team_round(rules, entry, 3).total == 6700 + 300
    assert score_team_round(rules, entry, 9).total == 6700 + 300  # the last value repeats
    assert check_round(rules, [entry, TeamRound()], 2) == []
    no_sevens = TeamRound(books={"clean": 2, "dirty": 2}, melded_points=600, went_out=True)
    [warning] = check_round(rules, [no_sevens, TeamRound()], 7)
    assert (warning.level, warning.team, warning.field) == ("warning", 0, "went_out")
    assert "2 clean, 2 dirty and 1 sevens books" in warning.message


@pytest.mark.parametrize(
    "bad, field",
    [
        (TeamRound(melded_points=-5), "melded_points"),
        (TeamRound(unplayed_points=-10), "unplayed_points"),
        (TeamRound(red_threes=-1), "red_threes"),
        (TeamRound(black_threes=-1), "black_threes"),
        (TeamRound(red_threes_melded=-1), "red_threes_melded"),
        (TeamRound(cuts=-1), "cuts"),
        (TeamRound(penalties=-1), "penalties"),
        (TeamRound(books={"clean": -1}), "books.clean"),
        (TeamRound(books={"sevens": 1}), "books.sevens"),
        (TeamRound(melded_points=12.5), "melded_points"),
        (TeamRound(went_out="yes"), "went_out"),
    ],
)
def test_wrong_entries_raise_and_are_errors_at_the_table(bad, field):
    rules = RULESETS["roth"]
    with pytest.raises(ValueError, match=field.replace(".", r"\.")):
        score_team_round(rules, bad, 1)
    problems = check_round(rules, [bad, TeamRound()], 1)
    assert [(p.level, p.team, p.field) for p in problems] == [("error", 0, field)]
    with pytest.raises(ValueError):
        standings(rules, [[bad, TeamRound()]])


def test_round_number_must_be_one_or_more():
    with pytest.raises(ValueError, match="round_number"):
        score_team_round(RULESETS["roth"], TeamRound(), 0)
    with pytest.raises(ValueError, match="round_number"):
        meld_minimum(RULESETS["roth"], 0, 0)


# --- check_round ----------------------------------------------------------


def test_two_teams_out_is_an_error_naming_both():
    problems = check_round(
        RULESETS["partnership"],
        # both first melds held the clean and dirty book these rules ask for
        [TR(3, 4, melded_points=1000, went_out=True, first_meld_books=True)] * 2,
        1,
        team_names=["Ann & Bo", "Cy & Di"],
    )
    assert [(p.level, p.team, p.field) for p in problems] == [("error", None, "went_out")]
    assert "Ann & Bo and Cy & Di" in problems[0].message


@pytest.mark.parametrize(
    "points, ok", [(35, True), (37, False), (5, True), (0, True), (12345, True), (12346, False)]
)
def test_points_no_cards_can_make_are_errors(points, ok):
    for field in ("melded_points", "unplayed_points"):
        problems = check_round(RULESETS["friends-family"], [TeamRound(**{field: points}), TeamRound()], 1)
        if ok:
            assert problems == []
        else:
            [problem] = problems
            assert (problem.level, problem.team, problem.field) == ("error", 0, field)
            assert f"{points} points" in problem.message and "multiple of 5" in problem.message


def test_points_check_follows_the_house_card_values():
    values = dict.fromkeys(("2", "A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4"), 20)
    rules = dataclasses.replace(RULESETS["roth"], card_values={**values, "joker": 50})
    # multiples of 10 only, and 10 and 30 cannot be made from 20s and 50s
    assert [p for p in range(0, 130, 10) if can_make_points(rules, p)] == [
        0,
        20,
        40,
        50,
        60,
        70,
        80,
        90,
        100,
        110,
        120,
    ]
    assert [p.field for p in check_round(rules, [TeamRound(melded_points=30), TeamRound()], 1)] == [
        "melded_points"
    ]


def test_going_out_without_the_books_is_a_warning():
    rules = RULESETS["roth"]  # 5 clean + 4 dirty
    short = TR(5, 3, melded_points=2000, went_out=True)
    [warning] = check_round(rules, [short, TeamRound()], 2, team_names=["Us", "Them"])
    assert (warning.level, warning.team, warning.field) == ("warning", 0, "went_out")
    assert warning.message == (
        "Us went out with 5 clean and 3 dirty books, but going out takes 5 clean and 4 dirty books."
    )
    assert check_round(rules, [TR(5, 4, melded_points=2000, went_out=True), TeamRound()], 2) == []
    # no requirement, no warning
    no_requirement = dataclasses.replace(rules, books_to_go_out=None)
    assert check_round(no_requirement, [TR(0, 0, went_out=True), TeamRound()], 1) == []


def test_melded_points_below_what_the_books_hold_is_a_warning():
    rules = RULESETS["roth"]
    # a clean book is at least 7 cards of 5 = 35; a dirty one at least 6×5 + one 2 = 50
    least = 2 * 35 + 50
    assert check_round(rules, [TR(2, 1, melded_points=least), TeamRound()], 1) == []
    [warning] = check_round(rules, [TR(2, 1, melded_points=least - 5), TeamRound()], 1)
    assert (warning.level, warning.team, warning.field) == ("warning", 0, "melded_points")
    assert "2 clean and 1 dirty books hold at least 120 points" in warning.message
    # under the standard values an 8 is worth 10, but a 4 still 5: the same least
    assert check_round(RULESETS["tablet"], [TR(2, 1, melded_points=120), TeamRound()], 1) == []


def test_books_with_no_melded_points_is_one_warning():
    [warning] = check_round(RULESETS["tablet"], [TeamRound(), TR(1, 0)], 1)
    assert (warning.level, warning.team, warning.field) == ("warning", 1, "melded_points")
    assert "no melded points" in warning.message


def test_three_teams_out_and_short_team_names():
    entries = [TeamRound(went_out=True)] * 3
    problems = check_round(RULESETS["tablet"], entries, 1, team_names=["Us"])
    [error] = [p for p in problems if p.level == "error"]
    assert "Us, Team 2 and Team 3 are all marked" in error.message
    assert [p.team for p in problems if p.level == "warning"] == [0, 1, 2]  # none had the books


def test_one_mistake_does_not_hide_a_typo_in_another_field():
    problems = check_round(
        RULESETS["roth"], [TeamRound(melded_points=37, unplayed_points=-5), TeamRound()], 1
    )
    assert [(p.level, p.field) for p in problems] == [
        ("error", "unplayed_points"),
        ("error", "melded_points"),
    ]


def test_the_typo_hint_is_true_for_the_total_it_is_about():
    values = dict.fromkeys(("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4"), 0)
    rules = dataclasses.replace(RULESETS["roth"], card_values={**values, "joker": 50, "2": 20})
    [problem] = check_round(rules, [TeamRound(melded_points=30), TeamRound()], 1)
    assert "no set of cards adds up to that" in problem.message
    [problem] = check_round(rules, [TeamRound(melded_points=35), TeamRound()], 1)
    assert "multiple of 10" in problem.message
    # naturals worth nothing: a book can hold 0 points, so no "books but no melded points"
    assert check_round(rules, [TR(2, 0), TeamRound()], 1) == []


def test_books_that_are_not_counts_are_an_error():
    [problem] = check_round(RULESETS["roth"], [TeamRound(books=None), TeamRound()], 1)
    assert (problem.level, problem.field) == ("error", "books")
    with pytest.raises(ValueError, match="books"):
        score_team_round(RULESETS["roth"], TeamRound(books=None), 1)


# --- meld minimums ----------------------------------------------------------


@pytest.mark.parametrize(
    "score, minimum",
    [
        (-2000, 50),
        (-1, 50),
        (0, 50),
        (2499, 50),
        (2500, 90),
        (2501, 90),
        (4999, 90),
        (5000, 120),
        (7499, 120),
        (7500, 150),
        (250_000, 150),
    ],
)
def test_meld_minimum_by_score_at_every_threshold(score, minimum):
    for round_number in (1, 2, 40):
        assert meld_minimum(RULESETS["roth"], round_number, score) == minimum


def test_meld_minimum_below_the_first_threshold_gets_the_first_minimum():
    rules = dataclasses.replace(RULESETS["roth"], meld_minimum={"by_score": [[1000, 70], [3000, 100]]})
    assert [meld_minimum(rules, 1, s) for s in (-5, 0, 999, 1000, 2999, 3000)] == [70, 70, 70, 70, 70, 100]


@pytest.mark.parametrize(
    "key, by_round",
    [
        ("friends-family", [50, 90, 120, 150]),
        ("tablet", [50, 75, 100, 125, 150]),
        ("forfeit", [60, 90, 120, 150, 180]),
    ],
)
def test_meld_minimum_by_round_and_past_the_last_listed_round(key, by_round):
    rules = RULESETS[key]
    assert [meld_minimum(rules, n, 9999) for n in range(1, len(by_round) + 1)] == by_round
    for past in (len(by_round) + 1, len(by_round) + 7, 500):
        assert meld_minimum(rules, past, 0) == by_round[-1]


def test_meld_minimum_needs_a_whole_score():
    for wrong in ("x", None, 1.5, True):
        with pytest.raises(ValueError, match="score_before"):
            meld_minimum(RULESETS["roth"], 1, wrong)


def test_no_meld_minimum():
    assert meld_minimum(RULESETS["partnership"], 1, 0) is None
    assert standings(RULESETS["partnership"], [], teams=3).next_meld_minimums == [None] * 3


# --- standings ----------------------------------------------------------------


def test_standings_before_the_first_round():
    result = standings(RULESETS["roth"], [], teams=2)
    assert (result.totals, result.next_round, result.next_meld_minimums) == ([0, 0], 1, [50, 50])
    assert result.next_books_to_go_out == {"clean": 5, "dirty": 4}
    assert (result.finished, result.winners, result.round_scores) == (False, [], [])


def test_a_game_the_table_ends_by_hand():
    rules = RULESETS["partnership"]
    rounds = [
        [TR(3, 4, melded_points=900, went_out=True), TR(1, 0, melded_points=60)],
        [TR(1, 0, melded_points=60), TR(3, 4, melded_points=900, went_out=True)],
    ]
    assert standings(rules, rounds).finished is False
    ended = standings(rules, rounds, ended=True)
    # both 3×500 + 4×300 + 900 + 100 + 500 + 60 = 4260
    assert (ended.totals, ended.finished, ended.winners) == ([4260, 4260], True, [0, 1])


def test_a_game_ended_before_any_round_has_no_result():
    result = standings(RULESETS["partnership"], [], teams=2, ended=True)
    assert (result.finished, result.totals, result.winners) == (True, [0, 0], [])
    assert not result.verdict.decided


def test_three_and_four_teams():
    rules = RULESETS["tablet"]
    rounds = [
        [
            TR(2, 2, melded_points=700, went_out=True),
            TR(1, 0, melded_points=35),
            TeamRound(unplayed_points=60, red_threes=1),
            TR(0, 1, melded_points=50),
        ]
    ]
    result = standings(rules, rounds)
    # 1000+600+700+200; 500+35; −60−100; 300+50
    assert result.totals == [2500, 535, -160, 350]
    assert result.next_meld_minimums == [75] * 4
    with pytest.raises(ValueError, match="round 2"):
        standings(rules, rounds + [rounds[0][:3]])


def test_a_target_score_ends_the_game_after_the_round_it_is_reached_in():
    rules = dataclasses.replace(RULESETS["roth"], end={"score": 5000})
    just_under = TR(4, 2, melded_points=1200)  # 2000 + 600 + 1200 = 3800
    assert standings(rules, [[just_under, TeamRound()]]).finished is False
    two = standings(rules, [[just_under, TeamRound()], [TR(1, 1, melded_points=400), TeamRound()]])
    assert two.totals == [5000, 0] and two.finished and two.winners == [0]


# --- card-count helper ----------------------------------------------------------------


def test_card_points_use_the_rule_set_values():
    counts = {"joker": 1, "2": 2, "A": 1, "K": 3, "9": 2, "4": 1}
    assert card_points(RULESETS["friends-family"], counts) == 50 + 40 + 20 + 30 + 20 + 5
    assert card_points(RULESETS["roth"], counts) == 50 + 40 + 20 + 30 + 10 + 5
    assert card_points(RULESETS["roth"], {"Joker": 2, "a": 1}) == 120
    with pytest.raises(ValueError, match="3"):
        card_points(RULESETS["roth"], {"3": 1})
    with pytest.raises(ValueError):
        card_points(RULESETS["roth"], {"K": -1})


def test_value_tiers_name_the_ranks_as_players_say_them():
    assert [str(t) for t in value_tiers(RULESETS["friends-family"])] == [
        "Jokers 50",
        "2s and Aces 20",
        "8–K 10",
        "4–7 5",
    ]
    assert [str(t) for t in value_tiers(RULESETS["roth"])] == [
        "Jokers 50",
        "2s and Aces 20",
        "10–K 10",
        "4–9 5",
    ]
    odd = dataclasses.replace(
        RULESETS["roth"], card_values={**RULESETS["roth"].card_values, "Q": 15, "6": 10, "A": 50}
    )
    assert [str(t) for t in value_tiers(odd)] == [
        "Jokers and Aces 50",
        "2s 20",
        "Queens 15",
        "6s, 10–J and Kings 10",
        "4–5 and 7–9 5",
    ]
    tier = value_tiers(RULESETS["roth"])[2]
    assert (tier.label, tier.value, tier.ranks) == ("10–K", 10, ("K", "Q", "J", "10"))


# --- the house-rules file ----------------------------------------------------------------


def test_the_issue_example_file_reads_and_writes_back_unchanged():
    rules = RuleSet.from_dict(ROTH_EXAMPLE)
    assert rules.to_dict() == ROTH_EXAMPLE
    assert json.loads(rules.to_json()) == ROTH_EXAMPLE
    # the preset also says how the deal goes (one deck per player), which the file leaves out
    assert rules == dataclasses.replace(RULESETS["roth"], name="Roth family", deal=None)


@pytest.mark.parametrize("key", RULESETS)
def test_presets_round_trip_through_json(key):
    rules = RULESETS[key]
    assert RuleSet.from_json(rules.to_json()) == rules
    assert RuleSet.from_dict(rules.to_dict()) == rules


def test_presets_match_rules_md():
    ff, pa, ta, ro, fo = (RULESETS[k] for k in ("friends-family", "partnership", "tablet", "roth", "forfeit"))
    for rules in (ff, pa, ta):
        assert rules.card_values["9"] == rules.card_values["8"] == 10
    for rules in (ro, fo):
        assert rules.card_values["9"] == rules.card_values["8"] == 5
    # Buraco's and Burraco's values are their own (tests/unit/test_buraco.py)
    canastas = [r for k, r in RULESETS.items() if not k.startswith(("buraco", "burraco"))]
    for rules in canastas:
        # every preset's clean (natural) and dirty (mixed) books; Samba's and Bolivia's
        # sequence and wild canastas beside them are tested with those presets
        assert {kind: rules.books[kind] for kind in ("clean", "dirty")} == {"clean": 500, "dirty": 300}
        assert set(rules.books) - {"clean", "dirty"} <= {"samba", "escalera", "bolivia"}
        assert (rules.card_values["joker"], rules.card_values["2"], rules.card_values["A"]) == (50, 20, 20)
    assert [r.black_three for r in (ff, pa, ta, ro, fo)] == [-5, -5, -5, 0, -5]
    # 000: red 3s count against a side "if the other player/team goes out"
    assert [r.red_three for r in (ff, pa, ta, ro, fo)] == [
        {"went_out": 0, "other_went_out": -500, "nobody_out": 0},
        -100,
        -100,
        -500,
        -100,
    ]
    assert [r.going_out for r in (ff, pa, ta, ro, fo)] == [100, 100, 200, 100, 1000]
    assert [r.cut_22 for r in (ff, pa, ta, ro, fo)] == [0, 100, 0, 100, 0]
    assert [r.penalty for r in (ff, pa, ta, ro, fo)] == [0, 0, 0, -100, 0]
    assert [r.end for r in (ff, pa, ta, ro, fo)] == [
        {"rounds": 4},
        None,
        {"rounds": 5},
        {"score": 10000},
        {"rounds": 5},
    ]
    assert [r.books_to_go_out for r in (ff, pa, ta, ro, fo)] == [
        {"clean": 4, "dirty": 5},
        {"clean": 3, "dirty": 4},
        {"clean": 2, "dirty": 2},
        {"clean": 5, "dirty": 4},
        {"clean": 2, "dirty": 2},
    ]
    assert pa.meld_minimum is None


def _with(**changes):
    return {**ROTH_EXAMPLE, **changes}


def _without(key):
    return {k: v for k, v in ROTH_EXAMPLE.items() if k != key}


@pytest.mark.parametrize(
    "data, field",
    [
        (_without("books"), "books"),
        (_without("card_values"), "card_values"),
        (_without("end"), "end"),
        (_with(going_Out=100), "going_Out"),
        (_with(name="  "), "name"),
        (_with(card_values={**ROTH_EXAMPLE["card_values"], "9": "5"}), "card_values.9"),
        (
            _with(card_values={k: v for k, v in ROTH_EXAMPLE["card_values"].items() if k != "9"}),
            "card_values.9",
        ),
        (_with(card_values={**ROTH_EXAMPLE["card_values"], "3": 5}), "card_values.3"),
        (_with(card_values={**ROTH_EXAMPLE["card_values"], "K": -10}), "card_values.K"),
        (_with(card_values=[50, 20]), "card_values"),
        (_with(black_three=True), "black_three"),
        (_with(red_three=-0.5), "red_three"),
        (_with(books={"clean": 500}), "books.dirty"),
        (_with(books={"clean": 500, "dirty": 300, "Sevens!": 1000}), "books.Sevens!"),
        (_with(going_out=[]), "going_out"),
        (_with(going_out=[100, "200"]), "going_out[1]"),
        (_with(cut_22=None), "cut_22"),
        (_with(meld_minimum={"by_turn": [50]}), "meld_minimum"),
        (_with(meld_minimum={"by_round": []}), "meld_minimum.by_round"),
        (_with(meld_minimum={"by_round": [50, -90]}), "meld_minimum.by_round[1]"),
        (_with(meld_minimum={"by_score": [[0, 50], [2500]]}), "meld_minimum.by_score[1]"),
        (_with(meld_minimum={"by_score": [[0, 50], [0, 90]]}), "meld_minimum.by_score[1]"),
        (_with(meld_minimum=50), "meld_minimum"),
        (_with(books_to_go_out={"clean": 5, "sevens": 1}), "books_to_go_out.sevens"),
        (_with(books_to_go_out=[{"clean": 1}, {"dirty": -1}]), "books_to_go_out[1].dirty"),
        (_with(end={"rounds": 0}), "end.rounds"),
        (_with(end={"rounds": 4, "score": 5000}), "end"),
        (_with(end="never"), "end"),
        ([1, 2], "house rules"),
    ],
)
def test_malformed_files_are_refused_naming_the_field(data, field):
    with pytest.raises(ValueError) as refused:
        RuleSet.from_dict(data)
    assert str(refused.value).startswith(field + ":"), str(refused.value)


def test_a_file_that_is_not_json_is_refused():
    with pytest.raises(ValueError, match="not a JSON file"):
        RuleSet.from_json("{'name': 'Roth'")
    with pytest.raises(ValueError, match="not a JSON file"):
        RuleSet.from_json(b"\xff\xfe")


def test_optional_house_extras_default_to_unused():
    data = {k: v for k, v in ROTH_EXAMPLE.items() if k not in ("red_three_melded", "cut_22", "penalty")}
    rules = RuleSet.from_dict(data)
    assert (rules.red_three_melded, rules.cut_22, rules.penalty) == (0, 0, 0)


def test_rule_sets_cannot_be_changed_in_place():
    rules = RULESETS["roth"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.going_out = 5
    for mapping in (rules.card_values, rules.books, rules.meld_minimum, rules.end, rules.books_to_go_out):
        with pytest.raises(TypeError):
            mapping["joker"] = 0
    assert rules.card_values["joker"] == 50
    assert hash(rules) == hash(RuleSet.from_json(rules.to_json()))
    assert len({rules, RULESETS["tablet"], RuleSet.from_dict(rules.to_dict())}) == 2
    entry = TR(1, 2)
    with pytest.raises(TypeError):
        entry.books["clean"] = 9
    assert hash(entry) == hash(TR(1, 2)) and entry.to_dict()["books"] == {"clean": 1, "dirty": 2}
    assert isinstance(RuleSet.from_dict(_with(going_out=[100, 200])).going_out, tuple)


def test_a_deeply_nested_file_is_refused_not_a_crash():
    with pytest.raises(ValueError, match="nested too deeply"):
        RuleSet.from_json("[" * 100_000 + "]" * 100_000)


# --- rounds kept as their scores alone (an old paper sheet's, issue 41) ----------------------


def test_a_round_kept_as_its_score_alone_scores_that_score_and_nothing_else():
    rules = RULESETS["roth"]
    score = score_team_round(rules, TeamRound(paper_score=-235), 3)
    assert score.breakdown == (Line("Score on the paper sheet", None, -235),) and score.total == -235
    result = standings(rules, [[TeamRound(paper_score=6000), TeamRound(paper_score=800)]] * 2)
    assert result.totals == [12000, 1600] and result.finished and result.winners == [0]  # to 10,000
    assert TeamRound(paper_score=5).to_dict() == {"paper_score": 5}
    assert TeamRound.from_dict({"paper_score": 5}) == TeamRound(paper_score=5)
    assert TeamRound(paper_score=5) != TeamRound(paper_score=6) != TeamRound()


@pytest.mark.parametrize(
    "entries, message",
    [
        (
            [TeamRound(paper_score=10), TeamRound(melded_points=50)],
            "has a score for every team and nothing else",
        ),
        ([TeamRound(paper_score=10, melded_points=50), TeamRound(paper_score=0)], "has nothing else entered"),
        (
            [TeamRound(paper_score=10, books={"clean": 1}), TeamRound(paper_score=0)],
            "has nothing else entered",
        ),
        ([TeamRound(paper_score=1_000_001), TeamRound(paper_score=0)], "at most 1,000,000 either way"),
        ([TeamRound(paper_score=True), TeamRound(paper_score=0)], "must be a whole number"),
    ],
)
def test_a_score_alone_is_checked_and_nothing_may_be_entered_beside_it(entries, message):
    errors = [p for p in check_round(RULESETS["roth"], entries, 1) if p.level == "error"]
    assert any(message in p.message for p in errors), errors
    if "every team" not in message:  # a value the engine cannot score is refused by it too
        with pytest.raises(ValueError, match="paper_score"):
            standings(RULESETS["roth"], [entries])
