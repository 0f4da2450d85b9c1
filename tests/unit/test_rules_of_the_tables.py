"""The rules as Buraco and Burraco tables play them (issue 56), worked by hand.

A tie for the lead at the target is played off at a casual table (another hand until one team
leads) and is a draw in a tournament turn; every rule set written before keeps its ties.
"""

import json

from scorekeeper.scoring import RULESETS, RuleSet, TeamRound, standings

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
