"""The scoring engine: every number Scorekeeper shows, prints or exports.

Pure Python on purpose (no Flask, no SQLite) so that the round screen, the
printed sheet, the exports and the tests share one source of truth. A rule
set is data, the house-rules file (``RuleSet``); ``ENTRY_FIELDS`` declares
what is entered per team and round; the rest scores rounds, checks them,
adds up games and gives the verdict.

- ``rules``: ``RuleSet``, a whole house-rules file
- ``values``: each value of one read and checked, and the bounds on them
- ``entries``: ``ENTRY_FIELDS``, ``TeamRound``
- ``minimums``: what a round asks (meld minimum, books to go out, going-out bonus)
- ``rounds``: ``score_team_round`` and its breakdown
- ``checks``: ``check_round``: errors and warnings before a round is saved
- ``game``: ``standings`` and the ``verdict``
- ``victory``: a tournament turn's victory points (FIBUR's tables)
- ``cards``: the card-count helper
- ``deal``: what the deck holds for a table (the bounds of a round), the piles dealt
- ``presets``: the written rule sets and their variants
"""

from .cards import Tier, card_points, tier_limits, value_tiers
from .checks import (
    Problem,
    can_make_points,
    check_round,
    first_meld_label,
    least_book_points,
    least_meld_points,
)
from .deal import Deck, dealt, deck
from .entries import (
    ENTRY,
    ENTRY_FIELDS,
    MAX_BOOKS,
    MAX_PAPER_SCORE,
    PAPER_LINE,
    EntryField,
    TeamRound,
    asked,
    entry_fields,
    has_melded,
)
from .game import Standings, Verdict, ranks, running_totals, standings, verdict
from .minimums import books_short, books_to_go_out, first_meld_books, going_out_bonus, meld_minimum
from .presets import RULESETS, VARIANTS, Variant, variant_of
from .rounds import Line, TeamRoundScore, outcome, price, score_round, score_team_round
from .rules import OUTCOME_VALUES, RuleSet, decks_for
from .values import (
    ANY_BOOK,
    BOOK_SIZE,
    MAX_CARD_VALUE,
    MAX_NAME_LENGTH,
    MAX_PLAYERS,
    MAX_PLAYERS_PER_TEAM,
    MAX_ROUNDS,
    MAX_RULE_VALUE,
    MAX_TEAMS,
    MIN_TEAMS,
    NATURAL_RANKS,
    NOBODY_OUT,
    NOT_MELDED,
    OTHER_WENT_OUT,
    OUTCOMES,
    RANKS,
    WENT_OUT,
    WILD_RANKS,
    by_outcome,
    in_use,
)
from .victory import FIBUR_TABLES, victory_points

__all__ = [
    "ANY_BOOK",
    "BOOK_SIZE",
    "ENTRY",
    "ENTRY_FIELDS",
    "FIBUR_TABLES",
    "MAX_BOOKS",
    "MAX_CARD_VALUE",
    "MAX_NAME_LENGTH",
    "MAX_PAPER_SCORE",
    "MAX_PLAYERS",
    "MAX_PLAYERS_PER_TEAM",
    "MAX_ROUNDS",
    "MAX_RULE_VALUE",
    "MAX_TEAMS",
    "MIN_TEAMS",
    "NATURAL_RANKS",
    "NOBODY_OUT",
    "NOT_MELDED",
    "OTHER_WENT_OUT",
    "OUTCOMES",
    "OUTCOME_VALUES",
    "PAPER_LINE",
    "RANKS",
    "RULESETS",
    "VARIANTS",
    "WENT_OUT",
    "WILD_RANKS",
    "Deck",
    "EntryField",
    "Line",
    "Problem",
    "RuleSet",
    "Standings",
    "TeamRound",
    "TeamRoundScore",
    "Tier",
    "Variant",
    "Verdict",
    "asked",
    "books_short",
    "books_to_go_out",
    "by_outcome",
    "can_make_points",
    "card_points",
    "check_round",
    "dealt",
    "deck",
    "decks_for",
    "entry_fields",
    "first_meld_books",
    "first_meld_label",
    "going_out_bonus",
    "has_melded",
    "in_use",
    "least_book_points",
    "least_meld_points",
    "meld_minimum",
    "outcome",
    "price",
    "ranks",
    "running_totals",
    "score_round",
    "score_team_round",
    "standings",
    "tier_limits",
    "value_tiers",
    "variant_of",
    "verdict",
    "victory_points",
]
