"""One team's round, scored line by line."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .entries import ENTRY_FIELDS, EntryField, TeamRound, entry_problems
from .minimums import going_out_bonus
from .rules import RuleSet, check_round_number


class Line(NamedTuple):
    """One line of a breakdown, shown as it is on screens and sheets."""

    label: str
    count: int | None  # None for lines that are points, not counts
    points: int


@dataclass(frozen=True)
class TeamRoundScore:
    """One team's score for one round: its total and the lines that make it."""

    breakdown: tuple[Line, ...]

    @property
    def total(self) -> int:
        return sum(line.points for line in self.breakdown)


def price(rules: RuleSet, entry: EntryField, round_number: int) -> int:
    """Points for one of a counted or flagged entry in this round (0: not scored)."""
    if entry.rule == "going_out":
        return going_out_bonus(rules, round_number)
    return getattr(rules, entry.rule)


def score_team_round(rules: RuleSet, team_round: TeamRound, round_number: int) -> TeamRoundScore:
    """Score one team's round; wrong entries raise ``ValueError``.

    A line appears when the rules score it, or when something was entered for
    it (a black 3 worth 0 still shows), so a sheet's rows line up per rule set.
    Points lines (melded, left) always appear.
    """
    check_round_number(round_number)
    problems = entry_problems(rules, team_round)
    if problems:
        raise ValueError("; ".join(f"{where}: {message}" for where, message in problems))
    books = team_round.books
    lines = [
        Line(rules.book_label(kind), books.get(kind, 0), books.get(kind, 0) * value)
        for kind, value in rules.books.items()
    ]
    for entry in ENTRY_FIELDS:
        amount = int(getattr(team_round, entry.name))
        if entry.kind == "points":
            lines.append(Line(entry.line, None, entry.sign * amount))
            continue
        value = price(rules, entry, round_number)
        if value or amount:
            lines.append(Line(entry.line, amount, amount * value))
    return TeamRoundScore(tuple(lines))
