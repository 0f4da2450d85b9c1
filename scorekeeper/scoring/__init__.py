"""The scoring engine: every number Scorekeeper shows, prints or exports.

Pure Python on purpose (no Flask, no SQLite) so that the round screen, the
printed sheet, the exports and the tests share one source of truth. A rule
set is data, the house-rules file (``RuleSet``); ``ENTRY_FIELDS`` declares
what is entered per team and round; the rest scores rounds, checks them,
adds up games and gives the verdict.

- ``rules``: ``RuleSet`` and the bounds on its values
- ``entries``: ``ENTRY_FIELDS``, ``TeamRound``
- ``minimums``: what a round asks (meld minimum, books to go out, going-out bonus)
- ``rounds``: ``score_team_round`` and its breakdown
- ``checks``: ``check_round``: errors and warnings before a round is saved
- ``game``: ``standings`` and the ``verdict``
- ``cards``: the card-count helper
- ``presets``: the five written rule sets
"""

from .cards import Tier, card_points, value_tiers
from .checks import Problem, can_make_points, check_round, least_book_points, least_meld_points
from .entries import ENTRY, ENTRY_FIELDS, MAX_BOOKS, EntryField, TeamRound, asked
from .game import MAX_PLAYERS_PER_TEAM, MAX_TEAMS, MIN_TEAMS, Standings, Verdict, standings, verdict
from .minimums import books_to_go_out, going_out_bonus, meld_minimum
from .presets import RULESETS
from .rounds import Line, TeamRoundScore, price, score_team_round
from .rules import (
    BOOK_SIZE,
    MAX_CARD_VALUE,
    MAX_NAME_LENGTH,
    MAX_ROUNDS,
    MAX_RULE_VALUE,
    NATURAL_RANKS,
    RANKS,
    WILD_RANKS,
    RuleSet,
)

__all__ = [
    "BOOK_SIZE",
    "ENTRY",
    "ENTRY_FIELDS",
    "MAX_BOOKS",
    "MAX_CARD_VALUE",
    "MAX_NAME_LENGTH",
    "MAX_PLAYERS_PER_TEAM",
    "MAX_ROUNDS",
    "MAX_RULE_VALUE",
    "MAX_TEAMS",
    "MIN_TEAMS",
    "NATURAL_RANKS",
    "RANKS",
    "RULESETS",
    "WILD_RANKS",
    "EntryField",
    "Line",
    "Problem",
    "RuleSet",
    "Standings",
    "TeamRound",
    "TeamRoundScore",
    "Tier",
    "Verdict",
    "asked",
    "books_to_go_out",
    "can_make_points",
    "card_points",
    "check_round",
    "going_out_bonus",
    "least_book_points",
    "least_meld_points",
    "meld_minimum",
    "price",
    "score_team_round",
    "standings",
    "value_tiers",
    "verdict",
]
