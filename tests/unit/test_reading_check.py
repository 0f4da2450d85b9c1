"""The reader's checks (issue 55): what was read from a sheet against the game's rules.

No photo here: each box's reading is made by hand (its digits and the model's chances),
as ``reading.read`` would give it, for a game of Friends & Family worked out by hand:

round 1, team 1: 2 clean books (1,000), 2 dirty (600), 1,235 melded, went out (100): 2,935
round 1, team 2: 1 clean book (500), 480 melded, 235 left in hand (-235), a black 3 (-5): 740
round 2, team 1: 1 clean book (500), 650 melded, 120 left (-120), a red 3 caught when the
    other team went out (-500): 530, a total of 2,935 + 530 = 3,465
round 2, team 2: 4 clean books (2,000), 5 dirty (1,500), 2,105 melded, went out (100):
    5,705, a total of 740 + 5,705 = 6,445
"""

import pytest

from scorekeeper import reading
from scorekeeper.printing import layout
from scorekeeper.reading import digits
from scorekeeper.scoring import RULESETS

RULES = RULESETS["friends-family"]
WRITTEN = {
    (1, 0): dict(
        book_clean=2, book_dirty=2, melded_points=1235, went_out=1, sheet_score=2935, sheet_total=2935
    ),
    (1, 1): dict(book_clean=1, book_dirty=0, melded_points=480, unplayed_points=235, black_threes=1),
    (2, 0): dict(book_clean=1, book_dirty=0, melded_points=650, unplayed_points=120, red_threes=1),
    (2, 1): dict(book_clean=4, book_dirty=5, melded_points=2105, went_out=1, sheet_score=5705),
}
WRITTEN[(1, 0)] |= dict(sheet_total=2935)
WRITTEN[(1, 1)] |= dict(sheet_score=740, sheet_total=740)
WRITTEN[(2, 0)] |= dict(sheet_score=530, sheet_total=3465)
WRITTEN[(2, 1)] |= dict(sheet_total=6445)


@pytest.fixture(scope="module")
def geom():
    return layout.geometry(RULES, 2, 2, "letter")


def box_reading(box, value, *, second=None, confidence=0.99, mark=None):
    """The reading of a comb that says ``value``; ``second`` {digit position from the
    right: (the digit the model thought second, its chance)}."""
    count = box.digits
    if box.line.kind == "flag":
        cell = (
            digits.Reading(None, 1.0)
            if not value
            else digits.Reading(1, 1.0, tuple([0.0] + [1.0] + [0.0] * 8))
        )
        return reading.BoxReading(box, value or None, 1.0, (cell,), False, (None,), b"", mark)
    text = "" if value is None else str(abs(value))
    cells = [digits.Reading(None, 1.0)] * (count - len(text))
    for position, character in enumerate(text):
        from_right = len(text) - 1 - position
        chances = [0.001] * 10
        digit, chance = int(character), confidence
        if second and from_right in second:
            other, other_chance = second[from_right]
            chances[other] = other_chance
        chances[digit] = chance
        cells.append(digits.Reading(digit, chance, tuple(chances)))
    images = tuple(None if c.blank else object() for c in cells)
    return reading.BoxReading(
        box, value, confidence, tuple(cells), value is not None and value < 0, images, b"", mark
    )


def readings(geom, changed=None, written=WRITTEN):
    """Every box of the page as ``written``, but ``changed``: {key: (value read, second choices)}."""
    changed = changed or {}
    result = {}
    for box in geom.boxes():
        key = (box.round, box.team, box.name)
        value = written[(box.round, box.team)].get(box.name)
        if box.line.kind != "flag" and value is None and box.name not in ("black_threes", "red_threes"):
            value = 0
        if key in changed:
            value, second = changed[key]
            result[key] = box_reading(box, value, second=second)
        else:
            result[key] = box_reading(box, value)
    return result


def test_a_sheet_read_right_agrees_with_the_engine(geom):
    checked = reading.check(RULES, geom, readings(geom), before=[])
    assert not [key for key, r in checked.readings.items() if r.mark]
    columns = {key: (c.score, c.total, c.agrees) for key, c in checked.columns.items()}
    assert columns == {
        (1, 0): (2935, 2935, True),
        (1, 1): (740, 740, True),
        (2, 0): (530, 3465, True),
        (2, 1): (5705, 6445, True),
    }
    assert checked.rounds[2][1].books == {"clean": 4, "dirty": 5}


def test_one_digit_misread_is_repaired_by_the_sums(geom):
    # 1,235 melded read as 1,735 (the model's second choice for the hundreds: a 2)
    key = (1, 0, "melded_points")
    checked = reading.check(RULES, geom, readings(geom, {key: (1735, {2: (2, 0.3)})}), before=[])
    repaired = checked.readings[key]
    assert (repaired.value, repaired.was, repaired.mark) == (1235, 1735, "repaired")
    assert checked.columns[(1, 0)].agrees is True and checked.columns[(1, 0)].repaired == key
    assert [k for k, r in checked.readings.items() if r.mark] == [key]


def test_a_misread_total_is_repaired_when_the_model_was_unsure(geom):
    # 6,445 read as 6,446, the 5 the model's second choice
    key = (2, 1, "sheet_total")
    checked = reading.check(RULES, geom, readings(geom, {key: (6446, {0: (5, 0.2)})}), before=[])
    assert (checked.readings[key].value, checked.readings[key].mark) == (6445, "repaired")


def test_the_familys_slip_in_a_total_is_shown_not_repaired(geom):
    # the family wrote 3,365 for 2,935 + 530 = 3,465; read right, with confidence
    key = (2, 0, "sheet_total")
    checked = reading.check(RULES, geom, readings(geom, {key: (3365, None)}), before=[])
    assert (checked.readings[key].value, checked.readings[key].mark) == (3365, "disagrees")
    column = checked.columns[(2, 0)]
    assert (column.score, column.total, column.sheet_total, column.agrees) == (530, 3465, 3365, False)
    assert checked.readings[(2, 0, "sheet_score")].mark is None


def test_a_value_the_rules_forbid_is_marked_and_the_other_teams_still_checked(geom):
    # 1,233 melded: no cards make it (they count in fives); no second choice explains it
    # as the round score is not written
    key = (1, 0, "melded_points")
    changed = {key: (1233, None), (1, 0, "sheet_score"): (None, None), (1, 0, "sheet_total"): (None, None)}
    checked = reading.check(RULES, geom, readings(geom, changed), before=[])
    assert checked.readings[key].mark == "forbidden" and checked.readings[key].note
    assert checked.columns[(1, 0)].score is None
    assert checked.columns[(1, 1)].agrees is True  # 740 all the same


def test_a_forbidden_value_is_repaired_where_the_sums_say_which(geom):
    key = (1, 0, "melded_points")
    checked = reading.check(RULES, geom, readings(geom, {key: (1233, {0: (5, 0.05)})}), before=[])
    assert (checked.readings[key].value, checked.readings[key].mark) == (1235, "repaired")


def test_two_boxes_that_could_explain_it_are_left_to_the_family_where_no_total_says_which(geom):
    # the 2 clean books read as 3 and the round score's 2,935 read as 3,435: with no total
    # written, the two agree with each other and nothing says both were misread: nothing
    # is repaired (round 2's total, carried on from 2,935, then disagrees)
    changed = {
        (1, 0, "book_clean"): (3, {0: (2, 0.1)}),
        (1, 0, "sheet_score"): (3435, {2: (9, 0.1)}),
        (1, 0, "sheet_total"): (None, None),
    }
    checked = reading.check(RULES, geom, readings(geom, changed), before=[])
    assert not [k for k, r in checked.readings.items() if r.mark == "repaired"]
    assert [checked.readings[k].value for k in ((1, 0, "book_clean"), (1, 0, "sheet_score"))] == [3, 3435]
    assert checked.columns[(2, 0)].agrees is False
    # with the total written, 2,935 (the engine's with 2 books, and round 2 carries it on),
    # changing either box back alone does not make the column agree: the chain says both
    # were misread, and both are repaired
    del changed[(1, 0, "sheet_total")]
    checked = reading.check(RULES, geom, readings(geom, changed), before=[])
    assert [(k, r.value, r.was) for k, r in checked.readings.items() if r.mark == "repaired"] == [
        ((1, 0, "book_clean"), 2, 3),
        ((1, 0, "sheet_score"), 2935, 3435),
    ]


def test_a_page_after_the_first_carries_the_earlier_rounds_totals():
    geom = layout.geometry(RULES, 2, 2, "letter")
    # the first round as the game has it: the page's round 2 totals carry on from it
    page = {k: r for k, r in readings(geom).items() if k[0] == 2}
    earlier = reading.check(RULES, geom, readings(geom), before=[]).rounds[1]
    assert all(c.agrees for c in reading.check(RULES, geom, page, before=[earlier]).columns.values())
    # not known: the round scores alone are compared
    unknown = reading.check(RULES, geom, page, before=None)
    assert [(c.total, c.agrees) for c in unknown.columns.values()] == [(None, True), (None, True)]


def test_unread_boxes_are_never_repaired(geom):
    key = (1, 0, "melded_points")
    page = readings(geom)
    page[key] = reading.BoxReading(page[key].box, None, 0.0, page[key].cells, False, (), b"", "unread")
    checked = reading.check(RULES, geom, page, before=[])
    assert checked.readings[key].mark == "unread" and checked.readings[key].value is None
    assert not [k for k, r in checked.readings.items() if r.mark == "repaired"]


def test_a_round_score_misread_with_confidence_is_repaired_when_the_total_vouches(geom):
    # 530 read as 580, the model sure of its 8; the total 3,465 is the engine's: the
    # entries are right and the family's sums with them, so the score box was misread
    key = (2, 0, "sheet_score")
    checked = reading.check(RULES, geom, readings(geom, {key: (580, None)}), before=[])
    assert (checked.readings[key].value, checked.readings[key].was, checked.readings[key].mark) == (
        530,
        580,
        "repaired",
    )


def test_a_count_no_sum_checks_is_unsure_unless_read_surely(geom):
    # team 1 went out in round 1: its red 3s count for nothing, so its sums agree whatever
    # the box says; 2 read with a confidence of 0.92 (a 2 for a 1 at 0.92, on the bench)
    key, vouched = (1, 0, "red_threes"), (2, 0, "red_threes")  # round 2: -500 each
    page = readings(geom)
    page[key] = box_reading(page[key].box, 2, confidence=0.92)
    page[vouched] = box_reading(page[vouched].box, 1, confidence=0.92)
    checked = reading.check(RULES, geom, page, before=[])
    assert checked.readings[key].mark == "unsure" and checked.columns[(1, 0)].agrees is True
    assert checked.readings[vouched].mark is None  # one more would make the sums disagree
    # a 1 read as a 7 at 0.996 (seed 56 of the bench) is not sure enough either
    page[key] = box_reading(page[key].box, 7, confidence=0.996)
    assert reading.check(RULES, geom, page, before=[]).readings[key].mark == "unsure"
    page[key] = box_reading(page[key].box, 2, confidence=0.9995)
    assert reading.check(RULES, geom, page, before=[]).readings[key].mark is None


def test_a_total_misread_with_confidence_is_repaired_when_the_next_round_carries_it_right(geom):
    # round 1's 2,935 read as 2,985, the model sure of its 8: round 2's total less its
    # score (3,465 - 530) is 2,935, the engine's, so the family carried 2,935 on
    key = (1, 0, "sheet_total")
    checked = reading.check(RULES, geom, readings(geom, {key: (2985, None)}), before=[])
    assert (checked.readings[key].value, checked.readings[key].was, checked.readings[key].mark) == (
        2935,
        2985,
        "repaired",
    )
    assert checked.columns[(1, 0)].agrees is True


def test_a_slip_carried_on_to_the_next_round_is_shown_not_repaired(geom):
    # the family wrote 2,835 for 2,935 and carried it on: 2,835 + 530 = 3,365
    changed = {(1, 0, "sheet_total"): (2835, None), (2, 0, "sheet_total"): (3365, None)}
    checked = reading.check(RULES, geom, readings(geom, changed), before=[])
    assert checked.readings[(1, 0, "sheet_total")].mark == "disagrees"
    assert checked.readings[(1, 0, "sheet_total")].value == 2835
    assert not [k for k, r in checked.readings.items() if r.mark == "repaired"]


def test_a_round_score_and_its_total_both_misread_are_repaired_by_the_chain(geom):
    # round 1's 2,935 read as 2,936 in both sums, the model's second choice a 5 each time:
    # no one box explains the column; round 2's total less its score (3,465 - 530) is
    # 2,935, the family's own chain, so both boxes were misread
    changed = {(1, 0, "sheet_score"): (2936, {0: (5, 0.3)}), (1, 0, "sheet_total"): (2936, {0: (5, 0.3)})}
    checked = reading.check(RULES, geom, readings(geom, changed), before=[])
    assert [(k, r.value, r.was) for k, r in checked.readings.items() if r.mark == "repaired"] == [
        ((1, 0, "sheet_score"), 2935, 2936),
        ((1, 0, "sheet_total"), 2935, 2936),
    ]
    assert checked.columns[(1, 0)].agrees is True


def test_an_entry_and_its_round_score_both_misread_are_repaired_where_the_total_vouches(geom):
    # round 2, team 2: 2,105 melded read as 2,165 and the score 5,705 as 5,765, the model's
    # second choice a 0 each time; the total, 6,445, is the engine's with 2,105 and 5,705
    changed = {
        (2, 1, "melded_points"): (2165, {1: (0, 0.2)}),
        (2, 1, "sheet_score"): (5765, {1: (0, 0.2)}),
    }
    checked = reading.check(RULES, geom, readings(geom, changed), before=[])
    assert [(k, r.value, r.was) for k, r in checked.readings.items() if r.mark == "repaired"] == [
        ((2, 1, "melded_points"), 2105, 2165),
        ((2, 1, "sheet_score"), 5705, 5765),
    ]
    assert checked.columns[(2, 1)].agrees is True


def test_a_slip_in_the_last_total_beside_a_misread_score_is_shown_not_repaired(geom):
    # round 2, team 1: the score 530 read as 580 (a 3 the second choice), and the family
    # wrote 3,565 for 3,465 in the page's last round: nothing carries the total on, so the
    # total read with confidence may be the family's slip: the column is the family's to say
    changed = {(2, 0, "sheet_score"): (580, {1: (3, 0.3)}), (2, 0, "sheet_total"): (3565, {2: (4, 0.3)})}
    checked = reading.check(RULES, geom, readings(geom, changed), before=[])
    assert not [k for k, r in checked.readings.items() if r.mark == "repaired"]
    assert checked.readings[(2, 0, "sheet_total")].mark == "disagrees"
    assert checked.columns[(2, 0)].agrees is False


def test_a_misread_that_undoes_the_familys_slip_is_marked_unsure(geom):
    # the family wrote 2,835 for 2,935 and carried it on (3,365); the 8 read as a 9, the
    # total agrees with the engine's, but round 2 carries 2,835 on: the total is unsure
    changed = {(1, 0, "sheet_total"): (2935, None), (2, 0, "sheet_total"): (3365, None)}
    checked = reading.check(RULES, geom, readings(geom, changed), before=[])
    assert checked.columns[(1, 0)].agrees is True
    assert checked.readings[(1, 0, "sheet_total")].mark == "unsure"
    assert checked.readings[(2, 0, "sheet_total")].mark == "disagrees"


#: the page of three rounds: round 3, team 1: 4 clean books (2,000), 5 dirty (1,500), 300
#: melded, went out (100): 3,900, a total of 3,465 + 3,900 = 7,365; team 2: 1 clean book
#: (500), 400 melded, 100 left (-100): 800, a total of 6,445 + 800 = 7,245
THREE_ROUNDS = {
    **WRITTEN,
    (3, 0): dict(book_clean=4, book_dirty=5, melded_points=300, went_out=1, sheet_score=3900),
    (3, 1): dict(book_clean=1, book_dirty=0, melded_points=400, unplayed_points=100, sheet_score=800),
}
THREE_ROUNDS[(3, 0)] |= dict(sheet_total=7365)
THREE_ROUNDS[(3, 1)] |= dict(sheet_total=7245)


def test_a_column_left_to_the_family_keeps_who_went_out_for_the_other_teams_totals():
    # Round 2, team 2 (who went out): 5 dirty books read as 8 and 2,105 melded as 2,705,
    # both surely: no box explains its sums, its column is the family's to say and counts
    # at the sheet's 5,705 for the totals after it; team 1's red 3, caught when team 2 went
    # out, still counts -500, so round 3's total, 7,365, agrees (seed 56 of the bench: a
    # column read right "repaired" twice by the chain, 500 points off)
    geom = layout.geometry(RULES, 2, 3, "letter")
    changed = {(2, 1, "book_dirty"): (8, None), (2, 1, "melded_points"): (2705, None)}
    checked = reading.check(RULES, geom, readings(geom, changed, THREE_ROUNDS), before=[])
    assert checked.columns[(2, 1)].agrees is False
    assert not [k for k, r in checked.readings.items() if r.mark == "repaired"]
    assert (checked.columns[(3, 0)].total, checked.columns[(3, 0)].agrees) == (7365, True)
    assert not [k for k, r in checked.readings.items() if k[:2] == (3, 0) and r.mark]


def test_a_total_misread_as_an_entry_was_does_not_vouch_for_the_round_score_the_next_round_denies():
    # round 2, team 2: 2,105 melded read as 2,405 and its total 6,445 as 6,745, both surely,
    # the score 5,705 read right: the entry as read makes a score of 6,005 (two digits of
    # 5,705 changed) and the total read. Round 3's total less its score (a digit of it unsure)
    # is 7,245 - 800 = 6,445: the family carried 6,445 on, so the total read does not vouch
    # for 6,005, and the column is the family's to say (seed 55 of the bench: 2,315 melded
    # read as 2,375, 7,810 as 7,870, the round score 3,340 "repaired" to 3,400)
    geom = layout.geometry(RULES, 2, 3, "letter")
    changed = {(2, 1, "melded_points"): (2405, None), (2, 1, "sheet_total"): (6745, None)}
    page = readings(geom, changed, THREE_ROUNDS)
    key = (3, 1, "sheet_score")
    page[key] = box_reading(page[key].box, 800, confidence=0.6, mark="unsure")
    checked = reading.check(RULES, geom, page, before=[])
    assert not [k for k, r in checked.readings.items() if r.mark == "repaired"]
    assert checked.readings[(2, 1, "sheet_score")].value == 5705
    assert checked.columns[(2, 1)].agrees is False
