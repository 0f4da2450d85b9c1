"""The five written rule sets, as presets.

Where a written set is silent about books to go out, the tablet game takes
the last column's requirement (2 clean + 2 dirty); docs/decisions.md says
why. 0 means "this rule set does not use it".
"""

from __future__ import annotations

from .rules import RuleSet

_STANDARD_VALUES = {
    "joker": 50,
    "2": 20,
    "A": 20,
    "K": 10,
    "Q": 10,
    "J": 10,
    "10": 10,
    "9": 10,
    "8": 10,
    "7": 5,
    "6": 5,
    "5": 5,
    "4": 5,
}
_LOW_NINES_VALUES = {**_STANDARD_VALUES, "9": 5, "8": 5}  # Roth and forfeits: 8s and 9s are 5
_BOOKS = {"clean": 500, "dirty": 300}

RULESETS: dict[str, RuleSet] = {
    "friends-family": RuleSet(
        name="Friends & Family online edition",
        card_values=_STANDARD_VALUES,
        black_three=-5,
        red_three=-500,
        books=_BOOKS,
        going_out=100,
        meld_minimum={"by_round": [50, 90, 120, 150]},
        # the four-player requirement; 3 + 4 for two players is a setup choice
        books_to_go_out={"clean": 4, "dirty": 5},
        end={"rounds": 4},
    ),
    "partnership": RuleSet(
        name="Partnership rules (22-card cut)",
        card_values=_STANDARD_VALUES,
        black_three=-5,
        red_three=-100,
        books=_BOOKS,
        going_out=100,
        cut_22=100,
        # no points minimum: the first meld must hold a clean and a dirty book
        meld_minimum=None,
        books_to_go_out={"clean": 3, "dirty": 4},
        end=None,
    ),
    "tablet": RuleSet(
        name="Tablet game (5 hands)",
        card_values=_STANDARD_VALUES,
        black_three=-5,
        red_three=-100,
        books=_BOOKS,
        going_out=200,
        meld_minimum={"by_round": [50, 75, 100, 125, 150]},
        books_to_go_out={"clean": 2, "dirty": 2},
        end={"rounds": 5},
    ),
    "roth": RuleSet(
        name="Roth family house rules (to 10,000)",
        card_values=_LOW_NINES_VALUES,
        black_three=0,
        red_three=-500,
        books=_BOOKS,
        going_out=100,
        cut_22=100,
        penalty=-100,
        meld_minimum={"by_score": [[0, 50], [2500, 90], [5000, 120], [7500, 150]]},
        books_to_go_out={"clean": 5, "dirty": 4},
        end={"score": 10000},
    ),
    "forfeit": RuleSet(
        name="Five hands with forfeits",
        card_values=_LOW_NINES_VALUES,
        black_three=-5,
        red_three=-100,
        books=_BOOKS,
        going_out=1000,
        meld_minimum={"by_round": [60, 90, 120, 150, 180]},
        books_to_go_out={"clean": 2, "dirty": 2},
        end={"rounds": 5},
    ),
}
