"""The rules as Buraco and Burraco tables play them (issue 56), worked by hand.

A tie for the lead at the target is played off at a casual table (another hand until one team
leads) and is a draw in a tournament turn; every rule set written before keeps its ties. An
ace-to-ace canastra is clean for the batida. 3s are cards worth 5 (the deck's points, the
card-count helper). Buraco's points left are the hand's: a morto's cards never count.
"""

import json

from scorekeeper.scoring import (
    RULESETS,
    RuleSet,
    TeamRound,
    card_points,
    check_round,
    entry_fields,
    score_round,
    standings,
    tier_limits,
    value_tiers,
)
from scorekeeper.scoring.deal import deck

BURACO, BURRACO, TORNEO = RULESETS["buraco"], RULESETS["burraco"], RULESETS["burraco-torneo"]


def melded(*points):
    """A round in which each team only melded these points (no books, nobody out)."""
    return [TeamRound(melded_points=p) for p in points]


# --- a tie at the target ---------------------------------------------------------------


def test_a_buraco_game_tied_past_its_target_takes_another_round():
    # both teams at 4,700 in a game to 3,000: 2,500 + 2,200 each
    rounds = [melded(2500, 2500), melded(2200, 2200)]
    s = standings(BURACO, rounds)
    assert s.totals == [4700, 4700]
    assert not s.finished and s.winners == [] and s.next_round == 3
    # the third hand breaks it: 4,700 + 150 = 4,850 against 4,700 + 90 = 4,790
    s = standings(BURACO, [*rounds, melded(150, 90)])
    assert s.totals == [4850, 4790]
    assert s.finished and s.winners == [0] and s.ended_after == 3


def test_a_tie_played_off_can_tie_again_and_goes_on():
    rounds = [melded(3000, 3000), melded(100, 100)]
    s = standings(BURACO, rounds)
    assert s.totals == [3100, 3100] and not s.finished
    s = standings(BURACO, [*rounds, melded(40, 60)])
    assert s.totals == [3140, 3160] and s.winners == [1] and s.ended_after == 3


def test_a_tie_behind_the_leader_is_no_tie_for_the_lead():
    # three teams: 3,200 leads alone, the two others tie at 2,900
    s = standings(BURACO, [melded(3200, 2900, 2900)])
    assert s.finished and s.winners == [0] and s.ended_after == 1


def test_a_burraco_table_plays_a_tie_off_too():
    s = standings(BURRACO, [melded(2005, 2005)])
    assert not s.finished
    s = standings(BURRACO, [melded(2005, 2005), melded(0, 5)])
    assert s.totals == [2005, 2010] and s.winners == [1]


def test_a_tournament_turns_tie_is_a_draw():
    # FIBUR's turn of three hands: 400 + 300 + 250 = 950 each, a draw after the third
    s = standings(TORNEO, [melded(400, 300), melded(300, 400), melded(250, 250)])
    assert s.totals == [950, 950]
    assert s.finished and s.winners == [0, 1] and s.ended_after == 3


def test_the_table_may_still_end_a_tied_game_by_hand():
    s = standings(BURACO, [melded(3000, 3000)], ended=True)
    assert s.finished and s.winners == [0, 1]


def test_rule_sets_saved_before_keep_their_ties():
    # Buraco's preset as it was stored before the rule existed: no "tie" in its file
    before = BURACO.to_dict()
    del before["tie"]
    old = RuleSet.from_dict(before)
    assert old.tie == "draw"
    s = standings(old, [melded(2500, 2500), melded(2200, 2200)])
    assert s.totals == [4700, 4700] and s.finished and s.winners == [0, 1] and s.ended_after == 2
    # and such a file is written back without the new field, byte for byte
    assert "tie" not in json.loads(old.to_json())
    assert json.loads(BURACO.to_json())["tie"] == "play_on"


def test_every_other_preset_lets_a_tie_stand():
    assert {key for key, rules in RULESETS.items() if rules.tie == "play_on"} == {"buraco", "burraco"}


# --- an ace-to-ace canastra is clean -----------------------------------------------------


def test_going_out_with_only_an_ace_to_ace_canastra_is_going_out_clean():
    # the batida asks a clean canastra; an ace-to-ace one (14 naturals) is one
    us = TeamRound(books={"ace_to_ace": 1}, melded_points=260, went_out=True)
    them = TeamRound(books={"dirty": 1}, melded_points=235, unplayed_points=45)
    assert check_round(BURACO, [us, them], 1) == []
    # 260 cards + 1,000 ace to ace + 100 batida = 1,360; 235 + 100 dirty − 45 = 290
    assert [s.total for s in score_round(BURACO, [us, them], 1)] == [1360, 290]


def test_a_dirty_canastra_alone_is_still_no_batida():
    us = TeamRound(books={"dirty": 1}, melded_points=260, went_out=True)
    [problem] = check_round(BURACO, [us, TeamRound(melded_points=100)], 1)
    assert problem.field == "went_out" and problem.team == 0


# --- 3s are cards worth 5 in Buraco and Burraco --------------------------------------------


def test_the_deck_holds_its_3s_points():
    # two packs with four jokers; per pack: jokers 2 × 20, 2s 4 × 10, aces 4 × 15, K–8 24 × 10,
    # 7–4 16 × 5, 3s 4 × 5 = 40 + 40 + 60 + 240 + 80 + 20 = 480; two packs: 960
    assert deck(BURACO, 4).points(BURACO) == 960
    # Burraco: jolly 2 × 30, pinelle 4 × 20, aces 60, K–8 240, 7–4 80, 3s 20 = 540; × 2 = 1,080
    assert deck(BURRACO, 4).points(BURRACO) == 1080
    # Hand and Foot's 3s are scored apart: no card value (the Roth family's six decks: 2,160)
    assert deck(RULESETS["roth"], 4).points(RULESETS["roth"]) == 2160


def test_the_deck_warning_waits_for_the_3s():
    # 950 held together: more than 920 (the deck without its 3s), not more than 960
    entries = [TeamRound(melded_points=600, unplayed_points=350), TeamRound()]
    assert not [p for p in check_round(BURACO, entries, 1, players=4) if "deck" in p.message]
    entries = [TeamRound(melded_points=600, unplayed_points=365), TeamRound()]
    assert [p for p in check_round(BURACO, entries, 1, players=4) if "deck" in p.message]


def test_the_card_count_helper_has_a_row_for_the_3s():
    assert [(t.label, t.value) for t in value_tiers(BURACO)][-1] == ("3–7", 5)
    assert [(t.label, t.value) for t in value_tiers(BURRACO)][-1] == ("3–7", 5)
    # eight 3s a table of two packs holds, with the 4s to 7s: 5 ranks × 4 suits × 2 packs
    assert tier_limits(BURACO, 4)[-1] == 40
    # two 3s and a 7 left in hand: 5 + 5 + 5 = 15
    assert card_points(BURACO, {"3": 2, "7": 1}) == 15
    assert "3" not in value_tiers(RULESETS["roth"])[-1].ranks


# --- Buraco's points left are the hand's -------------------------------------------------


def test_buracos_points_left_are_in_hand_only():
    said = {f.name: f for f in entry_fields(BURACO)}["unplayed_points"]
    assert (said.label, said.line, said.log) == ("Points left in hand", "Left in hand", "left in hand")
    # Burraco counts a pozzetto taken but not played with the points left: hand and pozzetto
    said = {f.name: f for f in entry_fields(BURRACO)}["unplayed_points"]
    assert said.label == "Points left in hand and pozzetto"
    said = {f.name: f for f in entry_fields(RULESETS["roth"])}["unplayed_points"]
    assert said.label == "Points left in hand and foot"
