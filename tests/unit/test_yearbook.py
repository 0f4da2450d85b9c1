"""What the yearbook decides by itself (services/yearbook.py, issue 58): a win rate's
interval, which game is the game of the year, the nights summed up by month. The expected
values were worked out by hand from the formulas the module's docstrings give."""

import pytest

from scorekeeper.services import yearbook


def test_a_win_rate_comes_with_its_interval():
    # Wilson at 3 sigmas, 4 wins in 5: (0.8 + 0.9 ± 3 √(0.032 + 0.09)) / 2.8
    assert yearbook.interval(4, 5) == pytest.approx((0.2329, 0.9814), abs=1e-4)
    # every game won: the upper end is all of them, the lower (1 + 0.9 − 0.9) / 2.8
    assert yearbook.interval(5, 5) == pytest.approx((0.3571, 1.0), abs=1e-4)
    assert yearbook.interval(0, 5) == pytest.approx((0.0, 0.6429), abs=1e-4)
    assert yearbook.interval(0, 0) == (0.0, 1.0)


def game(game_id, *, margin, high, comeback=0, rules="Canasta", night="2026-03-01"):
    return {
        "game_id": game_id,
        "rules_name": rules,
        "played_at": f"{night}T20:00:00+00:00",
        "night": night,
        "margin": margin,
        "high_total": high,
        "comeback": comeback,
    }


def test_the_game_of_the_year_is_the_rarest_story():
    # closest finish: 10 where the others' median is 300 and they sit 10 from it: 29 deviations;
    # highest score: 9,000 where the median is 5,050 and they sit 50 from it: 79: the rarer
    year = [
        game(1, margin=10, high=5_000),
        game(2, margin=300, high=5_100),
        game(3, margin=320, high=5_050),
        game(4, margin=310, high=9_000),
        game(5, margin=290, high=5_020),
    ]
    told = yearbook.game_of_the_year(year)
    assert (told["story"], told["game"]["game_id"]) == ("highest", 4)
    assert told["standing"] == pytest.approx(79.0)
    # the same year with a closer finish still: 300 from the median, 30 deviations, still rarer
    # than nothing
    year[0] = game(1, margin=0, high=5_000)
    assert yearbook.game_of_the_year(year)["story"] == "highest"
    # a comeback where no other game had one stands infinitely far: the comeback
    year[2] = game(3, margin=320, high=5_050, comeback=1_500)
    told = yearbook.game_of_the_year(year)
    assert (told["story"], told["game"]["game_id"], told["standing"]) == ("comeback", 3, float("inf"))


def test_a_year_of_one_game_is_its_finish():
    # nothing stands apart from itself: the order of the stories decides (no comeback here)
    told = yearbook.game_of_the_year([game(1, margin=0, high=400)])
    assert (told["story"], told["standing"]) == ("closest", 0.0)
    told = yearbook.game_of_the_year([game(1, margin=40, high=400, comeback=100)])
    assert told["story"] == "comeback"
    assert yearbook.game_of_the_year([]) is None


def test_totals_are_compared_under_their_own_rules():
    # 20,100 is the year's highest total, but under its rules 20,000 came close: one deviation;
    # under the other rules the closest finish stands 3 from a median of 5, deviations 1
    year = [
        game(1, margin=200, high=20_000, rules="Roth"),
        game(2, margin=100, high=20_100, rules="Roth"),
        game(3, margin=5, high=600, rules="Canasta"),
        game(4, margin=6, high=650, rules="Canasta"),
        game(5, margin=2, high=610, rules="Canasta"),
        game(6, margin=4, high=620, rules="Canasta"),
        game(7, margin=5, high=630, rules="Canasta"),
    ]
    told = yearbook.game_of_the_year(year)
    assert (told["story"], told["game"]["game_id"]) == ("closest", 5)
    assert told["standing"] == pytest.approx(3.0)


def test_nights_summed_up_by_month():
    def night(day, games, winners, best=None):
        return {
            "night": day,
            "month": day[:7],
            "games": games,
            "winners": winners,
            "most_wins": 1,
            "best_round": {"value": best, "team": "Ann & Bo"} if best else None,
        }

    nights = [
        night("2026-01-02", 3, ["Ann"], 900),
        night("2026-01-09", 2, ["Bo", "Ann"], 1_200),
        night("2026-01-16", 4, ["Bo"]),
        night("2026-02-06", 1, [], 300),
    ]
    assert yearbook.months_of_nights(nights) == [
        {
            "month": "2026-01",
            "nights": 3,
            "games": 9,
            "best_round": {"value": 1_200, "team": "Ann & Bo"},
            "winners": ["Ann", "Bo"],
            "nights_won": 2,
        },
        {
            "month": "2026-02",
            "nights": 1,
            "games": 1,
            "best_round": {"value": 300, "team": "Ann & Bo"},
            "winners": [],
            "nights_won": 0,
        },
    ]
