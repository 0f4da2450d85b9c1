"""A knee in the deal (issue 23): Hand, Knee and Foot's third pile, read, bounded,
written back only when there is one, named in the rules' words; and the worked
example in docs/house-rules.md, loaded and a round of it scored by hand."""

import dataclasses
import json
import re
from pathlib import Path

import pytest

from scorekeeper.scoring import (
    RULESETS,
    RuleSet,
    TeamRound,
    check_round,
    dealt,
    deck,
    score_team_round,
    standings,
)
from scorekeeper.web.formatting import deal_cards, deal_words

DOCS = Path(__file__).parents[2] / "docs"
EXAMPLE = DOCS / "hand-knee-and-foot.json"
TABLET = RULESETS["tablet"]


def with_deal(deal, words=None, rules=TABLET):
    return dataclasses.replace(rules, deal=deal, words=words)


def test_a_knee_is_read_and_written_between_the_hand_and_the_foot():
    rules = with_deal({"foot": 11, "knee": 13, "hand": 15, "decks": 6})
    assert list(rules.deal.items()) == [("decks", 6), ("hand", 15), ("knee", 13), ("foot", 11), ("jokers", 2)]
    assert '"hand": 15,\n    "knee": 13,\n    "foot": 11,' in rules.to_json()
    assert RuleSet.from_json(rules.to_json()) == rules


@pytest.mark.parametrize("knee", [None, 0])
def test_no_knee_is_not_written(knee):
    deal = {"decks": 5, "hand": 11, "foot": 11} | ({} if knee is None else {"knee": knee})
    rules = with_deal(deal)
    assert rules.deal == {"decks": 5, "hand": 11, "foot": 11, "jokers": 2}
    assert "knee" not in rules.to_json()


def test_every_file_without_a_knee_writes_back_byte_for_byte():
    """Each preset's file, and one written before knees existed, is read and
    written back exactly as it was."""
    for key, rules in RULESETS.items():
        written = rules.to_json()
        assert "knee" not in written, key
        assert RuleSet.from_json(written).to_json() == written, key
    before = (
        '{"name": "Old house", "card_values": {"joker": 50, "2": 20, "A": 20, "K": 10, "Q": 10, '
        '"J": 10, "10": 10, "9": 10, "8": 10, "7": 5, "6": 5, "5": 5, "4": 5}, "black_three": -5, '
        '"red_three": -500, "red_three_melded": 0, "books": {"clean": 500, "dirty": 300}, '
        '"going_out": 100, "cut_22": 0, "penalty": 0, "meld_minimum": null, "books_to_go_out": null, '
        '"end": null, "deal": {"decks": 5, "hand": 11, "foot": 11, "jokers": 2}}'
    )
    again = json.dumps(RuleSet.from_json(before).to_dict())
    assert again == before


@pytest.mark.parametrize(
    ("knee", "message"),
    [
        (-1, "deal.knee: must be at least 0, not -1"),
        (51, "deal.knee: must be at most 50, not 51"),
        ("13", "deal.knee: must be a whole number, not '13'"),
        (True, "deal.knee: must be a whole number, not True"),
        (13.0, "deal.knee: must be a whole number, not 13.0"),
    ],
)
def test_a_bad_knee_is_refused_naming_it(knee, message):
    with pytest.raises(ValueError) as refused:
        with_deal({"decks": 6, "hand": 15, "knee": knee, "foot": 11})
    assert str(refused.value) == message


def test_an_unknown_field_of_the_deal_names_the_knee_among_the_fields():
    with pytest.raises(ValueError) as refused:
        with_deal({"decks": 6, "hand": 15, "ankle": 13, "foot": 11})
    assert str(refused.value) == "deal.ankle: not a field of the deal (decks, hand, knee, foot, jokers)"


def test_the_deck_and_the_piles_dealt():
    hkf = with_deal({"decks": 6, "hand": 15, "knee": 13, "foot": 11}, {"piles": ["hand", "knee", "foot"]})
    table = deck(hkf, 4)
    assert (table.hand, table.knee, table.foot) == (15, 13, 11)
    assert deck(TABLET, 4).knee == 0
    assert dealt(hkf) == (("hand", 15), ("knee", 13), ("foot", 11))
    assert dealt(TABLET) == (("hand", 11), ("foot", 11))
    assert dealt(RULESETS["samba"]) == (("hand", 15),)
    assert dealt(with_deal(None)) == ()
    # a pile the words do not name is called what Hand, Knee and Foot calls it
    unnamed = with_deal(hkf.deal, None)
    assert dealt(unnamed) == (("hand", 15), ("knee", 13), ("foot", 11))
    own = with_deal(hkf.deal, {"piles": ["hand", "middle", "feet"]})
    assert dealt(own) == (("hand", 15), ("middle", 13), ("feet", 11))


def test_the_deal_in_words_and_on_a_sheets_line():
    hkf = with_deal({"decks": 6, "hand": 15, "knee": 13, "foot": 11}, {"piles": ["hand", "knee", "foot"]})
    assert deal_words(hkf) == "15 cards in a hand, 13 in a knee and 11 in a foot"
    assert deal_cards(hkf) == "15 + 13 + 11 cards (hand, knee and foot)"
    assert deal_words(TABLET) == "11 cards in a hand and 11 in a foot"
    assert deal_cards(TABLET) == "11 + 11 cards (hand and foot)"
    no_foot = with_deal({"decks": 3, "hand": 15, "foot": 0})
    assert (deal_words(no_foot), deal_cards(no_foot)) == ("15 cards in a hand, no foot", "15 cards")
    samba = RULESETS["samba"]  # one pile named, one dealt
    assert (deal_words(samba), deal_cards(samba)) == ("15 cards in a hand", "15 cards")
    assert deal_words(with_deal(None)) == deal_cards(with_deal(None)) == ""


# --- the worked example ------------------------------------------------------------


def example():
    return RuleSet.from_json(EXAMPLE.read_text(encoding="utf-8"))


def test_the_example_file_loads_and_writes_back_byte_for_byte():
    text = EXAMPLE.read_text(encoding="utf-8")
    rules = RuleSet.from_json(text)
    assert rules.to_json() == text
    assert rules.deal["knee"] == 13 and rules.say.piles_and == "hand, knee and foot"
    # what twrtimes.com gives: 7 decks for three alone, 6 for two teams of two, 7 for two of three
    assert [deck(rules, players).decks for players in (3, 4, 6)] == [7, 6, 7]
    assert (rules.red_three_melded, rules.red_three_book, rules.red_three) == (100, 1000, -500)


def test_the_doc_shows_the_example_files_own_values():
    """docs/house-rules.md's fragment of the example is what the file holds."""
    doc = (DOCS / "house-rules.md").read_text(encoding="utf-8")
    section = doc.split("## A worked example: Hand, Knee and Foot", 1)[1]
    fragment = re.search(r"```json\n(.*?)```", section, re.S)[1]
    shown = json.loads("{" + fragment + "}")
    written = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    assert shown == {key: written[key] for key in shown}
    assert "docs/hand-knee-and-foot.json" in section and "family's own choice" in section


def TR(clean=0, dirty=0, **fields):
    return TeamRound(books={"clean": clean, "dirty": dirty}, **fields)


def test_a_hand_knee_and_foot_round_worked_by_hand():
    rules = example()  # two teams of two: six decks, 12 red 3s
    ann_bo = TR(
        clean=2,
        dirty=2,
        melded_points=620,
        red_threes_melded=2,
        red_three_books=1,
        went_out=True,
    )
    cy_di = TR(
        dirty=1, melded_points=350, unplayed_points=85, red_threes=1, black_threes=2, red_threes_melded=1
    )
    # Ann & Bo: 2 clean 1,000 + 2 dirty 600 + 620 + 2 red 3s laid down 200
    #           + a book of seven red 3s 1,000 (its 3s not counted again) + going out 100 = 3,520
    # Cy & Di:  1 dirty 300 + 350 − 85 − a red 3 caught 500 − 2 black 3s 10 + a red 3 laid down 100 = 155
    assert score_team_round(rules, ann_bo, 1).total == 3520
    assert score_team_round(rules, cy_di, 1).total == 155
    s = standings(rules, [[ann_bo, cy_di]])
    assert s.running_totals == [[3520, 155]]
    assert s.meld_minimums == [[50, 50]]
    # 2 + 7 + 1 + 1 = 11 red 3s of the deck's 12: nothing for the checks to say
    assert check_round(rules, [ann_bo, cy_di], 1, players=4) == []
    # a thirteenth red 3 is more than six decks hold
    [warning] = check_round(rules, [ann_bo, dataclasses.replace(cy_di, red_threes=3)], 1, players=4)
    assert warning.level == "warning"
    assert warning.message == "The teams report 13 red 3s in all, but 6 decks hold 12."
