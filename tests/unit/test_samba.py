"""Samba and Bolivia, Canasta's three-pack cousins, as bicyclecards.ca writes them
(docs/decisions.md): their values, and games worked by hand, arithmetic in comments."""

import dataclasses

import pytest

from scorekeeper.scoring import (
    RULESETS,
    RuleSet,
    TeamRound,
    check_round,
    meld_minimum,
    score_team_round,
    standings,
)


def books(natural=0, mixed=0, **others):
    return {"clean": natural, "dirty": mixed, **others}


def TR(books=None, **fields):
    return TeamRound(books=books or {}, **fields)


def lines(score):
    return {line.label: line for line in score.breakdown}


def test_samba_is_the_rule_book():
    samba = RULESETS["samba"]
    # three packs and six jokers, 15 cards each, no foot
    assert samba.deal == {"decks": 3, "hand": 15, "foot": 0, "jokers": 2}
    # a samba (sequence canasta) ranks as a canasta with a bonus of 1,500
    assert samba.books == {"clean": 500, "dirty": 300, "samba": 1500}
    assert samba.books_to_go_out == {"any": 2}  # two canastas of any kind
    assert (samba.going_out, samba.going_out_concealed, samba.end) == (200, 0, {"score": 10000})
    # 15 with a minus score; 50 from 0; 90 from 1,500; 120 from 3,000; 160 from 7,000
    scores = (-2000, -1, 0, 1495, 1500, 2995, 3000, 6995, 7000, 12000)
    assert [meld_minimum(samba, 3, s) for s in scores] == [15, 15, 50, 50, 90, 90, 120, 120, 160, 160]
    # red 3s 100 each, 1,000 for all six; against a side with fewer than two canastas
    assert samba.red_threes_all["count"] == 6 and samba.not_melded_books == 2
    assert 6 * 100 + samba.red_threes_all["bonus"]["went_out"] == 1000
    assert samba.say.game == "Samba" and samba.book_label("samba") == "Samba canastas"
    assert samba.say.piles == ("hand",)


def test_samba_red_threes_count_against_a_side_short_of_two_canastas():
    samba = RULESETS["samba"]
    one = TR(books(mixed=1), melded_points=240, red_threes_melded=3)
    # one canasta: 300 + 240 − 3 × 100 = 240
    assert score_team_round(samba, one, 1).total == 240
    assert lines(score_team_round(samba, one, 1))["Red 3s laid down"].points == -300
    # a second canasta and the same red 3s count for the side: 600 + 240 + 300 = 1140
    two = dataclasses.replace(one, books=books(mixed=2))
    assert score_team_round(samba, two, 1).total == 1140
    # all six, short of two canastas: 1,000 against (a natural canasta 500 + 400 melded
    # − 6 × 100 − 400 = −100)
    six = TR(books(natural=1), melded_points=400, red_threes_melded=6)
    score = lines(score_team_round(samba, six, 1))
    assert score["Red 3s laid down"].points == -600 and score["All 6 red 3s laid down"].points == -400
    assert score_team_round(samba, six, 1).total == -100


def test_a_samba_game_worked_by_hand():
    samba = RULESETS["samba"]  # four players in two partnerships: three packs
    rounds = [
        # A: samba 1500 + natural 500 + 850 + 2 red 3s 200 + out 200 = 3250
        # B: one mixed canasta, short of two: 300 + 240 − 65 − 3 red 3s 300 = 175
        [
            TR(books(natural=1, samba=1), melded_points=850, red_threes_melded=2, went_out=True),
            TR(books(mixed=1), melded_points=240, unplayed_points=65, red_threes_melded=3),
        ],
        # A: one canasta, no red 3s to lose: 500 + 300 − 40 − a black 3 in hand 5 = 755 → 4005
        # B: 2 mixed 600 + samba 1500 + 1200 + all six red 3s 1000 + out 200 = 4500 → 4675
        [
            TR(books(natural=1), melded_points=300, unplayed_points=40, black_threes=1),
            TR(books(mixed=2, samba=1), melded_points=1200, red_threes_melded=6, went_out=True),
        ],
        # A melded nothing: −120 − a red 3 100 = −220 → 3785
        # B: 2 natural 1000 + 1110 + 3 black 3s melded going out 15 + out 200 = 2325 → 7000
        [
            TR(unplayed_points=120, red_threes_melded=1),
            TR(books(natural=2), melded_points=1110, black_threes_out=3, went_out=True),
        ],
        # A: 2 mixed 600 + 700 + 2 red 3s 200 + out 200 = 1700 → 5485
        # B: one canasta: 500 + 400 − 55 − a red 3 100 = 745 → 7745
        [
            TR(books(mixed=2), melded_points=700, red_threes_melded=2, went_out=True),
            TR(books(natural=1), melded_points=400, unplayed_points=55, red_threes_melded=1),
        ],
    ]
    s = standings(samba, rounds)
    assert [[score.total for score in scores] for scores in s.round_scores] == [
        [3250, 175],
        [755, 4500],
        [-220, 2325],
        [1700, 745],
    ]
    assert s.running_totals == [[3250, 175], [4005, 4675], [3785, 7000], [5485, 7745]]
    assert not s.finished  # to 10,000
    # by each side's score before the round: 0 → 50; 3,250 → 120 and 175 → 50;
    # 4,005 and 4,675 → 120; 3,785 → 120 and 7,000 → 160
    assert s.meld_minimums == [[50, 50], [120, 50], [120, 120], [120, 160]]
    for number, entries in enumerate(rounds, start=1):
        assert check_round(samba, entries, number, players=4) == [], number


def test_samba_goes_out_with_two_canastas():
    samba = RULESETS["samba"]
    [warning] = check_round(samba, [TR(books(natural=1), melded_points=300, went_out=True), TR()], 1)
    assert "2 canastas of any kind" in warning.message and warning.level == "warning"


def test_bolivia_is_samba_with_its_changes():
    samba, bolivia = RULESETS["samba"], RULESETS["bolivia"]
    # a sequence canasta is an "escalera" (Samba's 1,500), seven wild cards a "bolivia", 2,500
    assert bolivia.books == {"clean": 500, "dirty": 300, "escalera": 1500, "bolivia": 2500}
    assert bolivia.end == {"score": 15000}
    assert bolivia.books_to_go_out == {"escalera": 1, "any": 2}
    # the initial meld stays at 150 from 7,000 up
    assert [meld_minimum(bolivia, 2, s) for s in (-5, 0, 1500, 3000, 6995, 7000, 14000)] == [
        15,
        50,
        90,
        120,
        120,
        150,
        150,
    ]
    assert bolivia.black_three == {"went_out": -100, "other_went_out": -100, "nobody_out": -5}
    assert bolivia.black_three_out == 5
    assert bolivia.say.game == "Bolivia" and bolivia.book_label("bolivia") == "Bolivia canastas"
    # the rest is Samba's
    same = ("card_values", "red_three", "red_three_melded", "red_threes_all", "not_melded_books", "going_out")
    assert all(getattr(bolivia, name) == getattr(samba, name) for name in same)
    assert bolivia.deal == samba.deal and bolivia.going_out_concealed == 0


def test_a_bolivia_game_worked_by_hand():
    bolivia = RULESETS["bolivia"]
    rounds = [
        # A: escalera 1500 + bolivia 2500 + natural 500 + 1000 + out 200 + 2 black 3s melded 10 = 5710
        # B: 2 mixed 600 + 450 − 80 − 2 black 3s left in hand 200 + 2 red 3s 200 = 970
        [
            TR(
                books(natural=1, escalera=1, bolivia=1),
                melded_points=1000,
                black_threes_out=2,
                went_out=True,
            ),
            TR(books(mixed=2), melded_points=450, unplayed_points=80, black_threes=2, red_threes_melded=2),
        ],
        # nobody goes out (the stock ran out): a black 3 left in hand is its 5 points
        # A: natural 500 + 260 − 35 − 5 = 720 → 6430
        # B: escalera 1500 + mixed 300 + 640 − 15 + a red 3 100 = 2525 → 3495
        [
            TR(books(natural=1), melded_points=260, unplayed_points=35, black_threes=1),
            TR(books(mixed=1, escalera=1), melded_points=640, unplayed_points=15, red_threes_melded=1),
        ],
        # A: 2 natural 1000 + escalera 1500 + 1150 + out 200 = 3850 → 10280
        # B: a black 3 held by a partner when A went out: mixed 300 + 200 − 60 − 100 = 340 → 3835
        [
            TR(books(natural=2, escalera=1), melded_points=1150, went_out=True),
            TR(books(mixed=1), melded_points=200, unplayed_points=60, black_threes=1),
        ],
    ]
    s = standings(bolivia, rounds)
    assert [[score.total for score in scores] for scores in s.round_scores] == [
        [5710, 970],
        [720, 2525],
        [3850, 340],
    ]
    assert s.totals == [10280, 3835]
    assert not s.finished  # Samba's 10,000 is passed, Bolivia's game is 15,000
    # A 5,710 → 120, 6,430 → 120; B 970 → 50, 3,495 → 120
    assert s.meld_minimums == [[50, 50], [120, 50], [120, 120]]
    for number, entries in enumerate(rounds, start=1):
        assert check_round(bolivia, entries, number, players=4) == [], number


def test_bolivia_goes_out_only_with_an_escalera():
    bolivia = RULESETS["bolivia"]
    out = TR(books(natural=2), melded_points=500, went_out=True)
    [warning] = check_round(bolivia, [out, TR()], 1)
    assert "escalera" in warning.message and warning.level == "warning"


@pytest.mark.parametrize("key", ["samba", "bolivia"])
def test_the_presets_read_and_write_back(key):
    rules = RULESETS[key]
    assert RuleSet.from_json(rules.to_json()) == rules
    assert rules.to_dict()["not_melded_books"] == 2
