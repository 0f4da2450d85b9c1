"""A tournament turn's victory points (issue 56): FIBUR's tables from the points difference,
for turns of 3 and of 4 hands, as puntiburraco.it gives them ("Partite e Punti Vittoria nei
Tornei di Burraco"); the values below are written from that page, band by band."""

import dataclasses

import pytest

from scorekeeper.scoring import RULESETS, RuleSet, TeamRound, standings, victory_points

TORNEO = RULESETS["burraco-torneo"]
FOUR_HANDS = dataclasses.replace(TORNEO, end={"rounds": 4})

# (points difference, the winner's victory points, the loser's): each band's two ends
THREE = [
    (0, 10, 10), (50, 10, 10), (55, 11, 9), (150, 11, 9), (155, 12, 8), (250, 12, 8),
    (255, 13, 7), (350, 13, 7), (355, 14, 6), (500, 14, 6), (505, 15, 5), (650, 15, 5),
    (655, 16, 4), (800, 16, 4), (805, 17, 3), (1000, 17, 3), (1005, 18, 2), (1250, 18, 2),
    (1255, 19, 1), (1500, 19, 1), (1505, 20, 0), (4000, 20, 0),
]  # fmt: skip
FOUR = [
    (0, 10, 10), (100, 10, 10), (105, 11, 9), (300, 11, 9), (305, 12, 8), (500, 12, 8),
    (505, 13, 7), (700, 13, 7), (705, 14, 6), (900, 14, 6), (905, 15, 5), (1100, 15, 5),
    (1105, 16, 4), (1300, 16, 4), (1305, 17, 3), (1500, 17, 3), (1505, 18, 2), (1700, 18, 2),
    (1705, 19, 1), (2000, 19, 1), (2005, 20, 0), (5000, 20, 0),
]  # fmt: skip


@pytest.mark.parametrize(("difference", "winner", "loser"), THREE)
def test_a_turn_of_three_hands(difference, winner, loser):
    assert victory_points("fibur", 3, [1200 + difference, 1200]) == [winner, loser]
    assert victory_points("fibur", 3, [-300, -300 + difference]) == [loser, winner]


@pytest.mark.parametrize(("difference", "winner", "loser"), FOUR)
def test_a_turn_of_four_hands(difference, winner, loser):
    assert victory_points("fibur", 4, [900 + difference, 900]) == [winner, loser]
    assert victory_points("fibur", 4, [900, 900 + difference]) == [loser, winner]


def test_a_difference_between_two_bands_is_in_the_one_above():
    # totals are counted in 5s; a paper score may not be: 51 is past 0–50
    assert victory_points("fibur", 3, [1051, 1000]) == [11, 9]


def paper(*scores):
    return [TeamRound(paper_score=score) for score in scores]


def test_the_tournament_turn_gives_its_victory_points_beside_the_totals():
    s = standings(TORNEO, [paper(600, 300), paper(450, 400), paper(-50, 380)])
    assert s.totals == [1000, 1080] and s.finished
    assert s.victory_points == [9, 11]  # 80 apart: 11 to the second team
    # after one hand already: 300 apart
    assert standings(TORNEO, [paper(600, 300)]).victory_points == [13, 7]
    # none before a hand is played
    assert standings(TORNEO, [], teams=2).victory_points is None


def test_a_tournament_turns_tie_is_a_draw_of_ten_each():
    s = standings(TORNEO, [paper(500, 500), paper(300, 300), paper(200, 200)])
    assert s.finished and s.verdict.tie and not s.playing_off
    assert s.victory_points == [10, 10]
    # a turn of four hands tied at its end too
    tied = standings(FOUR_HANDS, [paper(400, 450)] * 2 + [paper(450, 400)] * 2)
    assert tied.finished and tied.totals == [1700, 1700] and tied.victory_points == [10, 10]


def test_rules_that_ask_none_and_three_teams_have_none():
    assert standings(RULESETS["burraco"], [paper(600, 300)]).victory_points is None
    assert standings(TORNEO, [paper(600, 300, 100)]).victory_points is None


def test_the_rule_is_kept_in_the_file_and_checked():
    data = TORNEO.to_dict()
    assert data["victory_points"] == "fibur" and data["end"] == {"rounds": 3}
    assert RuleSet.from_dict(data) == TORNEO
    # a rule set without it (every one written before it) is written without it
    assert "victory_points" not in RULESETS["burraco"].to_dict()
    with pytest.raises(ValueError, match=r"^victory_points: FIBUR's tables are for a turn of 3 or 4 hands"):
        RuleSet.from_dict({**data, "end": {"score": 2005}})
    with pytest.raises(ValueError, match=r"^victory_points: FIBUR's tables are for a turn of 3 or 4 hands"):
        RuleSet.from_dict({**data, "end": {"rounds": 2}})
    with pytest.raises(ValueError, match=r'^victory_points: must be null or "fibur", not \'fibr\''):
        RuleSet.from_dict({**data, "victory_points": "fibr"})
