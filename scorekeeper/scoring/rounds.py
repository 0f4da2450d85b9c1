"""One team's round, scored line by line."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .entries import PAPER_LINE, EntryField, TeamRound, entry_fields, entry_problems, has_melded
from .language import _
from .minimums import going_out_bonus
from .rules import RuleSet
from .values import BOOK_SIZE, NOBODY_OUT, OTHER_WENT_OUT, WENT_OUT, by_outcome, check_round_number, in_use


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


def outcome(team_round: TeamRound, someone_out: bool) -> str:
    """How the round ended for this team: it went out, another team did, or nobody."""
    if team_round.went_out:
        return WENT_OUT
    return OTHER_WENT_OUT if someone_out else NOBODY_OUT


def price(
    rules: RuleSet, entry: EntryField, round_number: int, case: str = WENT_OUT, melded: bool = True
) -> int:
    """Points for one of a counted or flagged entry in this round (0: not scored).

    :param case: how the round ended for the team (``outcome``), and
        ``melded`` whether it melded: a value may depend on them.
    """
    if entry.rule == "going_out":
        return going_out_bonus(rules, round_number)
    return by_outcome(getattr(rules, entry.rule), case, melded)


def score_team_round(
    rules: RuleSet, team_round: TeamRound, round_number: int, *, someone_out: bool | None = None
) -> TeamRoundScore:
    """Score one team's round; wrong entries raise ``ValueError``.

    A line appears when the rules score it, or when something was entered for
    it (a black 3 worth 0 still shows), so a sheet's rows line up per rule set.
    Points lines (melded, left) always appear.

    :param someone_out: whether any team went out this round, for the values
        that depend on it; None assumes the usual end of a round, that a team
        went out (``score_round`` scores a whole round and knows).
    """
    check_round_number(round_number)
    problems = entry_problems(rules, team_round)
    if problems:
        raise ValueError("; ".join(f"{where}: {message}" for where, message in problems))
    if team_round.scores_only:  # an old sheet's round: its score is all there is
        return TeamRoundScore((Line(_(PAPER_LINE), None, team_round.paper_score),))
    case = outcome(team_round, True if someone_out is None else someone_out)
    # "not melded" (a value's not_melded case): nothing melded, or fewer books than the rules ask
    melded = has_melded(team_round, rules) and sum(team_round.books.values()) >= rules.not_melded_books
    books = team_round.books
    lines = [
        Line(rules.book_label(kind), books.get(kind, 0), books.get(kind, 0) * value)
        for kind, value in rules.books.items()
    ]
    for entry in entry_fields(rules):
        amount = int(getattr(team_round, entry.name))
        if entry.kind == "points":
            lines.append(Line(entry.line, None, entry.sign * amount))
            continue
        if entry.rule is None:
            continue  # a fact for the checks, worth nothing
        value = price(rules, entry, round_number, case, melded)
        if value or amount:
            lines.append(Line(entry.line, amount, amount * value))
        if entry.name == "red_threes_melded" and rules.red_threes_all:
            lines.append(_all_red_threes(rules, team_round, case, melded))
    return TeamRoundScore(tuple(lines))


def _all_red_threes(rules: RuleSet, team_round: TeamRound, case: str, melded: bool) -> Line:
    """The bonus for laying down all the red 3s (those in books of red 3s count too)."""
    needed = rules.red_threes_all["count"]
    books = team_round.red_three_books if in_use(rules.red_three_book) else 0
    laid = team_round.red_threes_melded + BOOK_SIZE * books
    count = int(laid >= needed)
    return Line(
        _("All %(needed)s red 3s laid down", needed=needed),
        count,
        count * by_outcome(rules.red_threes_all["bonus"], case, melded),
    )


def score_round(rules: RuleSet, entries: Sequence[TeamRound], round_number: int) -> list[TeamRoundScore]:
    """Score every team's entries of one round (values may depend on who went out)."""
    someone_out = any(entry.went_out is True for entry in entries)
    return [score_team_round(rules, entry, round_number, someone_out=someone_out) for entry in entries]
